"""The club's screen in a real browser: Debian's chromium driven by Playwright (installed by
`scripts/setup.sh --test`).  A rendered game runs through the service while the page shows it;
the arbiter's controls work from the page and only with the PIN; the page reconnects by itself
after the service restarts.  Screenshots go to $SCREENSHOTS (default: none kept)."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from device.web import free_port
from rules.game import Game
from rules.pdn import read_games
from tests.device_helpers import wait_for
from tests.web_helpers import SETUP_GAME, TOKEN, UNSURE_SEED, bearer, call, real_game, served, state

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="needs Debian's chromium (scripts/setup.sh --test)")
expect = sync_api.expect
WAIT_MS = 60_000


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    dialogs: list[str] = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pg.dialogs = dialogs
    yield pg
    context.close()


def screenshot(pg, name: str, part: str | None = None) -> None:
    """The page (or its element ``part``, a selector) as $SCREENSHOTS/``name``.png."""
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        path = str(Path(folder) / f"{name}.png")
        if part is None:
            pg.screenshot(path=path, full_page=True)
        else:
            pg.locator(part).screenshot(path=path)


def moves_on_page(pg) -> list[str]:
    return pg.locator("#moves .move").all_text_contents()


def test_the_page_shows_the_moves_as_they_are_played(tmp_path, page):
    game = real_game(8)
    with served(tmp_path, game) as c:
        page.goto(c.web.url)
        seen: list[int] = []

        def shown() -> bool:
            seen.append(len(moves_on_page(page)))
            return seen[-1] == len(game.moves)

        assert wait_for(shown, timeout=180, step=0.05)
        assert any(0 < n < len(game.moves) for n in seen), seen  # moves came one after another
        assert moves_on_page(page) == game.move_texts()
        expect(page.locator("#status")).to_have_text("Playing")
        expect(page.locator("#connection")).to_have_text("live")
        assert page.locator("#board svg .piece").count() == len(game.position.pieces())
        assert page.locator("#board svg .last-from").count() == 1
        assert page.locator("#leds-white .led").count() == 3 and page.locator("#leds-seven .led").count() == 7
        page.click("#lang-nl")
        expect(page.locator("#status")).to_have_text("Partij bezig")
        page.click("#lang-en")
        page.click("#flip")
        expect(page.locator("#board svg")).to_have_attribute("data-side", "black")
        page.click("#flip")
        screenshot(page, "live")
        page.goto(c.web.url + "?screen")  # the club room's television: the game alone
        expect(page.locator("#moves .move")).to_have_count(len(game.moves))
        expect(page.locator("#arbiter")).to_be_hidden()
        screenshot(page, "screen")
        assert not page.dialogs


def test_the_arbiter_names_the_players_takes_back_declares_and_begins_a_new_game(tmp_path, page):
    game = real_game(4)
    with served(tmp_path, game) as c:
        page.goto(c.web.url)
        expect(page.locator("#moves .move")).to_have_count(4, timeout=WAIT_MS * 3)
        expect(page.locator("#controls")).to_be_hidden()
        page.fill("#pin", "wrong")
        page.click("#login button")
        expect(page.locator("#message")).to_have_text("Wrong PIN")
        expect(page.locator("#controls")).to_be_hidden()
        page.fill("#pin", TOKEN)
        page.click("#login button")
        expect(page.locator("#controls")).to_be_visible()
        expect(page.locator("#login")).to_be_hidden()  # the PIN is asked no more
        page.fill("#tag-white", "<script>alert('x')</script>")
        page.fill("#tag-black", "<img src=x onerror=alert(1)>")
        page.fill("#tag-round", "5")
        page.click("#save-tags")
        expect(page.locator("#white-name")).to_have_text("<script>alert('x')</script>")
        expect(page.locator("#black-name")).to_have_text("<img src=x onerror=alert(1)>")
        assert page.locator("header script, header img").count() == 0  # text, not markup
        [read] = list(read_games(call(c.web.url + f"pdn/game/{c.game_id}.pdn")[1]))
        assert read.game.tags["White"] == "<script>alert('x')</script>" and read.game.tags["Round"] == "5"
        page.click("#camera summary")  # the camera view, for placing the camera
        page.wait_for_function("() => document.getElementById('camera-still').naturalWidth > 0")
        page.locator("#camera-still").scroll_into_view_if_needed()
        screenshot(page, "camera")
        page.click("#camera summary")
        page.click("#take-back")
        expect(page.locator("#moves .move")).to_have_count(3)
        assert len(c.store.moves(c.game_id)) == 3
        screenshot(page, "arbiter")
        page.select_option("#declare-result", "0-1")
        page.select_option("#declare-reason", "resignation")
        page.click("#declare")
        expect(page.locator("#status")).to_have_text("Game over")
        expect(page.locator("#result")).to_have_text("0-1 (resignation)")
        page.click("#lang-nl")
        expect(page.locator("#result")).to_have_text("0-1 (opgave)")
        expect(page.locator("#new-fen")).to_have_attribute("placeholder", "FEN (leeg: de beginstelling)")
        page.click("#lang-en")
        first = c.game_id
        assert c.store.game(first).result == "0-1" and not c.store.game(first).in_progress
        expect(page.locator("#announcements li").first).to_contain_text("Black wins: resignation")
        expect(page.locator("#announcements li .ply").first).to_have_text("2.")  # after White's 2nd
        screenshot(page, "game-over")
        page.click("#new-game")
        expect(page.locator("#status")).to_have_text("Waiting for the start position")
        expect(page.locator("#moves .move")).to_have_count(0)
        assert c.game_id != first
        assert not page.dialogs


def test_a_spectator_has_no_controls_and_the_api_refuses_them(tmp_path, page):
    with served(tmp_path, real_game(2)) as c:
        page.goto(c.web.url)
        expect(page.locator("#moves .move")).to_have_count(2, timeout=WAIT_MS * 3)
        expect(page.locator("#controls")).to_be_hidden()
        expect(page.locator("#login")).to_be_visible()
        status = page.evaluate("""async () => (await fetch('/api/take-back', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: '{}'})).status""")
        assert status == 401
        assert len(c.store.moves(c.game_id)) == 2
        screenshot(page, "spectator")


def test_the_page_reconnects_after_the_service_restarts(tmp_path, page):
    port = free_port()
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    with served(tmp_path / "first", real_game(2), port=port) as c:
        assert wait_for(lambda: state(c) is not None, timeout=120)
        assert call(c.web.url + "api/tags", "POST", {"tags": {"White": "Before"}}, bearer())[0] == 200
        page.goto(c.web.url)
        expect(page.locator("#white-name")).to_have_text("Before", timeout=WAIT_MS)
    expect(page.locator("#connection")).to_have_text("reconnecting…", timeout=WAIT_MS)
    with served(tmp_path / "second", real_game(2), port=port) as c:
        assert wait_for(lambda: state(c) is not None, timeout=120)
        assert call(c.web.url + "api/tags", "POST", {"tags": {"White": "After"}}, bearer())[0] == 200
        expect(page.locator("#white-name")).to_have_text("After", timeout=WAIT_MS)
        expect(page.locator("#connection")).to_have_text("live")


def test_the_hubs_round_page_follows_a_board_live_and_opens_it(tmp_path, page):
    """The hub's round page (`device.hub_web`) in the browser: a board's card follows its moves
    by server-sent events under the content security policy, and a click opens the board."""
    import threading

    from tests.hub_helpers import board_config, running_hub
    from tests.mosquitto_helpers import Mosquitto, mosquitto
    from tests.scripted_board import real_game as scripted_game
    from tests.scripted_board import scripted

    if mosquitto() is None:
        pytest.skip("needs mosquitto")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    broker = Mosquitto(tmp_path / "broker").start()
    c, watcher = scripted(tmp_path / "board1.sqlite3", scripted_game(3, 10), 0.3, board_config(broker, 1),
                          tags={"Event": "t", "White": "Sietske <i>", "Black": "Jan"})
    stop = threading.Event()
    thread = threading.Thread(target=c.run, args=(stop,), daemon=True)
    try:
        with running_hub(tmp_path, broker) as (hub, web):
            page.goto(web.url)
            thread.start()
            card = page.locator("#board-1")
            expect(card).to_contain_text("Sietske <i>", timeout=WAIT_MS)
            expect(card).to_contain_text("(10 plies)", timeout=WAIT_MS)
            expect(card.locator("svg")).to_have_count(1)
            expect(page.locator("#connection")).to_have_text("live")
            screenshot(page, "hub-round")
            card.locator("a.card-link").click()
            page.wait_for_url("**/board/1")
            expect(page.locator("#moves li")).to_have_count(10, timeout=WAIT_MS)
            expect(page.locator("#moves li").first).to_have_text(scripted_game(3, 1).move_texts()[0])
        assert not errors, errors
    finally:
        stop.set()
        if thread.is_alive():
            thread.join(30)
        c.close()
        broker.stop()


def test_a_position_read_from_the_camera_is_corrected_and_played_from(tmp_path, page):
    """Issue 17: the players have set up an endgame (a black king on 22) and wait.  The arbiter
    reads it from the camera: no orientation is known, so the page says square 46's corner is
    a guess, and it is a half turn off; the camera cannot tell the king from a man, so that
    square is marked unsure.  The arbiter turns the position half round, clicks the square to
    a black king (the FEN follows), and plays from it; the service finds the board in that
    position and records the moves played from it."""
    plies = 3
    game = Game(start=SETUP_GAME.start, tags={"Event": "problem"})
    for move in SETUP_GAME.moves[:plies]:
        game.push(move)
    go = threading.Event()
    with served(tmp_path, game, seed=UNSURE_SEED, go=go) as c:
        page.goto(c.web.url)
        expect(page.locator("#status")).to_have_text("Waiting for the start position", timeout=WAIT_MS)
        page.fill("#pin", TOKEN)
        page.click("#login button")
        page.click("#setup summary")
        # the service's first frame may come after the page (a rendered source under load): asked
        # before it, the page rightly says "no frame from the camera yet"
        wait_for(lambda: c.last_frame is not None, timeout=WAIT_MS / 1000, step=0.05)
        page.click("#read-position")
        expect(page.locator("#setup-orientation")).to_contain_text("could not be told", timeout=WAIT_MS)
        expect(page.locator("#setup-orientation")).to_contain_text("bottom right")
        read = SETUP_GAME.start.fen().replace("BK22", "B22")
        assert page.input_value("#setup-fen") != read  # a half turn off
        page.click("#setup-half-turn")
        expect(page.locator("#setup-fen")).to_have_value(read)
        expect(page.locator("#setup-orientation")).to_have_text(
            "Square 46 is at the top left of the picture: the arbiter turned the position half round.")
        page.click("#setup-half-turn")  # turned back: the reading's own guess again
        expect(page.locator("#setup-orientation")).to_contain_text("could not be told")
        page.click("#setup-half-turn")
        expect(page.locator("#setup-orientation")).to_contain_text("the arbiter turned")
        limit = page.locator('#setup-warnings li[data-code="kings_camera_steep"]')
        expect(limit).to_contain_text("kings cannot be told from men surely")
        expect(page.locator("#setup-board .unsure-mark")).to_have_count(1)
        expect(page.locator("#setup-unsure li")).to_have_text(
            ["22: black man, may be black king (the camera cannot tell a king from a man there)"])
        assert page.locator("#setup-board svg .piece").count() == len(SETUP_GAME.start.pieces())
        page.click("#lang-nl")
        expect(page.locator("#setup-unsure li")).to_contain_text(["22: zwarte schijf, misschien zwarte dam"])
        expect(page.locator("#setup-orientation")).to_contain_text("de arbiter heeft de stelling half omgedraaid")
        expect(limit).to_contain_text("dammen zijn niet zeker van schijven te onderscheiden")
        screenshot(page, "setup-panel-nl", "#setup")
        page.click("#lang-en")
        screenshot(page, "setup-panel", "#setup")
        square = page.locator('#setup-board rect.square[data-square="22"]')
        square.click()  # the cycle: black man, white king, black king
        expect(page.locator("#setup-fen")).to_have_value("W:W9,13,19,K22,29:B25,32,35,37")
        square.click()
        expect(page.locator("#setup-fen")).to_have_value(SETUP_GAME.start.fen())
        expect(page.locator("#setup-board .unsure-mark")).to_have_count(0)
        expect(page.locator('#setup-board g.piece.black.king[data-square="22"]')).to_have_count(1)
        page.click("#setup-play")  # (the game with no move yet begins from it instead)
        assert wait_for(lambda: state(c)["game"]["start_fen"] == SETUP_GAME.start.fen(), timeout=60)
        expect(page.locator("#status")).to_have_text("Playing", timeout=WAIT_MS)
        go.set()  # the players begin
        expect(page.locator("#moves .move")).to_have_count(plies, timeout=WAIT_MS * 3)
        assert moves_on_page(page) == SETUP_GAME.move_texts()[:plies]
        [recorded] = list(read_games(call(c.web.url + f"pdn/game/{c.game_id}.pdn")[1]))
        assert recorded.game.start == SETUP_GAME.start
        assert recorded.game.move_texts() == SETUP_GAME.move_texts()[:plies]
        assert not page.dialogs


def test_an_open_irregularity_is_shown_with_its_article(tmp_path, page):
    """Issue 17: a man moved two squares forward (Art. 27d) and the opponent not yet replied:
    the page says an irregularity is open, what it is, and announces it with its article."""
    from rules.move import Move
    from rules.position import Position

    start = Position.start()
    board = start.pieces()
    board[25] = board.pop(34)
    game = Game(start=start, tags={"Event": "t"})
    game.push_irregular(Move(34, 25, (34, 25)), Position.setup(board, start.turn.other), "UNREACHABLE")
    with served(tmp_path, game, seed=7) as c:
        page.goto(c.web.url)
        expect(page.locator("#status")).to_have_text("Irregularity open", timeout=WAIT_MS * 3)
        expect(page.locator("#pending")).to_have_text(  # the rules' sentence: its article once
            "no legal move takes the white man on 34 to 25: a man moves one square at a time "
            "(Art. 6) (Art. 27d)")
        said = page.locator("#announcements li").filter(has=page.locator(".article"))
        expect(said.first.locator(".article")).to_have_text("Art. 27d")
        expect(said.first).to_contain_text("White, irregular move, article 27d")
        page.click("#lang-nl")
        expect(page.locator("#status")).to_have_text("Onregelmatigheid open")
        expect(page.locator("#pending")).to_have_text("artikel 27d: er staat een stuk waar geen zet het kan brengen")
        expect(said.first).to_contain_text("Wit, onregelmatige zet, artikel 27d")
        screenshot(page, "irregular-nl")
        assert not page.dialogs


def test_a_refused_action_is_said_in_the_pages_language(tmp_path, page):
    """Issue 17: what the server refuses is said on a Dutch page in Dutch, by the error's code
    (device/phrases.py), whether the game refused it (no move to take back) or the command was
    wrong (a resignation declared a draw); switched to English, the same refusal in English."""
    with served(tmp_path, real_game(0)) as c:
        page.goto(c.web.url)
        page.click("#lang-nl")
        expect(page.locator("#status")).to_have_text("Partij bezig", timeout=WAIT_MS * 3)
        page.fill("#pin", TOKEN)
        page.click("#login button")
        expect(page.locator("#controls")).to_be_visible()
        page.click("#take-back")
        expect(page.locator("#message")).to_have_text("er is geen zet om terug te nemen")
        expect(page.locator("#message")).to_have_class("error")
        page.select_option("#declare-result", "1/2-1/2")
        page.select_option("#declare-reason", "resignation")
        page.click("#declare")
        expect(page.locator("#message")).to_have_text(
            "opgave is een winst: kies 1-0 (zwart gaf op) of 0-1 (wit gaf op)")
        screenshot(page, "refused-nl", "#arbiter")
        page.click("#lang-en")
        expect(page.locator("#message")).to_have_text(
            "a resignation is a win: use 1-0 (Black resigned) or 0-1 (White resigned)")
        assert c.store.game(c.game_id).in_progress and not c.store.moves(c.game_id)
        assert not page.dialogs
