"""The `frisian-companion` command line.

Output formats are documented in README.md ("Command line") and are kept stable for scripts.
A user's mistake (bad FEN, unreadable file) prints one line ``frisian-companion: error: ...``
and exits with status 2; `check` exits 1 when a game has an illegal move.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from importlib import resources
from typing import TYPE_CHECKING, Sequence, TextIO

from device.errors import DeviceError, StoreFault
from rules import Color, Position
from rules.game import Game
from rules.perft import perft
from rules.pdn import ReadGame, iter_file, read_games, write_game

if TYPE_CHECKING:
    from device.config import Config

PROG = "frisian-companion"

#: Exit statuses (README "Command line"): 0 done; 1 `check` found a game illegal or its result
#: wrong; 2 the user's mistake (bad input, configuration, paths: systemd's unit does not restart
#: on it, RestartPreventExitStatus=2); 3 the game store failed while working (disk full or
#: failing, locked by another program, damaged, in use by another service: not a configuration
#: mistake, so systemd restarts); 130 interrupted.
EXIT_USAGE = 2
EXIT_STORE = 3


class UsageError(Exception):
    """A mistake in what the user gave us: reported in one line, exit status 2."""


def _position(fen: str | None) -> Position:
    return Position.start() if fen is None else Position.from_fen(fen)


#: perft stops before a depth that would take the count over this many seconds (issue 19:
#: any input, from any command, in under 15 s); each depth takes some eight times the last.
PERFT_MAX_S = 15.0


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    if args.depth < 1:
        raise UsageError("perft DEPTH must be 1 or more")
    if args.max_seconds < 0:
        raise UsageError("--max-seconds must be 0 (no limit) or more")
    position = _position(args.fen)
    start = time.perf_counter()
    done: list[tuple[int, float]] = []  # (leaves, seconds) of each depth counted
    for depth in range(1, args.depth + 1):
        if args.max_seconds and len(done) >= 2 and done[-2][0]:
            # the next depth costs about as many times the last as the last had leaves more
            # than the one before it (the time per leaf barely changes)
            (before, _), (last, seconds) = done[-2], done[-1]
            expected = seconds * last / before
            spent = time.perf_counter() - start
            if spent + expected > args.max_seconds:
                raise UsageError(f"depth {depth} would take about {expected:.0f} s more, over "
                                 f"--max-seconds {args.max_seconds:g}: stopped after depth "
                                 f"{depth - 1} (give --max-seconds 0 for no limit)")
        t0 = time.perf_counter()
        leaves = perft(position, depth)
        done.append((leaves, time.perf_counter() - t0))
        out.write(f"{depth} {leaves} {done[-1][1]:.3f}\n")
        out.flush()
    return 0


def moves_json(position: Position) -> list[dict]:
    legal = position.legal_moves()
    return [{"from": m.from_square, "to": m.to_square, "path": list(m.path),
             "captured": list(m.captured), "text": position.move_text(m, legal)} for m in legal]


def cmd_moves(args: argparse.Namespace, out: TextIO) -> int:
    if args.fen == "-":
        for n, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                position = Position.from_fen(line)
            except ValueError as e:
                raise UsageError(f"standard input line {n}: {e}") from None
            if args.json:
                out.write(json.dumps(moves_json(position)) + "\n")
            else:
                out.write(" ".join(position.move_text(m) for m in position.legal_moves()) + "\n")
        return 0
    position = Position.from_fen(args.fen)
    if args.json:
        out.write(json.dumps(moves_json(position)) + "\n")
        return 0
    legal = position.legal_moves()
    for m in legal:
        taken = f"  captures {','.join(map(str, m.captured))}" if m.captured else ""
        out.write(f"{position.move_text(m, legal)}{taken}\n")
    over = position.outcome()
    if over is not None:
        out.write(f"game over: {over}\n")
    return 0


def check_line(index: int, read: ReadGame) -> tuple[bool, str]:
    """One line of `check` output for a game, and whether the game is legal."""
    game = read.game
    name = game.tags.get("Event", "?")
    if read.problem is not None:
        return False, f"{index} ILLEGAL {read.problem} [{name}]"
    rules_end = game.position.outcome()
    declared = game.declared_result
    if rules_end is not None:
        line = f"{index} OK {rules_end.result()} {rules_end.termination.value}"
        if declared and declared != rules_end.result():
            return False, f"{index} WRONG-RESULT the rules give {rules_end} but the Result tag says {declared} [{name}]"
    else:
        line = f"{index} OK {declared or '*'} not ended by the rules ({game.ply} plies)"
    return True, f"{line} [{name}]"


#: The largest PDN file `check` and `replay` read (characters): about 1,600 games, some ten
#: seconds of checking; memory stays that of one game (issue 19: any input in 15 s, 500 MB).
MAX_PDN_CHARS = 1_000_000


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    ok_all = True
    for i, read in enumerate(iter_file(args.file, MAX_PDN_CHARS), 1):
        ok, line = check_line(i, read)
        ok_all &= ok
        out.write(line + "\n")
    return 0 if ok_all else 1


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    if args.pdn:
        read = next(iter_file(args.pdn, MAX_PDN_CHARS))
    else:
        text = resources.files("device").joinpath("data/demo-game.pdn").read_text(encoding="utf-8")
        read = next(read_games(text))
    game = read.game
    out.write(f"Replaying {game.tags.get('Event', 'a game')} through the rules core\n")
    replay = Game(start=game.start, tags=dict(game.tags))
    for ply, move in enumerate(game.moves):
        position = replay.position
        text = position.move_text(move)
        replay.push(move)
        after = replay.position
        number = f"{ply // 2 + 1}." if position.turn.is_white else f"{ply // 2 + 1}..."
        counters = "  ".join(_counter_text(after, c) for c in (Color.WHITE, Color.BLACK))
        out.write(f"{number:>5} {text:<9} {counters}\n")
        if args.delay:
            out.flush()
            time.sleep(args.delay)
    if read.problem:
        out.write(f"stopped: {read.problem}\n")
    over = replay.position.outcome()
    out.write(f"Result: {over if over else (game.declared_result or '*') + ' (not ended by the rules)'}\n")
    out.write("Legal moves now: " + replay.position.describe_moves() + "\n\n")
    replay.declared_result = game.declared_result
    out.write(write_game(replay))
    return 0


def cmd_arbitrate(args: argparse.Namespace, out: TextIO) -> int:
    """Judge an observation file.  The whole file is read and checked first (`read_lines`), and
    what is judged is written only at the end, so that a bad line stops it with nothing printed."""
    from device.observation_file import Declare, Start, TakeBack, lines_of, read_lines
    from rules.arbiter import Arbiter
    from rules.events import CountersChanged

    name = "standard input" if args.file == "-" else args.file
    if args.file == "-":
        items = read_lines(lines_of(sys.stdin, name), name)
    else:
        try:
            with open(args.file, encoding="utf-8") as f:
                items = read_lines(lines_of(f, name), name)
        except OSError as e:
            raise UsageError(f"cannot read {args.file}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise UsageError(f"cannot read {args.file}: it is not UTF-8 text") from None
    arbiter = Arbiter()
    shown_counters = str(arbiter.counters())
    written: list[str] = []
    for n, item in items:
        try:
            if isinstance(item, Start):
                arbiter = Arbiter(Game(start=_position(item.fen), tags=dict(item.tags)))
                continue
            if isinstance(item, TakeBack):
                events = arbiter.take_back(item.time)
            elif isinstance(item, Declare):
                events = arbiter.declare(item.result, item.termination, item.time)
            else:
                events = arbiter.observe(item)
        except ValueError as e:
            raise UsageError(f"{name} line {n}: {e}") from None
        for event in events:
            if args.json:
                written.append(json.dumps({"line": n, "event": type(event).__name__, "text": str(event)}) + "\n")
                continue
            if isinstance(event, CountersChanged):
                if str(event) == shown_counters:
                    continue  # the text output shows counters only when they change
                shown_counters = str(event)
            written.append(f"line {n}: {event}\n")
    if arbiter.pending is not None:
        written.append(f"open at the end: {arbiter.pending.summary}\n")
    if not args.json:
        written.append("\n" + write_game(arbiter.game))
    out.write("".join(written))
    return 0


def cmd_read(args: argparse.Namespace, out: TextIO) -> int:
    from vision.read import (CORNER_46_OF_WHITE_AT, format_json, format_text, position_fen,
                             read_image, unsure_king_squares)

    reading = read_image(args.image, debug_dir=args.debug)
    fen, unsure = None, []
    if args.fen or args.white_at:
        corner = CORNER_46_OF_WHITE_AT[args.white_at] if args.white_at else reading.corner_46
        if corner is None:
            raise UsageError(f"{args.image}: the picture does not say where square 46 is: give "
                             "--white-at bottom, top, left or right (White's side in the "
                             "picture), or place the markers")
        fen = position_fen(reading, corner, "W" if args.turn == "white" else "B")
        unsure = unsure_king_squares(reading, corner)
    if args.json:
        out.write(json.dumps({**format_json(reading), **({"fen": fen} if fen else {})}) + "\n")
    elif args.fen:
        for warning in reading.warnings:
            print(f"{PROG}: warning: {warning}", file=sys.stderr)
        if unsure:
            print(f"{PROG}: warning: square(s) {', '.join(map(str, unsure))} look like kings but "
                  "the camera cannot tell surely there: read as men; if one is a king, write K "
                  f"before its square (e.g. K{unsure[0]})", file=sys.stderr)
        out.write(fen + "\n")
    else:
        out.write(format_text(reading) + (f"\nposition: {fen}" if fen else "") + "\n")
    if args.debug:
        print(f"{PROG}: pictures of each stage are in {args.debug}", file=sys.stderr)
    return 0


#: Marker sides (mm) the printed sheet has room for: two markers with their labels across A4.
MARKER_MM = (10.0, 50.0)


def cmd_markers(args: argparse.Namespace, out: TextIO) -> int:
    from vision.markers import MarkerLayout, marker_sheet, write_sheet

    if not args.out.lower().endswith(".png"):
        raise UsageError(f"{args.out}: the sheet is written as PNG: give a file name ending in .png")
    low, high = MARKER_MM
    if not low <= args.size_mm <= high:
        raise UsageError(f"--size-mm {args.size_mm:g} is out of range: use {low:g} to {high:g} mm "
                         "(0.8 of a square of your board)")
    layout = MarkerLayout()
    page = marker_sheet(layout, size_mm=args.size_mm)
    try:
        write_sheet(args.out, page)
    except OSError as e:
        raise UsageError(f"cannot write {args.out}: {e.strerror or e}") from None
    out.write(f"{args.out}: four ArUco markers ({layout.dictionary}, IDs 0-3), "
              f"{args.size_mm:g} mm each; print at 100% on A4 and place them as the sheet shows\n")
    return 0


def _counter_text(position: Position, colour) -> str:
    c = position.counter(colour)
    seven = position.seven_move_count
    base = f"{colour}: " + ("-" if c is None else f"K{c.square}{chr(39) * c.count}" + (" blocked" if c.blocked else ""))
    if seven is not None and position.seven_move_side is colour:
        base += f" seven-move {seven}/7"
    return base


def _service_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--config", help="the configuration file (TOML; default: the built-in defaults)")
    s.add_argument("--source", help="overrides camera.source: auto, picamera2, camera:N, video:PATH, "
                                    "folder:PATH or render")
    s.add_argument("--database", help="overrides paths.database (the game store)")
    s.add_argument("--no-speech", action="store_true", help="stay silent")
    s.add_argument("--wav-dir", help="write what is said as WAV files into this folder")
    s.add_argument("--mock-pins", action="store_true", help="LEDs on mock pins, shown in the terminal")


def _logging(level: str) -> None:
    """Log to stderr at ``level`` (set up once, the level changed by later calls)."""
    logging.basicConfig(stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(getattr(logging, level.upper(), logging.INFO))


def _config(path: str | None, level: str | None = None) -> Config:
    """The configuration in ``path`` (the defaults without one), read with logging already on
    so that its warnings (keys no longer used) are seen; then logging at ``level``, else the
    configured level."""
    from device.config import load_config

    _logging("WARNING")
    config = load_config(path)
    _logging(level or config.logging.level)
    return config


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    from device.stopping import stop_on_signals

    with stop_on_signals() as stop:  # first thing: a SIGTERM while starting is a clean stop
        from device.library_pages import import_lightly

        # first, and a few libraries at a time with their pages given back: Debian's OpenCV
        # loads ~350 libraries the companion never runs (135 MB at once; 67 MB so)
        import_lightly("cv2")
        from device.app import Options, build, serve
        from device.config import start_position

        config = _config(args.config)
        start = None if args.start is None else start_position(args.start, "--start")
        companion = build(config, Options(source=args.source, database=args.database,
                                          speech=False if args.no_speech else None,
                                          wav_dir=args.wav_dir, mock_pins=args.mock_pins,
                                          start=start), out)
        try:
            serve(companion, stop=stop)
        finally:
            companion.close()
    peak = _peak_resident_mb()
    if peak is not None:
        logging.getLogger("device.service").info("resident memory at its peak: %.1f MB", peak)
    return 0


def _peak_resident_mb() -> float | None:
    """This process's peak of resident memory so far (the kernel's VmHWM), MB; None where
    there is no ``/proc``."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    import tempfile

    from device.stopping import stop_on_signals

    with stop_on_signals() as stop:  # first thing: a SIGTERM while starting is a clean stop
        from device.app import Options, build, serve

        config = _config(args.config, "WARNING")
        if args.boards < 1:
            raise UsageError("--boards must be 1 or more")
        if args.boards > 1:
            from device.club_demo import run_club

            pdn = run_club(config, args.boards, out, stop, pdn=args.pdn, fps=args.fps, seed=args.seed,
                           no_speech=args.no_speech)
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(pdn)
            out.write(f"\nThe round's PDN (also written to {args.out}):\n\n{pdn}")
            return 0
        with tempfile.TemporaryDirectory(prefix="frisian-demo-") as tmp:
            database = args.database or os.path.join(tmp, "games.sqlite3")
            source = args.source or "render"
            out.write(f"frisian-companion demo: {source} -> vision -> arbiter -> scoresheet, LEDs, speech\n")
            companion = build(config, Options(source=source, pdn=args.pdn, render_fps=args.fps,
                                              render_seed=args.seed, database=database,
                                              speech=False if args.no_speech else None,
                                              wav_dir=args.wav_dir, mock_pins=True), out)
            if companion.web is not None:
                others = companion.web.address_for_others
                out.write(f"The club's screen: {companion.web.url}"
                          + (f" (from other machines: {others})" if others else "") + "\n")
                out.flush()
            try:
                companion.open_game()
                serve(companion, max_frames=args.frames, stop=stop)
                if companion.speaker is not None:
                    companion.speaker.wait_idle(30)
                pdn = companion.pdn()
            finally:
                companion.close()
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(pdn)
    stats = companion.stats
    out.write(f"\n{stats.frames} frames, {stats.settled} settled boards"
              + (f" and {stats.in_passing} seen in passing" if stats.in_passing else "")
              + f", {1000 * stats.vision_s / max(stats.frames, 1):.0f} ms of vision per frame\n")
    out.write(f"The scoresheet (also written to {args.out}):\n\n{pdn}")
    return 0


def hub_broker(config: "Config", args: argparse.Namespace):
    """The configuration's [broker] with the hub's command-line overrides, checked."""
    from dataclasses import replace

    from device.mqtt import URL_FORMS, parse_url
    from device.topics import EVENT_NAME

    broker = config.broker
    given = {k: getattr(args, k) for k in ("url", "event", "username", "password") if getattr(args, k)}
    broker = replace(broker, **given)
    try:
        parse_url(broker.url)
    except ValueError as e:
        raise UsageError(f"--url {broker.url!r} {e}") from None
    if not EVENT_NAME.match(broker.event):
        raise UsageError(f"--event {broker.event!r} is not an event name for the topics: use letters, "
                         "digits, - and _")
    return broker


def cmd_hub(args: argparse.Namespace, out: TextIO) -> int:
    from device.stopping import stop_on_signals

    with stop_on_signals() as stop:
        from device import pairings
        from device.config import WebConfig
        from device.hub import Hub
        from device.hub_store import HubStore
        from device.hub_web import HubWebServer

        config = _config(args.config)
        broker = hub_broker(config, args)
        pairing = None
        if args.pairings:
            round_, paired = pairings.pick(pairings.load(args.pairings), args.round, args.pairings)
            pairing = pairings.message(round_, paired, args.event_name)
            out.write(f"Pairings of round {round_}: {len(paired)} boards, sent to the boards\n")
        store = HubStore(args.database)
        hub = Hub(broker, store, pairing=pairing, round_=args.round).start()
        try:
            web = HubWebServer(WebConfig(bind=args.bind, port=args.port), hub,
                               language=config.speech.language).start()
            try:
                others = web.address_for_others
                out.write(f"The round's page: {web.url}" + (f" (from other machines: {others})" if others else "")
                          + f"\nThe round's PDN: {web.url}round.pdn\n")
                out.flush()
                while not stop.wait(1.0):
                    pass
            finally:
                web.close()
        finally:
            hub.close()
            store.close()
    return 0


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from device.store import GameStore

    config = _config(args.config, "WARNING")
    database = args.database or config.paths.database
    if not os.path.exists(database):
        raise UsageError(f"no game store at {database}: give --database or set paths.database")
    store = GameStore(database, read_only=True)
    try:
        if args.list:
            for g in store.games():
                out.write(f"{g.id} {g.status} {g.result} {g.tags.get('White', '?')} - "
                          f"{g.tags.get('Black', '?')} [{g.tags.get('Event', '')}]\n")
        elif args.game is not None:
            out.write(store.export_pdn(args.game))
        elif args.day:
            out.write(store.export_pdn_day(args.day))
        else:
            out.write(store.export_pdn_event(args.event))
    finally:
        store.close()
    return 0


def _service_url(config: "Config", url: str | None) -> str:
    """Where the running service's page answers: ``--url``, else [web] bind and port (this
    machine's address for "all interfaces")."""
    if url:
        return url.rstrip("/") + "/"
    host = config.web.bind
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://[{host}]:{config.web.port}/" if ":" in host else f"http://{host}:{config.web.port}/"


def _to_service(url: str, path: str, body: dict, token: str) -> dict | None:
    """POST a command to the running service (its answer), or None when none listens there."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read().decode("utf-8"))["answer"]
    except urllib.error.HTTPError as e:
        try:
            why = json.loads(e.read().decode("utf-8"))["error"]
        except (ValueError, KeyError):
            why = e.reason
        if e.code == 401:
            why += ": set [web] token in the configuration given with --config to the service's"
        raise UsageError(f"the service at {url} refused: {why}") from None
    except urllib.error.URLError as e:
        if isinstance(e.reason, ConnectionRefusedError):
            return None
        raise UsageError(f"cannot reach the service at {url}: {e.reason}") from None
    except ConnectionRefusedError:
        return None


def cmd_arbiter(args: argparse.Namespace, out: TextIO) -> int:
    """declare, new-game, tags, take-back, adjourn, resume: to the running service (its page's
    API, with [web] token), or, when none runs, to the store (take-back needs the service)."""
    from device.commands import check_declare, check_fen, check_tags, on_store, resume_on_store
    from device.pdn_folder import PdnFolder, folder_of
    from device.store import GameStore

    config = _config(args.config, "WARNING")
    if args.command == "declare":
        result, termination = check_declare(args.result, args.reason)
        path, body = "api/declare", {"result": result, "reason": termination.value}
    elif args.command == "new-game":
        check_fen(args.start, "--start")
        path, body = "api/new-game", {"fen": args.start}
    elif args.command in ("take-back", "adjourn"):
        path, body = f"api/{args.command}", {}
    elif args.command == "resume":
        path, body = "api/resume", {"game": args.game}
    else:
        given = {name: value for name, value in (("White", args.white), ("Black", args.black),
                                                 ("Event", args.event), ("Round", args.round),
                                                 ("Board", args.board)) if value is not None}
        for item in args.tag or ():
            name, sep, value = item.partition("=")
            if not sep:
                raise UsageError(f"--tag {item!r}: write NAME=VALUE, e.g. --tag Site=Leeuwarden")
            given[name.strip()] = value
        path, body = "api/tags", {"tags": check_tags(given)}
    if config.web.enabled and not args.database:
        url = _service_url(config, args.url)
        answer = _to_service(url, path, body, config.web.token)
        if answer is not None:
            if args.command == "declare":
                out.write(f"game {answer['game']}: {answer['result']} ({answer['termination']})\n")
            elif args.command == "new-game":
                out.write(f"game {answer} begun by the service at {url}\n")
            elif args.command == "take-back":
                out.write(f"the last move taken back: {answer} moves recorded\n")
            elif args.command == "adjourn":
                out.write(f"game {answer['game']} adjourned at {answer['fen']}\n")
            elif args.command == "resume":
                out.write(f"game {answer} resumed by the service at {url}: set up its position\n")
            else:
                out.write(f"game {answer['game']}: " + ", ".join(
                    f"{k} = {v}" for k, v in body["tags"].items()) + "\n")
            return 0
    if args.command == "new-game" and args.start:
        raise UsageError("no service runs: give the position to the next run (run --start FEN)")
    if args.command == "take-back":
        raise UsageError("no service runs: a move is taken back by the running service (its "
                         "arbiter holds the position and the counters); start it, then take back")
    database = args.database or config.paths.database
    if not os.path.exists(database):
        raise UsageError(f"no game store at {database}: give --database or set paths.database")
    store = GameStore(database, exclusive=True)  # not while a service records into it
    try:
        kw = {"result": args.result, "reason": args.reason} if args.command == "declare" else \
            {"values": body.get("tags")}
        game_id = store.game_in_progress()
        if args.command == "resume":
            out.write(resume_on_store(store, args.game) + "\n")
            return 0
        out.write(on_store(store, args.command, **kw) + "\n")
        folder = folder_of(config.paths.pdn_folder, database)
        if args.command == "declare" and game_id is not None and folder is not None:
            # the game ended here, not in the service: its file is written as the service would
            PdnFolder(folder, store, lambda: game_id).write(game_id)
    finally:
        store.close()
    return 0


def _arbiter_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--config", help="the configuration file ([web] port and token, paths.database)")
    s.add_argument("--url", help="the running service's page (default: from [web] bind and port)")
    s.add_argument("--database", help="change this store directly (no service may be running on it)")
    s.set_defaults(func=cmd_arbiter)


class _Parser(argparse.ArgumentParser):
    """argparse with its mistakes in one line, as all of ours (argparse prints the usage too)."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{PROG}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Frisian draughts companion: rules, arbiter, camera.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("perft", help="count the leaves of the move tree: one line 'DEPTH LEAVES SECONDS' per depth")
    s.add_argument("depth", type=int)
    s.add_argument("--max-seconds", type=float, default=PERFT_MAX_S,
                   help=f"stop before a depth that would take the whole count over this "
                        f"(default {PERFT_MAX_S:g}; 0: no limit)")
    s.add_argument("--fen", help="start from this position (default: the normal start)")
    s.set_defaults(func=cmd_perft)
    s = sub.add_parser("moves", help="list the legal moves of a position")
    s.add_argument("fen", help="a PDN FEN, or - to read one FEN per line from standard input")
    s.add_argument("--json", action="store_true", help='one JSON array of {"from","to","path","captured","text"}')
    s.set_defaults(func=cmd_moves)
    s = sub.add_parser("check", help="replay every game of a PDN file by the rules")
    s.add_argument("file")
    s.set_defaults(func=cmd_check)
    s = sub.add_parser("replay", help="replay a game through the rules core and print its scoresheet")
    s.add_argument("--pdn", help="replay the first game of this PDN file (default: the bundled game)")
    s.add_argument("--delay", type=float, default=0.0, help="seconds to wait between moves")
    s.set_defaults(func=cmd_replay)
    s = sub.add_parser("demo", help="the whole companion on a game replayed through rendered camera frames")
    _service_options(s)
    s.add_argument("--pdn", help="render the first game of this PDN file (default: the bundled real game); "
                                 "a game with a FEN tag is watched from that set-up position")
    s.add_argument("--fps", type=float, default=6.0, help="frames per second of the rendering (default 6)")
    s.add_argument("--seed", type=int, default=1, help="picks the camera pose and light (default 1)")
    s.add_argument("--out", default="frisian-demo.pdn", help="where the PDN is written (default ./frisian-demo.pdn)")
    s.add_argument("--frames", type=int, help="stop after this many frames")
    s.add_argument("--boards", type=int, default=1,
                   help="the club: this many boards publishing to a local mosquitto, and the hub's round page")
    s.set_defaults(func=cmd_demo)
    s = sub.add_parser("run", help="the service: watch the board, keep the scoresheet, drive LEDs and speech")
    _service_options(s)
    s.add_argument("--start", metavar="FEN",
                   help="begin a new game from this set-up position (PDN FEN, e.g. W:W28,K35,40:B12,19,23); "
                        "overrides game.start; a game in progress from another position is set aside unfinished")
    s.set_defaults(func=cmd_run)
    s = sub.add_parser("hub", help="the club's hub: every board of an event from the broker, the round's "
                                   "page, PDN and standings")
    s.add_argument("--config", help="the configuration file (its [broker] section: url, username, password, event)")
    s.add_argument("--url", help="the broker, mqtt://HOST:PORT or mqtts://HOST:PORT (overrides broker.url)")
    s.add_argument("--event", help="the event's name in the topics (overrides broker.event)")
    s.add_argument("--username", help="the hub's account on the broker (overrides broker.username)")
    s.add_argument("--password", help="its password (overrides broker.password)")
    s.add_argument("--database", default="hub.sqlite3", help="the hub's own store (default ./hub.sqlite3)")
    s.add_argument("--bind", default="0.0.0.0", help="the page's address (default every interface)")
    s.add_argument("--port", type=int, default=8090, help="the page's port (default 8090; 0: a free one)")
    s.add_argument("--pairings", metavar="CSV", help="the pairings file (round,board,White,Black), sent to the boards")
    s.add_argument("--round", help="the round shown and written as PDN (default: the pairings' last round; "
                                   "without pairings every game)")
    s.add_argument("--event-name", help="with --pairings: the Event tag the boards set")
    s.set_defaults(func=cmd_hub)
    s = sub.add_parser("export", help="print stored games as PDN")
    s.add_argument("--config", help="the configuration file (for paths.database)")
    s.add_argument("--database", help="the game store (default: paths.database of the configuration)")
    which = s.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", type=int, help="one game by its number")
    which.add_argument("--day", help="every game started that day, YYYY-MM-DD")
    which.add_argument("--event", help="every game of this Event tag")
    which.add_argument("--list", action="store_true", help="list the stored games")
    s.set_defaults(func=cmd_export)
    s = sub.add_parser("declare", help="end the game in progress with a result the rules do not decide")
    s.add_argument("result", help="1-0, 0-1 or 1/2-1/2")
    s.add_argument("--reason", required=True,
                   help="resignation, draw agreed, time or arbiter's decision")
    _arbiter_options(s)
    s = sub.add_parser("new-game", help="begin a new game (an unfinished one is set aside, result *)")
    s.add_argument("--start", metavar="FEN", help="from this set-up position (running service only)")
    _arbiter_options(s)
    s = sub.add_parser("take-back", help="take back the last move (the running service)")
    _arbiter_options(s)
    s = sub.add_parser("adjourn", help="adjourn the game in progress (result *, to resume later)")
    _arbiter_options(s)
    s = sub.add_parser("resume", help="go on with an adjourned game (its position set up on the board)")
    s.add_argument("game", type=int, help="the adjourned game's number (export --list shows them)")
    _arbiter_options(s)
    s = sub.add_parser("tags", help="set PDN tags of the game in progress (player names, event, round, board)")
    for flag in ("white", "black", "event", "round", "board"):
        s.add_argument(f"--{flag}", metavar="TEXT", help=f"the {flag.capitalize()} tag")
    s.add_argument("--tag", action="append", metavar="NAME=VALUE", help="any other tag (repeatable)")
    _arbiter_options(s)
    s = sub.add_parser("arbitrate", help="judge a game given as settled boards, one JSON object per line")
    s.add_argument("file", help="the observation file (JSONL, see README), or - for standard input")
    s.add_argument("--json", action="store_true", help='one JSON object per event: {"line","event","text"}')
    s.set_defaults(func=cmd_arbitrate)
    s = sub.add_parser("read", help="find the board in one photo and print its corners and squares")
    s.add_argument("image", help="a photo or frame (JPEG, PNG, ...)")
    s.add_argument("--json", action="store_true", help="one JSON object instead of text")
    s.add_argument("--debug", metavar="DIR", help="write pictures of each stage into DIR")
    s.add_argument("--fen", action="store_true",
                   help="print only the position as a FEN (for run --start); needs the markers or --white-at")
    s.add_argument("--white-at", choices=("bottom", "top", "left", "right"),
                   help="White's side of the board in the picture (the lighter pieces are White's)")
    s.add_argument("--turn", choices=("white", "black"), default="white",
                   help="the side to move in the FEN (default white)")
    s.set_defaults(func=cmd_read)
    s = sub.add_parser("markers", help="write a printable sheet of the four ArUco markers placed beside the board's corners")
    s.add_argument("out", metavar="OUT.png", help="the sheet to write (PNG, A4 at 300 dpi)")
    s.add_argument("--size-mm", type=float, default=32.0,
                   help="each marker's side in mm: 0.8 of a square of your board (default 32, for 40 mm squares)")
    s.set_defaults(func=cmd_markers)
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command ``argv`` (the command line's without it); its exit status."""
    return _dispatch(_parse(argv), out or sys.stdout)


def console() -> None:
    """The ``frisian-companion`` program: `main` on the command line, then the process ends.
    After ``run`` (the service) it ends as soon as Python's own exit work is done
    (`_end_process`), without the C libraries' exit-time destructors: Debian's OpenCV loads
    about 350 libraries whose destructors page their code back in to run, and that moment,
    the process's very end, was its peak of resident memory (144-146 MB, 131 while it ran)."""
    args = _parse(None)
    status = _dispatch(args, sys.stdout)
    if args.func is cmd_run:
        _end_process(status)
    sys.exit(status)


def _end_process(status: int) -> None:
    """End the process with ``status`` as Python would, less the C libraries' destructors:
    the threads that are not daemons joined, the exit handlers run (`atexit`, logging's),
    the standard streams flushed; then ``os._exit``."""
    import atexit
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # (closed, or the reader went away)
            pass
    os._exit(status)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    # FFmpeg's own complaints about a bad video file would come before our one-line error.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    return build_parser().parse_args(argv)


def _dispatch(args: argparse.Namespace, out: TextIO) -> int:
    try:
        return args.func(args, out)
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped reading: not an error of ours.
        sys.stdout = open(os.devnull, "w")
        return 0
    except StoreFault as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_STORE
    except (UsageError, ValueError, OSError, DeviceError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    console()
