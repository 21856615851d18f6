"""Peer draughts libraries, each in its own virtualenv, driven through ``peer_perft.py``.

Both peers install a top-level package named ``draughts``, so they cannot share
an environment (nor the product's). Each one gets a venv under
``.bench-venvs/`` in the repository root, created on first use. They are
benchmark-only tools, never product dependencies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
VENV_ROOT = REPO_ROOT / ".bench-venvs"
CHILD_SCRIPT = Path(__file__).resolve().parent / "peer_perft.py"


@dataclass(frozen=True)
class Peer:
    """A peer library: its engine name in ``peer_perft.py``, pip spec and venv."""

    name: str
    distribution: str
    version: str
    venv_name: str
    slow: bool

    @property
    def venv(self) -> Path:
        return VENV_ROOT / self.venv_name

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


PEERS: tuple[Peer, ...] = (
    Peer("py-draughts", "py-draughts", "1.10.1", "pydraughts-fast", slow=False),
    Peer("pydraughts", "pydraughts", "0.6.7", "pydraughts", slow=True),
)


@dataclass(frozen=True)
class PeerRun:
    """One perft measured inside a peer's child process."""

    leaves: int
    seconds: float
    version: str


class PeerError(RuntimeError):
    """A peer's venv could not be set up or its child process failed."""


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def installed_version(peer: Peer) -> str | None:
    """The peer's installed version inside its venv, or None if absent."""
    if not peer.python.exists():
        return None
    probe = "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))"
    done = subprocess.run(
        [str(peer.python), "-I", "-c", probe, peer.distribution],
        capture_output=True, text=True, check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else None


def _check(command: list[str]) -> None:
    """Run a set-up command, its output going to stderr; raise PeerError on failure."""
    done = subprocess.run(command, stdout=sys.stderr, stderr=sys.stderr, check=False)
    if done.returncode != 0:
        raise PeerError(f"command failed ({done.returncode}): {' '.join(command)}")


def ensure_venv(peer: Peer) -> str:
    """Create the peer's venv and install the pinned version if needed; return the version."""
    current = installed_version(peer)
    if current == peer.version:
        return current
    if not peer.python.exists():
        _log(f"[bench] creating venv {peer.venv} for {peer.name} ...")
        _check([sys.executable, "-m", "venv", str(peer.venv)])
    _log(f"[bench] installing {peer.requirement} into {peer.venv} ...")
    _check([str(peer.python), "-m", "pip", "install", "--quiet",
            "--disable-pip-version-check", peer.requirement])
    current = installed_version(peer)
    if current is None:
        raise PeerError(f"{peer.requirement} did not install into {peer.venv}")
    _log(f"[bench] {peer.name} {current} ready")
    return current


def run_peer(peer: Peer, fen: str, depths: list[int], timeout: float) -> list[PeerRun]:
    """Run perft at each depth in one child process with the peer venv's python."""
    command = [str(peer.python), "-I", str(CHILD_SCRIPT), peer.name, fen,
               *(str(d) for d in depths)]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise PeerError(f"{peer.name} timed out after {timeout:.0f}s on {fen}") from exc
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise PeerError(f"{peer.name} failed ({done.returncode}) on {fen}:\n{tail}")
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if [r["depth"] for r in records] != depths:
        raise PeerError(f"{peer.name} returned depths {[r['depth'] for r in records]}, "
                        f"asked for {depths}")
    return [PeerRun(int(r["leaves"]), float(r["seconds"]), str(r["version"])) for r in records]
