"""Service benchmark: frames per second through the whole loop, and the resident memory.

Run from the repository root::

    python -m bench.service                 # 600 frames of the bundled game, rendered
    python -m bench.service --frames 1500 --speech
    python -m bench.service --frames 400 --speech --camera   # paced and live, as a camera

The loop is the real one (`device.service.Companion.run`): the capture thread reading frames,
vision, the arbiter, the SQLite store (a move committed per record), the LEDs on gpiozero's mock
pins and, with ``--speech``, espeak-ng writing WAV files in its worker process.  The frames are the
bundled real game rendered at 1280x960 by a child process beforehand and read back as JPEG files
(a picture folder source), so that this process holds what the appliance holds: a camera's
frames, not the renderer.  The time reading (decoding) frames takes is measured apart.  Resident
memory is the peak of this process (``ru_maxrss``) plus the speech worker's, when there is one,
this process's resident memory at the end of the loop, and the peak of its anonymous part
(`AnonPeak`: what the service allocates, without the libraries' code mapped from files).
``peak_total_rss_mb`` adds the two processes' resident sets, so it counts twice the pages both
map from one file (Python's own code, the C library: 4-5 MB); ``peak_service_mb``, the
service's pages, adds to this process's peak only the worker's own (`private_kb`), though the
two peaks may come at different times.  ``peak_together_mb`` is the peak of the two resident sets
added at one time while the loop runs (sampled every 5 ms with the anonymous peak; shared pages
twice), and ``peak_whole_mb`` the service's resident memory as the system holds it: the peak of
this process's resident set plus the worker's own pages at one time (shared pages once), or this
process's peak alone when that is higher (its import).  cv2 is imported as ``frisian-companion
run`` imports it (`device.library_pages.import_lightly`).  Progress goes to stderr; stdout gets
one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time

from bench.procstatus import private_kb, status_kb


class TimedSource:
    """Wraps a source and adds up the time its ``read`` takes (decoding the pictures).  With
    ``camera_fps`` it stands for a camera: live (the capture thread keeps only the newest frame)
    and delivering no faster than that rate."""

    def __init__(self, inner, camera_fps: float | None = None) -> None:
        self.inner, self.name = inner, inner.name
        self.live = inner.live if camera_fps is None else True
        self.period = 0.0 if camera_fps is None else 1.0 / camera_fps
        self.seconds = 0.0
        self._next = 0.0

    def open(self) -> None:
        self.inner.open()

    def read(self):
        if self.period:
            wait = self._next - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._next = max(self._next, time.monotonic()) + self.period
        t0 = time.perf_counter()
        try:
            return self.inner.read()
        finally:
            self.seconds += time.perf_counter() - t0

    def close(self) -> None:
        self.inner.close()


class AnonPeak:
    """The peak of this process's anonymous resident memory, sampled every ``every`` seconds
    on a thread (the kernel keeps the peak of the whole resident set only, ``ru_maxrss``).
    Debian's OpenCV links about 350 libraries whose code pages alone are 90 MB resident; they
    are read from files, shared with any other process using them and dropped under pressure,
    so the anonymous peak is what the service itself holds."""

    def __init__(self, every: float = 0.005, others=lambda: ()) -> None:
        self.every, self.anon, self.file = every, 0.0, 0.0
        # the peak of this process's resident set and the other processes' (``others()``: their
        # pids, the speech worker's) at one time; and of this one's with only the pages the others
        # hold alone (`private_kb`): the pages both map from one file counted once
        self.others, self.together, self.whole = others, 0.0, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="anon peak", daemon=True)

    def __enter__(self) -> "AnonPeak":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            anon = status_kb("RssAnon") / 1024
            if anon > self.anon:
                self.anon, self.file = anon, status_kb("RssFile") / 1024
            together = whole = status_kb("VmRSS")
            for pid in self.others():
                try:
                    together += status_kb("VmRSS", pid)
                    whole += private_kb(pid)
                except OSError:  # (ended meanwhile)
                    pass
            self.together = max(self.together, together / 1024)
            self.whole = max(self.whole, whole / 1024)
            if self._stop.wait(self.every):
                return


def render_into(folder: str, frames: int, fps: float) -> int:
    import cv2

    from device.render_source import RenderedSource, load_game

    os.makedirs(folder, exist_ok=True)
    source = RenderedSource(load_game(), fps=fps, seed=1)
    source.open()
    for i in range(frames):
        frame = source.read()
        if frame is None:
            break
        cv2.imwrite(os.path.join(folder, f"{i:06d}.jpg"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.service", description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--fps", type=float, default=10.0, help="the rendering's frame rate")
    ap.add_argument("--speech", action="store_true", help="speak into WAV files (espeak-ng worker)")
    ap.add_argument("--camera", action="store_true",
                    help="read the pictures as a camera delivers them: at the frame rate, only the "
                         "newest kept (the appliance's memory; a recording keeps a few waiting)")
    ap.add_argument("--render-into", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.render_into:
        return render_into(args.render_into, args.frames, args.fps)

    # imported as `frisian-companion run` imports it: its libraries' pages given back as they load
    from device.library_pages import import_lightly

    cv2 = import_lightly("cv2")
    cv2.setNumThreads(1)
    from gpiozero.pins.mock import MockFactory

    from device.config import PinsConfig, SpeechConfig
    from device.leds import CounterPanel
    from device.service import Companion
    from device.sources import ImageFolderSource
    from device.speech import Announcer, open_speech
    from device.store import GameStore

    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        folder = os.path.join(tmp, "frames")
        print(f"rendering {args.frames} frames into {folder} (child process)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "bench.service", "--render-into", folder,
                        "--frames", str(args.frames), "--fps", str(args.fps)], check=True)
        source = TimedSource(ImageFolderSource(folder, args.fps),
                             camera_fps=args.fps if args.camera else None)
        panel = CounterPanel.from_config(PinsConfig(), pin_factory=MockFactory())
        speaker = open_speech(SpeechConfig(enabled=args.speech), wav_dir=os.path.join(tmp, "wav"))
        announcer = Announcer("en", True, speaker)
        c = Companion(source=source, store=GameStore(os.path.join(tmp, "games.sqlite3")),
                      tags={"Event": "bench"}, panel=panel, announcer=announcer, speaker=speaker)
        last = [time.monotonic()]

        def progress(frame, events) -> None:
            if time.monotonic() - last[0] > 5:
                last[0] = time.monotonic()
                print(f"frame {c.stats.frames}/{args.frames}, {c.arbiter.game.ply} moves", file=sys.stderr)

        t0 = time.perf_counter()
        def worker() -> tuple[int, ...]:
            proc = getattr(speaker.backend, "_proc", None)
            return () if proc is None else (proc.pid,)

        with AnonPeak(others=worker) as anon:
            c.run(threading.Event(), max_frames=args.frames, on_frame=progress)
        wall = time.perf_counter() - t0
        rss_now_mb = status_kb("VmRSS") / 1024
        proc = getattr(speaker.backend, "_proc", None)
        try:  # (the worker may have ended with the loop)
            speech_mb = status_kb("VmRSS", proc.pid) / 1024 if proc is not None else 0.0
            speech_own_mb = private_kb(proc.pid) / 1024 if proc is not None else 0.0
        except OSError:
            speech_mb = speech_own_mb = 0.0
        moves = c.arbiter.game.ply
        c.close()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    frames = c.stats.frames
    result = {
        "bench": "service",
        "frames": frames,
        "as_camera": args.camera,
        "moves_recorded": moves,
        "wall_s": round(wall, 2),
        "loop_fps": round(frames / wall, 1),
        "read_ms_per_frame": round(1000 * source.seconds / frames, 1),
        "vision_ms_per_frame": round(1000 * c.stats.vision_s / frames, 1),
        "peak_rss_mb": round(rss_mb, 1),
        "rss_at_end_mb": round(rss_now_mb, 1),
        "peak_anon_mb": round(anon.anon, 1),
        "file_mb_at_anon_peak": round(anon.file, 1),
        "speech_worker_rss_mb": round(speech_mb, 1),
        "speech_worker_own_mb": round(speech_own_mb, 1),
        "peak_total_rss_mb": round(rss_mb + speech_mb, 1),
        "peak_service_mb": round(rss_mb + speech_own_mb, 1),
        "peak_together_mb": round(anon.together, 1),
        "peak_whole_mb": round(max(anon.whole, rss_mb), 1),
        "python": platform.python_version(),
        "opencv": cv2.__version__,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
