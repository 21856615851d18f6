"""A process's memory as the kernel counts it (``/proc/PID/status``), for the benches."""

from __future__ import annotations


def status_kb(field: str, pid: int | str = "self") -> int:
    """``field`` of ``/proc/PID/status`` in kB (VmRSS, VmHWM, RssAnon, RssFile...); 0 when the
    kernel does not give it.  OSError when there is no such process."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def private_kb(pid: int | str = "self") -> int:
    """The resident memory only process ``pid`` holds, in kB: its private pages (``Private_Clean``
    and ``Private_Dirty`` of ``/proc/PID/smaps_rollup``), without those it shares with another
    process (a library's code both map from one file).  OSError when there is no such process."""
    total = 0
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    return total
