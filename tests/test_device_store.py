"""The scoresheet store: real SQLite files, a power cut (SIGKILL), PDN export read back."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from device.errors import StoreError
from device.store import GameStore, StoreSink
from rules.events import GameOver, IrregularityKind, MovePlayed, MoveTakenBack, ScoresheetComment
from rules.pdn import read_games
from rules.piece import Color
from rules.position import Position

ROOT = Path(__file__).resolve().parents[1]
TAGS = {"Event": "Club avond", "Site": "Leeuwarden", "Round": "3", "White": "Jan", "Black": "Piet"}


def legal_events(n: int, start_time: float = 1_700_000_000.0) -> list[MovePlayed]:
    """``n`` legal moves from the start (always the first legal move), as the arbiter's events."""
    position = Position.start()
    events = []
    for i in range(n):
        legal = position.legal_moves()
        move = legal[0]
        text = position.move_text(move, legal)
        color = position.turn
        position = position.play(move)
        events.append(MovePlayed(ply=i + 1, time=start_time + 10 * i, color=color, number=i // 2 + 1,
                                 text=text, fen=position.fen()))
    return events


def many_events(n: int) -> list[MovePlayed]:
    """``n`` move events (not a legal game: the store does not judge), for the power-cut test."""
    return [MovePlayed(ply=i, time=1_700_000_000.0 + i, color=Color.WHITE if i % 2 else Color.BLACK,
                       number=(i + 1) // 2, text=f"{i % 50 + 1}-{(i + 7) % 50 + 1}", fen=f"W:W{i % 50 + 1}:B1")
            for i in range(1, n + 1)]


def test_moves_comments_result_and_pdn_read_back(tmp_path):
    events = legal_events(6)
    with GameStore(tmp_path / "games.sqlite3") as store:
        gid = store.new_game(TAGS, Position.start().fen(), started=1_700_000_000.0)
        sink = StoreSink(store, gid)
        assert store.game_in_progress() == gid
        sink.on_event(ScoresheetComment(ply=0, time=None, text="board checked"))
        for e in events:
            sink.on_event(e)
        sink.on_event(ScoresheetComment(ply=3, time=None, text="touch-move: 19 touched first"))
        sink.on_event(GameOver(ply=6, time=1_700_000_100.0, result="1/2-1/2", reason="draw agreed",
                               article="Art. 21", winner=None))
        assert store.game_in_progress() is None
        game = store.game(gid)
        assert (game.result, game.termination, game.status, game.start_fen) == ("1/2-1/2", "draw agreed", "finished", None)
        assert [m.text for m in store.moves(gid)] == [e.text for e in events]
        assert [m.color for m in store.moves(gid)] == [Color.WHITE, Color.BLACK] * 3
        pdn = store.export_pdn(gid)
    assert pdn.startswith('[Event "Club avond"]\n[Site "Leeuwarden"]\n[Date "2023.11.14"]\n[Round "3"]\n'
                          '[White "Jan"]\n[Black "Piet"]\n')
    assert "{board checked}" in pdn and "{touch-move: 19 touched first}" in pdn
    read = list(read_games(pdn))
    assert len(read) == 1 and read[0].problem is None
    assert read[0].game.move_texts() == [e.text for e in events]
    assert read[0].game.declared_result == "1/2-1/2"


def test_take_back_removes_the_move_and_keeps_what_was_written(tmp_path):
    events = legal_events(4)
    with GameStore(tmp_path / "g.sqlite3") as store:
        gid = store.new_game(TAGS)
        for e in events:
            store.record(gid, e)
        store.record(gid, ScoresheetComment(ply=4, time=None, text="capture not taken (Art. 10)"))
        store.record(gid, MoveTakenBack(ply=3, time=None, text=events[3].text, fen=events[2].fen))
        assert [m.ply for m in store.moves(gid)] == [1, 2, 3]
        assert [(c.ply, c.text) for c in store.comments(gid)] == [(3, "capture not taken (Art. 10)")]
        # the move played instead takes ply 4
        store.record(gid, events[3])
        assert [m.text for m in store.moves(gid)] == [e.text for e in events]


def test_irregular_move_that_stood_is_kept_with_its_position(tmp_path):
    e = legal_events(1)[0]
    odd = MovePlayed(ply=1, time=None, color=Color.WHITE, number=1, text="32-27", fen=e.fen,
                     irregular=IrregularityKind.UNREACHABLE)
    with GameStore(tmp_path / "g.sqlite3") as store:
        gid = store.new_game(TAGS)
        store.record(gid, odd)
        assert store.moves(gid)[0].irregular == "UNREACHABLE"
        assert f'[%position "{e.fen}"]' in store.export_pdn(gid)


def test_exports_by_day_and_event(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        day1 = dt.datetime(2024, 3, 9, 20, 0).timestamp()
        day2 = dt.datetime(2024, 3, 10, 1, 0).timestamp()
        a = store.new_game({**TAGS, "Event": "Club"}, started=day1)
        b = store.new_game({**TAGS, "Event": "Cup"}, started=day1 + 600)
        c = store.new_game({**TAGS, "Event": "Club"}, started=day2)
        for gid in (a, b, c):
            store.record(gid, legal_events(1)[0])
        assert store.export_pdn_day("2024-03-09").count("[Event ") == 2
        assert store.export_pdn_day(dt.date(2024, 3, 10)).count("[Event ") == 1
        club = store.export_pdn_event("Club")
        assert club.count('[Event "Club"]') == 2 and "Cup" not in club
        assert len(list(read_games(club))) == 2
        assert store.export_pdn_day("2024-03-11") == ""
        with pytest.raises(ValueError, match="YYYY-MM-DD"):
            store.export_pdn_day("9 March")


def test_database_settings_survive_power_cuts(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from tests.test_device_store import many_events
    from device.store import GameStore
    store = GameStore({path!r})
    gid = store.game_in_progress() or store.new_game({{"Event": "kill test"}})
    for e in many_events(2000):
        store.record(gid, e)
        print(e.ply, flush=True)
    import time; time.sleep(60)
""")


def test_sigkill_in_the_middle_loses_no_recorded_move(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(ROOT), path=path)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    reported = 0
    assert child.stdout is not None
    for line in child.stdout:
        reported = int(line)
        if reported >= 25:
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    with GameStore(path) as store:
        gid = store.game_in_progress()
        assert gid is not None, "the game in progress is found again"
        plies = [m.ply for m in store.moves(gid)]
        assert len(plies) >= reported, "every move reported as recorded is there"
        assert plies == list(range(1, len(plies) + 1))
        expected = many_events(len(plies))
        assert [m.text for m in store.moves(gid)] == [e.text for e in expected]
        # and the game goes on where it was
        store.record(gid, many_events(len(plies) + 1)[-1])
        assert len(store.moves(gid)) == len(plies) + 1


def test_bad_files_give_one_line(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match=r"cannot open the game store .*junk.sqlite3: .*check paths.database"):
        GameStore(junk)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot open the game store"):
        GameStore(blocker / "games.sqlite3")
    with GameStore(tmp_path / "ok.sqlite3") as store:
        with pytest.raises(StoreError, match="there is no game 42"):
            store.export_pdn(42)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "g.sqlite3"
    GameStore(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer frisian-companion"):
        GameStore(path)


# -- faults: a damaged store, a read-only one, a second service (issue 19, items 2 and 3) --------

def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, **kw)


def _store_with_moves(path: Path, n: int = 30) -> None:
    with GameStore(path) as store:
        gid = store.new_game(TAGS)
        for e in legal_events(n):
            store.record(gid, e)


def _damage_the_moves_index(path: Path, n: int) -> None:
    """Change one byte of the moves table's index so that SQLite still reads the table, but
    short (what a flipped bit on an SD card does): found by trying the bytes of the index's page."""
    db = sqlite3.connect(path)
    page = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_moves_1'").fetchone()[0]
    db.close()
    clean = path.read_bytes()
    for offset in range((root - 1) * page + page // 2, root * page):
        data = bytearray(clean)
        data[offset] ^= 0x7F
        path.write_bytes(data)
        db = sqlite3.connect(path)
        try:
            rows = db.execute("SELECT ply FROM moves WHERE game_id = 1 ORDER BY ply").fetchall()
        except sqlite3.DatabaseError:
            rows = None
        finally:
            db.close()
        if rows is not None and 0 < len(rows) < n:
            return
    pytest.fail("no byte of the index gives a short read")


def test_a_damaged_store_is_refused_not_read_short(tmp_path):
    """Issue 19, item 2: a store SQLite's integrity check finds damaged is refused with one line,
    never exported or resumed as a shortened game; the status is not 2 (a runtime fault, item 3)."""
    path = tmp_path / "games.sqlite3"
    _store_with_moves(path, 30)
    _damage_the_moves_index(path, 30)
    r = _cli("export", "--database", str(path), "--game", "1")
    assert r.returncode == 3, (r.returncode, r.stdout[-200:], r.stderr)
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "damaged" in r.stderr and str(path) in r.stderr
    with pytest.raises(StoreError, match="damaged"):
        GameStore(path)


def test_the_damaged_store_message_s_repair_gives_every_move_back(tmp_path):
    """What the message tells the club to run gets the games back: SQLite's own ``.dump``, which
    reads the table itself.  (It said ``.recover``, which Debian bookworm's sqlite3 3.40 fails
    on with this damage, "SQL logic error", giving back none of the moves.)"""
    import shlex
    path = tmp_path / "games.sqlite3"
    _store_with_moves(path, 30)
    _damage_the_moves_index(path, 30)
    with pytest.raises(StoreError) as refused:
        GameStore(path)
    command = str(refused.value).split("copied out with: ", 1)[1]
    repaired = tmp_path / "repaired.sqlite3"
    dump, load = command.split(" | ")
    assert shlex.split(dump) == ["sqlite3", str(path), ".dump"]
    assert shlex.split(load) == ["sqlite3", "REPAIRED.sqlite3"]
    sql = subprocess.run(shlex.split(dump), capture_output=True, text=True, check=True).stdout
    subprocess.run(["sqlite3", str(repaired)], input=sql, text=True, check=True)
    with GameStore(repaired) as store:
        assert len(store.moves(1)) == 30


def test_a_busy_store_is_a_runtime_fault_not_a_configuration_mistake(tmp_path):
    """Issue 19, item 3: the database locked by another program is not status 2 (which systemd
    takes for a mistake in the configuration and never restarts)."""
    path = tmp_path / "games.sqlite3"
    _store_with_moves(path, 2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        r = _cli("run", "--database", str(path), "--mock-pins", "--no-speech", "--source", "render")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert r.stderr.strip().splitlines()[-1].startswith("frisian-companion: error: ")
    assert "locked" in r.stderr and "Traceback" not in r.stderr


def _read_only(*paths: Path, on: bool = True) -> None:
    """Make files and folders read-only, for root too (the immutable attribute: root may write
    to any file whatever its mode), or writable again."""
    for path in paths:
        if os.geteuid() == 0:
            done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
            if done.returncode != 0 and on:  # a file system without the attribute (overlayfs, tmpfs)
                pytest.skip(f"cannot make {path} read-only for root: {done.stderr.decode().strip()}")
        else:
            os.chmod(path, (0o555 if path.is_dir() else 0o444) if on else 0o755)


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("chattr"), reason="root needs chattr")
def test_a_read_only_store_can_be_exported(tmp_path):
    """Issue 19, item 2: a store the user may only read (a copy from the Pi, a read-only folder)
    is still exported."""
    folder = tmp_path / "copy"
    folder.mkdir()
    path = folder / "games.sqlite3"
    _store_with_moves(path, 30)
    _read_only(path, folder)
    try:
        r = _cli("export", "--database", str(path), "--game", "1")
    finally:
        _read_only(path, folder, on=False)
    assert r.returncode == 0, r.stderr
    [read] = list(read_games(r.stdout))
    assert read.problem is None and len(read.game.moves) == 30
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite3"]


def test_a_second_service_on_the_same_store_is_refused(tmp_path):
    """Issue 19, item 2: a second service on one database is refused (it would resume the same
    game and write its own comments into it); nothing is written to the store."""
    path = tmp_path / "games.sqlite3"
    _store_with_moves(path, 4)
    with GameStore(path, exclusive=True) as first:
        before = (first.games(), first.moves(1), first.comments(1))
        r = _cli("run", "--database", str(path), "--mock-pins", "--no-speech", "--source", "render")
        assert r.returncode == 3, (r.returncode, r.stderr)
        assert "in use by another frisian-companion" in r.stderr and "Traceback" not in r.stderr
        assert (first.games(), first.moves(1), first.comments(1)) == before
    with GameStore(path, exclusive=True):  # free again once the first is closed
        pass


def test_an_adjourned_game_is_reopened_and_an_unplayed_one_removed(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        played = store.new_game({"Event": "t"})
        store.record(played, MovePlayed(1, 1.0, Color.WHITE, 1, "32-28", "B:W28,31,33-50:B1-20"))
        store.finish(played, "*", "adjourned")
        store.reopen(played)
        g = store.game(played)
        assert g.in_progress and (g.result, g.termination, g.finished) == ("*", None, None)
        assert store.game_in_progress() == played
        store.finish(played, "1-0", "resignation")
        with pytest.raises(StoreError, match="ended 1-0"):
            store.reopen(played)
        unplayed = store.new_game({"Event": "t"})
        assert not store.remove_unplayed(played) and store.game(played).result == "1-0"
        assert store.remove_unplayed(unplayed)
        assert [g.id for g in store.games()] == [played]
