"""Rendered frame sequences kept on disk: a sequence drawn once is replayed, not drawn again.

Off unless ``FRISIAN_FRAME_CACHE`` names a folder.  `make test` names one for its two runs of the
suite (pip's OpenCV, then the Raspberry Pi's): the second run replays what the first drew, and a
developer's next run replays what did not change.  The demo and the benches never set it.

A recording is found by a key over everything that decides the frames: `game_frames`'
arguments (the positions and moves included) and the source of the renderer and of what it
draws with (`SOURCES`).  Change a line of the renderer and every recording is drawn again;
recordings of an older renderer are removed when the first new one is written.  Frames are kept
as the camera delivered them, JPEG-compressed, so a replayed frame is the drawn frame, byte for
byte (with the same JPEG decoder); the truth (`GameFrame` and its `Rendered`) is kept whole.  A
sequence whose frames are not all JPEG (a clean camera) is drawn every time: storing it
losslessly costs more than drawing it.

A consumer that stops early (a test that reads a dozen frames) leaves the frames it read: the
next consumer replays them and, if it reads on, the sequence is drawn from the start, the
replayed frames skipped, and the longer recording kept.  Recordings are written to a temporary
file and renamed when finished, so that parallel test workers never read half a file; one that
cannot be read is drawn again.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
import re
import shutil
import tempfile
import zlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterator

import cv2
import numpy as np

if TYPE_CHECKING:
    from renderer.sequence import GameFrame
    from rules.move import Move
    from rules.position import Position

log = logging.getLogger(__name__)

#: The environment variable naming the folder recordings are kept in.
ENV = "FRISIAN_FRAME_CACHE"
#: What the frames depend on besides the arguments: the renderer and the modules it draws with.
SOURCES = ("renderer", "vision/markers.py", "rules/squares.py", "rules/piece.py", "rules/move.py",
           "rules/position.py")
#: Bumped when the file layout changes.
FORMAT = 2

_DIGEST_NAME = re.compile(r"[0-9a-f]{20}")
_ROOT = Path(__file__).resolve().parent.parent
_digest: str | None = None


def folder() -> Path | None:
    """The folder recordings of this renderer are kept in, or None when recording is off."""
    where = os.environ.get(ENV)
    if not where:
        return None
    return Path(where) / source_digest()


def source_digest() -> str:
    """A digest of the renderer's source (`SOURCES`) and of `FORMAT`."""
    global _digest
    if _digest is None:
        h = hashlib.sha256(f"format {FORMAT}".encode())
        for name in SOURCES:
            path = _ROOT / name
            files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
            for f in files:
                h.update(str(f.relative_to(_ROOT)).encode())
                h.update(f.read_bytes())
        _digest = h.hexdigest()[:20]
    return _digest


def sequence_key(positions: list[Position], moves: list[Move], args: dict[str, Any]) -> str:
    """The key of one sequence: its positions, moves and every other argument, by value."""
    text = repr(([p.fen() for p in positions], [repr(m) for m in moves], sorted(args.items())))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def replayed(draw: Callable[[], Iterator[GameFrame]], positions: list[Position], moves: list[Move],
             args: dict[str, Any]) -> Iterator[GameFrame]:
    """The frames ``draw()`` gives, replayed from a recording when there is one, recorded when
    recording is on (`folder`), else simply drawn."""
    where = folder()
    if where is None:
        return draw()
    return _replay_or_record(draw, where, sequence_key(positions, moves, args))


def _replay_or_record(draw: Callable[[], Iterator[GameFrame]], where: Path,
                      key: str) -> Iterator[GameFrame]:
    path = where / f"{key}.frames"
    given = 0
    try:
        with open(path, "rb") as f:
            for record in _records(f):
                if record[0] == "end":
                    if record[1]:
                        return
                    break
                frame = _frame(record)
                given += 1
                yield frame
    except FileNotFoundError:
        pass
    except Exception as e:  # noqa: BLE001 (whatever is wrong with it, it is drawn again)
        log.warning("frame recording %s cannot be read (%s): drawing it again", path.name, e)
    yield from _record(draw(), path, given)


def _record(frames: Iterator[GameFrame], path: Path, given: int) -> Iterator[GameFrame]:
    """``frames``, the first ``given`` skipped (replayed already from ``path``), the rest given
    while written, after those, to a new recording that replaces ``path`` if it is longer."""
    if not path.parent.is_dir():  # this renderer's first recording: the older ones go
        path.parent.mkdir(parents=True, exist_ok=True)
        _prune(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    out = os.fdopen(fd, "wb")
    written = _copy(path, out, given)
    keep = written == given
    complete = False
    try:
        for i, frame in enumerate(frames):
            if i < given:
                continue
            if keep:
                record = _record_of(frame)
                keep = record is not None and _dump(record, out)
                written += 1
            yield frame
        complete = True
    finally:
        keep = keep and (complete or written > given) and _dump(("end", complete, written), out)
        out.close()
        try:
            if keep:
                os.replace(tmp, path)
            else:
                os.unlink(tmp)
        except OSError as e:
            log.warning("frame recording %s not kept: %s", path.name, e)


def _copy(path: Path, out: BinaryIO, count: int) -> int:
    """Copy the first ``count`` frames of the recording at ``path`` to ``out``; how many were."""
    copied = 0
    if count == 0:
        return 0
    try:
        with open(path, "rb") as f:
            for record in _records(f):
                if record[0] != "frame" or copied == count or not _dump(record, out):
                    break
                copied += 1
    except Exception as e:  # noqa: BLE001 (the frames after it are drawn and not kept)
        log.warning("frame recording %s cannot be read (%s)", path.name, e)
    return copied


def _dump(record: tuple[Any, ...], out: BinaryIO) -> bool:
    try:
        pickle.dump(record, out, protocol=pickle.HIGHEST_PROTOCOL)
        return True
    except OSError as e:
        log.warning("frame recording not kept: %s", e)
        return False


def _record_of(frame: GameFrame) -> tuple[Any, ...] | None:
    """One frame as kept: its truth without pictures, its JPEG and its hand mask; None when the
    frame has no JPEG."""
    jpeg = frame.rendered.jpeg
    if jpeg is None:
        return None
    mask = frame.rendered.hand_mask
    packed = None if mask is None else (mask.shape, zlib.compress(mask.tobytes(), 1))
    bare = replace(frame, image=None,
                   rendered=replace(frame.rendered, image=None, hand_mask=None, jpeg=None))
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(bare)
    return ("frame", out.getvalue(), jpeg, packed)


class _Pickler(pickle.Pickler):
    """Pickles numpy arrays and scalars by dtype, shape and bytes: numpy's own pickles name its
    private modules, which differ between numpy 1 (the Raspberry Pi's stack) and numpy 2, so a
    recording made on one could not be read on the other."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, (np.ndarray, np.generic)):
            a = np.asarray(obj)
            if a.dtype.hasobject:
                return NotImplemented
            return _array, (a.dtype.str, a.shape, np.ascontiguousarray(a).tobytes(),
                            isinstance(obj, np.generic))
        return NotImplemented


def _array(dtype: str, shape: tuple[int, ...], data: bytes, scalar: bool) -> Any:
    a = np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape).copy()
    return a[()] if scalar else a


def _frame(record: tuple[Any, ...]) -> GameFrame:
    _, bare, jpeg, packed = record
    frame = pickle.loads(bare)
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("a frame's JPEG does not decode")
    mask = None
    if packed is not None:
        shape, data = packed
        mask = np.frombuffer(zlib.decompress(data), np.uint8).reshape(shape).copy()
    return replace(frame, image=image,
                   rendered=replace(frame.rendered, image=image, hand_mask=mask, jpeg=jpeg))


def _records(f: BinaryIO) -> Iterator[tuple[Any, ...]]:
    while True:
        yield pickle.load(f)


def _prune(where: Path) -> None:
    """Remove the recordings of other renderers (folders named by other source digests) beside
    ``where``; nothing else in the folder is touched."""
    for other in where.parent.iterdir():
        if other != where and other.is_dir() and _DIGEST_NAME.fullmatch(other.name) \
                and all(f.suffix in (".frames", ".tmp") for f in other.iterdir()):
            shutil.rmtree(other, ignore_errors=True)
