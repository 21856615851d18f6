"""A mosquitto of our own on this machine: the demo's broker and the benches' and tests'.

`LocalBroker` writes a configuration into a folder (listening on 127.0.0.1 only, a free port
unless given, no persistence) and runs ``mosquitto -c`` on it; with ``users`` it writes their
password file with ``mosquitto_passwd`` and refuses anyone else, with ``acl`` it applies that
access list.  A club's real broker is the system's mosquitto, set up once (README "Many boards").
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

from device.errors import DeviceError


def mosquitto() -> str | None:
    """The mosquitto program (Debian puts it in /usr/sbin), or None when it is not installed."""
    found = shutil.which("mosquitto")
    if found is None and Path("/usr/sbin/mosquitto").exists():
        found = "/usr/sbin/mosquitto"
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalBroker:
    """mosquitto on 127.0.0.1:``port`` with its files in ``folder``; `start` and `stop` keep the
    port, so a stopped broker comes back where the clients look for it."""

    def __init__(self, folder: str | Path, *, users: dict[str, str] | None = None, acl: str | None = None,
                 port: int | None = None) -> None:
        program = mosquitto()
        if program is None:
            raise DeviceError("mosquitto is not installed: apt-get install mosquitto")
        self.program = program
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.log = self.folder / "mosquitto.log"
        self.process: subprocess.Popen | None = None
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", f"user {getpass.getuser()}",
                 f"log_dest file {self.log}", "log_type error", "log_type warning", "log_type notice"]
        if users:
            passwd = self.folder / "passwd"
            tool = shutil.which("mosquitto_passwd") or "mosquitto_passwd"
            for i, (user, password) in enumerate(users.items()):
                subprocess.run([tool, "-b", *(["-c"] if i == 0 else []), str(passwd), user, password],
                               check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if acl is not None:
            (self.folder / "acl").write_text(acl)
            lines.append(f"acl_file {self.folder / 'acl'}")
        (self.folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 20.0) -> "LocalBroker":
        self.process = subprocess.Popen([self.program, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                said = self.log.read_text().strip().splitlines()[-1:] if self.log.exists() else []
                raise DeviceError(f"mosquitto did not start: {' '.join(said) or 'see ' + str(self.log)}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise DeviceError(f"mosquitto did not listen on port {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None:
            end(self.process)
        self.process = None


def end(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """Stop ``process`` with SIGTERM, or SIGKILL when it has not ended within ``timeout``."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout)
