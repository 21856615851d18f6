"""The club's screen under load: spectators on live updates while a game plays.

Run from the repository root::

    python -m bench.web                       # 50 spectators, 20 plies of the bundled game
    python -m bench.web --clients 100 --plies 33

Two child processes play the same game, rendered (`device.render_source.RenderedSource`, the
same seed), through the real service loop (`device.service.Companion.run`): one without the
web part, one with it (`device.app.web_for`, port 0) and ``--clients`` spectators connected to
``/api/events`` from a third process (raw asyncio streams, so that their cost is not the
service's).  Measured:

- ``rss_added_mb``: the peak resident memory (VmHWM) of the run with the web part and its
  spectators, less that of the run without (two processes' peaks: vision's own peak varies by
  some megabytes from run to run); ``rss_web_started_mb``: in the run with it, the resident
  memory the web part added from just before it was started (vision already loaded) to all
  spectators connected (aiohttp's import included);
- ``cpu_percent_of_one_core``: the CPU time of the web's thread (its asyncio loop: drawing the
  board, writing to every page) plus what the service's thread spends for it (the live state:
  `device.live.LiveState.on_event` and ``refresh``, building snapshots and handing them over),
  over the wall time of the game;
- ``latency_ms``: for every recorded move and every spectator, the time from the move being
  committed to the store (a sink right after it) to the spectator's process reading a state
  that holds it (one machine, one clock): p50, p99 and the maximum.

Progress goes to stderr; stdout gets one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.procstatus import status_kb


def _thread_cpu_s(native_id: int) -> float:
    """CPU seconds (user + system) of one thread of this process."""
    with open(f"/proc/self/task/{native_id}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


# --------------------------------------------------------------------------- spectators


async def _spectator(host: str, port: int, seen: dict[int, float], connected: asyncio.Event,
                     count: list[int], total: int) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass  # the headers
    count[0] += 1
    if count[0] == total:
        connected.set()
    shown = 0
    while True:
        line = await reader.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            now = time.time()
            moves = len(json.loads(line[6:])["state"]["moves"])
            for ply in range(shown + 1, moves + 1):
                seen.setdefault(ply, now)
            shown = moves


async def _spectators(url: str, clients: int) -> None:
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    seen: list[dict[int, float]] = [{} for _ in range(clients)]
    connected = asyncio.Event()
    count = [0]
    tasks = [asyncio.ensure_future(_spectator(host, int(port), s, connected, count, clients))
             for s in seen]
    await connected.wait()
    print("connected", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until told to stop
    for t in tasks:
        t.cancel()
    print(json.dumps([{str(k): v for k, v in s.items()} for s in seen]), flush=True)


# --------------------------------------------------------------------------- one run


class MoveClock:
    """A sink right after the store: when each move was committed (wall clock)."""

    def __init__(self) -> None:
        self.recorded: dict[int, float] = {}

    def on_event(self, event) -> None:
        from rules.events import MovePlayed

        if isinstance(event, MovePlayed):
            self.recorded[event.ply] = time.time()


def _run(with_web: bool, clients: int, plies: int, seed: int) -> dict:
    from dataclasses import replace

    from device.config import Config, WebConfig
    from device.render_source import RenderedSource, load_game
    from device.service import Companion
    from device.store import GameStore
    from rules.game import Game

    full = load_game()
    game = Game(start=full.start, tags=dict(full.tags))
    for move in full.moves[:plies]:
        game.push(move)
    tmp = tempfile.mkdtemp(prefix="bench-web-")
    store = GameStore(Path(tmp) / "games.sqlite3")
    clock = MoveClock()
    c = Companion(source=RenderedSource(game, fps=6, seed=seed), store=store, tags={"Event": "bench"},
                  still_s=0.3, sinks=[clock])
    out: dict = {}
    spectators = None
    live_cpu = [0.0]
    c.open_game()  # vision imported and its watcher made: what follows is the web part's
    rss_before = status_kb("VmRSS")
    if with_web:
        from device.app import web_for

        config = replace(Config(), web=WebConfig(bind="127.0.0.1", port=0))
        c.web = web_for(config, c)
        live = next(s for s in c.sinks if type(s).__name__ == "LiveState")

        def timed(f):
            def wrapped(*a):
                t0 = time.thread_time()
                try:
                    return f(*a)
                finally:
                    live_cpu[0] += time.thread_time() - t0
            return wrapped

        live.on_event = timed(live.on_event)
        c.watchers = [timed(w) for w in c.watchers]
        web_thread = next(t for t in threading.enumerate() if t.name == "web")
        spectators = subprocess.Popen([sys.executable, "-m", "bench.web", "--spectators", c.web.url,
                                       "--clients", str(clients)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert spectators.stdout.readline().strip() == "connected"
        print(f"bench.web: {clients} spectators connected to {c.web.url}", file=sys.stderr)
        web_cpu0 = _thread_cpu_s(web_thread.native_id)
        out["rss_web_started_mb"] = round((status_kb("VmRSS") - rss_before) / 1024, 1)
    t0 = time.monotonic()
    c.run(threading.Event())
    wall = time.monotonic() - t0
    out["wall_s"] = round(wall, 1)
    out["plies"] = c.arbiter.game.ply
    if with_web:
        time.sleep(1.0)  # the last states reach the spectators
        web_cpu = _thread_cpu_s(web_thread.native_id) - web_cpu0
        seen = json.loads(spectators.communicate("", timeout=60)[0])
        latencies = [(s[str(ply)] - t) * 1000 for ply, t in clock.recorded.items()
                     for s in seen if str(ply) in s]
        missing = sum(1 for ply in clock.recorded for s in seen if str(ply) not in s)
        out.update({
            "web_thread_cpu_s": round(web_cpu, 3), "live_state_cpu_s": round(live_cpu[0], 3),
            "cpu_percent_of_one_core": round(100 * (web_cpu + live_cpu[0]) / wall, 2),
            "latency_ms": {"p50": round(_percentile(latencies, 50), 1),
                           "p99": round(_percentile(latencies, 99), 1),
                           "max": round(max(latencies, default=float("nan")), 1),
                           "samples": len(latencies), "missed": missing},
        })
        c.close()
    out["vm_hwm_mb"] = round(status_kb("VmHWM") / 1024, 1)
    store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=50, help="spectators on live updates (default 50)")
    p.add_argument("--plies", type=int, default=20, help="plies of the bundled game played (default 20)")
    p.add_argument("--seed", type=int, default=5, help="the rendering's seed (default 5)")
    p.add_argument("--child", choices=("baseline", "web"), help=argparse.SUPPRESS)
    p.add_argument("--spectators", metavar="URL", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.spectators:
        asyncio.run(_spectators(args.spectators, args.clients))
        return 0
    if args.child:
        print(json.dumps(_run(args.child == "web", args.clients, args.plies, args.seed)))
        return 0
    runs = {}
    for mode in ("baseline", "web"):
        print(f"bench.web: the {mode} run ({args.plies} plies)...", file=sys.stderr)
        r = subprocess.run([sys.executable, "-m", "bench.web", "--child", mode, "--clients",
                            str(args.clients), "--plies", str(args.plies), "--seed", str(args.seed)],
                           capture_output=True, text=True, check=True)
        runs[mode] = json.loads(r.stdout.strip().splitlines()[-1])
    web = runs["web"]
    print(json.dumps({
        "bench": "web", "clients": args.clients, "plies": web["plies"],
        "rss_added_mb": round(web["vm_hwm_mb"] - runs["baseline"]["vm_hwm_mb"], 1),
        "rss_web_started_mb": web["rss_web_started_mb"],
        "cpu_percent_of_one_core": web["cpu_percent_of_one_core"],
        "latency_ms": web["latency_ms"],
        "runs": runs, "machine": platform.machine(), "python": platform.python_version(),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
