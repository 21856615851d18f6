"""Recorded frame sequences (renderer.recording): a replayed sequence is the drawn one, frame for
frame and truth for truth, and nothing stale or broken is ever replayed."""

from __future__ import annotations

import pickle
import pickletools
from pathlib import Path

import numpy as np
import pytest

from renderer import recording
from renderer.render import Camera, Lighting, game_frames
from renderer.sensor import CameraBehaviour
from renderer.sequence import Pace
from rules.game import Game
from rules.position import Position

#: A small camera and a short game keep these quick; a real camera (JPEG) so that it is recorded.
SMALL = Camera(width=480, height=360, distance_mm=900.0)


def opening() -> Game:
    game = Game(start=Position.start())
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        game.push_text(text)
    return game


def frames(seed: int = 4, **kw) -> list:
    kw.setdefault("pace", Pace.quick())
    return list(game_frames(Position.start(), opening(), fps=8, camera=SMALL, seed=seed, **kw))


def same(a: list, b: list) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert np.array_equal(x.image, y.image) and x.image is x.rendered.image
        assert y.image is y.rendered.image
        assert (x.time, x.index, x.ply, x.pieces, x.hand, x.lifted, x.settled, x.occluded, x.phase,
                x.move, x.resting, x.shaking) == \
               (y.time, y.index, y.ply, y.pieces, y.hand, y.lifted, y.settled, y.occluded, y.phase,
                y.move, y.resting, y.shaking)
        assert np.array_equal(x.corners, y.corners) and np.array_equal(x.affine, y.affine)
        assert (x.rendered.hand_mask is None) == (y.rendered.hand_mask is None)
        if x.rendered.hand_mask is not None:
            assert np.array_equal(x.rendered.hand_mask, y.rendered.hand_mask)


def recordings(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.frames"))


@pytest.fixture
def drawn(monkeypatch) -> list:
    monkeypatch.delenv(recording.ENV, raising=False)
    return frames()


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(recording.ENV, str(tmp_path / "frames"))
    return tmp_path / "frames"


def test_a_replayed_sequence_is_the_drawn_one_frame_for_frame(drawn, folder) -> None:
    same(drawn, frames())          # drawn and recorded
    assert len(recordings(folder)) == 1
    stamp = recordings(folder)[0].stat().st_mtime_ns
    same(drawn, frames())          # replayed
    assert recordings(folder)[0].stat().st_mtime_ns == stamp


def test_a_sequence_read_in_part_is_replayed_in_part_then_drawn_on(drawn, folder) -> None:
    part = []
    for frame in game_frames(Position.start(), opening(), fps=8, camera=SMALL, seed=4,
                             pace=Pace.quick()):
        part.append(frame)
        if len(part) == 12:
            break
    same(drawn[:12], part)
    [kept] = recordings(folder)
    assert kept.stat().st_size > 0
    same(drawn, frames())          # 12 replayed, the rest drawn, all kept
    whole = kept.stat().st_size
    assert whole > 0
    same(drawn, frames())
    assert kept.stat().st_size == whole


def test_any_other_argument_or_seed_is_drawn_not_replayed(drawn, folder) -> None:
    frames()
    other = frames(seed=5)
    assert len(recordings(folder)) == 2
    assert not (len(other) == len(drawn)
                and all(np.array_equal(a.image, b.image) for a, b in zip(other, drawn)))
    frames(spectators=1.0)
    assert len(recordings(folder)) == 3


def test_a_damaged_recording_is_drawn_again(drawn, folder) -> None:
    frames()
    [kept] = recordings(folder)
    data = kept.read_bytes()
    kept.write_bytes(data[: len(data) // 2])     # cut short, as by a full disk
    same(drawn, frames())
    assert kept.stat().st_size == len(data)
    kept.write_bytes(b"\x00" * 100)              # garbage
    same(drawn, frames())


def test_a_clean_camera_without_jpeg_is_not_recorded(folder) -> None:
    frames(behaviour=CameraBehaviour.still(), lighting=Lighting())
    assert recordings(folder) == []


def test_recordings_of_another_renderer_are_removed_and_nothing_else(folder) -> None:
    stale = folder / ("0" * 20)
    stale.mkdir(parents=True)
    (stale / "x.frames").write_bytes(b"old")
    mine = folder / "notes"
    mine.mkdir()
    (mine / "readme.txt").write_text("kept")
    frames()
    assert not stale.exists() and (mine / "readme.txt").exists()
    assert [p.parent.name for p in recordings(folder)] == [recording.source_digest()]


def test_a_recording_names_nothing_of_numpy_so_the_other_stack_reads_it(folder) -> None:
    """`make test` replays on the Pi's numpy 1.24 what it recorded on pip's numpy 2: numpy's own
    pickles name modules that only one of them has."""
    frames()
    [kept] = recordings(folder)
    modules = set()
    with open(kept, "rb") as f:
        while (record := pickle.load(f))[0] == "frame":
            for op, arg, _ in pickletools.genops(record[1]):
                if op.name in ("GLOBAL", "STACK_GLOBAL", "SHORT_BINUNICODE", "BINUNICODE") and arg:
                    modules.add(str(arg).split(" ")[0])
    assert "renderer.recording" in modules
    assert not [m for m in modules if m.startswith("numpy")], modules
