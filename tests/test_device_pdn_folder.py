"""Finished games written into ``[paths] pdn_folder`` (device.pdn_folder, issue 19 item 7: the key
was configured and never used).  A real store and a real arbiter judging boards of a game that
the rules end."""

from __future__ import annotations

import logging

from device.pdn_folder import PdnFolder
from device.store import GameStore, StoreSink
from rules.arbiter import Arbiter
from rules.events import GameOver, MovePlayed
from rules.game import Game
from rules.observation import Observation, Settled
from rules.pdn import read_games
from rules.position import Position

#: White takes Black's last man: the game ends by the rules (Art. 20a: no pieces left).
START = "W:W28,45:B23"


def play_to_the_end(store: GameStore, folder) -> tuple[int, list]:
    game_id = store.new_game({"Event": "club night", "White": "Jansen", "Black": "de Vries"}, START)
    sinks = [StoreSink(store, game_id), PdnFolder(folder, store, lambda: game_id)]
    arbiter = Arbiter(Game(start=Position.from_fen(START)))
    after = Position.from_fen(START).play_text("28x19").pieces()
    events = arbiter.observe(Settled(Observation.from_board(after, 0.99), (28,), 12.5))
    for event in events:  # as the service dispatches them: the store first
        for sink in sinks:
            sink.on_event(event)
    return game_id, list(events)


def test_a_finished_game_is_written_to_the_folder_with_its_result(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    folder = tmp_path / "pdn"
    game_id, events = play_to_the_end(store, folder)
    assert [type(e) for e in events if isinstance(e, (MovePlayed, GameOver))] == [MovePlayed, GameOver]
    written = folder / f"game-{game_id:04d}.pdn"
    [read] = list(read_games(written.read_text(encoding="utf-8")))
    assert read.problem is None and read.game.move_texts() == ["28x19"]
    assert read.tags_seen["Result"] == "1-0" and read.tags_seen["White"] == "Jansen"
    assert written.read_text(encoding="utf-8") == store.export_pdn(game_id)
    assert sorted(p.name for p in folder.iterdir()) == [written.name]  # no part file left
    store.close()


def test_a_folder_that_cannot_be_written_is_logged_and_the_game_goes_on(tmp_path, caplog):
    store = GameStore(tmp_path / "games.sqlite3")
    blocked = tmp_path / "pdn"
    blocked.write_text("a file where the folder should be")
    with caplog.at_level(logging.WARNING, logger="device.pdn_folder"):
        game_id, events = play_to_the_end(store, blocked)
    assert any(isinstance(e, GameOver) for e in events)
    assert f"cannot write game {game_id}" in caplog.text and f"export --game {game_id}" in caplog.text
    assert store.game(game_id).result == "1-0"  # the store has it all the same
    store.close()


def test_the_configured_folder_is_used_beside_the_store(tmp_path):
    """``[paths] pdn_folder`` relative to the database's folder; empty: no folder."""
    from device.app import Options, build
    from device.config import load_config

    for value, expected in (('"finished"', tmp_path / "finished"), ('""', None)):
        config_file = tmp_path / "config.toml"
        config_file.write_text(f"[paths]\npdn_folder = {value}\n[speech]\nenabled = false\n"
                               "[web]\nenabled = false\n")
        companion = build(load_config(str(config_file)),
                          Options(source="render", database=str(tmp_path / "g.sqlite3"), mock_pins=True))
        try:
            folders = [s.folder for s in companion.sinks if isinstance(s, PdnFolder)]
            assert folders == ([expected] if expected else [])
        finally:
            companion.close()
