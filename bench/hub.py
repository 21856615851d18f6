"""A simulated club: 100 boards replaying real games into one broker and one hub.

Run from the repository root (needs mosquitto installed)::

    python -m bench.hub                         # 100 boards, 10x speed, 60 s
    python -m bench.hub --boards 30 --seconds 30

Three processes and a broker (`device.local_broker`, on a free local port):

- the hub, as the command line runs it (``frisian-companion hub``, its own store, its page);
- the boards (``--boards``, one child process): synthetic publishers, no vision.  Each board
  replays a real game of ``tests/data/lidraughts-frisian.pdn`` (board N plays game N modulo the
  file's 15) through the arbiter into its own store, with the real broker publisher
  (`device.broker.BrokerPublisher`: outbox, QoS 1, retained state and events).  A real club
  game gives each move ``--ply-seconds`` on average (default 20 s: 5 to 35 s, drawn per move);
  played ``--speed`` times faster (default 10);
- this process: a page watching the hub's round (``/api/events``, server-sent events).

Measured over the replay (``--seconds``):

- ``hub_cpu_percent_of_one_core``: the hub process's CPU time (user + system, all its threads:
  paho, its store, the page) over the wall time;
- ``hub_rss_mb`` and ``hub_vm_hwm_mb``: its resident memory at the end and its peak;
- ``latency_ms``: for every move, the time from the board handing its state to the publisher
  to the page receiving a card of that board showing it (one machine, one clock): p50, p99, max;
  ``missed`` counts moves the page never showed (it shows each board's newest state: a move
  followed within the hub's batching by the next one is shown with it, not missed).

Progress goes to stderr; stdout gets one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.procstatus import status_kb

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "data" / "lidraughts-frisian.pdn"
EVENT = "bench"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def _proc_cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- the boards


class Board:
    """One synthetic board: a real game replayed through the arbiter into its store, published."""

    def __init__(self, number: int, folder: Path, url: str, game) -> None:
        from device.broker import BrokerPublisher
        from device.config import BrokerConfig
        from device.store import GameStore
        from rules.arbiter import Arbiter
        from rules.game import Game

        self.number = number
        self.store = GameStore(folder / f"board{number}.sqlite3")
        tags = {"Event": "bench", "Round": "1", "Board": str(number),
                "White": f"White {number}", "Black": f"Black {number}"}
        self.game_id = self.store.new_game(tags)
        self.arbiter = Arbiter(Game(start=game.start, tags=tags))
        replay = Game(start=game.start)
        self.positions = []  # (move, the position after it), ply by ply
        for move in game.moves:
            replay.push(move)
            self.positions.append((move, replay.position))
        self.publisher = BrokerPublisher(BrokerConfig(enabled=True, url=url, event=EVENT, board=number),
                                         self.store, client_id=f"bench-board-{number}").start()
        self.version = 0
        self.publish()

    def status(self) -> str:
        return "over" if self.arbiter.over is not None else "playing"

    def publish(self) -> None:
        from device.live import snapshot

        self.version += 1
        self.publisher.publish(snapshot(self, [], "en", self.version))

    def step(self) -> int | None:
        """Play the next move (its ply), or None when the game is over."""
        from rules.observation import Observation, Settled

        ply = self.arbiter.game.ply
        if ply >= len(self.positions) or self.arbiter.over is not None:
            return None
        move, position = self.positions[ply]
        settled = Settled(Observation.from_board(position.pieces(), 0.99), (move.from_square, *move.captured),
                          time.time())
        for event in self.arbiter.observe(settled):
            self.store.record(self.game_id, event)
        return self.arbiter.game.ply


def boards_main(args: argparse.Namespace) -> None:
    """The boards' process: replay, then print {"board:ply": time handed to the publisher}."""
    import logging

    from rules.pdn import read_file

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    games = [g.game for g in read_file(str(GAMES))]
    folder = Path(args.folder)
    rng = random.Random(args.seed)
    boards = [Board(n, folder, args.url, games[(n - 1) % len(games)]) for n in range(1, args.boards + 1)]
    mean = args.ply_seconds / args.speed
    low, high = 0.25 * mean, 1.75 * mean
    start = time.monotonic()
    queue = [(start + rng.uniform(0, high), b.number) for b in boards]
    heapq.heapify(queue)
    sent: dict[str, float] = {}
    print("started", flush=True)
    end = start + args.seconds
    while queue:
        due, number = heapq.heappop(queue)
        if due >= end:
            break
        time.sleep(max(0.0, due - time.monotonic()))
        board = boards[number - 1]
        ply = board.step()
        if ply is None:
            continue
        board.publish()
        sent[f"{number}:{ply}"] = time.time()
        heapq.heappush(queue, (due + rng.uniform(low, high), number))
    for b in boards:
        b.publisher.close(timeout=2.0)
        b.store.close()
    print(json.dumps(sent), flush=True)


# --------------------------------------------------------------------------- the page


async def _watch(url: str, seen: dict[str, float], stop: asyncio.Event, ready: threading.Event) -> None:
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    ready.set()
    shown: dict[int, int] = {}
    while not stop.is_set():
        try:
            line = await asyncio.wait_for(reader.readline(), 1.0)
        except asyncio.TimeoutError:
            continue
        if not line:
            return
        if line.startswith(b"data: "):
            now = time.time()
            data = json.loads(line[6:])
            board, plies = data["board"], data["plies"]
            for ply in range(shown.get(board, 0) + 1, plies + 1):
                seen.setdefault(f"{board}:{ply}", now)
            shown[board] = max(plies, shown.get(board, 0))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--boards", type=int, default=100)
    p.add_argument("--speed", type=float, default=10.0, help="times faster than a real game (default 10)")
    p.add_argument("--ply-seconds", type=float, default=20.0, help="a real game's mean time per move (default 20)")
    p.add_argument("--seconds", type=float, default=60.0, help="how long the boards play (default 60)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--as-boards", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--folder", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.as_boards:
        boards_main(args)
        return 0

    from device.local_broker import LocalBroker, free_port

    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    folder = Path(tempfile.mkdtemp(prefix="bench-hub-", dir=shm))
    broker = LocalBroker(folder / "broker").start()
    port = free_port()
    hub = subprocess.Popen([sys.executable, "-m", "device.cli", "hub", "--url", broker.url, "--event", EVENT,
                            "--database", str(folder / "hub.sqlite3"), "--bind", "127.0.0.1",
                            "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    url = f"http://127.0.0.1:{port}/"
    hub.stdout.readline()  # "The round's page: ..."
    seen: dict[str, float] = {}
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    ready = threading.Event()
    watcher = threading.Thread(target=lambda: loop.run_until_complete(_watch(url, seen, stop, ready)), daemon=True)
    watcher.start()
    ready.wait(30)
    print(f"bench.hub: hub at {url}, broker {broker.url}; {args.boards} boards starting", file=sys.stderr)
    boards = subprocess.Popen([sys.executable, "-m", "bench.hub", "--as-boards", "--url", broker.url,
                               "--folder", str(folder), "--boards", str(args.boards), "--speed", str(args.speed),
                               "--ply-seconds", str(args.ply_seconds), "--seconds", str(args.seconds),
                               "--seed", str(args.seed)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert boards.stdout.readline().strip() == "started"
    cpu0, t0 = _proc_cpu_s(hub.pid), time.monotonic()
    print(f"bench.hub: replaying for {args.seconds:.0f} s", file=sys.stderr)
    sent = json.loads(boards.stdout.readline())
    boards.wait(60)
    time.sleep(2.0)  # the last cards reach the page
    cpu, wall = _proc_cpu_s(hub.pid) - cpu0, time.monotonic() - t0
    rss, hwm = status_kb("VmRSS", hub.pid), status_kb("VmHWM", hub.pid)
    loop.call_soon_threadsafe(stop.set)
    watcher.join(10)
    hub.terminate()
    hub.wait(20)
    broker.stop()
    latencies = [(seen[k] - t) * 1000 for k, t in sent.items() if k in seen]
    out = {
        "bench": "hub", "boards": args.boards, "speed": args.speed, "ply_seconds_real": args.ply_seconds,
        "seconds": args.seconds, "moves": len(sent), "moves_per_s": round(len(sent) / args.seconds, 1),
        "hub_cpu_percent_of_one_core": round(100 * cpu / wall, 1), "hub_rss_mb": round(rss / 1024, 1),
        "hub_vm_hwm_mb": round(hwm / 1024, 1),
        "latency_ms": {"p50": round(_percentile(latencies, 50), 1), "p99": round(_percentile(latencies, 99), 1),
                       "max": round(max(latencies, default=float("nan")), 1), "samples": len(latencies),
                       "missed": len(sent) - len(latencies)},
        "targets": {"cpu_percent": 25, "memory_mb": 200, "p99_ms": 1000},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
