"""Frame sources behind one small interface, and the capture thread that reads them.

A source has a ``name`` for messages, ``live`` (a camera: only the newest picture matters) and
three methods: ``open()``, ``read() -> Frame | None`` (None: the recording has ended) and
``close()``.  Problems raise `SourceError` with one line naming the source and the fix.

- `Picamera2Source`: the Raspberry Pi camera (picamera2 is imported in ``open()`` only: it exists
  only as Raspberry Pi OS's apt package python3-picamera2);
- `OpenCVCameraSource`: ``/dev/videoN`` through OpenCV;
- `VideoFileSource`: a video file, once, frame times from the file;
- `ImageFolderSource`: the pictures of a folder in name order.

`open_source(spec)` builds one from the configuration's ``camera.source``; kinds that live
elsewhere (``render``, the renderer replaying a game) are passed in ``extra`` by the caller.
`CaptureThread` reads a source on its own thread and always hands over the newest frame (a live
source's stale frames are dropped; a recording's are all kept, in order); a lost camera is logged
and reopened with growing pauses, and delivery goes on.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence

import cv2
import numpy as np

from device.config import SOURCE_FORMS, SourceSpec, parse_source
from device.errors import SourceError
from vision.imagefile import ImageFileError, read_image_file

log = logging.getLogger(__name__)

#: OpenCV's log level for errors only (cv::utils::logging::LOG_LEVEL_ERROR, the same in 4.6 and 5).
OPENCV_LOG_LEVEL_ERROR = 2
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")  # those vision.imagefile reads


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture: ``image`` is BGR (OpenCV's order), ``time`` seconds (since the epoch for a
    camera, since the start for a recording), ``index`` counts from 0 for the source."""

    image: np.ndarray = field(repr=False)
    time: float
    index: int


class FrameSource(Protocol):
    name: str
    live: bool

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


# --------------------------------------------------------------------------- sources


class _VideoCaptureSource:
    """What the sources read through `cv2.VideoCapture` share: reading, counting, closing."""

    name: str
    _cap: Any = None
    _count = 0

    def _next_image(self) -> np.ndarray | None:
        """The next picture, or None when the capture gives none."""
        if self._cap is None:
            raise SourceError(f"{self.name} is not open")
        ok, image = self._cap.read()
        return image if ok and image is not None else None

    def _frame(self, image: np.ndarray, t: float) -> Frame:
        frame = Frame(image, t, self._count)
        self._count += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class OpenCVCameraSource(_VideoCaptureSource):
    """A camera OpenCV can open, ``/dev/video{index}`` on Linux."""

    live = True

    def __init__(self, index: int = 0, resolution: tuple[int, int] | None = None, fps: float | None = None) -> None:
        self.index = index
        self.resolution = resolution
        self.fps = fps
        self.name = f"camera /dev/video{index}"
        self._cap: Any = None
        self._count = 0

    def open(self) -> None:
        self.close()
        device = f"/dev/video{self.index}"
        if os.name == "posix" and Path("/dev").is_dir() and not Path(device).exists():
            raise SourceError(f"no camera at {device}: plug one in, or set camera.source to another source "
                              f"({SOURCE_FORMS})")
        cap = cv2.VideoCapture(self.index)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"no camera at {device}: OpenCV cannot open it (in use, or not a camera; "
                              "the service user needs the video group)")
        if self.resolution:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.resolution[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.resolution[1])
        if self.fps:
            cap.set(cv2.CAP_PROP_FPS, self.fps)
        self._cap = cap

    def read(self) -> Frame | None:
        image = self._next_image()
        if image is None:
            raise SourceError(f"{self.name} stopped delivering pictures")
        return self._frame(image, time.time())


class VideoFileSource(_VideoCaptureSource):
    """A video file, read once from the start; frame times are the file's own."""

    live = False

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.name = f"video file {self.path}"
        self._cap: Any = None
        self._count = 0
        self._fps = 0.0

    def open(self) -> None:
        self.close()
        if not self.path.is_file():
            why = "it is a folder" if self.path.is_dir() else "no such file"
            raise SourceError(f"video file {self.path} cannot be read: {why}")
        if not os.access(self.path, os.R_OK):
            raise SourceError(f"video file {self.path} cannot be read: permission denied")
        with _opencv_quiet():
            cap = cv2.VideoCapture(str(self.path), _file_backend())
            ok = cap.isOpened()
            first = cap.read() if ok else (False, None)
        if not first[0]:
            cap.release()
            raise SourceError(f"video file {self.path} cannot be read: not a video OpenCV can decode "
                              "(try an .mp4 or an MJPG .avi)")
        cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
        self._cap = cap
        self._count = 0
        self._fps = cap.get(cv2.CAP_PROP_FPS) or 0.0

    def read(self) -> Frame | None:
        image = self._next_image()
        if image is None:
            return None
        t = self._count / self._fps if self._fps > 0 else self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        return self._frame(image, t)


def _file_backend() -> int:
    """FFmpeg for video files wherever OpenCV has it (pip's wheels and Debian's build both do),
    so that a file reads the same on the Pi; any backend would let Debian's OpenCV 4.6 try
    GStreamer after FFmpeg, which prints its own complaints about a bad file."""
    return cv2.CAP_FFMPEG if cv2.videoio_registry.hasBackend(cv2.CAP_FFMPEG) else cv2.CAP_ANY


@contextmanager
def _opencv_quiet() -> Iterator[None]:
    """OpenCV's own warnings off (a file it cannot read is said in our one line instead).
    OpenCV 4.6 has the level as ``cv2.setLogLevel``, later ones as ``cv2.utils.logging``."""
    levels = getattr(cv2.utils, "logging", cv2)
    before = levels.getLogLevel()
    levels.setLogLevel(OPENCV_LOG_LEVEL_ERROR)
    try:
        yield
    finally:
        levels.setLogLevel(before)


class ImageFolderSource:
    """The pictures in a folder, in name order, ``fps`` apart in time.  Files that are not
    readable pictures are skipped with a warning."""

    live = False

    def __init__(self, path: str | Path, fps: float = 10.0) -> None:
        self.path = Path(path)
        self.fps = fps
        self.name = f"picture folder {self.path}"
        self._files: list[Path] = []
        self._next = 0
        self._count = 0

    def open(self) -> None:
        if not self.path.is_dir():
            why = "it is a file" if self.path.exists() else "no such folder"
            raise SourceError(f"picture folder {self.path} cannot be read: {why}")
        try:
            files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        except OSError as e:
            raise SourceError(f"picture folder {self.path} cannot be read: {e.strerror}") from None
        if not files:
            raise SourceError(f"picture folder {self.path} has no pictures ({', '.join(IMAGE_SUFFIXES)})")
        self._files = files
        self._next = 0
        self._count = 0

    def read(self) -> Frame | None:
        while self._next < len(self._files):
            path = self._files[self._next]
            self._next += 1
            try:
                image = read_image_file(path)
            except (ImageFileError, OSError) as e:
                log.warning("%s: skipping %s: %s", self.name, path.name, e)
                continue
            frame = Frame(image, self._count / self.fps, self._count)
            self._count += 1
            return frame
        return None

    def close(self) -> None:
        pass


class Picamera2Source:
    """The Raspberry Pi camera through picamera2 (Raspberry Pi OS's python3-picamera2).

    The main stream is ``RGB888``, which picamera2 delivers in BGR order, as OpenCV expects.
    After ``settle_seconds`` the automatic exposure and white balance are locked at the values
    they reached, so the board's colours do not drift when a hand or a shadow comes over it.
    """

    live = True

    def __init__(self, resolution: tuple[int, int] = (1280, 960), fps: float = 10.0, settle_seconds: float = 2.0,
                 camera_num: int = 0) -> None:
        self.resolution = resolution
        self.fps = fps
        self.settle_seconds = settle_seconds
        self.camera_num = camera_num
        self.name = f"Raspberry Pi camera {camera_num}"
        self._camera: Any = None
        self._started = 0.0
        self._locked = False
        self._count = 0

    @staticmethod
    def available() -> bool:
        """picamera2 imports and libcamera sees a camera."""
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 (hardware library: imported here only)
            return bool(Picamera2.global_camera_info())
        except Exception:
            return False

    def open(self) -> None:
        self.close()
        try:
            from picamera2 import Picamera2  # noqa: PLC0415
        except ImportError as e:
            raise SourceError(f"the Raspberry Pi camera cannot be used: picamera2 does not import ({e}): on Raspberry "
                              "Pi OS apt install python3-picamera2 and make the venv with --system-site-packages") from None
        try:
            if not Picamera2.global_camera_info():
                raise SourceError("no Raspberry Pi camera found: check the ribbon cable, or set camera.source "
                                  f"to another source ({SOURCE_FORMS})")
            camera = Picamera2(self.camera_num)
            config = camera.create_video_configuration(
                main={"size": tuple(self.resolution), "format": "RGB888"},
                controls={"FrameRate": float(self.fps)})
            camera.configure(config)
            camera.start()
        except SourceError:
            raise
        except Exception as e:
            raise SourceError(f"the Raspberry Pi camera cannot be opened: {e}") from None
        self._camera = camera
        self._started = time.monotonic()
        self._locked = False

    def _lock_exposure(self) -> None:
        metadata = self._camera.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                controls[key] = metadata[key]
        self._camera.set_controls(controls)
        self._locked = True
        log.info("%s: exposure and white balance locked: %s", self.name,
                 {k: v for k, v in controls.items() if k not in ("AeEnable", "AwbEnable")})

    def read(self) -> Frame | None:
        if self._camera is None:
            raise SourceError(f"{self.name} is not open")
        try:
            if not self._locked and time.monotonic() - self._started >= self.settle_seconds:
                self._lock_exposure()
            image = self._camera.capture_array("main")
        except Exception as e:
            raise SourceError(f"{self.name} stopped delivering pictures: {e}") from None
        frame = Frame(image, time.time(), self._count)
        self._count += 1
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
                camera.close()
            except Exception as e:
                log.debug("closing the Raspberry Pi camera: %s", e)


# --------------------------------------------------------------------------- choosing a source

#: A factory for a source kind that lives outside this module (``render``).
SourceFactory = Callable[[SourceSpec], FrameSource]


def open_source(spec: str | SourceSpec, resolution: tuple[int, int] = (1280, 960), fps: float = 10.0,
                extra: Mapping[str, SourceFactory] | None = None) -> FrameSource:
    """The source for a ``camera.source`` value (not opened yet: `CaptureThread.start` or
    ``open()`` opens it).  ``extra`` maps further kinds to factories: the service passes
    ``{"render": ...}`` for the renderer.  Raises SourceError for a kind nobody provides."""
    try:
        parsed = spec if isinstance(spec, SourceSpec) else parse_source(spec)
    except ValueError as e:
        raise SourceError(str(e)) from None
    if extra and parsed.kind in extra:
        return extra[parsed.kind](parsed)
    if parsed.kind == "picamera2":
        return Picamera2Source(resolution, fps)
    if parsed.kind == "camera":
        return OpenCVCameraSource(int(parsed.argument or 0), resolution, fps)
    if parsed.kind == "video":
        return VideoFileSource(str(parsed.argument))
    if parsed.kind == "folder":
        return ImageFolderSource(str(parsed.argument), fps)
    if parsed.kind == "auto":
        if Picamera2Source.available():
            return Picamera2Source(resolution, fps)
        return OpenCVCameraSource(0, resolution, fps)
    raise SourceError(f"camera.source = {str(parsed)!r} is not available in this program "
                      f"(no {parsed.kind} source was given to open_source): use {SOURCE_FORMS}")


# --------------------------------------------------------------------------- the capture thread


class CaptureThread:
    """Reads a source on its own thread.

    ``get()`` hands over the newest frame not yet handed over.  For a live source only the newest
    is kept (stale frames are dropped and counted); for a recording (``live`` False) every frame is
    kept, in order, and the next is read once fewer than ``buffer`` frames are waiting (one keeps
    the loop fed: the next is decoded while the loop reads the one taken; each is 3.7 MB at
    1280x960, eight held 30 MB).  When ``read`` or
    ``open`` fails, the source is lost: it is logged once, reopened after ``backoff`` pauses
    (the last one repeating), and when it is back delivery goes on.
    """

    def __init__(self, source: FrameSource, *, backoff: Sequence[float] = (0.5, 1.0, 2.0, 5.0, 10.0),
                 buffer: int = 1) -> None:
        self.source = source
        self.backoff = tuple(backoff) or (1.0,)
        self.keep_all = not getattr(source, "live", True)
        self._frames: deque[Frame] = deque(maxlen=None if self.keep_all else 1)
        self._buffer = buffer
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._ended = False
        self._lost_since: float | None = None
        self.dropped = 0
        self.delivered = 0
        self.reopened = 0
        self._thread: threading.Thread | None = None
        self._read_since: float | None = None  # when the read now under way began

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def ended(self) -> bool:
        """The recording has ended and every frame has been handed over."""
        with self._cond:
            return self._ended and not self._frames

    @property
    def lost(self) -> bool:
        return self._lost_since is not None

    @property
    def blocked_for(self) -> float:
        """How long (seconds) the source's ``read`` has been under way without returning: a
        camera whose driver hangs never raises, it just never answers (0: no read under way)."""
        since = self._read_since
        return 0.0 if since is None else time.monotonic() - since

    def start(self) -> "CaptureThread":
        """Open the source (a SourceError here is the user's: one line) and start reading."""
        self.source.open()
        self._thread = threading.Thread(target=self._run, name=f"capture {self.source.name}", daemon=True)
        self._thread.start()
        return self

    def get(self, timeout: float | None = None) -> Frame | None:
        """The next frame to process (the newest, for a live source), waiting up to ``timeout``;
        None on timeout or when the recording has ended."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._frames:
                if self._ended or self._stop.is_set():
                    return None
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)
            frame = self._frames.popleft()
            self.delivered += 1
            self._cond.notify_all()
            return frame

    def _put(self, frame: Frame) -> None:
        with self._cond:
            if not self.keep_all and self._frames:
                self.dropped += 1
            self._frames.append(frame)
            self._cond.notify_all()

    def _wait_for_room(self) -> None:
        """A recording is read only once fewer than ``buffer`` frames wait: a frame read ahead
        and held until there is room for it was one frame (3.7 MB) more in memory.  A live
        source is read all the time (its driver would keep the stale frames instead)."""
        if not self.keep_all:
            return
        with self._cond:
            while len(self._frames) >= self._buffer and not self._stop.is_set():
                self._cond.wait(0.1)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wait_for_room()
            if self._stop.is_set():
                break
            self._read_since = time.monotonic()
            try:
                frame = self.source.read()
            except Exception as e:  # a SourceError, or a driver's own exception
                self._read_since = None
                self._lose(e)
                if not self._reopen():
                    break
                continue
            self._read_since = None
            if frame is None:
                log.info("%s: end of the recording", self.source.name)
                with self._cond:
                    self._ended = True
                    self._cond.notify_all()
                break
            self._put(frame)
            # not held while the next is read: a live source's frame may be dropped meanwhile
            del frame
        self._close_source()

    def _lose(self, error: BaseException) -> None:
        self._lost_since = time.monotonic()
        log.error("%s lost: %s; reopening it", self.source.name, error)
        self._close_source()

    def _reopen(self) -> bool:
        attempt = 0
        while not self._stop.is_set():
            pause = self.backoff[min(attempt, len(self.backoff) - 1)]
            if self._stop.wait(pause):
                return False
            attempt += 1
            try:
                self.source.open()
            except Exception as e:
                if attempt == 1 or attempt % 10 == 0:
                    log.warning("%s: still lost (attempt %d): %s", self.source.name, attempt, e)
                self._close_source()
                continue
            lost_for = time.monotonic() - (self._lost_since or time.monotonic())
            self._lost_since = None
            self.reopened += 1
            log.info("%s is back after %.1f s", self.source.name, lost_for)
            return True
        return False

    def _close_source(self) -> None:
        try:
            self.source.close()
        except Exception as e:
            log.debug("closing %s: %s", self.source.name, e)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> "CaptureThread":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
