"""Screenshots of the club's screen, taken from rendered games through the real service.

Run from the repository root (needs Debian's chromium and Playwright, the test extra:
`scripts/setup.sh --test`)::

    python -m bench.screenshots                  # into /tmp/shots
    python -m bench.screenshots --out DIR

Three companions are served as the browser tests serve them (`tests.web_helpers.served`: a
`device.render_source.RenderedSource` through `device.service.Companion.run`, the page on a
free port of 127.0.0.1), and chromium is driven by Playwright as `tests/test_web_browser.py`
drives it (1200 x 900):

1. self-play game 4 of tests/data played to `GAME_PLIES` (White's king on 5 has made two
   moves: its counter shows two LEDs), the players named by the arbiter's API:
   ``live.png`` (a spectator's page, English, White's side down), ``live-black-nl.png``
   (turned for Black, in Dutch), ``screen.png`` (``/?screen``, the club room's television),
   ``arbiter.png`` (the arbiter's controls after the PIN), ``camera.png`` (the camera view for
   placing the camera);
2. the endgame set up for the set-up test (`tests.web_helpers.SETUP_GAME`, the camera that
   cannot tell its king from a man, no orientation known), read from the camera by the page:
   ``setup.png`` (the panel after the read), ``setup-turned-nl.png`` (turned half round by the
   arbiter, in Dutch);
3. a man moved two squares forward from the start (34-25, Art. 27d), the opponent not yet
   replied: ``irregular.png`` (a spectator's page with the irregularity open and announced
   with its article), ``camera-nl.png`` (this camera's view, with its king-placement warning
   across the top, in Dutch).

Not a benchmark: it prints no figures, only the files written (one JSON line on stdout, for
scripts); progress goes to stderr.  Nothing here asserts anything: look at the pictures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

#: Where the pictures go unless told.
DEFAULT_OUT = Path(tempfile.gettempdir()) / "shots"
#: The game of the live pages: self-play game 4 of tests/data, to this ply.
GAME_INDEX, GAME_PLIES = 3, 53
TAGS = {"White": "Sietske de Vries", "Black": "Jan Hoekstra", "Event": "Club evening Leeuwarden",
        "Round": "3", "Board": "2"}
VIEWPORT = {"width": 1200, "height": 900}
WAIT_MS = 60_000


def _progress(text: str) -> None:
    print(f"bench.screenshots: {text}", file=sys.stderr, flush=True)


def _chromium() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        raise SystemExit("bench.screenshots: no chromium: install it with scripts/setup.sh --test")
    return path


def _game(index: int, plies: int):
    from rules.game import Game
    from rules.pdn import read_file
    from tests.conftest import DATA

    full = read_file(str(DATA / "selfplay.pdn"))[index].game
    game = Game(start=full.start, tags=dict(full.tags))
    for move in full.moves[:plies]:
        game.push(move)
    return game


class Shots:
    """The browser and the folder: `take` writes one picture and says so."""

    def __init__(self, browser, out: Path) -> None:
        self.browser = browser
        self.out = out
        self.written: list[str] = []

    def page(self):
        context = self.browser.new_context(viewport=VIEWPORT)
        return context.new_page()

    def take(self, page, name: str, part: str | None = None) -> None:
        path = self.out / f"{name}.png"
        page.wait_for_timeout(300)  # the LEDs' and the board's last paint
        if part is None:
            page.screenshot(path=str(path), full_page=True)
        else:
            page.locator(part).screenshot(path=str(path))
        self.written.append(str(path))
        _progress(f"wrote {path}")


def _unlock(page, token: str) -> None:
    page.fill("#pin", token)
    page.click("#login button")
    page.locator("#controls").wait_for(state="visible", timeout=WAIT_MS)


def live_pages(shots: Shots, tmp: Path) -> None:
    from tests.device_helpers import wait_for
    from tests.web_helpers import TOKEN, bearer, call, served, state

    game = _game(GAME_INDEX, GAME_PLIES)
    _progress(f"rendering self-play game {GAME_INDEX + 1} to ply {GAME_PLIES} through the service...")
    with served(tmp, game) as c:
        if not wait_for(lambda: state(c) is not None, timeout=120):
            raise SystemExit("bench.screenshots: the service showed no state")
        status, answer, _ = call(c.web.url + "api/tags", "POST", {"tags": TAGS}, bearer())
        if status != 200:
            raise SystemExit(f"bench.screenshots: naming the players failed: {answer}")
        page = shots.page()
        page.goto(c.web.url)
        started = time.monotonic()
        while len(page.locator("#moves .move").all_text_contents()) < GAME_PLIES:
            if time.monotonic() - started > 600:
                raise SystemExit("bench.screenshots: the game was not shown in 10 minutes")
            page.wait_for_timeout(500)
        shown = page.locator("#moves .move").all_text_contents()
        if shown != game.move_texts():
            _progress(f"note: the page shows other moves than the game's: {shown}")
        _progress(f"the page shows all {GAME_PLIES} plies")
        page.locator("#moves").evaluate("el => { el.scrollTop = el.scrollHeight; }")
        shots.take(page, "live")
        page.click("#flip")
        page.click("#lang-nl")
        page.locator("#board svg[data-side='black']").wait_for(timeout=WAIT_MS)
        shots.take(page, "live-black-nl")
        page.click("#flip")
        page.click("#lang-en")
        tv = shots.page()
        tv.goto(c.web.url + "?screen")
        tv.locator("#moves .move").nth(GAME_PLIES - 1).wait_for(timeout=WAIT_MS)
        shots.take(tv, "screen")
        _unlock(page, TOKEN)
        page.locator("#resume-game option").first.wait_for(state="attached", timeout=WAIT_MS)
        shots.take(page, "arbiter", "#arbiter")
        page.click("#camera summary")
        page.wait_for_function("() => document.getElementById('camera-still').naturalWidth > 0",
                               timeout=WAIT_MS)
        shots.take(page, "camera", "#camera")


def setup_panel(shots: Shots, tmp: Path) -> None:
    from rules.game import Game
    from tests.web_helpers import SETUP_GAME, TOKEN, UNSURE_SEED, served

    game = Game(start=SETUP_GAME.start, tags={"Event": "problem"})
    go = threading.Event()  # never set: the players wait at the set-up board
    _progress("rendering the set-up endgame (its king unsure to the camera)...")
    with served(tmp, game, seed=UNSURE_SEED, go=go) as c:
        page = shots.page()
        page.goto(c.web.url)
        page.locator("#status[data-status='waiting']").wait_for(timeout=WAIT_MS)
        _unlock(page, TOKEN)
        page.click("#setup summary")
        page.click("#read-position")
        page.wait_for_function("() => document.getElementById('setup-orientation').textContent",
                               timeout=WAIT_MS)  # the reading is shown
        shots.take(page, "setup", "#setup")
        page.click("#setup-half-turn")
        page.click("#lang-nl")
        shots.take(page, "setup-turned-nl", "#setup")


def irregular_page(shots: Shots, tmp: Path) -> None:
    from rules.game import Game
    from rules.move import Move
    from rules.position import Position
    from tests.web_helpers import TOKEN, bearer, call, served

    start = Position.start()
    board = start.pieces()
    board[25] = board.pop(34)
    game = Game(start=start, tags={"Event": "Club evening Leeuwarden"})
    game.push_irregular(Move(34, 25, (34, 25)), Position.setup(board, start.turn.other), "UNREACHABLE")
    _progress("rendering a man moved two squares forward (Art. 27d)...")
    with served(tmp, game, seed=7) as c:
        page = shots.page()
        page.goto(c.web.url)
        page.locator("#status[data-status='irregular']").wait_for(timeout=WAIT_MS * 3)
        call(c.web.url + "api/tags", "POST", {"tags": {**TAGS, "Round": "4"}}, bearer())
        page.locator("#white-name", has_text=TAGS["White"]).wait_for(timeout=WAIT_MS)
        page.locator("#announcements .article").first.wait_for(timeout=WAIT_MS)
        shots.take(page, "irregular")
        _unlock(page, TOKEN)
        page.click("#lang-nl")
        page.click("#camera summary")
        page.wait_for_function("() => document.getElementById('camera-still').src.includes('lang=nl')"
                               " && document.getElementById('camera-still').complete"
                               " && document.getElementById('camera-still').naturalWidth > 0",
                               timeout=WAIT_MS)
        shots.take(page, "camera-nl", "#camera")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.screenshots",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT,
                   help=f"the folder for the PNG files (default {DEFAULT_OUT})")
    args = p.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SystemExit("bench.screenshots: no playwright: install the test extra "
                         "(scripts/setup.sh --test)") from None
    chromium = _chromium()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shots-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            shots = Shots(browser, args.out)
            (Path(tmp) / "game").mkdir()
            (Path(tmp) / "setup").mkdir()
            (Path(tmp) / "irregular").mkdir()
            live_pages(shots, Path(tmp) / "game")
            setup_panel(shots, Path(tmp) / "setup")
            irregular_page(shots, Path(tmp) / "irregular")
        finally:
            browser.close()
    print(json.dumps({"screenshots": shots.written}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
