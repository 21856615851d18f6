"""Fault bench: what each fault a season brings costs, in moves lost and time to recover.

Run from the repository root::

    python -m bench.faults                          # every fault, ~6 minutes on 2 cores
    python -m bench.faults --faults sigkill,hang --kills 5 --seed 3

A game (the first ``--plies`` plies of the bundled demo game) is rendered once into a folder of
JPEG pictures, with the truth of every frame.  The service runs as the Pi runs it: `run` from the
command line (``device.cli.main``) in a child process, under a small supervisor that does what
the unit asks of systemd: ``Type=notify`` with ``$NOTIFY_SOCKET``, ``WatchdogSec=`` (SIGABRT when
no WATCHDOG=1 came for so long after READY=1, or at once on WATCHDOG=trigger), ``Restart=on-failure`` after ``RestartSec=``, not
after status 2; the times are the unit's (``systemd/frisian-companion.service``) unless
``--watchdog-s`` and ``--restart-s`` say otherwise.  The child wraps the camera source only to say
which frame it reads (and, for the camera faults, to hang or vanish); everything else is the real
program.  The world does not wait for the service: a restarted service's camera begins where the
game is by then (the frames of the time it was down and starting again, at the game's own frame
rate, are skipped), so the moves made meanwhile are seen as the board stands after them
(``--world-waits``: it begins at the board as last recorded, as tests/test_service.py does).

Faults:

- ``sigkill``: SIGKILL at ``--kills`` random moments of the game (one run each), restarted;
- ``hang``: the camera's read blocks for good at a random frame (a USB camera's driver stuck);
  the run gives up ``--hang-limit-s`` after the hang when neither the watchdog nor the program
  noticed;
- ``vanish``: the camera's reads and opens fail for ``--vanish-s`` seconds (a cable pulled), then
  it is back;
- ``disk-full``: the store on a small tmpfs (or, where mounting is not allowed, under a file size
  limit, RLIMIT_FSIZE) that fills at a random move and is freed ``--full-s`` seconds later;
- ``damaged``: a byte of the moves table's index flipped between two runs of one game;
- ``second``: a second service started on the same store in the middle of the game.

For each: ``moves_lost`` (the game's moves the final record lacks or has otherwise at their
place, ply by ply, against the rendered game's truth; ``baseline_lost`` is the same for a run
without a fault, which vision alone may cost), ``recover_s`` (for each restart or camera return: from then to the first move
accepted into the store; null when none was accepted), the child's exit codes and what it said.
Progress goes to stderr; stdout gets one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

FRAME_MARK = "bench-faults-frame "
UNIT = Path(__file__).resolve().parents[1] / "systemd" / "frisian-companion.service"


def unit_seconds(key: str, default: float) -> float:
    """A time the unit sets (``WatchdogSec=30``), in seconds: the supervisor does as it says."""
    found = re.search(rf"^{key}=(\d+(?:\.\d+)?)s?$", UNIT.read_text(), re.M) if UNIT.exists() else None
    return float(found.group(1)) if found else default


START_TIMEOUT_S = unit_seconds("TimeoutStartSec", 90.0)
FAULTS = ("sigkill", "hang", "vanish", "disk-full", "damaged", "second")


def say(text: str) -> None:
    print(f"faults: {text}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the child


class FaultySource:
    """Wraps the service's source: says on stderr which frame it reads, and plays the camera
    faults ``plan`` asks for (``hang_at``: that read blocks until the source is opened again;
    ``vanish_at`` and ``vanish_s``: from that read on, reads and opens fail for so many seconds)."""

    def __init__(self, inner, plan: dict) -> None:
        self.inner, self.plan = inner, plan
        self.name, self.live = inner.name, inner.live
        self.index = 0
        self._opened = False
        self._reopened = threading.Event()
        self._vanished_at: float | None = None

    def open(self) -> None:
        from device.errors import SourceError

        if self._vanished_at is not None:
            if time.monotonic() - self._vanished_at < self.plan["vanish_s"]:
                raise SourceError(f"{self.name}: no camera (the bench pulled its cable)")
            self._skip(time.monotonic() - self._vanished_at)
            self._vanished_at = None
            say_frame("back")
        self._reopened.set()
        if not self._opened:  # a reopened camera goes on from where the world is, never rewinds
            self.inner.open()
            self._opened = True

    def _skip(self, seconds: float) -> None:
        """The frames the service would have read meanwhile: the players went on."""
        for _ in range(int(seconds * self.plan.get("rate", 0.0))):
            if self.inner.read() is None:
                break
            self.index += 1

    def read(self):
        from device.errors import SourceError

        if self.index == self.plan.get("hang_at"):
            self.plan["hang_at"] = None
            say_frame("hang")
            hung = time.monotonic()
            self._reopened.clear()
            self._reopened.wait()  # until someone opens the camera again
            self._skip(time.monotonic() - hung)
            say_frame("back")
        if self.index == self.plan.get("vanish_at"):
            self.plan["vanish_at"] = None
            self._vanished_at = time.monotonic()
            say_frame("vanish")
        if self._vanished_at is not None:
            raise SourceError(f"{self.name}: no picture (the bench pulled its cable)")
        frame = self.inner.read()
        if frame is not None:
            say_frame(str(self.index))
            self.index += 1
            # the game's clock, as a camera's runs on across restarts (a folder's starts at 0)
            frame = replace(frame, time=frame.time + self.plan.get("time_offset", 0.0))
        return frame

    def close(self) -> None:
        pass  # a picture folder holds nothing open


def say_frame(what: str) -> None:
    os.write(2, f"{FRAME_MARK}{what}\n".encode())


def child(plan_json: str, argv: list[str]) -> int:
    """`run` as the command line runs it, its source wrapped in a `FaultySource`."""
    import device.app
    from device.cli import main as cli_main

    plan = json.loads(plan_json)
    if plan.get("fsize"):
        resource.setrlimit(resource.RLIMIT_FSIZE, (plan["fsize"], plan["fsize"]))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write over the limit fails with EFBIG
    opened = device.app.open_source

    def open_source(*args, **kw):
        return FaultySource(opened(*args, **kw), plan)

    device.app.open_source = open_source
    return cli_main(argv)


# --------------------------------------------------------------------------- the world


def render(folder: Path, plies: int, fps: float, seed: int) -> list[int]:
    """The first ``plies`` plies of the bundled game as JPEG frames in ``folder``; returns each
    frame's ply (how many moves the board shows; ``-1 - ply`` while a hand is over it or it is
    not yet still) and writes the game's moves as ``truth.json``."""
    import cv2

    from device.render_source import RenderedSource, load_game
    from rules.game import Game

    full = load_game()
    game = Game(start=full.start)
    for move in full.moves[:plies]:
        game.push(move)
    source = RenderedSource(game, fps=fps, seed=seed)
    source.open()
    frames_ply = []
    while (frame := source.read()) is not None:
        cv2.imwrite(str(folder / f"{frame.index:05d}.jpg"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        # a frame where the hand is away and the board still counts as its ply; others as -1 - ply
        frames_ply.append(source.truth.ply if source.truth.settled else -1 - source.truth.ply)
    (folder.parent / "truth.json").write_text(json.dumps(game.move_texts()))
    return frames_ply


def ply_of(mark: int) -> int:
    """The ply of a frame's mark in `render`'s list."""
    return mark if mark >= 0 else -1 - mark


def frames_from(frames: Path, begin: int, into: Path) -> Path:
    """A folder holding the frames from ``begin`` on (hard links): the camera from then on."""
    into.mkdir(parents=True)
    for path in sorted(frames.glob("*.jpg"))[begin:]:
        os.link(path, into / path.name)
    if not any(into.iterdir()):  # the game is over: the board stays as it was
        last = sorted(frames.glob("*.jpg"))[-1]
        os.link(last, into / last.name)
    return into


def recorded(database: Path) -> list[str]:
    """The moves of the store's last game, as a reader would find them (never locking it)."""
    if not database.exists():
        return []
    try:
        db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1)
        try:
            rows = db.execute("SELECT text FROM moves WHERE game_id = (SELECT max(id) FROM games) "
                              "ORDER BY ply").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return []
    return [r[0] for r in rows]


def lost(record: list[str], truth: list[str]) -> int:
    """The truth's moves the record lacks or has otherwise at their place (ply by ply: a move
    missed shifts all after it, and they count; two moves played while the service was down,
    recorded in the order the board cannot tell, count as two, not as every move after them,
    which the record has right)."""
    return sum(i >= len(record) or record[i] != move for i, move in enumerate(truth))


# --------------------------------------------------------------------------- the supervisor


@dataclass
class Start:
    """One start of the service: when, the moves recorded then, and what became of it."""

    at: float
    moves_before: int
    first_move_s: float | None = None
    exit: int | None = None
    watchdog_fired: bool = False
    said: str = ""


@dataclass
class Run:
    """A supervised service: started, watched (sd_notify, the watchdog, the store), restarted."""

    work: Path
    frames: Path
    database: Path
    config: Path
    rate: float                  # the world's frames per second (the game's own time)
    startup_s: float             # from a start to its first frame read (the clean run's)
    watchdog_s: float
    restart_s: float
    plan: dict = field(default_factory=dict)
    world_waits: list[int] | None = None  # each frame's ply, when the world waits for the service
    starts: list[Start] = field(default_factory=list)
    last_frame: int = -1         # the last frame (of the whole game) the service read
    offset: int = 0              # the frame the current start's folder begins with
    events: list[tuple[float, str]] = field(default_factory=list)

    def spawn(self, begin: int, extra_plan: dict | None = None) -> subprocess.Popen:
        self.offset = begin
        folder = frames_from(self.frames, begin, self.work / f"camera-{len(self.starts)}")
        self.sock_path = str(self.work / f"notify-{len(self.starts)}")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.sock_path)
        self.sock.settimeout(0.1)
        env = dict(os.environ, NOTIFY_SOCKET=self.sock_path,
                   WATCHDOG_USEC=str(int(self.watchdog_s * 1e6)))
        plan = dict(self.plan, time_offset=begin / self.rate, **(extra_plan or {}))
        argv = ["run", "--config", str(self.config), "--database", str(self.database),
                "--mock-pins", "--no-speech", "--source", f"folder:{folder}"]
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.faults", "--child", json.dumps(plan), "--", *argv],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        self.starts.append(Start(time.monotonic(), len(recorded(self.database))))
        self._tail: list[str] = []
        self._reader = threading.Thread(target=self._read_stderr, args=(self.proc, begin), daemon=True)
        self._reader.start()
        self.last_ping = time.monotonic()
        self.ready = False
        return self.proc

    def _read_stderr(self, proc: subprocess.Popen, begin: int) -> None:
        assert proc.stderr is not None
        with open(self.work / f"start-{len(self.starts)}.log", "w") as log:
            for line in proc.stderr:
                if line.startswith(FRAME_MARK):
                    what = line[len(FRAME_MARK):].strip()
                    if what.isdigit():
                        self.last_frame = begin + int(what)
                    else:
                        self.events.append((time.monotonic(), what))
                else:
                    log.write(line)
                    if line.startswith(("WARNING", "ERROR", "CRITICAL", "frisian-companion:", "Traceback")):
                        self._tail = (self._tail + [line.rstrip()])[-3:]

    def watch(self, until: float, on_tick=None) -> int | None:
        """Follow the running child until it exits or ``until`` (monotonic); the watchdog kills
        it (SIGABRT, then SIGKILL) when no WATCHDOG=1 came for ``watchdog_s``, or when it sends
        WATCHDOG=trigger.  Returns its exit
        status, or None at ``until``."""
        start = self.starts[-1]
        triggered = False
        while time.monotonic() < until:
            try:
                message = self.sock.recv(4096).decode()
                if "WATCHDOG=1" in message or "READY=1" in message:
                    self.last_ping = time.monotonic()
                    self.ready = self.ready or "READY=1" in message
                # the service asks for the watchdog's action now (systemd 243 and later)
                triggered = triggered or "WATCHDOG=trigger" in message
            except socket.timeout:
                pass
            if start.first_move_s is None and len(recorded(self.database)) > start.moves_before:
                start.first_move_s = time.monotonic() - start.at
            if on_tick is not None:
                on_tick(self)
            if self.proc.poll() is not None:
                return self._ended(self.proc.returncode)
            # systemd arms the watchdog once the service is ready; before, TimeoutStartSec= holds
            if triggered or (time.monotonic() - self.last_ping
                             > (self.watchdog_s if self.ready else START_TIMEOUT_S)):
                start.watchdog_fired = self.ready
                self.proc.send_signal(signal.SIGABRT)
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
                return self._ended(self.proc.returncode)
        return None

    def _ended(self, code: int) -> int:
        self._reader.join(5)
        self.sock.close()
        start = self.starts[-1]
        start.exit = code
        start.said = " | ".join(line for line in self._tail if line)[:300]
        return code

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._ended(self.proc.returncode)

    def resume_frame(self, down_since: float) -> int:
        """Where the world is when the restarted service reads its first frame: the frame after
        the last one read, plus the game's frames of the time it was down and starting again.
        When the world waits (``--world-waits``): the first still frame showing the moves recorded."""
        if self.world_waits is not None:
            n = len(recorded(self.database))
            return next((i for i, ply in enumerate(self.world_waits) if ply == n), len(self.world_waits))
        return self.last_frame + 1 + int((time.monotonic() - down_since + self.startup_s) * self.rate)

    def supervise(self, limit_s: float, restarts: int = 20, on_tick=None) -> None:
        """Start, and restart as systemd would (not after status 0 or 2), until the pictures
        end with status 0, ``restarts`` restarts, or ``limit_s``."""
        end = time.monotonic() + limit_s
        self.spawn(0)
        while True:
            code = self.watch(end, on_tick)
            if code is None:
                self.stop()
                return
            if code in (0, 2) or len(self.starts) > restarts:
                return
            down = time.monotonic()
            time.sleep(self.restart_s)
            if time.monotonic() >= end:
                return
            self.spawn(self.resume_frame(down))

    def report(self, truth: list[str]) -> dict:
        record = recorded(self.database)
        restarts = self.starts[1:]
        return {
            "moves": len(truth),
            "recorded": len(record),
            "moves_lost": lost(record, truth),
            "starts": len(self.starts),
            "exits": [s.exit for s in self.starts],
            "watchdog_fired": sum(s.watchdog_fired for s in self.starts),
            "recover_s": [None if s.first_move_s is None else round(s.first_move_s, 2) for s in restarts],
            "said": next((s.said for s in self.starts if s.exit not in (0, None)), ""),
        }


# --------------------------------------------------------------------------- the faults


class Bench:
    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args, self.work = args, work
        self.rng = random.Random(args.seed)
        self.frames = work / "frames"
        self.frames.mkdir()
        t0 = time.perf_counter()
        self.frames_ply = render(self.frames, args.plies, args.fps, args.seed)
        self.truth = json.loads((work / "truth.json").read_text())
        say(f"rendered {len(self.frames_ply)} frames of {len(self.truth)} plies in "
            f"{time.perf_counter() - t0:.0f} s")
        self.config = work / "config.toml"
        self.config.write_text(f"[camera]\nfps = {args.fps}\n[vision]\nstill_seconds = 0.3\n"
                               "[speech]\nenabled = false\n[paths]\npdn_folder = \"\"\n")
        self.startup_s = 2.0
        self.clean_s = 60.0
        self.n = 0

    def run(self, database: Path | None = None, **plan) -> Run:
        self.n += 1
        work = self.work / f"run-{self.n}"
        work.mkdir()
        return Run(work, self.frames, database or work / "state" / "games.sqlite3", self.config,
                   self.args.fps, self.startup_s, self.args.watchdog_s, self.args.restart_s, plan,
                   self.frames_ply if self.args.world_waits else None)

    def limit(self) -> float:
        return 3 * self.clean_s + 60

    def baseline(self) -> dict:
        run = self.run()
        first: list[float] = []

        def tick(r: Run) -> None:
            if not first and r.last_frame >= 0:
                first.append(time.monotonic() - r.starts[0].at)

        t0 = time.monotonic()
        run.supervise(self.limit() + 300, restarts=0, on_tick=tick)
        self.clean_s = time.monotonic() - t0
        self.startup_s = first[0] if first else self.startup_s
        out = run.report(self.truth)
        out.update(wall_s=round(self.clean_s, 1), startup_s=round(self.startup_s, 2),
                   frames_per_s=round(len(self.frames_ply) / self.clean_s, 1))
        return out

    def sigkill(self) -> dict:
        trials = []
        for _ in range(self.args.kills):
            run = self.run()
            at = self.rng.randrange(len(self.frames_ply) // 10, len(self.frames_ply) * 2 // 3)
            killed = []

            def tick(r: Run) -> None:
                if not killed and r.last_frame >= at and r.proc.poll() is None:
                    killed.append(len(recorded(r.database)))
                    r.proc.send_signal(signal.SIGKILL)

            run.supervise(self.limit(), on_tick=tick)
            out = run.report(self.truth)
            out.update(kill_at_frame=at, kill_at_ply=ply_of(self.frames_ply[at]),
                       recorded_at_kill=killed[0] if killed else None)
            trials.append(out)
            say(f"sigkill at frame {at}: {out}")
        return {"trials": trials,
                "moves_lost_max": max(t["moves_lost"] for t in trials),
                "recover_s_max": max((s for t in trials for s in t["recover_s"] if s is not None), default=None)}

    def camera_fault(self, fault: str, **plan) -> dict:
        """A camera that hangs or vanishes at a random frame of the game's first half: whether
        anything noticed (the watchdog fired, the camera was opened again), and from the fault
        to the first move accepted once the camera was back or the service restarted
        (``fault_to_move_s``; null: none was; moves from frames read before the fault and still
        waiting in the capture thread's buffer do not count)."""
        at = self.rng.randrange(len(self.frames_ply) // 4, len(self.frames_ply) // 2)
        run = self.run(**{f"{fault}_at": at}, rate=self.args.fps, **plan)
        seen: dict[str, tuple[float, int]] = {}

        def tick(r: Run) -> None:
            n = len(recorded(r.database))
            for t, what in r.events:
                seen.setdefault(what, (t, n))
            if len(r.starts) > 1:
                seen.setdefault("restart", (r.starts[1].at, r.starts[1].moves_before))
            again = seen.get("back") or seen.get("restart")
            if again is not None and "move" not in seen and n > again[1]:
                seen["move"] = (time.monotonic(), n)
            if fault in seen and again is None and "gave up" not in seen \
                    and time.monotonic() - seen[fault][0] > self.args.hang_limit_s and r.proc.poll() is None:
                say(f"{fault}: nothing noticed in {self.args.hang_limit_s:.0f} s; stopping the service")
                seen["gave up"] = (time.monotonic(), n)
                r.proc.terminate()

        run.supervise(self.limit(), restarts=5, on_tick=tick)
        out = run.report(self.truth)
        t_fault = seen.get(fault, (None,))[0]
        out.update({f"{fault}_at_frame": at,
                    "noticed": bool(out["watchdog_fired"]) or "back" in seen or "restart" in seen,
                    "gave_up_after_s": self.args.hang_limit_s if "gave up" in seen else None,
                    "fault_to_move_s": None if t_fault is None or "move" not in seen
                    else round(seen["move"][0] - t_fault, 2)})
        return out

    def hang(self) -> dict:
        return self.camera_fault("hang")

    def vanish(self) -> dict:
        out = self.camera_fault("vanish", vanish_s=self.args.vanish_s)
        out["vanish_s"] = self.args.vanish_s
        return out

    def disk_full(self) -> dict:
        mount = self.work / "small-disk"
        mount.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                                 capture_output=True, text=True).returncode == 0
        database = mount / "games.sqlite3"
        filler = mount / "filler"
        how = "tmpfs of 4 MB, filled up" if mounted else "RLIMIT_FSIZE (no mount here)"
        full_at = self.rng.randrange(2, max(3, len(self.truth) // 2))
        state: dict = {}
        try:
            run = self.run(database)

            def tick(r: Run) -> None:
                now = time.monotonic()
                n = len(recorded(database))
                if "full" not in state and n >= full_at:
                    state["full"] = (now, n)
                    if mounted:
                        with open(filler, "wb") as f:
                            try:
                                while True:
                                    f.write(b"\0" * 65536)
                                    f.flush()
                            except OSError:
                                pass
                    else:
                        r.plan["fsize"] = database.stat().st_size  # for the next starts
                if "full" in state and "freed" not in state and now - state["full"][0] >= self.args.full_s:
                    state["freed"] = (now, n)
                    filler.unlink(missing_ok=True)
                    r.plan.pop("fsize", None)
                if "freed" in state and "first_after" not in state and n > state["freed"][1]:
                    state["first_after"] = (now, n)

            run.supervise(self.limit() + self.args.full_s, on_tick=tick)
            out = run.report(self.truth)
        finally:
            if mounted:
                subprocess.run(["umount", str(mount)], capture_output=True)
        freed, first = state.get("freed"), state.get("first_after")
        out.update(how=how, full_at_move=full_at, full_s=self.args.full_s,
                   freed_to_move_s=None if freed is None or first is None else round(first[0] - freed[0], 2))
        return out

    def damaged(self) -> dict:
        half = self.rng.randrange(len(self.truth) // 3, 2 * len(self.truth) // 3)
        run = self.run()
        database = run.database

        def tick(r: Run) -> None:
            if len(r.starts) == 1 and len(recorded(database)) >= half and r.proc.poll() is None:
                r.proc.terminate()  # a clean stop; then the card flips a bit

        run.supervise(self.limit(), restarts=0, on_tick=tick)
        before = recorded(database)
        damage_index(database)
        readable = recorded(database)
        again = self.run(database)
        again.supervise(60, restarts=2)
        out = again.report(self.truth)
        out.update(recorded_before=len(before), readable_after_damage=len(readable),
                   refused=all(s.exit == 3 for s in again.starts),
                   recovered_by_sqlite3={way: recover(database, again.work / f"{way}.sqlite3", before, way)
                                         for way in (".recover", ".dump")})
        return out

    def second(self) -> dict:
        run = self.run()
        at = self.rng.uniform(2.0, self.clean_s * 0.7)
        other: dict = {}

        def tick(r: Run) -> None:
            if "proc" not in other and time.monotonic() - r.starts[0].at >= at:
                folder = frames_from(self.frames, max(r.last_frame, 0), r.work / "second-camera")
                other["t0"] = time.monotonic()
                other["proc"] = subprocess.Popen(
                    [sys.executable, "-m", "device.cli", "run", "--config", str(self.config),
                     "--database", str(r.database), "--mock-pins", "--no-speech", "--source", f"folder:{folder}"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            proc = other.get("proc")
            if proc is not None and "s" not in other and proc.poll() is not None:
                other["s"] = time.monotonic() - other["t0"]

        run.supervise(self.limit(), on_tick=tick)
        out = run.report(self.truth)
        proc = other.get("proc")
        said = ""
        if proc is not None:
            if proc.poll() is None:  # it was not refused: it ran beside the first
                proc.terminate()
            said = (proc.communicate(timeout=30)[1].strip().splitlines() or [""])[-1][-200:]
        out.update(second_after_s=round(at, 1),
                   second_exit=None if proc is None else proc.returncode,
                   second_said=said,
                   second_refused_in_s=round(other["s"], 2) if "s" in other else None)
        return out


def recover(database: Path, into: Path, before: list[str], way: str) -> int | None:
    """How many of the moves recorded before the damage, in order, the operator gets back with
    ``sqlite3 FILE .recover`` (as the refusal says) or ``.dump``; None without the sqlite3 program."""
    if shutil.which("sqlite3") is None:
        return None
    dump = subprocess.run(["sqlite3", str(database), way], capture_output=True, text=True, timeout=60)
    subprocess.run(["sqlite3", str(into)], input=dump.stdout, capture_output=True, text=True, timeout=60)
    return len(os.path.commonprefix([recorded(into), before]))


def damage_index(database: Path) -> None:
    """Flip a byte of the first key in the moves table's index (a bit gone on the SD card)."""
    db = sqlite3.connect(database)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_moves_1'").fetchone()[0]
    db.close()
    data = bytearray(database.read_bytes())
    start = (root - 1) * page
    # The b-tree page header gives where its cells begin (bytes 5-6); a cell is the payload's
    # size, the record's header, then the key: the last byte of the first cell's key is changed.
    cells = int.from_bytes(data[start + 5:start + 7], "big") or 65536
    size = data[start + cells]
    data[start + cells + size] ^= 0x7F
    database.write_bytes(bytes(data))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1], argv[3:])
    ap = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__.split("\n")[0])
    ap.add_argument("--faults", default=",".join(FAULTS), help=f"comma-separated, of {', '.join(FAULTS)}")
    ap.add_argument("--plies", type=int, default=24, help="how much of the bundled game is played")
    ap.add_argument("--fps", type=float, default=6.0, help="the rendering's frame rate")
    ap.add_argument("--seed", type=int, default=13, help="the rendering's and the fault moments' seed")
    ap.add_argument("--kills", type=int, default=3, help="SIGKILL runs")
    ap.add_argument("--watchdog-s", type=float, default=unit_seconds("WatchdogSec", 30.0),
                    help="the supervisor's WatchdogSec (default: the unit's)")
    ap.add_argument("--restart-s", type=float, default=unit_seconds("RestartSec", 5.0),
                    help="the supervisor's RestartSec (default: the unit's)")
    ap.add_argument("--hang-limit-s", type=float, default=45.0,
                    help="a camera fault nothing noticed this long ends the run")
    ap.add_argument("--vanish-s", type=float, default=5.0)
    ap.add_argument("--full-s", type=float, default=8.0, help="how long the disk stays full")
    ap.add_argument("--world-waits", action="store_true",
                    help="a restarted service's camera begins at the board as it was last recorded "
                         "(nothing played meanwhile), as tests/test_service.py does")
    ap.add_argument("--keep", help="keep the frames, stores and each start's log in this new folder")
    args = ap.parse_args(argv)
    chosen = [f for f in args.faults.split(",") if f]
    unknown = sorted(set(chosen) - set(FAULTS))
    if unknown:
        ap.error(f"unknown fault {', '.join(unknown)} (choose from {', '.join(FAULTS)})")
    import cv2

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        work = Path(tmp)
        if args.keep:
            work = Path(args.keep)
            work.mkdir(parents=True)
        bench = Bench(args, work)
        result: dict = {"bench": "faults", "plies": len(bench.truth), "frames": len(bench.frames_ply),
                        "seed": args.seed, "watchdog_s": args.watchdog_s, "restart_s": args.restart_s,
                        "world_waits": args.world_waits}
        result["baseline"] = bench.baseline()
        say(f"baseline: {result['baseline']}")
        for name in chosen:
            say(f"{name} ...")
            result[name] = getattr(bench, name.replace("-", "_"))()
            say(f"{name}: {result[name]}")
    result.update(wall_s=round(time.perf_counter() - t0, 1), python=platform.python_version(),
                  opencv=cv2.__version__, load_average=[round(x, 2) for x in os.getloadavg()])
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
