"""The device's errors, as gpiozero keeps its own: one class per kind of wrong.

Every one carries one line for the user: what is wrong and how to fix it (``str(error)``).
The command line prints it as ``frisian-companion: error: ...`` and exits non-zero.
"""

from __future__ import annotations


class DeviceError(Exception):
    """Base of the errors of the appliance's parts; ``str()`` is one line naming the fix."""


class ConfigError(DeviceError, ValueError):
    """A mistake in the configuration file: names the file, the key and the fix."""


class SourceError(DeviceError):
    """A camera, video file or picture folder cannot be opened or read."""


class GPIOError(DeviceError):
    """The LEDs or the button cannot be set up (no GPIO, a pin in use, a missing backend)."""


class StoreError(DeviceError):
    """The game store (SQLite) cannot be opened or written, or a game is unknown."""


class StoreFault(StoreError):
    """The game store failed while the program works, through no mistake in the configuration:
    the disk is full or failing, another program holds the database, or it is damaged.  The
    command line exits with status 3, not 2, so that systemd restarts the service."""


class SpeechError(DeviceError):
    """The speech engine failed, hung or is missing."""


class WebError(DeviceError):
    """The club's screen cannot be served (the port is taken, the address is not this machine's)."""


class PairingsError(DeviceError):
    """A pairings file that cannot be read: names the file, the line and the fix."""
