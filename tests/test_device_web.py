"""The club's screen at the HTTP level (device.web, device.live, device.commands): a rendered
game runs through the service while the API answers; the arbiter's controls need the token."""

from __future__ import annotations

import http.client
import json
import logging
import urllib.parse
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Callable

import pytest

from device.config import WebConfig
from device.errors import WebError
from device.store import GameStore
from device.login_guard import FIRST_LOCK_S, FREE_TRIES, LoginGuard
from device.web import WebServer, free_port
from device.render_source import RenderedSource
from device.setup_reading import CORNER_NAMES
from device.sources import Frame
from rules.game import Game
from rules.pdn import read_games
from rules.position import Position
from tests.device_helpers import wait_for
from tests.web_helpers import (SETUP_GAME, TOKEN, UNSURE_SEED, bearer, call, real_game,
                               rendered_corner, served, state)

PLIES = 3


def moves_shown(c) -> int:
    s = state(c)
    return -1 if s is None else len(s["moves"])


def test_the_state_follows_the_game_and_a_reconnecting_page_gets_all_of_it(tmp_path):
    game = real_game(PLIES)
    with served(tmp_path, game) as c:
        assert c.web.port and c.web.url == f"http://127.0.0.1:{c.web.port}/"
        assert wait_for(lambda: moves_shown(c) == PLIES, timeout=120)
        s = state(c)
        assert [m["text"] for m in s["moves"]] == game.move_texts()
        assert s["status"] == "playing" and s["turn"] == "black"
        assert s["fen"] == game.position.fen()
        assert s["last_move"]["from"] == game.moves[-1].from_square
        # a page connecting now gets the whole state at once, as its first event
        conn = http.client.HTTPConnection("127.0.0.1", c.web.port, timeout=30)
        conn.request("GET", "/api/events")
        r = conn.getresponse()
        assert r.status == 200 and r.getheader("Content-Type").startswith("text/event-stream")
        data = None
        while data is None:
            line = r.fp.readline().decode()
            if line.startswith("data: "):
                data = json.loads(line[len("data: "):])
        conn.close()
        assert [m["text"] for m in data["state"]["moves"]] == game.move_texts()
        assert data["boards"]["white"].startswith("<svg") and 'data-side="black"' in data["boards"]["black"]


def test_controls_need_the_token_and_change_nothing_without_it(tmp_path):
    with served(tmp_path, real_game(PLIES)) as c:
        assert wait_for(lambda: moves_shown(c) == PLIES, timeout=120)
        url = c.web.url
        for path, body in [("api/tags", {"tags": {"White": "Mallory"}}), ("api/take-back", {}),
                           ("api/declare", {"result": "0-1", "reason": "resignation"}),
                           ("api/new-game", {}), ("api/read-position", {})]:
            c.web.guard = LoginGuard()  # each path's wrong tries counted afresh (the lock-out: below)
            assert call(url + path, "POST", body)[0] == 401
            assert call(url + path, "POST", body, bearer("wrong"))[0] == 401
            assert call(url + path, "POST", body, {"Cookie": "companion_token=wrong"})[0] == 401
        s = state(c)
        assert len(s["moves"]) == PLIES and s["game"]["result"] == "*"
        assert s["game"]["tags"].get("White") != "Mallory"
        assert c.store.game(c.game_id).in_progress and len(c.store.moves(c.game_id)) == PLIES
        # the PIN entered on the page gives a cookie that works as the token does
        assert call(url + "api/login", "POST", {"token": "nope"})[0] == 401
        status, _, headers = call(url + "api/login", "POST", {"token": TOKEN})
        assert status == 200 and "HttpOnly" in headers["Set-Cookie"]
        cookie = headers["Set-Cookie"].split(";")[0]
        assert call(url + "api/whoami", headers={"Cookie": cookie})[1] == {"controls": True, "arbiter": True}
        assert call(url + "api/whoami")[1] == {"controls": True, "arbiter": False}
        status, answer, _ = call(url + "api/tags", "POST", {"tags": {"White": "Alice"}}, {"Cookie": cookie})
        assert status == 200 and answer["answer"]["tags"]["White"] == "Alice"
        # a form posted from another site cannot send JSON: anything else is refused
        assert call(url + "api/take-back", "POST", raw=b"x=1",
                    headers={**bearer(), "Content-Type": "application/x-www-form-urlencoded"})[0] == 415


def test_tags_take_back_declare_and_new_game_go_through_the_service(tmp_path):
    game = real_game(PLIES)
    with served(tmp_path, game) as c:
        assert wait_for(lambda: moves_shown(c) == PLIES, timeout=120)
        url, first = c.web.url, c.game_id
        status, _, _ = call(url + "api/tags", "POST",
                            {"tags": {"White": "<script>alert(1)</script>", "Black": "Bauke \"B\" de Vries",
                                      "Round": "3", "Board": "2"}}, bearer())
        assert status == 200
        assert call(url + "api/tags", "POST", {"tags": {"Result": "1-0"}}, bearer())[0] == 400
        assert call(url + "api/take-back", "POST", {}, bearer())[0] == 200
        assert wait_for(lambda: moves_shown(c) == PLIES - 1)
        assert len(c.store.moves(first)) == PLIES - 1
        assert call(url + "api/declare", "POST", {"result": "1/2-1/2", "reason": "resignation"},
                    bearer())[0] == 400  # a resignation is a win
        status, answer, _ = call(url + "api/declare", "POST", {"result": "0-1", "reason": "resignation"}, bearer())
        assert status == 200, answer
        stored = c.store.game(first)
        assert not stored.in_progress and stored.result == "0-1" and stored.termination == "resignation"
        assert wait_for(lambda: state(c)["status"] == "over")
        assert call(url + "api/declare", "POST", {"result": "1-0", "reason": "time"}, bearer())[0] == 409
        assert call(url + "api/take-back", "POST", {}, bearer())[0] == 409
        event = "Winter 24/25 & more"  # tags may still be put right once the game is over
        assert call(url + "api/tags", "POST", {"tags": {"Event": event}}, bearer())[0] == 200
        [read] = list(read_games(call(url + f"pdn/game/{first}.pdn")[1]))
        by_event = call(url + f"pdn/event/{urllib.parse.quote(event, safe='')}.pdn")[1]
        assert [g.game.move_texts() for g in read_games(by_event)] == [read.game.move_texts()]
        assert call(url + "pdn/event/nothing.pdn")[0] == 404
        assert read.game.tags["White"] == "<script>alert(1)</script>"
        assert read.game.tags["Black"] == 'Bauke "B" de Vries' and read.game.tags["Round"] == "3"
        assert read.game.move_texts() == game.move_texts()[:PLIES - 1]
        assert read.game.declared_result == "0-1"
        # the next game: the lasting tags carry over, the names do not
        status, answer, _ = call(url + "api/new-game", "POST", {}, bearer())
        assert status == 200 and answer["answer"] != first
        assert wait_for(lambda: state(c)["game"]["id"] == answer["answer"])
        s = state(c)
        assert s["status"] == "waiting" and s["moves"] == [] and s["announcements"] == []
        assert s["game"]["tags"]["Round"] == "3" and s["game"]["tags"].get("White") != "<script>alert(1)</script>"


def test_a_new_game_sets_an_unfinished_one_aside_and_may_begin_from_a_fen(tmp_path):
    with served(tmp_path, real_game(PLIES)) as c:
        assert wait_for(lambda: moves_shown(c) == PLIES, timeout=120)
        first = c.game_id
        assert call(c.web.url + "api/new-game", "POST", {"fen": "W:W99"}, bearer())[0] == 400
        status, answer, _ = call(c.web.url + "api/new-game", "POST", {"fen": "W:W28,K35:B12,19"}, bearer())
        assert status == 200
        old = c.store.game(first)
        assert not old.in_progress and old.result == "*"
        assert c.store.game(answer["answer"]).start_fen == "W:W28,K35:B12,19"
        assert wait_for(lambda: state(c)["fen"] == "W:W28,K35:B12,19")


def test_the_live_pdn_is_answered_304_until_the_game_changes(tmp_path):
    with served(tmp_path, real_game(PLIES)) as c:
        assert wait_for(lambda: moves_shown(c) == PLIES, timeout=120)
        url = c.web.url + "live.pdn"
        status, text, headers = call(url)
        assert status == 200 and headers["ETag"] and headers["Last-Modified"]
        assert [g.game.move_texts() for g in read_games(text)] == [real_game(PLIES).move_texts()]
        assert call(url, headers={"If-None-Match": headers["ETag"]})[0] == 304
        assert call(url, headers={"If-Modified-Since": headers["Last-Modified"]})[0] == 304
        call(c.web.url + "api/take-back", "POST", {}, bearer())
        assert wait_for(lambda: moves_shown(c) == PLIES - 1)
        status, text, changed = call(url, headers={"If-None-Match": headers["ETag"]})
        assert status == 200 and changed["ETag"] != headers["ETag"]
        assert len(list(read_games(text))[0].game.moves) == PLIES - 1


# -- without a game: the server alone


@pytest.fixture
def server(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    s = WebServer(WebConfig(bind="127.0.0.1", port=0, token=""), store).start()
    yield s
    s.close()
    store.close()


@pytest.mark.parametrize("path", [
    "/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fetc%2fpasswd",
    "/static/%2e%2e%2fweb.py", "/static/..%2f__init__.py", "/../device/web.py", "/static/",
    "/static/.%2findex.html", "/etc/passwd",
])
def test_no_path_outside_the_static_files_is_reachable(server, path):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", path)  # sent as it stands, not tidied by a client
    r = conn.getresponse()
    body = r.read().decode("utf-8", "replace")
    conn.close()
    assert r.status == 404, (path, r.status)
    assert "root:" not in body and "import" not in body


def test_the_page_and_its_files_are_served_with_a_policy_against_injected_scripts(server):
    status, text, headers = call(server.url)
    assert status == 200 and "/static/app.js" in text
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert call(server.url + "static/app.js")[0] == 200
    assert call(server.url + "static/style.css")[2]["Content-Type"].startswith("text/css")


def test_with_no_token_configured_the_controls_are_off(server):
    assert call(server.url + "api/whoami")[1] == {"controls": False, "arbiter": False}
    assert call(server.url + "api/login", "POST", {"token": ""})[0] == 403
    for path in ("api/tags", "api/take-back", "api/declare", "api/new-game"):
        assert call(server.url + path, "POST", {}, bearer(""))[0] == 403


def test_a_port_in_use_is_one_line_naming_the_key(tmp_path, server):
    store = GameStore(tmp_path / "other.sqlite3")
    try:
        with pytest.raises(WebError) as e:
            WebServer(WebConfig(bind="127.0.0.1", port=server.port), store).start()
        assert "[web] port" in str(e.value) and "\n" not in str(e.value)
    finally:
        store.close()


def test_a_free_port_is_found():
    assert 0 < free_port() < 65536


def fetch(url: str, headers: dict) -> tuple[int, bytes, dict]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def test_the_camera_view_is_the_arbiters_and_draws_the_board_where_vision_found_it(tmp_path):
    import cv2
    import numpy as np

    from vision.locate import GRID_CORNERS

    with served(tmp_path, real_game(1)) as c:
        assert wait_for(lambda: moves_shown(c) == 1, timeout=120)
        url = c.web.url + "camera.jpg"
        assert fetch(url, {})[0] == 401
        c.web.camera_every_s = 3600.0  # made once, then the same still however often asked
        status, data, headers = fetch(url, bearer())
        assert status == 200 and headers["Content-Type"] == "image/jpeg"
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        frame = c.last_frame.image
        scale = image.shape[1] / frame.shape[1]
        assert image.shape[1] == min(960, frame.shape[1])
        corners = c.watcher.calibration.location.to_image(GRID_CORNERS) * scale
        for x, y in corners:  # the outline (green) passes through the playing area's corners
            patch = image[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4].astype(int)
            green = patch[..., 1] - np.maximum(patch[..., 0], patch[..., 2])
            assert green.max() > 80, (x, y)
        assert fetch(url, bearer())[2]["X-Frame-Index"] == headers["X-Frame-Index"]
        status, dutch, _ = fetch(url + "?lang=nl", bearer())  # its banner in Dutch: its own still
        assert status == 200 and cv2.imdecode(np.frombuffer(dutch, np.uint8), cv2.IMREAD_COLOR).shape == image.shape
        c.web.camera_every_s = 0.0
        assert wait_for(lambda: int(fetch(url, bearer())[2]["X-Frame-Index"]) > int(headers["X-Frame-Index"]))


def test_the_camera_views_labels_stand_out_on_light_pieces_and_squares():
    """Each square's label (its number and what the game says stands there) is white text on
    a dark patch: on a white piece or a light square it is read as well as on a dark one."""
    import cv2
    import numpy as np

    from device import camera_view
    from rules.piece import Color, Piece
    from vision.calibration import Orientation
    from vision.locate import BoardLocation

    image = np.full((960, 1280, 3), 235, np.uint8)  # a light board under light pieces
    location = BoardLocation.from_homography(np.array([[80.0, 0, 240], [0, 80.0, 80], [0, 0, 1]]),
                                             81, "test")
    orientation = Orientation.from_corner_46(3)
    drawn = camera_view.draw(image, location, orientation, {sq: Piece(Color.WHITE, False) for sq in range(31, 51)})
    grey = cv2.cvtColor(drawn, cv2.COLOR_BGR2GRAY).astype(int)
    centres = location.to_image(np.array([[c + 0.5, r + 0.5] for r, c in orientation.square_cells()]))
    for sq, (x, y) in enumerate(centres, 1):
        label = f"{sq} w" if sq > 30 else str(sq)
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)
        box = grey[int(y) - h // 2:int(y) + h // 2 + 1, int(x) - w // 2:int(x) + w // 2 + 1]
        # (the ground: a quarter of the box's pixels at least; a one-digit label's strokes
        # cover half its tight box where OpenCV 4.6 draws them bolder)
        text, ground = np.percentile(box, 95), np.percentile(box, 25)
        assert ground < 120 and text - ground > 100, (sq, ground, text)


def test_the_camera_views_banner_says_the_whole_warning_in_the_pages_language():
    """The king-placement warning across the top of the camera view is wrapped at word breaks
    to the still's width, never cut (its end says the fix), and said in the page's language."""
    import cv2

    from device import camera_view
    from device.setup_reading import Said
    from vision.notes import Note

    cells = ", ".join(f"({r},{c})" for r, c in [(9, 0), (9, 2), (8, 1), (9, 4), (8, 3), (7, 0)])
    warning = Note("kings_near_camera", f"kings cannot be told from men surely on 6 square(s) "
                   f"nearest the camera ({cells}): a king's top is under 2.5 pixels from a man's "
                   "there; tilt the camera further or bring it closer", count=6, cells=cells,
                   sure_px=2.5)
    for language, said in (("en", str(warning)), ("nl", Said.of(warning).say("nl"))):
        lines = camera_view.banner_lines(warning, True, 1280, language)
        assert len(lines) >= 2 and " ".join(lines) == said, lines
        for line in lines:
            width = cv2.getTextSize(line, camera_view.FONT, camera_view.BANNER_TEXT, 2)[0][0]
            assert width <= 1280 - 16, line
    assert " ".join(lines).endswith("kantel de camera verder of zet hem dichterbij")
    assert camera_view.banner_lines(warning, False, 1280, "nl") == ["Het bord is nog niet gevonden"]
    assert camera_view.banner_lines(None, True, 1280) == []


def test_a_page_that_goes_away_leaves_no_stream_behind(server):
    from rules.position import Position

    server.publish({"version": 1, "fen": Position.start().fen(), "last_move": None})
    conns = []
    for _ in range(3):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", "/api/events")
        r = conn.getresponse()
        while not r.fp.readline().startswith(b"data: "):
            pass
        conns.append((conn, r))
    assert wait_for(lambda: server.clients == 3)
    for conn, r in conns:
        r.close()
        conn.close()
    server.publish({"version": 2, "fen": Position.start().fen(), "last_move": None})
    assert wait_for(lambda: server.clients == 0, timeout=30)


def test_a_command_failing_in_the_service_is_a_500_and_the_game_goes_on(tmp_path, monkeypatch):
    from device.errors import StoreFault

    with served(tmp_path, real_game(2)) as c:
        assert wait_for(lambda: moves_shown(c) == 2, timeout=120)

        def broken(*args):
            raise StoreFault("the disk failed")

        monkeypatch.setattr(c.store, "set_tags", broken)
        status, answer, _ = call(c.web.url + "api/tags", "POST", {"tags": {"White": "A"}}, bearer())
        assert status == 500 and "tags command failed" in answer["error"]
        assert call(c.web.url + "api/take-back", "POST", {}, bearer())[0] == 200  # still served
        assert wait_for(lambda: moves_shown(c) == 1)


def test_an_adjourned_game_is_resumed_from_the_board_showing_its_position(tmp_path, caplog):
    game = real_game(PLIES)
    caplog.set_level(logging.INFO)
    with served(tmp_path, game) as c:
        assert wait_for(lambda: moves_shown(c) == PLIES, timeout=120)
        url, first = c.web.url, c.game_id
        assert call(url + "api/adjourn", "POST", {})[0] == 401
        status, answer, _ = call(url + "api/adjourn", "POST", {}, bearer())
        assert status == 200 and answer["answer"] == {"game": first, "fen": game.position.fen()}
        adjourned = c.store.game(first)
        assert (adjourned.result, adjourned.termination, adjourned.in_progress) == ("*", "adjourned", False)
        assert call(url + "api/adjourned")[1] == [{"id": first, "white": "?", "black": "?", "moves": PLIES}]
        assert wait_for(lambda: state(c)["status"] == "waiting" and state(c)["game"]["id"] != first)
        unplayed = c.game_id
        # the adjourned game's pieces, still standing, are not taken for a new game begun unseen
        left = f"The board still shows the position game {first} was left in (adjourned: resume it"
        assert wait_for(lambda: any(left in r.getMessage() for r in caplog.records), timeout=60)
        assert c.store.moves(unplayed) == [] and state(c)["status"] == "waiting"
        assert call(url + "api/resume", "POST", {"game": unplayed}, bearer())[0] == 409  # not adjourned
        assert call(url + "api/resume", "POST", {"game": "x"}, bearer())[0] == 400
        assert call(url + "api/resume", "POST", {"game": first}, bearer())[0] == 200
        # the board still shows the adjourned position: the game goes on from it
        assert wait_for(lambda: state(c)["game"]["id"] == first and state(c)["status"] == "playing",
                        timeout=60)
        assert [m["text"] for m in state(c)["moves"]] == game.move_texts()
        assert c.store.game_in_progress() == first  # a restart goes on with it too
        assert [g.id for g in c.store.games()] == [first]  # the game never played is gone
        assert call(url + "api/adjourned")[1] == []
        assert call(url + "api/take-back", "POST", {}, bearer())[0] == 200
        assert len(c.store.moves(first)) == PLIES - 1


def test_the_arbiter_turns_a_reading_that_swapped_white_and_black(tmp_path):
    """Issue 17: the orientation corrected from the page.  Before the first move the arbiter
    says the board is read a half turn off (the lighter pieces are Black's here): vision reads
    it turned from then on, and the next games take the darker pieces for White's.  Once a move
    is recorded it is refused (take it back, or begin a new game)."""
    with served(tmp_path, real_game(0)) as c:
        assert wait_for(lambda: state(c) is not None and state(c)["status"] == "playing", timeout=60)
        url = c.web.url
        before, lighter = c.watcher.calibration.orientation.corner_46, c.white_is_lighter
        assert call(url + "api/turn", "POST", {})[0] == 401
        status, answer, _ = call(url + "api/turn", "POST", {}, bearer())
        assert status == 200, answer
        corner = c.watcher.calibration.orientation.corner_46
        assert corner == (before + 2) % 4 and c.white_is_lighter is not lighter
        assert answer["answer"]["corner_46"] == ("top-left", "top-right", "bottom-right",
                                                 "bottom-left")[corner]
    with served(tmp_path, real_game(2), database=tmp_path / "other.sqlite3") as c:
        assert wait_for(lambda: state(c) is not None and len(state(c)["moves"]) == 2, timeout=120)
        status, answer, _ = call(c.web.url + "api/turn", "POST", {}, bearer())
        assert status == 409 and "moves are recorded" in answer["error"]


# -- a set-up position read from the camera (issue 17)

def set_up_only() -> Game:
    return Game(start=SETUP_GAME.start, tags={"Event": "problem"})


def turned(fen: str) -> str:
    """``fen`` turned half round (square n where 51 - n stood)."""
    position = Position.from_fen(fen)
    return Position.setup({51 - sq: p for sq, p in position.pieces().items()}, position.turn).fen()


def test_the_arbiter_reads_a_set_up_position_from_the_camera_and_plays_from_it(tmp_path):
    """The position on the board is read from the camera's last frame, square 46 at the
    configured corner; only the arbiter may ask; the FEN read begins the new game."""
    game = set_up_only()
    corner = rendered_corner(game, seed=5)
    with served(tmp_path, game, seed=5, corner_46=corner) as c:
        assert wait_for(lambda: c.last_frame is not None, timeout=60)
        url = c.web.url + "api/read-position"
        assert call(url, "POST", {})[0] == 401
        assert call(url, "POST", {}, bearer("wrong"))[0] == 401
        assert call(url, "POST", {"turn": "red"}, bearer())[0] == 400
        status, answer, _ = call(url, "POST", {}, bearer())
        assert status == 200, answer
        read = answer["answer"]
        assert read["fen"] == SETUP_GAME.start.fen() and read["unsure"] == []
        assert read["orientation"] == {"corner_46": CORNER_NAMES[corner], "by": "configuration",
                                       "sure": True}
        assert call(url, "POST", {"turn": "black"}, bearer())[1]["answer"]["fen"] == \
            "B" + SETUP_GAME.start.fen()[1:]
        status, answer, _ = call(c.web.url + "api/new-game", "POST", {"fen": read["fen"]}, bearer())
        assert status == 200
        assert c.store.game(answer["answer"]).start_fen == SETUP_GAME.start.fen()
        assert wait_for(lambda: state(c)["fen"] == SETUP_GAME.start.fen())


def answering(companion) -> Callable:
    """A service's ``submit`` that applies each request to ``companion`` at once."""
    def submit(request):
        events = request(companion, None)
        request.done(events)
        return request.future
    return submit


@pytest.fixture(scope="module")
def unsure_frame() -> SimpleNamespace:
    """The rendering's first frame (``frame``) and square 46's corner in it (``corner``)."""
    source = RenderedSource(set_up_only(), fps=6, seed=UNSURE_SEED)
    source.open()
    frame = source.read()
    return SimpleNamespace(frame=frame, corner=source.truth.corner_46)


@contextmanager
def reading_server(tmp_path, frame: Frame | None, *, calibrated: int | None = None,
                   configured: int | None = None, white_is_lighter: bool = True):
    from vision.calibration import Orientation

    calibration = None if calibrated is None else \
        SimpleNamespace(orientation=Orientation.from_corner_46(calibrated))
    companion = SimpleNamespace(last_frame=frame, watcher=SimpleNamespace(calibration=calibration),
                                calibrated=calibration is not None,
                                configured_corner=configured, white_is_lighter=white_is_lighter)
    store = GameStore(tmp_path / "games.sqlite3")
    server = WebServer(WebConfig(bind="127.0.0.1", port=0, token=TOKEN), store,
                       answering(companion)).start()
    try:
        yield server.url + "api/read-position"
    finally:
        server.close()
        store.close()


def test_a_reading_names_the_squares_it_is_unsure_of_with_their_alternative(tmp_path, unsure_frame):
    """The king the camera cannot tell from a man is read as a man and named, with the king as
    its alternative; taking it gives the position on the board.  The watcher's orientation
    comes before the configured one."""
    truth = unsure_frame.corner
    with reading_server(tmp_path, unsure_frame.frame, calibrated=truth, configured=(truth + 2) % 4) as url:
        status, answer, _ = call(url, "POST", {}, bearer())
    assert status == 200, answer
    read = answer["answer"]
    assert read["orientation"] == {"corner_46": CORNER_NAMES[truth], "by": "calibration", "sure": True}
    assert read["unsure"] == [{"square": 22, "read": "b", "alternative": "B", "why": "king"}]
    assert read["fen"] == SETUP_GAME.start.fen().replace("BK22", "B22")
    # the camera's limit, said in both languages by its code (the page says it in its own)
    [limit] = [w for w in read["warnings"] if w["code"].startswith("kings_")]
    assert limit["code"] == "kings_camera_steep", read["warnings"]
    assert limit["text"]["en"].startswith("kings cannot be told from men surely: a king's top is only ")
    assert limit["text"]["nl"].startswith("dammen zijn niet zeker van schijven te onderscheiden: "
                                          "de bovenkant van een dam ligt maar ")
    assert "graden uit het lood" in limit["text"]["nl"] and "pixels" in limit["text"]["nl"]
    # the unsure king is said as its square, not again as the reader's warning
    assert not [w for w in read["warnings"] if w["code"] in ("unsure_kings", "low_confidence")]


def test_without_an_orientation_known_the_reading_says_it_guessed(tmp_path, unsure_frame):
    """No calibration and no configured corner: square 46 is taken at the picture's bottom
    corner whose square is dark, and the answer says it is a guess; here the guess is a half
    turn off (the truth is square 46 at the top left).  A configured corner that is a light
    square in the picture is passed over, and said."""
    truth = unsure_frame.corner
    assert CORNER_NAMES[truth] == "top-left"
    with reading_server(tmp_path, unsure_frame.frame, configured=(truth + 1) % 4) as url:
        status, answer, _ = call(url, "POST", {}, bearer())
    assert status == 200, answer
    read = answer["answer"]
    assert read["orientation"] == {"corner_46": "bottom-right", "by": "guess", "sure": False}
    assert read["fen"] == turned(SETUP_GAME.start.fen().replace("BK22", "B22"))
    assert read["unsure"] == [{"square": 29, "read": "b", "alternative": "B", "why": "king"}]
    [passed_over] = [w for w in read["warnings"] if w["code"] == "orientation_impossible"]
    assert passed_over["text"] == {
        "en": "square 46 cannot be at the top-right of this picture (as configured): that corner "
              "is a light square here; was the camera turned?",
        "nl": "veld 46 kan niet rechtsboven in dit beeld liggen (zoals ingesteld): die hoek is "
              "hier een licht veld; is de camera gedraaid?"}


def test_a_reading_takes_the_darker_pieces_for_whites_when_the_service_does(tmp_path, unsure_frame):
    truth = unsure_frame.corner
    with reading_server(tmp_path, unsure_frame.frame, configured=truth, white_is_lighter=False) as url:
        read = call(url, "POST", {}, bearer())[1]["answer"]
    assert read["fen"] == "W:W22,25,32,35,37:B9,13,19,29"
    assert read["unsure"] == [{"square": 22, "read": "w", "alternative": "W", "why": "king"}]


def test_every_warning_of_a_reading_can_be_said_in_dutch():
    """Every code the reader and the set-up reading warn with has a Dutch sentence, which
    names only the values that code's warnings carry; numbers take a decimal comma."""
    import pickle
    import string

    from device.phrases import WARNINGS_NL
    from device.setup_reading import CODES, Said
    from vision.notes import CODES as READER_CODES
    from vision.notes import Note

    codes = {**READER_CODES, **CODES}
    assert set(WARNINGS_NL) == set(codes)
    for code, template in WARNINGS_NL.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert fields <= set(codes[code]), (code, fields)
    note = Note("kings_colour_scatter", "kings of the darker pieces cannot be told from men "
                "surely in this photo: ...", colour="darker", px=3.25)
    assert pickle.loads(pickle.dumps(note)).values == note.values
    said = Said.of(note)
    assert said.say("en") == str(note) and said.say("fr") == str(note)
    assert said.say("nl").startswith("dammen van de donkere stukken zijn op deze foto niet zeker")
    assert "wijken 3,2 pixels af" in said.say("nl")
    with pytest.raises(ValueError, match="no warning code"):
        Note("kings_in_the_dark", "?")
    with pytest.raises(ValueError, match="names"):
        Note("kings_scatter", "?", pixels=3.0)


def test_no_frame_yet_or_no_board_in_it_is_a_clear_error(tmp_path):
    import numpy as np

    with reading_server(tmp_path, None) as url:
        status, answer, _ = call(url, "POST", {}, bearer())
    assert status == 404 and answer["error"] == "no frame from the camera yet"
    assert answer["code"] == "no_frame" and answer["text"]["nl"] == "nog geen beeld van de camera"
    blank = Frame(np.full((480, 640, 3), 128, np.uint8), 0.0, 1)
    with reading_server(tmp_path, blank) as url:
        status, answer, _ = call(url, "POST", {}, bearer())
    assert status == 422
    assert answer["error"].startswith("no position read from the camera's frame: no 10x10 "
                                      "checkered board found in the image")
    assert answer["code"] == "read_no_board" and answer["text"]["en"] == answer["error"]
    assert answer["text"]["nl"] == ("geen stelling gelezen van het camerabeeld: er is geen "
                                    "dambord van 10 bij 10 velden in gevonden")


# -- errors in the page's language (issue 17)

#: The calls that send an error by its code, and which of their arguments is the code (web.py's
#: own helpers; the errors with a code, in every module).
_CODE_ARGUMENT = {"_error": 1, "_failed": 1, "CommandError": 0, "Refused": 0}
_WEB_ONLY = ("_error", "_failed")


def _codes_sent() -> list[tuple[str, str, set[str] | None]]:
    """Every error code the server's modules send, where, and the values named with it (None:
    passed on as a whole, ``**values``)."""
    import ast
    from pathlib import Path

    import device

    out = []
    for path in sorted(Path(device.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else None
            at = _CODE_ARGUMENT.get(name)
            if name in _WEB_ONLY and path.name != "web.py":
                continue
            if at is None or len(node.args) <= at:
                continue
            code = node.args[at]
            where = f"{path.name}:{node.lineno}"
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                # only a code passed on: an error's own (web._refusal)
                assert ast.unparse(code) == "error.code", (where, ast.unparse(code))
                continue
            named = None if any(k.arg is None for k in node.keywords) else \
                {k.arg for k in node.keywords}
            out.append((code.value, where, named))
    return out


def test_every_error_the_server_can_send_is_said_in_dutch():
    """Every code an error answer can carry (each call that sends one, found in the server's
    modules) has an English and a Dutch sentence; the call names exactly the values its
    English sentence names and the Dutch one names no other; no sentence is left unsent."""
    from device import phrases
    from device.commands import CommandError
    from device.errors import Refused

    sent = _codes_sent()
    assert len(sent) > 30
    english, dutch = phrases.ERRORS["en"], phrases.ERRORS["nl"]
    assert set(english) == set(dutch) == set(phrases.ERRORS["nl"])
    for code, where, named in sent:
        assert code in dutch and dutch[code].strip(), (where, code)
        if named is not None:
            assert named == phrases.fields(english[code]), (where, code, named)
    assert {code for code, _, _ in sent} == set(english)  # (none written and never sent)
    for code, template in english.items():
        assert phrases.fields(dutch[code]) <= phrases.fields(template), code
        values = {name: 7 for name in phrases.fields(template)}
        said = Refused(code, **values)
        assert said.say("nl") != str(said) and said.say("en") == str(said)
    error = CommandError("already_over", result="0-1", reason="resignation")
    assert str(error) == "the game is already over: 0-1 (resignation)"
    assert error.as_json() == {"error": str(error), "code": "already_over",
                               "text": {"en": str(error),
                                        "nl": "de partij is al afgelopen: 0-1 (opgave)"}}
    with pytest.raises(ValueError, match="no error code"):
        CommandError("no_such_thing")
    with pytest.raises(ValueError, match="names"):
        CommandError("not_adjourned", number=3)


def test_a_refused_command_answers_its_code_and_says_it_in_dutch(tmp_path):
    """A command the game does not allow (409), one that is not a command (400), one sent
    without the PIN (401) or not as JSON (415): each answers its English sentence as before,
    its code, and the sentence in English and Dutch for the page."""
    from rules.arbiter import Arbiter

    companion = SimpleNamespace(arbiter=Arbiter(Game(tags={"Event": "t"})))
    store = GameStore(tmp_path / "games.sqlite3")
    server = WebServer(WebConfig(bind="127.0.0.1", port=0, token=TOKEN), store,
                       answering(companion)).start()
    try:
        url = server.url
        status, answer, _ = call(url + "api/take-back", "POST", {}, bearer())
        assert status == 409
        assert answer == {"error": "there is no move to take back", "code": "no_move_to_take_back",
                          "text": {"en": "there is no move to take back",
                                   "nl": "er is geen zet om terug te nemen"}}
        status, answer, _ = call(url + "api/declare", "POST",
                                 {"result": "1/2-1/2", "reason": "resignation"}, bearer())
        assert status == 400 and answer["code"] == "resignation_draw"
        assert answer["error"].startswith("a resignation is a win: use 1-0")
        assert answer["text"]["nl"] == "opgave is een winst: kies 1-0 (zwart gaf op) of 0-1 (wit gaf op)"
        status, answer, _ = call(url + "api/take-back", "POST", {})
        assert status == 401 and answer["code"] == "pin_needed"
        assert answer["text"]["nl"] == "de PIN of het token van de arbiter is nodig"
        status, answer, _ = call(url + "api/take-back", "POST", headers=bearer(), raw=b"{}")
        assert status == 415 and answer["code"] == "not_json"
        assert answer["error"] == "send the command as application/json"
    finally:
        server.close()
        store.close()


# -- guessing the PIN (issue 17)


def login(url: str, pin: str, source: str = "127.0.0.1") -> tuple[int, dict]:
    """POST /api/login from ``source`` (any 127.x.y.z address reaches the server)."""
    conn = http.client.HTTPConnection(urllib.parse.urlsplit(url).hostname,
                                      urllib.parse.urlsplit(url).port, timeout=30,
                                      source_address=(source, 0))
    try:
        conn.request("POST", "/api/login", json.dumps({"token": pin}),
                     {"Content-Type": "application/json"})
        r = conn.getresponse()
        body = json.loads(r.read().decode())
        return r.status, {"Retry-After": r.getheader("Retry-After"), **body}
    finally:
        conn.close()


def test_wrong_pins_lock_the_address_out_for_longer_and_longer(tmp_path):
    """After five wrong PINs from one address it is refused, the right PIN too, until the lock
    has passed (the clock is moved by hand); the next wrong one locks it out twice as long; the
    right PIN once the lock has passed starts the count again.  Another address may still try;
    a wrong token sent as a header counts as a wrong PIN does."""
    store = GameStore(tmp_path / "games.sqlite3")
    server = WebServer(WebConfig(bind="127.0.0.1", port=0, token=TOKEN), store).start()
    now = [1000.0]
    server.guard.clock = lambda: now[0]
    try:
        url = server.url
        assert [login(url, f"guess{i}")[0] for i in range(FREE_TRIES)] == [401] * FREE_TRIES
        status, answer = login(url, TOKEN)
        assert status == 429 and answer["Retry-After"] == str(int(FIRST_LOCK_S))
        assert "too many wrong PINs" in answer["error"]
        assert call(url + "api/whoami", headers=bearer())[1]["arbiter"] is False  # locked: no use
        assert call(url + "api/take-back", "POST", {}, bearer())[0] == 429
        assert login(url, TOKEN, source="127.0.0.2")[0] == 200  # another address
        now[0] += FIRST_LOCK_S + 1
        assert login(url, "guess-again")[0] == 401
        status, answer = login(url, TOKEN)
        assert status == 429 and answer["Retry-After"] == str(int(2 * FIRST_LOCK_S))
        now[0] += 2 * FIRST_LOCK_S + 1
        assert login(url, TOKEN)[0] == 200
        # the count starts again: four wrong ones, and the right PIN still works
        assert [login(url, "x")[0] for _ in range(FREE_TRIES - 1)] == [401] * (FREE_TRIES - 1)
        assert login(url, TOKEN)[0] == 200
        # a token guessed in the header counts as well
        for _ in range(FREE_TRIES):
            assert call(url + "api/take-back", "POST", {}, bearer("guess"))[0] == 401
        assert call(url + "api/take-back", "POST", {}, bearer())[0] == 429
    finally:
        server.close()
        store.close()


def test_the_screen_says_the_record_stopped_when_the_companion_lost_track_not_an_article():
    """A board many plies on, beyond what the arbiter can work out (`rules.events.LostTrack`),
    stays open on the club's screen as the record stopping, in every language, with no
    article: nobody broke a rule the camera saw."""
    from device.live import _pending
    from rules.arbiter import Arbiter
    from tests.helpers import settled

    game = real_game()
    arb = Arbiter(Game(start=game.start))
    for move, after in zip(game.moves[:2], game.positions[1:3]):
        arb.game.push(move, after)
    far = game.positions[min(game.ply, 14)].pieces()
    for _ in range(8):
        arb.observe(settled(far))
    shown = _pending(arb.pending)
    assert shown["article"] is None
    assert shown["text"]["nl"] == "de partij is kwijt: de notatie stopt hier"
    assert shown["text"]["en"].startswith("lost track after ")
