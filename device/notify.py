"""systemd notifications (sd_notify) without libsystemd: a datagram on ``$NOTIFY_SOCKET``.

`Notifier` sends ``READY=1``, ``WATCHDOG=1``, ``STATUS=...`` and ``STOPPING=1`` when the service
runs under systemd (``Type=notify``); without ``$NOTIFY_SOCKET`` every call does nothing.  A socket
name starting with ``@`` is in Linux's abstract namespace (a leading NUL byte).
`watchdog_interval()` is how often to send ``WATCHDOG=1``: half of ``$WATCHDOG_USEC``, or None
when systemd expects no keep-alive (or ``$WATCHDOG_PID`` names another process).
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Mapping

log = logging.getLogger(__name__)


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between ``WATCHDOG=1`` messages (half the watchdog timeout), or None."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    pid = env.get("WATCHDOG_PID", "")
    if pid.isdigit() and int(pid) != os.getpid():
        return None
    return int(usec) / 1e6 / 2


class Notifier:
    """Messages to systemd's notification socket; a no-op when there is none."""

    def __init__(self, address: str | None = None) -> None:
        self.address = os.environ.get("NOTIFY_SOCKET") if address is None else address
        self._warned = False

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; True when it was sent."""
        if not self.address:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        data = "\n".join(assignments).encode("utf-8")
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(target)
                sock.sendall(data)
            return True
        except OSError as e:
            if not self._warned:  # say it once: the service runs on without systemd's ear
                log.warning("cannot notify systemd at %s: %s", self.address, e.strerror or e)
                self._warned = True
            return False

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def watchdog_trigger(self) -> bool:
        """Ask systemd to act now as when the watchdog times out (``WATCHDOG=trigger``, systemd
        243 and later): the service is stopped and, with ``Restart=on-failure``, started anew
        after ``RestartSec=``, without waiting out ``WatchdogSec=``."""
        return self.notify("WATCHDOG=trigger")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={' '.join(text.split())}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")
