"""Many boards, one club (issue 18): boards publish to a real mosquitto, the hub shows the round.

The broker is started by the tests on a free port with a generated configuration, password file
and ACL (`tests.mosquitto_helpers`).  Each scenario ends with the hub holding every move of every
board exactly once, in order, and writing the boards' own PDN.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace

import pytest

from device import commands, game_log, mqtt, pairings, topics
from device.app import broker_for
from device.broker import BrokerPublisher
from device.config import Config
from device.render_source import RenderedSource
from device.service import Companion
from device.store import GameStore
from device.errors import PairingsError
from device.standings import standings
from tests.device_helpers import wait_for
from tests.hub_helpers import (EVENT, BoardProcess, board_config, finished, hub_events, hub_has,
                               hub_shows, playing, plies, recorded, round_pdn_of, running_hub)
from tests.mosquitto_helpers import HUB_PASSWORD, HUB_USER, Mosquitto, board_user, needs_mosquitto
from tests.scripted_board import real_game, scripted
from tests.web_helpers import Holding, call

GAMES = (3, 6, 8)  # of the lidraughts file: 33, 40 and 35 plies, decided 1-0, 0-1, 1-0


@pytest.fixture
def broker(tmp_path):
    b = Mosquitto(tmp_path / "broker", event=EVENT).start()
    yield b
    b.stop()


def everything_there(hub, boards: list[BoardProcess]) -> bool:
    return all(finished(b.database) and hub_has(hub, b.board, b.database) for b in boards)


def each_event_once(tmp_path, boards: list[BoardProcess]) -> None:
    """The hub kept every event the boards numbered, once: (board, game, seq) 1..n, no gap."""
    kept = hub_events(tmp_path)
    assert len(kept) == len({k[:3] for k in kept})
    for b in boards:
        mine = recorded(b.database)
        for game_id, seqs in mine["outbox"].items():
            key = topics.game_key(mine["store_id"], game_id)
            assert seqs == list(range(1, len(seqs) + 1))
            assert sorted(s for board, g, s, _ in kept if board == b.board and g == key) == seqs


@needs_mosquitto
def test_the_broker_away_for_ten_seconds_mid_game_loses_nothing(tmp_path, broker):
    with playing(tmp_path, broker, GAMES, plies=36, pace=0.4) as boards:
        with running_hub(tmp_path, broker) as (hub, web):
            assert wait_for(lambda: hub_shows(hub, boards, 3), 60)
            broker.stop()
            before = {b.board: plies(b.database) for b in boards}
            time.sleep(10)
            # the boards played and recorded on while the broker was away
            assert all(plies(b.database) > before[b.board] + 5 for b in boards)
            assert not hub.connected
            broker.start()
            assert wait_for(lambda: everything_there(hub, boards), 60), _why(hub, boards)
            assert hub.round.pdn() == round_pdn_of([b.database for b in boards])
            status, text, headers = call(web.url + "round.pdn")
            assert status == 200 and text == hub.round.pdn()
            assert call(web.url + "round.pdn", headers={"If-None-Match": headers["ETag"]})[0] == 304
        each_event_once(tmp_path, boards)
        for b in boards:
            log = b.log.read_text()
            assert log.count("is away") == 1 and log.count("is back:") == 1, log


@needs_mosquitto
def test_the_hub_restarted_and_a_board_killed_lose_nothing_and_count_nothing_twice(tmp_path, broker):
    with playing(tmp_path, broker, GAMES, plies=34, pace=0.25) as boards:
        with running_hub(tmp_path, broker) as (hub, _):
            assert wait_for(lambda: hub_shows(hub, boards, 3), 60)
        # the hub is away; board 2 is killed mid-game and started again on its store
        killed = boards[1]
        time.sleep(0.5)
        killed.kill()
        at_kill = plies(killed.database)
        assert not finished(killed.database)
        time.sleep(0.5)
        killed.start()
        with running_hub(tmp_path, broker) as (hub, web):
            assert wait_for(lambda: everything_there(hub, boards), 60), _why(hub, boards)
            assert hub.round.pdn() == round_pdn_of([b.database for b in boards])
            # the killed board went on with the same game, numbering its events on
            games = recorded(killed.database)["games"]
            assert len(games) == 1 and len(next(iter(games.values()))[0]) == 34 > at_kill
            page = call(web.url)[1]
            assert all(f'id="board-{b.board}"' in page for b in boards)
        each_event_once(tmp_path, boards)


def _why(hub, boards) -> str:
    with hub.lock:
        shown = [hub.round.card(b.board)["plies"] for b in boards]
    return f"hub {shown}, boards {[plies(b.database) for b in boards]}"


@needs_mosquitto
def test_rendered_games_pairings_page_and_standings(tmp_path, broker):
    """The real pipeline: three companions watching rendered games publish through the broker;
    the hub's pairings name the players on every board; the round's page, PDN and standings."""
    played = 4
    names = {1: ("Sietske de Boer", "Jan <b>Hoekstra</b>"), 2: ("Anne", "Pieter"), 3: ("Tjitske", "Wiebe")}
    csv = tmp_path / "round.csv"
    csv.write_text("round,board,White,Black\n" + "".join(f"2,{b},{w},{k}\n" for b, (w, k) in names.items()),
                   encoding="utf-8")
    round_, paired = pairings.pick(pairings.load(csv), None, str(csv))
    with running_hub(tmp_path, broker, pairings.message(round_, paired)) as (hub, web):
        companions, threads, stop = [], [], threading.Event()
        for n, game in enumerate(GAMES, 1):
            store = GameStore(tmp_path / f"board{n}.sqlite3")
            c = Companion(source=Holding(RenderedSource(real_game(game, played), fps=6, seed=n)),
                          store=store, tags={"Event": "t"}, still_s=0.3, owns_store=True)
            c.broker = broker_for(replace(Config(), broker=board_config(broker, n)), c)
            companions.append(c)
            threads.append(threading.Thread(target=c.run, args=(stop,), daemon=True))
        for t in threads:
            t.start()
        try:
            assert wait_for(lambda: all(len(c.store.moves(c.game_id)) == played for c in companions
                                        if c.game_id is not None) and all(c.game_id for c in companions), 120)
            for c, result in zip(companions, ("1-0", "1/2-1/2", "0-1")):
                commands.submit(c, commands.declare(result, "arbiter")).result(30)
            databases = [tmp_path / f"board{n}.sqlite3" for n in (1, 2, 3)]
            assert wait_for(lambda: all(hub_has(hub, n, db) for n, db in enumerate(databases, 1)), 60)
            assert hub.round.pdn("2") == round_pdn_of(databases) == hub.round.pdn()
            for n, c in enumerate(companions, 1):
                tags = c.store.game(c.game_id).tags
                assert (tags["White"], tags["Black"], tags["Round"], tags["Board"]) == (*names[n], "2", str(n))
            page = call(web.url)[1]
            assert "Jan &lt;b&gt;Hoekstra&lt;/b&gt;" in page and "<b>Hoekstra" not in page
            assert '<a class="card-link" href="/board/2">' in page
            board_page = call(web.url + "board/1")[1]
            assert "Sietske de Boer" in board_page and "<li>" in board_page
            table = call(web.url + "api/standings")[1]
            assert [(s["player"], s["points"]) for s in table][:2] == [("Sietske de Boer", 2), ("Wiebe", 2)]
            assert "Standings" in call(web.url + "standings")[1]
            status, text, headers = call(web.url + "round.pdn?download=1")
            assert status == 200 and 'filename="round-2.pdn"' in headers["Content-Disposition"]
        finally:
            stop.set()
            for t in threads:
                t.join(60)
            for c in companions:
                c.close()


def sse_cards(url: str, count: int) -> list[dict]:
    """The first ``count`` board events of the page's ``/api/events``."""
    import http.client
    import json
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("GET", "/api/events")
        r = conn.getresponse()
        out = []
        while len(out) < count:
            line = r.fp.readline().decode()
            if line.startswith("data: "):
                out.append(json.loads(line[len("data: "):]))
        return out
    finally:
        conn.close()


@needs_mosquitto
def test_an_open_irregularity_is_said_once_with_its_article_in_the_hubs_language(tmp_path, broker):
    """Issue 17 on the hub: a man moved two squares forward (Art. 27d), the opponent not yet
    replied.  The round's page, the board's page and the live card say the irregularity as the
    board's own page does: in the hub's language (Dutch: the article, then what is wrong), the
    article once (English: the rules' sentence, which ends with it)."""
    from device.config import WebConfig
    from device.hub_web import HubWebServer
    from rules.game import Game
    from rules.move import Move
    from rules.position import Position

    start = Position.start()
    board = start.pieces()
    board[25] = board.pop(34)
    game = Game(start=start, tags={"Event": "t"})
    game.push_irregular(Move(34, 25, (34, 25)), Position.setup(board, start.turn.other), "UNREACHABLE")
    dutch = ('<p class="pending" lang="nl">artikel 27d: er staat een stuk waar geen zet het kan '
             'brengen</p>')
    english = ('<p class="pending" lang="en">no legal move takes the white man on 34 to 25: a man '
               'moves one square at a time (Art. 6) (Art. 27d)</p>')
    with running_hub(tmp_path, broker, language="nl") as (hub, web):
        in_english = HubWebServer(WebConfig(bind="127.0.0.1", port=0), hub).start()
        c = Companion(source=Holding(RenderedSource(game, fps=6, seed=7)),
                      store=GameStore(tmp_path / "board1.sqlite3"), tags={"Event": "t"},
                      still_s=0.3, owns_store=True)
        c.broker = broker_for(replace(Config(), broker=board_config(broker, 1)), c)
        stop = threading.Event()
        thread = threading.Thread(target=c.run, args=(stop,), daemon=True)
        thread.start()
        try:
            # (the live card follows the page's by up to FLUSH_S: a page connecting now gets it)
            assert wait_for(lambda: 'class="pending"' in sse_cards(web.url, 1)[0]["html"], 180)
            [card] = sse_cards(web.url, 1)
            assert dutch in card["html"] and "Art. 27d" not in card["html"]
            assert dutch in call(web.url)[1] and dutch in call(web.url + "board/1")[1]
            page = call(in_english.url)[1]
            assert english in page and page.count("27d") == 1
        finally:
            stop.set()
            thread.join(60)
            c.close()
            in_english.close()


@needs_mosquitto
def test_a_board_started_without_its_broker_records_and_sends_all_once_it_is_there(tmp_path, caplog):
    broker = Mosquitto(tmp_path / "broker", event=EVENT)  # not started yet
    caplog.set_level(logging.INFO, logger="device.broker")
    c, watcher = scripted(tmp_path / "board1.sqlite3", real_game(3, 8), 0.05, board_config(broker, 1))
    watcher._declared = True  # the game stays in progress after its 8 moves
    stop = threading.Event()
    thread = threading.Thread(target=c.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: len(c.store.moves(c.game_id)) == 8, 30)
        assert wait_for(lambda: "cannot be reached yet" in caplog.text, 10)
        assert c.broker.acked == 0 and len(c.store.outbox(c.game_id)) >= 9  # the game, 8 moves
        broker.start()
        with running_hub(tmp_path, broker) as (hub, _):
            assert wait_for(lambda: hub_has(hub, 1, tmp_path / "board1.sqlite3"), 30)
            # (the broker's PUBACKs are recorded as they come: the hub may have them all first)
            assert wait_for(lambda: all(acked for *_, acked in c.store.outbox(c.game_id)), 30)
            # a game that ended by the arbiter's command as the next began reaches the hub too
            first = c.game_id
            commands.submit(c, commands.adjourn()).result(30)
            assert c.game_id != first and c.store.game(first).termination == "adjourned"
            assert wait_for(lambda: hub_has(hub, 1, tmp_path / "board1.sqlite3"), 30)
            with hub.lock:
                [game] = hub.round.board_games(1)
                assert game.view.end["termination"] == "adjourned" and hub.round.current(1).key.endswith(f"-{c.game_id}")
    finally:
        stop.set()
        thread.join(30)
        c.close()
        broker.stop()
    assert caplog.text.count("cannot be reached yet") == 1


@needs_mosquitto
def test_the_acl_lets_a_board_write_only_its_own_topics_and_the_hub_only_the_pairings(tmp_path, broker, caplog):
    got: list[str] = []
    address = mqtt.parse_url(broker.url)
    connected = threading.Event()
    reader = mqtt.connect(address, "reader", mqtt.Handlers(
        connected=connected.set, message=lambda topic, payload, retained: got.append(topic)),
        username=HUB_USER, password=HUB_PASSWORD)
    clients = []
    try:
        assert connected.wait(10)
        reader.subscribe(f"frisian/{EVENT}/#", qos=1)
        time.sleep(0.3)
        for user, password, topic in [(*board_user(1), f"frisian/{EVENT}/2/state"),  # another board's
                                      (*board_user(1), f"frisian/{EVENT}/pairings"),
                                      (HUB_USER, HUB_PASSWORD, f"frisian/{EVENT}/1/state"),
                                      (*board_user(1), f"frisian/{EVENT}/1/state")]:  # its own: allowed
            ok = threading.Event()
            client = mqtt.connect(address, f"writer-{len(clients)}", mqtt.Handlers(connected=ok.set),
                                  username=user, password=password)
            clients.append(client)
            assert ok.wait(10)
            client.publish(topic, b"x", qos=1).wait_for_publish(5)
        assert wait_for(lambda: f"frisian/{EVENT}/1/state" in got, 10)
        time.sleep(0.3)
        assert got == [f"frisian/{EVENT}/1/state"]
        # a wrong password: refused, said once with what to fix
        caplog.set_level(logging.INFO, logger="device.broker")
        with GameStore(tmp_path / "b.sqlite3") as store:
            publisher = BrokerPublisher(replace(board_config(broker, 1), password="wrong"), store).start()
            try:
                assert wait_for(lambda: "refused board 1" in caplog.text, 15)
            finally:
                publisher.close()
        assert caplog.text.count("refused board 1") == 1 and "broker.password" in caplog.text
    finally:
        for client in clients + [reader]:
            mqtt.stop(client)


def test_the_game_log_brings_a_view_to_the_store_through_take_backs_and_comments():
    move = lambda ply, text: {"ply": ply, "number": (ply + 1) // 2, "color": "W" if ply % 2 else "B",
                              "text": text, "fen": "W:W1:B2", "time": 1.5, "irregular": None}
    header = {"tags": {"White": "A"}, "start_fen": None, "started": 10.0}
    first = game_log.GameView(header, (move(1, "32-28"), move(2, "19-23")))
    later = game_log.GameView({**header, "tags": {"White": "B"}},
                              (move(1, "32-28"), move(2, "18-23"), move(3, "28x19")), ((2, "hm"),),
                              {"result": "1-0", "termination": "resignation", "finished": 20.0,
                               "status": "finished"}, {"article": "Art. 27", "summary": "s"})
    events = game_log.diff(first, later)
    assert [k for k, _ in events] == ["game", "takeback", "move", "move", "comments", "end", "irregularity"]
    view = first
    for kind, payload in events:
        view = game_log.apply(view, kind, payload)
    assert view == later and game_log.diff(view, later) == []
    assert game_log.diff(later, game_log.GameView(removed=True)) == [("removed", {})]


def test_pairings_files_and_their_mistakes(tmp_path):
    good = tmp_path / "r.csv"
    good.write_text("round,board,White,Black\n1,1,A,B\n1,2,C,D\n2,1,B,C\n")
    rounds = pairings.load(good)
    assert pairings.pick(rounds, None, "r.csv")[0] == "2"
    assert pairings.message("1", rounds["1"]) == {"round": "1", "boards": {"1": {"White": "A", "Black": "B"},
                                                                            "2": {"White": "C", "Black": "D"}}}
    for text, says in [("1,1,A\n", "line 1"), ("1,x,A,B\n", "board 'x'"), ("1,1,A,B\n1,1,C,D\n", "twice")]:
        bad = tmp_path / "bad.csv"
        bad.write_text(text)
        with pytest.raises(PairingsError) as info:
            pairings.load(bad)
        assert says in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(PairingsError, match="no round 9"):
        pairings.pick(rounds, "9", "r.csv")
    assert [(s.player, s.points) for s in standings([("A", "B", "1-0"), ("B", "C", "1/2-1/2"),
                                                      ("C", "A", "*")])] == [("A", 2), ("C", 1), ("B", 1)]


def test_topics_are_taken_apart_for_the_event_only():
    assert topics.parse("e", topics.event("e", 3, "ab-1", 7)) == topics.Topic(3, "event", "ab-1", 7)
    assert topics.parse("e", topics.state("e", 12)) == topics.Topic(12, "state")
    assert topics.parse("other", topics.state("e", 12)) is None
    assert topics.parse("e", topics.pairings("e")) is None


def test_the_hub_command_says_a_bad_broker_address_in_one_line(capsys):
    from device.cli import main

    assert main(["hub", "--url", "http://x", "--database", ":memory:", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("frisian-companion: error: --url") and "mqtt://HOST:PORT" in err and "\n" not in err
