"""`frisian-companion declare`, `new-game` and `tags`: against the running service (its page's
API, with [web] token from the configuration) or, when none runs, the store directly.  A game
ended by resignation no longer blocks the next one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from device.store import GameStore
from device.web import free_port
from rules.events import MovePlayed
from rules.piece import Color
from tests.device_helpers import wait_for
from tests.web_helpers import TOKEN, real_game, served, state


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True,
                          text=True, timeout=120)


def store_with_a_game(path: Path, plies: int = 2) -> int:
    game = real_game(plies)
    with GameStore(path) as store:
        game_id = store.new_game({"Event": "t", "White": "?", "Black": "?"})
        for i, (text, position) in enumerate(zip(game.move_texts(), game.positions[1:]), 1):
            color = Color.WHITE if i % 2 else Color.BLACK
            store.record(game_id, MovePlayed(i, None, color, (i + 1) // 2, text, position.fen()))
    return game_id


def config(tmp_path: Path, port: int, token: str = TOKEN) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[web]\nbind = "127.0.0.1"\nport = {port}\ntoken = "{token}"\n'
                    f'[paths]\ndatabase = "{tmp_path / "games.sqlite3"}"\n')
    return path


def test_declare_on_the_store_ends_the_game_so_the_next_run_begins_a_new_one(tmp_path):
    database = tmp_path / "games.sqlite3"
    game_id = store_with_a_game(database)
    cfg = config(tmp_path, free_port())  # no service listens there
    r = cli("declare", "0-1", "--reason", "resignation", "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"game {game_id}: 0-1 (resignation)\n"
    with GameStore(database) as store:
        assert store.game_in_progress() is None
        g = store.game(game_id)
        assert (g.result, g.termination) == ("0-1", "resignation")
    r = cli("declare", "1-0", "--reason", "time", "--database", str(database))
    assert r.returncode == 2 and "no game in progress" in r.stderr and r.stderr.count("\n") == 1


def test_a_result_declared_on_the_store_writes_the_game_into_the_pdn_folder(tmp_path):
    """With no service running, ``declare`` ends the game in the store, and ``[paths]
    pdn_folder`` gets its file as when the service ends a game (it got none)."""
    database = tmp_path / "games.sqlite3"
    game_id = store_with_a_game(database, plies=4)
    cfg = config(tmp_path, free_port())
    cfg.write_text(cfg.read_text() + 'pdn_folder = "finished"\n')
    r = cli("declare", "1-0", "--reason", "resignation", "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    written = (tmp_path / "finished" / f"game-{game_id:04d}.pdn").read_text()
    assert '[Result "1-0"]' in written and written.rstrip().endswith("1-0")
    assert real_game(4).move_texts()[3] in written


def test_tags_and_new_game_on_the_store(tmp_path):
    database = tmp_path / "games.sqlite3"
    game_id = store_with_a_game(database)
    r = cli("tags", "--white", "Alice", "--black", "Bauke", "--round", "4", "--tag", "Site=Dokkum",
            "--database", str(database))
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"game {game_id}: White = Alice, Black = Bauke, Round = 4, Site = Dokkum\n"
    r = cli("new-game", "--database", str(database))
    assert r.returncode == 0 and "set aside unfinished" in r.stdout
    with GameStore(database) as store:
        g = store.game(game_id)
        assert g.tags["White"] == "Alice" and g.tags["Site"] == "Dokkum" and g.result == "*"
        assert store.game_in_progress() is None


def test_bad_arguments_are_one_line_exit_2(tmp_path):
    database = tmp_path / "games.sqlite3"
    store_with_a_game(database)
    for args, says in [(("declare", "1/2-1/2", "--reason", "resignation"), "a resignation is a win"),
                       (("declare", "2-1", "--reason", "time"), "not a result"),
                       (("declare", "1-0", "--reason", "boredom"), "not a reason"),
                       (("tags", "--tag", "Result=1-0"), "written by the game itself"),
                       (("tags", "--tag", "nonsense"), "NAME=VALUE")]:
        r = cli(*args, "--database", str(database))
        assert r.returncode == 2 and says in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)


def test_against_the_running_service_with_the_configured_token(tmp_path):
    port = free_port()
    with served(tmp_path, real_game(2), port=port) as c:
        assert wait_for(lambda: (s := state(c)) is not None and len(s["moves"]) == 2, timeout=120)
        r = cli("tags", "--white", "Alice", "--config", str(config(tmp_path, port, "wrong-token")))
        assert r.returncode == 2 and "refused" in r.stderr and "[web] token" in r.stderr
        cfg = config(tmp_path, port)
        r = cli("tags", "--white", "Alice", "--black", "Bauke", "--config", str(cfg))
        assert r.returncode == 0, r.stderr
        assert wait_for(lambda: state(c)["game"]["tags"]["White"] == "Alice")
        first = c.game_id
        r = cli("declare", "0-1", "--reason", "resignation", "--config", str(cfg))
        assert r.returncode == 0 and r.stdout == f"game {first}: 0-1 (resignation)\n", r.stderr
        assert c.store.game(first).result == "0-1"
        assert wait_for(lambda: state(c)["status"] == "over")
        r = cli("new-game", "--config", str(cfg))
        assert r.returncode == 0 and "begun by the service" in r.stdout
        assert wait_for(lambda: state(c)["game"]["id"] != first)


def test_take_back_adjourn_and_resume_against_the_running_service(tmp_path):
    """The page's other controls from the command line: take back the last move, adjourn the
    game, resume it (the service then looks for its position on the board)."""
    port = free_port()
    with served(tmp_path, real_game(4), port=port) as c:
        assert wait_for(lambda: (s := state(c)) is not None and len(s["moves"]) == 4, timeout=120)
        cfg = config(tmp_path, port)
        game = c.game_id
        r = cli("take-back", "--config", str(cfg))
        assert r.returncode == 0 and r.stdout == "the last move taken back: 3 moves recorded\n", r.stderr
        assert len(c.store.moves(game)) == 3
        r = cli("adjourn", "--config", str(cfg))
        assert r.returncode == 0 and r.stdout.startswith(f"game {game} adjourned at "), r.stderr
        assert c.store.game(game).result == "*" and c.game_id != game
        r = cli("resume", str(game), "--config", str(cfg))
        assert r.returncode == 0 and f"game {game} resumed" in r.stdout, r.stderr
        assert wait_for(lambda: c.game_id == game and c.resumed)


def test_adjourn_and_resume_on_the_store_and_take_back_needs_the_service(tmp_path):
    database = tmp_path / "games.sqlite3"
    game_id = store_with_a_game(database, plies=3)
    cfg = config(tmp_path, free_port())  # no service listens there
    r = cli("take-back", "--config", str(cfg))
    assert r.returncode == 2 and "no service runs" in r.stderr and r.stderr.count("\n") == 1
    r = cli("adjourn", "--config", str(cfg))
    assert r.returncode == 0 and r.stdout == \
        f"game {game_id} adjourned after 3 moves: the next run begins a new game\n", r.stderr
    with GameStore(database) as store:
        assert store.game_in_progress() is None
        other = store.new_game({"Event": "t"})  # the next run's game, nothing played yet
    r = cli("resume", str(game_id), "--config", str(cfg))
    assert r.returncode == 0 and "next run resumes it" in r.stdout, r.stderr
    with GameStore(database) as store:
        assert store.game_in_progress() == game_id and len(store.moves(game_id)) == 3
        assert other not in [g.id for g in store.games()]  # unplayed: removed
    r = cli("resume", str(game_id), "--config", str(cfg))
    assert r.returncode == 2 and "was not adjourned" in r.stderr
