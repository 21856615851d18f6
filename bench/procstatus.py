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
