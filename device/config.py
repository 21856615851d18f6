"""The device configuration: TOML (stdlib `tomllib`) read into frozen dataclasses, validated.

`load_config(path)` reads a TOML file and merges it over the defaults (the values documented in
`config/default.toml`); `load_config(None)` gives the defaults.  Every mistake raises
`ConfigError` with ONE line that names the file, the key and the fix, for example::

    config.toml: pins.white_counter[2] = 40 is not a GPIO pin: use BCM numbers 2-27

A key that is no longer used (`RETIRED`) is no mistake: an old file still loads, with one warning
line (logged, as the device's other warnings are) naming the key, why, and to remove it.

Sections and keys (see `config/default.toml` for what each means):

- ``[camera]`` source, resolution, fps
- ``[board]`` orientation, corners, markers
- ``[game]`` start
- ``[vision]`` still_seconds
- ``[pins]`` white_counter, black_counter, seven_move_bar, button, long_press_seconds, active_high
- ``[speech]`` enabled, language, announce_moves, rate, voice
- ``[tags]`` any PDN tag (Event, Site, Round, White, Black, ...) as a string
- ``[paths]`` database, pdn_folder
- ``[logging]`` level
- ``[web]`` enabled, bind, port, token
- ``[broker]`` enabled, url, username, password, ca_file, event, board

This module reads and checks text only: it imports no hardware or imaging library (the start
position is checked by the rules core, `rules.Position`).
"""

from __future__ import annotations

import difflib
import json
import logging
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable

from device.errors import ConfigError, Refused
from rules.errors import FenError
from rules.position import Position

#: BCM GPIO numbers usable for LEDs and a button on a Raspberry Pi's 40-pin header.
GPIO_PINS = range(2, 28)
LANGUAGES = ("en", "nl")
ORIENTATIONS = ("auto", "top-left", "top-right", "bottom-left", "bottom-right")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
SOURCE_FORMS = "auto, picamera2, camera:N, video:PATH, folder:PATH or render"
_TAG_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]*$")

#: Keys the configuration once had and reads no more, (section, key) -> why.  A file that still
#: has one loads, with a warning line saying so.
RETIRED = {
    ("vision", "motion_threshold"):
        "the motion thresholds adapt to the picture's light by themselves (vision.motion)",
    ("vision", "min_confidence"):
        "how sure a reading must be is part of the arbiter's rule never to guess "
        "(rules.matching), not a setting",
}

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """A parsed camera source: ``kind`` is auto, picamera2, camera, video, folder or render;
    ``argument`` the camera index or path (``None`` for the others)."""

    kind: str
    argument: int | str | None = None

    def __str__(self) -> str:
        return self.kind if self.argument is None else f"{self.kind}:{self.argument}"


def parse_source(spec: str) -> SourceSpec:
    """``auto``, ``picamera2``, ``render``, ``camera:N``, ``video:PATH`` or ``folder:PATH``.
    Raises ValueError with the accepted forms."""
    shown = _toml(spec)
    text = spec.strip()
    if text in ("auto", "picamera2", "render"):
        return SourceSpec(text)
    kind, sep, arg = text.partition(":")
    if sep and kind == "camera":
        if arg.isdigit():
            return SourceSpec("camera", int(arg))
        raise ValueError(f"{shown} names no camera: write camera:N with N the /dev/videoN number, e.g. camera:0")
    if sep and kind in ("video", "folder"):
        if arg.strip():
            return SourceSpec(kind, arg.strip())
        raise ValueError(f"{shown} has no path: write {kind}:PATH")
    raise ValueError(f"{shown} is not a camera source: use {SOURCE_FORMS}")


@dataclass(frozen=True, slots=True)
class CameraConfig:
    source: str = "auto"
    resolution: tuple[int, int] = (1280, 960)
    fps: float = 10.0

    @property
    def spec(self) -> SourceSpec:
        return parse_source(self.source)


@dataclass(frozen=True, slots=True)
class BoardConfig:
    #: Where square 46 (White's left corner) is in the camera picture, or ``auto``: from the start
    #: position, white men on 31-50.
    orientation: str = "auto"
    #: The board's four outer corners in the picture (pixels), saved by a calibration; empty:
    #: find the board in every picture.
    corners: tuple[tuple[float, float], ...] = ()
    #: Four ArUco markers lie beside the board's corners (printed with ``frisian-companion
    #: markers``): the board is found by them, and they say where square 46 is.
    markers: bool = False


#: The start position of a normal game (``[game] start``'s default), as PDN FEN.
START_FEN = Position.start().fen()


def start_position(fen: str, key: str) -> Position:
    """The position a game begins from, given as PDN FEN by ``key`` (a configuration key, or a
    command-line flag starting with ``-``, named in the error).  Raises `Refused` (a ValueError)
    with one line naming ``key`` and the fix: a text that is not FEN, a position without pieces of both sides
    (the camera learns both sides' colours from it), or one where the side to move cannot move."""
    shown = f"{key} {_toml(fen)}" if key.startswith("-") else f"{key} = {_toml(fen)}"
    try:
        position = Position.from_fen(fen)
    except FenError as e:
        problem = str(e).removeprefix(f"FEN {fen.strip()!r}: ")  # the FEN is shown already
        raise Refused("fen_not_a_position", shown=shown, problem=problem) from None
    colours = {piece.color for piece in position.pieces().values()}
    if len(colours) < 2:
        raise Refused("fen_one_side", shown=shown)
    if not position.legal_moves():
        raise Refused("fen_no_move", shown=shown, side=str(position.turn))
    return position


@dataclass(frozen=True, slots=True)
class GameConfig:
    #: The position every new game begins from (PDN FEN): the normal start position, or a set-up
    #: position (a problem, an adjourned game resumed on another board).
    start: str = START_FEN

    @property
    def position(self) -> Position:
        return Position.from_fen(self.start)

    @property
    def set_up(self) -> bool:
        """The games begin from a set-up position, not the normal start position."""
        return self.start != START_FEN


@dataclass(frozen=True, slots=True)
class VisionConfig:
    #: How long the board must be still (no hand over it) before its position is read (the
    #: default suits every pace: `vision.motion` tells a hand by what it is, not by waiting).
    still_seconds: float = 0.1


@dataclass(frozen=True, slots=True)
class PinsConfig:
    white_counter: tuple[int, ...] = (5, 6, 13)
    black_counter: tuple[int, ...] = (16, 20, 21)
    seven_move_bar: tuple[int, ...] = (17, 27, 22, 23, 24, 25, 12)
    #: BCM pin of the move-complete button (to ground), or None for no button.
    button: int | None = None
    long_press_seconds: float = 2.0
    active_high: bool = True

    def all_pins(self) -> dict[str, int]:
        """Every configured pin by its key (``pins.white_counter[0]``...)."""
        out: dict[str, int] = {}
        for name in ("white_counter", "black_counter", "seven_move_bar"):
            for i, pin in enumerate(getattr(self, name)):
                out[f"pins.{name}[{i}]"] = pin
        if self.button is not None:
            out["pins.button"] = self.button
        return out


@dataclass(frozen=True, slots=True)
class SpeechConfig:
    enabled: bool = True
    language: str = "en"
    announce_moves: bool = False
    rate: int = 160
    #: An espeak-ng voice name (``gmw/nl``, ``nl+f3``...); empty: the language's own voice.
    voice: str = ""


@dataclass(frozen=True, slots=True)
class PathsConfig:
    database: str = "games.sqlite3"
    pdn_folder: str = "pdn"


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    level: str = "INFO"


@dataclass(frozen=True, slots=True)
class WebConfig:
    #: Serve the club's screen (`device.web`) from `run` and `demo`.
    enabled: bool = True
    #: The address to listen on: all interfaces by default (the club's screen is another machine).
    bind: str = "0.0.0.0"
    #: The TCP port; 0 picks a free one (tests), reported in the log and by `demo`.
    port: int = 8080
    #: The arbiter's PIN or token for the page's controls and the command line; empty: no
    #: controls (spectators only read).
    token: str = ""


@dataclass(frozen=True, slots=True)
class BrokerConfig:
    #: Publish this board's games to an MQTT broker (`device.broker`), for the club's hub.
    enabled: bool = False
    #: ``mqtt://HOST:PORT``, or ``mqtts://HOST:PORT`` for TLS (`device.mqtt.parse_url`).
    url: str = "mqtt://localhost:1883"
    username: str = ""
    password: str = ""
    #: The CA certificate (PEM) a TLS broker's certificate is checked against; empty: the
    #: system's certificates.
    ca_file: str = ""
    #: The event's name in the topics (`device.topics`): letters, digits, - and _.
    event: str = "club"
    #: This board's number in the event (1-999); needed when enabled.
    board: int = 0


def _default_tags() -> dict[str, str]:
    return {"Event": "Club game", "Site": "", "Round": "-", "White": "?", "Black": "?"}


@dataclass(frozen=True, slots=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    game: GameConfig = field(default_factory=GameConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    tags: dict[str, str] = field(default_factory=_default_tags)
    paths: PathsConfig = field(default_factory=PathsConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    web: WebConfig = field(default_factory=WebConfig)
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    #: The file it was read from, None for the defaults.
    path: str | None = None


# --------------------------------------------------------------------------- checking


class _Checker:
    """Checks values of one file, raising ConfigError lines that name ``where``."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, key: str, value: Any, problem: str) -> ConfigError:
        shown = f" = {_toml(value)}" if value is not None else ""
        return ConfigError(f"{self.where}: {key}{shown} {problem}")

    def warn(self, problem: str) -> None:
        """One warning line naming the file: something to fix that does not stop the program."""
        log.warning("%s: %s", self.where, problem)

    def boolean(self, key: str, v: Any) -> bool:
        if not isinstance(v, bool):
            raise self.fail(key, v, "is not true or false: write true or false (no quotes)")
        return v

    def number(self, key: str, v: Any, low: float, high: float) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise self.fail(key, v, f"is not a number: write a number from {_num(low)} to {_num(high)} (no quotes)")
        if not low <= v <= high:
            raise self.fail(key, v, f"is out of range: use a number from {_num(low)} to {_num(high)}")
        return float(v)

    def integer(self, key: str, v: Any, low: int, high: int) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(key, v, f"is not a whole number: write a whole number from {low} to {high} (no quotes)")
        if not low <= v <= high:
            raise self.fail(key, v, f"is out of range: use a whole number from {low} to {high}")
        return v

    def string(self, key: str, v: Any) -> str:
        if not isinstance(v, str):
            raise self.fail(key, v, 'is not text: write it in quotes, e.g. "..."')
        return v

    def choice(self, key: str, v: Any, choices: tuple[str, ...], fold: Callable[[str], str] = str) -> str:
        s = fold(self.string(key, v))
        if s not in choices:
            raise self.fail(key, v, f"is not one of {', '.join(choices)}: use one of these")
        return s

    def pin(self, key: str, v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(key, v, "is not a pin number: write a BCM GPIO number from 2 to 27 (no quotes)")
        if v not in GPIO_PINS:
            raise self.fail(key, v, "is not a GPIO pin: use BCM numbers 2-27")
        return v

    def pins(self, key: str, v: Any, count: int) -> tuple[int, ...]:
        if not isinstance(v, list):
            raise self.fail(key, v, f"is not a list of pins: write {count} BCM numbers, e.g. [{', '.join(['5'] * count)}]")
        if len(v) != count:
            raise self.fail(key, v, f"has {len(v)} pins: it needs exactly {count}")
        return tuple(self.pin(f"{key}[{i}]", p) for i, p in enumerate(v))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


#: How much of a wrong value an error shows: the line stays one readable line.
SHOWN_CHARS = 60


def _toml(value: Any) -> str:
    """A value as TOML writes it, for an error line: control characters escaped (a newline in a
    value would break the line), at most SHOWN_CHARS long."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, list):
        text = "[" + ", ".join(_toml(x) for x in value[:8]) + (", ...]" if len(value) > 8 else "]")
    elif isinstance(value, dict):
        text = "{...}"
    elif isinstance(value, int) and value.bit_length() > 64:
        text = f"(a number of about {int(value.bit_length() * 0.30103)} digits)"
    else:
        text = str(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def _keys(check: _Checker, section: str, table: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise check.fail(section, table, f"is not a table: write it as a [{section}] section")
    for key in table:
        if (section, key) in RETIRED:
            check.warn(f"[{section}] {key} is no longer used: {RETIRED[section, key]}; remove it")
        elif key not in allowed:
            near = difflib.get_close_matches(key, allowed, n=1)
            hint = f"did you mean {section}.{near[0]}?" if near else f"the keys of [{section}] are {', '.join(allowed)}"
            raise ConfigError(f"{check.where}: unknown key {section}.{key}: {hint}")
    return {key: value for key, value in table.items() if (section, key) not in RETIRED}


def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _camera(check: _Checker, t: dict[str, Any], d: CameraConfig) -> CameraConfig:
    t = _keys(check, "camera", t, _names(CameraConfig))
    source = d.source
    if "source" in t:
        source = check.string("camera.source", t["source"])
        try:
            parse_source(source)
        except ValueError as e:
            raise ConfigError(f"{check.where}: camera.source = {_toml(source)}: {e}") from None
    resolution = d.resolution
    if "resolution" in t:
        r = t["resolution"]
        if not (isinstance(r, list) and len(r) == 2):
            raise check.fail("camera.resolution", r, "is not a size: write [WIDTH, HEIGHT], e.g. [1280, 960]")
        resolution = (check.integer("camera.resolution[0]", r[0], 160, 4608),
                      check.integer("camera.resolution[1]", r[1], 120, 3456))
    fps = check.number("camera.fps", t["fps"], 1, 60) if "fps" in t else d.fps
    return CameraConfig(source, resolution, fps)


def _board(check: _Checker, t: dict[str, Any], d: BoardConfig) -> BoardConfig:
    t = _keys(check, "board", t, _names(BoardConfig))
    orientation = check.choice("board.orientation", t["orientation"], ORIENTATIONS) if "orientation" in t else d.orientation
    corners = d.corners
    if "corners" in t:
        c = t["corners"]
        if not isinstance(c, list) or len(c) not in (0, 4):
            raise check.fail("board.corners", c, "is not four corners: write [[x, y], [x, y], [x, y], [x, y]] in pixels, or [] to find the board")
        out = []
        for i, point in enumerate(c):
            if not (isinstance(point, list) and len(point) == 2):
                raise check.fail(f"board.corners[{i}]", point, "is not a point: write [x, y] in pixels")
            out.append((check.number(f"board.corners[{i}][0]", point[0], 0, 10000),
                        check.number(f"board.corners[{i}][1]", point[1], 0, 10000)))
        corners = tuple(out)
    markers = check.boolean("board.markers", t["markers"]) if "markers" in t else d.markers
    return BoardConfig(orientation, corners, markers)


def _game(check: _Checker, t: dict[str, Any], d: GameConfig) -> GameConfig:
    t = _keys(check, "game", t, _names(GameConfig))
    if "start" not in t:
        return d
    fen = check.string("game.start", t["start"])
    try:
        position = start_position(fen, "game.start")
    except ValueError as e:
        raise ConfigError(f"{check.where}: {e}") from None
    return GameConfig(position.fen())


def _vision(check: _Checker, t: dict[str, Any], d: VisionConfig) -> VisionConfig:
    t = _keys(check, "vision", t, _names(VisionConfig))
    return VisionConfig(
        still_seconds=check.number("vision.still_seconds", t["still_seconds"], 0.05, 10) if "still_seconds" in t else d.still_seconds,
    )


def _pins(check: _Checker, t: dict[str, Any], d: PinsConfig) -> PinsConfig:
    t = _keys(check, "pins", t, _names(PinsConfig))
    white = check.pins("pins.white_counter", t["white_counter"], 3) if "white_counter" in t else d.white_counter
    black = check.pins("pins.black_counter", t["black_counter"], 3) if "black_counter" in t else d.black_counter
    bar = check.pins("pins.seven_move_bar", t["seven_move_bar"], 7) if "seven_move_bar" in t else d.seven_move_bar
    button = d.button
    if "button" in t:
        b = t["button"]
        button = None if (isinstance(b, int) and not isinstance(b, bool) and b == 0) else check.pin("pins.button", b)
    hold = check.number("pins.long_press_seconds", t["long_press_seconds"], 0.3, 10) if "long_press_seconds" in t else d.long_press_seconds
    active_high = check.boolean("pins.active_high", t["active_high"]) if "active_high" in t else d.active_high
    pins = PinsConfig(white, black, bar, button, hold, active_high)
    seen: dict[int, str] = {}
    for key, pin in pins.all_pins().items():
        if pin in seen:
            raise ConfigError(f"{check.where}: {key} = {pin} is already used by {seen[pin]}: give every LED and the button its own pin")
        seen[pin] = key
    return pins


def _speech(check: _Checker, t: dict[str, Any], d: SpeechConfig) -> SpeechConfig:
    t = _keys(check, "speech", t, _names(SpeechConfig))
    return SpeechConfig(
        enabled=check.boolean("speech.enabled", t["enabled"]) if "enabled" in t else d.enabled,
        language=check.choice("speech.language", t["language"], LANGUAGES, str.lower) if "language" in t else d.language,
        announce_moves=check.boolean("speech.announce_moves", t["announce_moves"]) if "announce_moves" in t else d.announce_moves,
        rate=check.integer("speech.rate", t["rate"], 80, 450) if "rate" in t else d.rate,
        voice=check.string("speech.voice", t["voice"]).strip() if "voice" in t else d.voice,
    )


def _tags(check: _Checker, t: dict[str, Any], d: dict[str, str]) -> dict[str, str]:
    if not isinstance(t, dict):
        raise check.fail("tags", t, "is not a table: write it as a [tags] section")
    out = dict(d)
    for key, value in t.items():
        if not _TAG_NAME.match(key):
            raise ConfigError(f"{check.where}: tags.{key} is not a PDN tag name: tag names start with a capital letter (Event, Site, Round, White, Black)")
        if key in ("FEN", "SetUp"):
            raise ConfigError(f"{check.where}: tags.{key} is set by the game itself: give a set-up "
                              "start position as [game] start = \"FEN\" instead")
        if key in ("Result", "GameType"):
            raise ConfigError(f"{check.where}: tags.{key} is set by the game itself: remove it from [tags]")
        out[key] = check.string(f"tags.{key}", value)
    return out


def _paths(check: _Checker, t: dict[str, Any], d: PathsConfig) -> PathsConfig:
    t = _keys(check, "paths", t, _names(PathsConfig))
    out = {}
    for name in _names(PathsConfig):
        if name in t:
            value = check.string(f"paths.{name}", t[name]).strip()
            if not value and name != "pdn_folder":  # an empty PDN folder: finished games stay in the store only
                raise check.fail(f"paths.{name}", value, "is empty: give a file or folder path")
            out[name] = value
    return PathsConfig(**{**{f: getattr(d, f) for f in _names(PathsConfig)}, **out})


def _logging(check: _Checker, t: dict[str, Any], d: LoggingConfig) -> LoggingConfig:
    t = _keys(check, "logging", t, _names(LoggingConfig))
    return LoggingConfig(check.choice("logging.level", t["level"], LOG_LEVELS, str.upper) if "level" in t else d.level)


def _web(check: _Checker, t: dict[str, Any], d: WebConfig) -> WebConfig:
    t = _keys(check, "web", t, _names(WebConfig))
    bind = d.bind
    if "bind" in t:
        bind = check.string("web.bind", t["bind"]).strip()
        if not bind:
            raise check.fail("web.bind", t["bind"], 'is empty: give an address, e.g. "0.0.0.0" (all '
                             'interfaces) or "127.0.0.1" (this machine only)')
    token = d.token
    if "token" in t:
        token = check.string("web.token", t["token"]).strip()
        if token and len(token) < 4:
            raise check.fail("web.token", t["token"], "is too short: use 4 characters or more, or "
                             '"" for no controls')
    return WebConfig(
        enabled=check.boolean("web.enabled", t["enabled"]) if "enabled" in t else d.enabled,
        bind=bind,
        port=check.integer("web.port", t["port"], 0, 65535) if "port" in t else d.port,
        token=token,
    )


def _broker(check: _Checker, t: dict[str, Any], d: BrokerConfig) -> BrokerConfig:
    from device.mqtt import URL_FORMS, parse_url
    from device.topics import EVENT_NAME, MAX_BOARD

    t = _keys(check, "broker", t, _names(BrokerConfig))
    url = d.url
    if "url" in t:
        url = check.string("broker.url", t["url"]).strip()
        try:
            parse_url(url)
        except ValueError as e:
            raise check.fail("broker.url", t["url"], str(e)) from None
    event = d.event
    if "event" in t:
        event = check.string("broker.event", t["event"]).strip()
        if not EVENT_NAME.match(event):
            raise check.fail("broker.event", t["event"], "is not an event name for the topics: use "
                             "letters, digits, - and _ (e.g. \"winter-2025\")")
    strings = {k: check.string(f"broker.{k}", t[k]).strip() if k in t else getattr(d, k)
               for k in ("username", "password", "ca_file")}
    out = BrokerConfig(
        enabled=check.boolean("broker.enabled", t["enabled"]) if "enabled" in t else d.enabled,
        url=url, event=event,
        board=check.integer("broker.board", t["board"], 0, MAX_BOARD) if "board" in t else d.board,
        **strings)
    if out.enabled and out.board == 0:
        raise ConfigError(f"{check.where}: broker.enabled = true needs this board's number: set "
                          f"broker.board = N (1-{MAX_BOARD}, as on the pairings)")
    if out.ca_file and not url.startswith("mqtts:"):
        check.warn(f"broker.ca_file is only used with TLS: write broker.url as {URL_FORMS.split(', or ')[1]}")
    return out


_SECTIONS = ("camera", "board", "game", "vision", "pins", "speech", "tags", "paths", "logging", "web",
             "broker")


def config_from_dict(data: dict[str, Any], where: str = "configuration", base: Config | None = None) -> Config:
    """Check ``data`` (a parsed TOML document) and merge it over ``base`` (the defaults)."""
    base = base or Config()
    check = _Checker(where)
    for key in data:
        if key not in _SECTIONS:
            near = difflib.get_close_matches(key, _SECTIONS, n=1)
            hint = f"did you mean [{near[0]}]?" if near else f"the sections are {', '.join(_SECTIONS)}"
            raise ConfigError(f"{where}: unknown section or key {key}: {hint}")
    return Config(
        camera=_camera(check, data.get("camera", {}), base.camera),
        board=_board(check, data.get("board", {}), base.board),
        game=_game(check, data.get("game", {}), base.game),
        vision=_vision(check, data.get("vision", {}), base.vision),
        pins=_pins(check, data.get("pins", {}), base.pins),
        speech=_speech(check, data.get("speech", {}), base.speech),
        tags=_tags(check, data.get("tags", {}), base.tags),
        paths=_paths(check, data.get("paths", {}), base.paths),
        logging=_logging(check, data.get("logging", {}), base.logging),
        web=_web(check, data.get("web", {}), base.web),
        broker=_broker(check, data.get("broker", {}), base.broker),
        path=where if where != "configuration" else base.path,
    )


def load_config(path: str | Path | None = None) -> Config:
    """The configuration in ``path`` merged over the defaults; the defaults when ``path`` is None."""
    if path is None:
        return Config()
    where = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such configuration file: give the right path, or copy config/default.toml there") from None
    except OSError as e:
        raise ConfigError(f"{where}: cannot read the configuration: {e.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ConfigError(f"{where}: line {line} is not UTF-8 text: save the file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{where}: not valid TOML: {_toml_problem(e)}: fix that line (see config/default.toml)") from None
    except ValueError:  # Python's own limit on the digits of an integer, met while parsing
        raise ConfigError(f"{where}: a number with thousands of digits: no setting takes one; "
                          "fix it (see config/default.toml)") from None
    return config_from_dict(data, where)


def _toml_problem(e: tomllib.TOMLDecodeError) -> str:
    """tomllib says ``Invalid value (at line 3, column 7)``: put the line first."""
    msg = str(e)
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    if m:
        return f"line {m.group(1)}, column {m.group(2)}: {msg[: m.start()].strip()}"
    return msg
