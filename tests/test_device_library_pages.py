"""The pages of libraries loaded but not run are given back (issue 19: the service under 150 MB
resident at its peak on the Raspberry Pi's stack, whose OpenCV links about 200 libraries), and
nothing the process wrote is lost by it (`device.library_pages`)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/smaps and uses madvise")

# Run in a child process: its own mappings, and a crash there fails the test instead of the suite.
_CHILD = textwrap.dedent("""
    import json, mmap, os, sys, tempfile
    import numpy as np

    def status_kb(key):
        for line in open("/proc/self/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1])

    from device.library_pages import mappings, release_library_pages

    data = bytes(range(256)) * (4096 * 16)  # 16 MB, every page different
    fd, path = tempfile.mkstemp()
    os.write(fd, data)
    os.fsync(fd)  # clean in the page cache, as a library file is
    # a read-only mapping, every page read (resident), and a private one written to
    read_only = mmap.mmap(fd, len(data), prot=mmap.PROT_READ)
    sum(read_only[i] for i in range(0, len(data), 4096))
    written = mmap.mmap(fd, len(data), flags=mmap.MAP_PRIVATE)
    for i in range(0, len(data), 4096):
        written[i] = 7
    file_before = status_kb("RssFile")
    released = release_library_pages()
    file_after = status_kb("RssFile")
    mine = [m for m in mappings() if m.path == path]
    # a library's code still runs after its pages went: numpy sums, sorts, inverts
    a = np.arange(1000, dtype=np.float64)[::-1].copy()
    a.sort()
    works = a.sum() == 499500.0 and np.allclose(np.linalg.inv(np.eye(3) * 2), np.eye(3) / 2)
    print(json.dumps({
        "released_kb": released, "file_before_kb": file_before, "file_after_kb": file_after,
        "read_only_same": read_only[:] == data,
        "written_kept": all(written[i] == 7 for i in range(0, len(data), 4096))
                        and written[1:4096] == data[1:4096],
        "read_only_rss_after_kb": [m.kb["Rss"] for m in mine if "w" not in m.perms],
        "numpy_works": bool(works),
    }))
""")


def _child() -> dict:
    import json

    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_read_only_file_pages_are_given_back_and_read_the_same_after():
    got = _child()
    assert got["released_kb"] >= 16 * 1024  # the 16 MB read-only mapping at least
    assert got["file_after_kb"] <= got["file_before_kb"] - 16 * 1024
    assert got["read_only_same"]  # paged back in from the file, unchanged
    assert got["numpy_works"]  # libraries' code paged back in as it runs


def test_pages_the_process_wrote_are_never_given_back():
    """A private mapping written to holds the process's own data (as a library's relocated
    data does): dropping it would put the file's bytes back."""
    assert _child()["written_kept"]


def test_the_service_gives_back_the_pages_its_start_touched_and_reads_on(tmp_path):
    """`Companion.run` gives the pages back as it starts and once calibrated: a 16 MB read-only
    file mapped and read before it runs (as a library loaded at start and never run again: on
    Debian's OpenCV, 95 MB of them) is no longer resident after 40 frames of a rendered game,
    and the moves are read all the same (the loop's own code pages come back as it runs)."""
    script = textwrap.dedent("""
        import json, mmap, os, sys, threading
        from device.library_pages import mappings
        from device.render_source import RenderedSource, load_game
        from device.service import Companion
        from device.store import GameStore

        path = os.path.join(sys.argv[1], "library.bin")
        with open(path, "wb") as f:
            f.write(bytes(range(256)) * (4096 * 16))
            f.flush()
            os.fsync(f.fileno())
        with open(path, "rb") as f:
            library = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
        sum(library[i] for i in range(0, len(library), 4096))

        def resident_kb():
            return sum(m.kb.get("Rss", 0) for m in mappings() if m.path == path)

        before = resident_kb()
        game = load_game()
        c = Companion(source=RenderedSource(game, fps=6, seed=5),
                      store=GameStore(os.path.join(sys.argv[1], "games.sqlite3")), tags={})
        c.run(threading.Event(), max_frames=40)
        print(json.dumps({"before_kb": before, "after_kb": resident_kb(),
                          "moves": c.arbiter.game.move_texts(), "truth": game.move_texts()}))
        c.close()
    """)
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    import json

    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["before_kb"] >= 16 * 1024
    assert got["after_kb"] == 0, got
    assert got["moves"] and got["moves"] == got["truth"][:len(got["moves"])]


_IMPORT = textwrap.dedent("""
    import json, sys
    import numpy as np
    def peak_kb():
        return next(int(line.split()[1]) for line in open("/proc/self/status")
                    if line.startswith("VmHWM:"))

    from device.library_pages import import_lightly
    before = peak_kb()  # numpy's
    if sys.argv[1] == "lightly":
        cv2 = import_lightly("cv2")
    else:
        import cv2
    image = np.zeros((40, 60, 3), np.uint8)
    image[10:30, 20:40] = (255, 0, 0)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ok, jpeg = cv2.imencode(".png", image)
    back = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    print(json.dumps({"import_kb": peak_kb() - before, "same_module": sys.modules["cv2"] is cv2,
                      "works": bool(ok and int(grey[20, 30]) == 29 and (back == image).all())}))
""")


def _import(how: str, env: dict | None = None) -> dict:
    import json

    out = subprocess.run([sys.executable, "-c", _IMPORT, how], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_opencv_imported_lightly_is_the_same_module_without_the_imports_peak():
    """Issue 19: the import of Debian's OpenCV (about 350 libraries) was the service's peak of
    resident memory, 130-135 MB, though their pages were given back right after it.  Loaded a
    few libraries at a time with the pages given back in between, OpenCV is the same module and
    works the same, and what its import adds to the process's peak is at most half (Debian's
    OpenCV: 108 MB plainly, 32 MB so; pip's: 14 MB, 4 MB)."""
    plain = min(_import("plain")["import_kb"] for _ in range(2))  # (the first warms the page cache)
    lightly = _import("lightly")
    assert lightly["same_module"] and lightly["works"]
    assert lightly["import_kb"] <= 0.5 * plain, (lightly["import_kb"], plain)


def test_without_ldd_the_import_is_a_plain_one(tmp_path):
    """A system without ``ldd`` (the libraries cannot be listed) still imports OpenCV."""
    import os

    env = dict(os.environ, PATH=str(tmp_path))  # an empty folder: no ldd on the path
    got = _import("lightly", env=env)
    assert got["same_module"] and got["works"]


def test_the_libraries_a_module_loads_are_listed_as_the_loader_finds_them():
    """`shared_libraries` lists the files ``ldd`` resolves (never the kernel's vDSO, the
    loader itself or a library not found), each once."""
    from device.library_pages import native_files, shared_libraries

    (extension,) = native_files("numpy.core._multiarray_umath") or native_files("numpy._core._multiarray_umath")
    libraries = shared_libraries(extension)
    import os

    assert libraries and all(os.path.isabs(p) and os.path.exists(p) for p in libraries)
    assert any(os.path.basename(p).startswith("libc.so") for p in libraries)
    assert not any("vdso" in p or os.path.basename(p).startswith("ld-linux") for p in libraries)
    assert len(set(libraries)) == len(libraries)
    assert native_files("no_such_module_here") == []
