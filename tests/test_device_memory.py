"""The service's memory (issue 19: under 150 MB resident at its peak): a camera's frames freed
are given back to the system, not kept in the heap (`device.memory`), and the mean of the still
frames is taken in 16 bits."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from vision.kept import mean_frame

# A child process allocates a frame, keeps a small object made after it (so that the heap's top
# cannot simply be trimmed), frees the frame, ten times over, and prints how much anonymous
# memory it holds beyond where it began, in MB.
_FRAMES_FREED = textwrap.dedent("""
    import sys
    import numpy as np
    if sys.argv[1] == "released":
        from device.memory import release_frames
        assert release_frames()

    def anon_mb():
        for line in open("/proc/self/status"):
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) / 1024

    kept = []
    np.ones((960, 1280, 3), np.uint8)  # the first frame freed (the allocator learns its size)
    start = anon_mb()
    for _ in range(10):
        frame = np.ones((960, 1280, 3), np.uint8)  # 3.7 MB, every page touched
        kept.append(bytearray(4096))
        del frame
    print(anon_mb() - start)
""")


def _held_after_frames(mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", _FRAMES_FREED, mode], capture_output=True,
                         text=True, check=True, timeout=60)
    return float(out.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_frames_freed_are_given_back_to_the_system():
    """Without the settings glibc keeps a freed frame in its heap (its mmap threshold rises to a
    frame's size after the first is freed); with them each frame is returned when freed."""
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("the allocator settings are glibc's")
    assert _held_after_frames("default") >= 3.0  # the heap kept at least a frame
    assert _held_after_frames("released") < 1.0


def test_the_mean_of_still_frames_is_exact_in_16_bits():
    rng = np.random.default_rng(5)
    for n in (2, 8, 257, 300):
        frames = [rng.integers(0, 256, (12, 16, 3), dtype=np.uint8) for _ in range(n)]
        expected = np.floor(np.mean(np.stack(frames).astype(np.float64), axis=0) + 0.5)
        got = mean_frame(frames).astype(np.float64)
        # ties (a sum exactly half-way) may round either way, as OpenCV's rounding does
        assert np.abs(got - expected).max() <= 1
        ties = np.isclose(np.mean(np.stack(frames), axis=0) % 1, 0.5)
        assert np.array_equal(got[~ties], expected[~ties])
    white = [np.full((4, 4, 3), 255, np.uint8)] * 257
    assert mean_frame(white).min() == 255  # no overflow at the 16-bit limit
