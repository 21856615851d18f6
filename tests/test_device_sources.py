"""Frame sources and the capture thread: real video files, picture folders, a camera that
vanishes and comes back, and one clear line for each thing that cannot be read."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.config import SourceSpec
from device.errors import SourceError
from device.sources import (CaptureThread, Frame, ImageFolderSource, OpenCVCameraSource, Picamera2Source,
                            VideoFileSource, open_source)
from tests.device_helpers import hardware, wait_for


def picture(i: int, size=(64, 48)) -> np.ndarray:
    """A picture whose brightness tells its number."""
    return np.full((size[1], size[0], 3), 8 * i % 256, dtype=np.uint8)


def number(frame: Frame) -> int:
    return int(round(float(frame.image.mean()) / 8))


def write_video(path: Path, count: int, fps: float = 10.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    assert writer.isOpened(), "OpenCV cannot write MJPG .avi here"
    for i in range(count):
        writer.write(picture(i))
    writer.release()
    return path


def write_folder(path: Path, count: int) -> Path:
    path.mkdir()
    for i in range(count):
        cv2.imwrite(str(path / f"frame-{i:03d}.png"), picture(i))
    return path


def test_video_file_frames_in_order_with_file_times(tmp_path):
    source = VideoFileSource(write_video(tmp_path / "game.avi", 12))
    source.open()
    frames = []
    while (f := source.read()) is not None:
        frames.append(f)
    source.close()
    assert [f.index for f in frames] == list(range(12))
    assert [number(f) for f in frames] == list(range(12))
    assert frames[5].time == pytest.approx(0.5)
    assert frames[0].image.shape == (48, 64, 3)


def test_image_folder_in_name_order_skipping_junk(tmp_path, caplog):
    folder = write_folder(tmp_path / "pics", 5)
    (folder / "frame-002b.jpg").write_bytes(b"not a jpeg")
    (folder / "notes.txt").write_text("ignored")
    source = ImageFolderSource(folder, fps=5)
    source.open()
    frames = []
    while (f := source.read()) is not None:
        frames.append(f)
    assert [number(f) for f in frames] == [0, 1, 2, 3, 4]
    assert frames[2].time == pytest.approx(0.4)
    assert "skipping frame-002b.jpg" in caplog.text


@pytest.mark.parametrize("make, message", [
    (lambda p: VideoFileSource(p / "missing.mp4"), "video file {p}/missing.mp4 cannot be read: no such file"),
    (lambda p: VideoFileSource(p), "video file {p} cannot be read: it is a folder"),
    (lambda p: VideoFileSource(_junk(p)), "video file {p}/x.mp4 cannot be read: not a video OpenCV can decode"),
    (lambda p: ImageFolderSource(p / "none"), "picture folder {p}/none cannot be read: no such folder"),
    (lambda p: ImageFolderSource(p), "picture folder {p} has no pictures"),
    (lambda p: OpenCVCameraSource(57), "no camera at /dev/video57: "),
])
def test_unreadable_sources_give_one_line(tmp_path, make, message):
    with pytest.raises(SourceError) as info:
        make(tmp_path).open()
    text = str(info.value)
    assert text.startswith(message.format(p=tmp_path)) and "\n" not in text


def _junk(p: Path) -> Path:
    (p / "x.mp4").write_bytes(b"\x00garbage" * 500)
    return p / "x.mp4"


def test_open_source_specs(tmp_path):
    assert isinstance(open_source("video:/x.avi"), VideoFileSource)
    assert isinstance(open_source("folder:/x"), ImageFolderSource)
    cam = open_source("camera:3")
    assert isinstance(cam, OpenCVCameraSource) and cam.name == "camera /dev/video3"
    assert isinstance(open_source("picamera2"), Picamera2Source)
    # picamera2 never imports off a Pi: auto falls back to the first OpenCV camera
    assert isinstance(open_source("auto"), (OpenCVCameraSource, Picamera2Source))
    with pytest.raises(SourceError, match="'render' is not available in this program"):
        open_source("render")
    made = []
    folder = ImageFolderSource(tmp_path)
    assert open_source("render", extra={"render": lambda spec: made.append(spec) or folder}) is folder
    assert made == [SourceSpec("render")]
    with pytest.raises(SourceError, match="is not a camera source"):
        open_source("webcam")


def test_picamera2_missing_is_one_line():
    if Picamera2Source.available():
        pytest.skip("a Raspberry Pi camera is here")
    with pytest.raises(SourceError, match="python3-picamera2"):
        try:
            import picamera2  # noqa: F401
        except ImportError:
            pass
        else:
            pytest.skip("picamera2 imports here")
        Picamera2Source().open()


def test_capture_thread_keeps_every_frame_of_a_recording(tmp_path):
    source = VideoFileSource(write_video(tmp_path / "game.avi", 30))
    with CaptureThread(source, buffer=4) as capture:
        got = []
        while (f := capture.get(timeout=10)) is not None:
            got.append(number(f))
            time.sleep(0.002)  # a slow consumer: a recording still loses nothing
        assert capture.ended
    assert got == list(range(30))


def test_a_recording_is_read_no_further_ahead_than_one_frame_waiting(tmp_path):
    """Issue 19 (the service under 150 MB): a recording's frames are read only when the loop
    has room for them; one read ahead and held until there was room was 3.7 MB more.  And the
    loop is still fed: every frame comes, in order."""

    class Counting:
        live = False

        def __init__(self, inner) -> None:
            self.inner, self.name, self.reads = inner, inner.name, 0

        def open(self) -> None:
            self.inner.open()

        def read(self):
            self.reads += 1
            return self.inner.read()

        def close(self) -> None:
            self.inner.close()

    source = Counting(VideoFileSource(write_video(tmp_path / "game.avi", 10)))
    with CaptureThread(source) as capture:
        time.sleep(0.5)  # the loop busy with a frame: nothing taken
        assert source.reads == 1  # the one waiting, nothing read beyond it
        got = []
        while (f := capture.get(timeout=10)) is not None:
            got.append(number(f))
            assert source.reads <= len(got) + 1
    assert got == list(range(10))


class FakeCamera:
    """A live source: numbered pictures as fast as asked; can be unplugged and plugged in."""

    live = True

    def __init__(self) -> None:
        self.name = "camera fake"
        self.plugged = True
        self.is_open = False
        self.count = 0
        self.opens = 0

    def open(self) -> None:
        if not self.plugged:
            raise SourceError("no camera at /dev/fake: unplugged")
        self.opens += 1
        self.is_open = True

    def read(self) -> Frame | None:
        if not self.plugged or not self.is_open:
            raise SourceError("camera fake stopped delivering pictures")
        time.sleep(0.002)
        self.count += 1
        return Frame(picture(self.count % 20), time.time(), self.count)

    def close(self) -> None:
        self.is_open = False


def test_live_source_hands_over_the_newest_frame_and_drops_stale_ones():
    camera = FakeCamera()
    with CaptureThread(camera) as capture:
        first = capture.get(timeout=5)
        time.sleep(0.1)  # the consumer is busy; the camera goes on
        newest = capture.get(timeout=5)
        assert first is not None and newest is not None
        assert newest.index > first.index + 1
        assert capture.dropped > 0


class FlakyFolder:
    """A recording that vanishes after ``fail_at`` frames for ``down`` seconds (reads and opens
    fail), then comes back and goes on from where it was."""

    live = False

    def __init__(self, inner: ImageFolderSource, fail_at: int, down: float) -> None:
        self.inner = inner
        self.name = "flaky " + inner.name
        self.fail_at = fail_at
        self.down = down
        self.failed_at: float | None = None
        self.reads = 0
        self.opened = False

    def _vanished(self) -> bool:
        return self.failed_at is not None and time.monotonic() - self.failed_at < self.down

    def open(self) -> None:
        if self._vanished():
            raise SourceError(f"{self.name} cannot be read: the disk went away")
        if not self.opened:
            self.inner.open()
            self.opened = True

    def read(self) -> Frame | None:
        if self.reads == self.fail_at and self.failed_at is None:
            self.failed_at = time.monotonic()
        if self._vanished():
            raise SourceError(f"{self.name}: read error")
        self.reads += 1
        return self.inner.read()

    def close(self) -> None:
        pass


def test_source_that_vanishes_and_comes_back(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="device.sources")
    source = FlakyFolder(ImageFolderSource(write_folder(tmp_path / "pics", 10)), fail_at=4, down=0.3)
    with CaptureThread(source, backoff=(0.05, 0.1)) as capture:
        got = []
        while (f := capture.get(timeout=10)) is not None:
            got.append(number(f))
        assert capture.reopened == 1 and not capture.lost
    assert got == list(range(10)), "every frame, before and after the loss"
    text = caplog.text
    assert "lost: flaky picture folder" in text and "reopening it" in text
    assert "still lost (attempt 1)" in text
    assert "is back after" in text


def test_unplugged_camera_is_reopened_and_delivers_again(caplog):
    camera = FakeCamera()
    with CaptureThread(camera, backoff=(0.02, 0.05)) as capture:
        assert capture.get(timeout=5) is not None
        camera.plugged = False
        assert wait_for(lambda: capture.lost, timeout=5)
        time.sleep(0.2)
        camera.plugged = True
        assert wait_for(lambda: not capture.lost, timeout=5)
        before = camera.count
        frame = capture.get(timeout=5)
        assert frame is not None and frame.index > before - 2
        assert camera.opens >= 2 and capture.reopened == 1
    assert "camera fake lost" in caplog.text


def test_start_failure_is_the_users_one_line(tmp_path):
    with pytest.raises(SourceError, match="cannot be read: no such file"):
        CaptureThread(VideoFileSource(tmp_path / "nope.avi")).start()


@hardware
def test_raspberry_pi_camera_delivers_bgr_frames():
    with CaptureThread(Picamera2Source((1280, 960), 10, settle_seconds=0.5)) as capture:
        frame = capture.get(timeout=10)
        assert frame is not None and frame.image.shape == (960, 1280, 3)
