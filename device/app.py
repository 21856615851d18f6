"""Building the appliance from its configuration: the `run` and `demo` commands' wiring.

`build(config, ...)` makes the frame source, the store, the LED panel (mock pins shown in the
terminal when the machine has no GPIO), speech and the terminal view, and returns a ready
`device.service.Companion`, with the club's screen (`device.web.WebServer`, ``[web]``) serving
its live state (`device.live.LiveState`) when enabled, and the broker publisher
(`device.broker.BrokerPublisher`, ``[broker]``) when enabled; its games begin from ``--start``
(`Options.start`), else from the rendered game's start (the `render` source), else from
``[game] start``.  `serve(companion)`
runs it until SIGTERM/SIGINT or the end of a recording.  Hardware libraries stay inside their
adapters; this module only chooses them.
"""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from device import commands
from device.config import Config
from device.broker import BrokerPublisher
from device.button import MoveButton
from device.errors import GPIOError, WebError
from device.leds import CounterPanel
from device.live import LiveState
from device.notify import Notifier
from device.pdn_folder import PdnFolder, folder_of
from device.render_source import RenderedSource, load_game
from device.service import CORNER_OF_ORIENTATION, Companion
from device.sources import open_source
from device.speech import Announcer, open_speech
from device.stopping import stop_on_signals
from device.store import GameStore
from device.terminal import TerminalView
from device.web import WebServer
from rules.position import Position

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Options:
    """What the command line adds to the configuration."""

    source: str | None = None          # overrides camera.source
    pdn: str | None = None             # the game the `render` source replays
    render_fps: float = 10.0
    render_seed: int = 1
    database: str | None = None        # overrides paths.database
    speech: bool | None = None         # overrides speech.enabled
    wav_dir: str | None = None         # speech into WAV files instead of the speaker
    mock_pins: bool = False            # LEDs on gpiozero's mock pins (shown in the terminal)
    start: Position | None = None      # overrides game.start for this run (`run --start FEN`)


def button_for(config: Config, companion: Companion, pin_factory: Any = None) -> MoveButton | None:
    """The move-complete button on ``pins.button`` (Art. 23; none when not configured), wired to
    the companion: a short press marks the move complete, one held ``pins.long_press_seconds``
    takes back the last move.  A pin that cannot be used is said once in the log; the board is
    then read when it is still, as without a button."""
    if config.pins.button is None:
        return None
    try:
        return MoveButton(config.pins.button, move_complete=companion.move_complete,
                          take_back=companion.take_back,
                          long_press_seconds=config.pins.long_press_seconds, pin_factory=pin_factory)
    except GPIOError as e:
        log.warning("%s; without the button the board is read when it is still", e)
        return None


def panel_for(config: Config, mock: bool) -> CounterPanel:
    """The LED panel on the configured pins, or on mock pins when asked or when this machine has
    no GPIO (then said once in the log)."""
    if not mock:
        try:
            return CounterPanel.from_config(config.pins)
        except GPIOError as e:
            log.warning("%s; the LEDs are shown in the terminal only", e)
    from gpiozero.pins.mock import MockFactory

    return CounterPanel.from_config(config.pins, pin_factory=MockFactory())


def build(config: Config, options: Options, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> Companion:
    spec = options.source or config.camera.source

    def render(_spec) -> RenderedSource:
        return RenderedSource(load_game(options.pdn), fps=options.render_fps, seed=options.render_seed,
                              markers=config.board.markers)

    source = open_source(spec, config.camera.resolution, config.camera.fps, extra={"render": render})
    # A source that cannot be opened is the user's one-line error, before anything else is made.
    source.open()
    source.close()
    database = Path(options.database or config.paths.database)
    store = GameStore(database, exclusive=True)  # one service per store
    try:
        return _build(config, options, out, err, source, database, store)
    except BaseException:
        store.close()  # the companion that would have owned it was never made
        raise


def _build(config: Config, options: Options, out: TextIO, err: TextIO, source, database: Path,
           store: GameStore) -> Companion:
    panel = panel_for(config, options.mock_pins)
    speech_config = config.speech
    if options.speech is not None:
        from dataclasses import replace
        speech_config = replace(speech_config, enabled=options.speech)
    speaker = open_speech(speech_config, wav_dir=options.wav_dir,
                          silenced_by="--no-speech on the command line" if options.speech is False else None)
    announcer = Announcer(speech_config.language, speech_config.announce_moves, speaker)
    view = TerminalView(out, err, leds=panel.text)
    corner = CORNER_OF_ORIENTATION.get(config.board.orientation)
    tags = dict(config.tags)
    start = config.game.position
    if isinstance(source, RenderedSource):
        for key in ("Event", "White", "Black", "Site", "Date", "Round"):
            if key in source.game.tags:
                tags[key] = source.game.tags[key]
        start = source.game.start  # what the rendering shows (a PDN's FEN tag)
    if options.start is not None:
        start = options.start
    companion = Companion(source=source, store=store, tags=tags, panel=panel, announcer=announcer,
                          speaker=speaker, view=view, notifier=Notifier(),
                          still_s=config.vision.still_seconds, corner_46=corner,
                          state_dir=database.parent, markers=config.board.markers, start=start,
                          start_now=options.start is not None, config_path=config.path,
                          owns_store=True, corners=config.board.corners)
    companion.button = button_for(config, companion, panel.pin_factory)
    folder = folder_of(config.paths.pdn_folder, database)  # beside the store, as the calibration
    if folder is not None:
        companion.sinks.append(PdnFolder(folder, store, lambda: companion.game_id))
    if config.web.enabled:
        try:
            companion.web = web_for(config, companion)
        except WebError as e:  # the board is watched all the same, as without LEDs
            log.warning("%s; the board is watched without it", e)
    if config.broker.enabled:
        companion.broker = broker_for(config, companion)
    return companion


def live_for(config: Config, companion: Companion) -> LiveState:
    """The companion's live state (one, shared by the page and the broker): a sink and a
    watcher of the companion."""
    for sink in companion.sinks:
        if isinstance(sink, LiveState):
            return sink
    live = LiveState(config.speech.language)
    companion.sinks.append(live)
    companion.watchers.append(live.refresh)
    return live


def web_for(config: Config, companion: Companion) -> WebServer:
    """The club's screen for ``companion``, serving already (`WebError` when it cannot): its
    live state is a sink and a watcher of the companion, and the page's commands are queued to
    the companion's loop."""
    server = WebServer(config.web, companion.store,
                       submit=lambda request: commands.submit(companion, request)).start()
    live_for(config, companion).subscribers.append(server.publish)
    return server


def broker_for(config: Config, companion: Companion) -> BrokerPublisher:
    """The broker publisher for ``companion`` (``[broker]``), started: a subscriber of its live
    state; the hub's pairings go through the same command as the page's names."""
    page = None
    if companion.web is not None:
        page = companion.web.address_for_others or companion.web.url
    publisher = BrokerPublisher(
        config.broker, companion.store, page=page,
        apply_pairing=lambda tags: commands.submit(companion, commands.tags(tags))).start()
    live_for(config, companion).subscribers.append(publisher.publish)
    return publisher


def serve(companion: Companion, max_frames: int | None = None,
          stop: threading.Event | None = None) -> threading.Event:
    """Run until ``stop`` is set (by SIGTERM/SIGINT when none is given) or a recording ends;
    a stop set before it begins leaves at once."""
    if stop is None:
        with stop_on_signals() as stop:
            return serve(companion, max_frames, stop)
    if stop.is_set():
        return stop
    companion.run(stop, max_frames=max_frames)
    return stop
