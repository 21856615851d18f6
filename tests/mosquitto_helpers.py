"""A real mosquitto for the tests: started on a free local port with a generated configuration,
password file (``mosquitto_passwd``) and ACL: board N may write only its own topics and read the
pairings, the hub reads the event and writes only the pairings (`device.topics`)."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from device.web import free_port

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
PASSWD = shutil.which("mosquitto_passwd")

needs_mosquitto = pytest.mark.skipif(MOSQUITTO is None or PASSWD is None,
                                     reason="needs mosquitto (apt-get install mosquitto)")
HUB_USER, HUB_PASSWORD = "hub", "hub-secret"


def board_user(board: int) -> tuple[str, str]:
    return f"board{board}", f"pw-board-{board}"


def acl(event: str, boards: range) -> str:
    lines = []
    for b in boards:
        lines += [f"user {board_user(b)[0]}", f"topic write frisian/{event}/{b}/#",
                  f"topic read frisian/{event}/pairings", ""]
    lines += [f"user {HUB_USER}", f"topic read frisian/{event}/#",
              f"topic write frisian/{event}/pairings", ""]
    return "\n".join(lines)


class Mosquitto:
    """One broker in ``folder``, on the same port across `stop` and `start`."""

    def __init__(self, folder: Path, event: str = "test", boards: range = range(1, 4)) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        passwd = folder / "passwd"
        users = [(HUB_USER, HUB_PASSWORD)] + [board_user(b) for b in boards]
        for i, (user, password) in enumerate(users):
            subprocess.run([PASSWD, "-b", *(["-c"] if i == 0 else []), str(passwd), user, password],
                           check=True, capture_output=True)
        (folder / "acl").write_text(acl(event, boards))
        self.log = folder / "mosquitto.log"
        (folder / "mosquitto.conf").write_text("\n".join([
            f"listener {self.port} 127.0.0.1", "allow_anonymous false",
            f"password_file {passwd}", f"acl_file {folder / 'acl'}", "persistence false",
            f"user {getpass.getuser()}", f"log_dest file {self.log}",
            "log_type error", "log_type warning", "log_type notice", ""]))

    def start(self, timeout: float = 20.0) -> "Mosquitto":
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto ended: {self.log.read_text() if self.log.exists() else ''}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None
