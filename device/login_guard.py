"""A limit on guessing the arbiter's PIN or token on the club's screen (`device.web`).

Every wrong PIN or token a client sends (to ``/api/login``, or as the cookie or ``Authorization``
header of any arbiter's request) counts against its address.  The `FREE_TRIES`-th wrong one in a
row locks the address out: it is refused, right PIN or not, for `FIRST_LOCK_S`, and each wrong
one after the lock has passed locks it out twice as long, up to `MAX_LOCK_S`; a right one once
the lock has passed clears its count.  A four-digit
PIN, guessed from one address, then takes weeks instead of minutes.

The clock is ``time.monotonic`` unless given (tests move it by hand); the addresses remembered
are bounded (`MAX_ADDRESSES`, the longest-quiet forgotten first), so a flood of addresses cannot
fill the memory.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

#: Wrong tries allowed in a row before an address is locked out.
FREE_TRIES = 5
#: The first lock-out (seconds); each wrong try after it doubles the next one.
FIRST_LOCK_S = 30.0
#: The longest lock-out (seconds).
MAX_LOCK_S = 3600.0
#: Addresses remembered at most.
MAX_ADDRESSES = 1024


@dataclass
class _Record:
    wrong: int = 0
    until: float = float("-inf")


class LoginGuard:
    """Wrong tries per client address (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._records: OrderedDict[str, _Record] = OrderedDict()

    def locked_for(self, address: str) -> float:
        """Seconds ``address`` is still refused (0: it may try)."""
        record = self._records.get(address)
        if record is None:
            return 0.0
        return max(0.0, record.until - self.clock())

    def wrong(self, address: str) -> float:
        """Count a wrong try from ``address``; the lock-out it now begins (seconds, 0: none)."""
        record = self._records.pop(address, None) or _Record()
        record.wrong += 1
        self._records[address] = record  # the most recent last
        if record.wrong >= FREE_TRIES:
            lock = min(MAX_LOCK_S, FIRST_LOCK_S * 2 ** (record.wrong - FREE_TRIES))
            record.until = self.clock() + lock
        while len(self._records) > MAX_ADDRESSES:
            self._records.popitem(last=False)
        return self.locked_for(address)

    def right(self, address: str) -> None:
        """A right try from ``address`` (not locked): its count starts again."""
        self._records.pop(address, None)
