"""The device's errors, as gpiozero keeps its own: one class per kind of wrong.

Every one carries one line for the user: what is wrong and how to fix it (``str(error)``).
The command line prints it as ``frisian-companion: error: ...`` and exits non-zero.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any


class DeviceError(Exception):
    """Base of the errors of the appliance's parts; ``str()`` is one line naming the fix."""


class Coded(Exception):
    """An error the club's screen says in the page's language: its stable ``code`` (a key of
    `device.phrases.ERRORS`) and the ``values`` its sentence names; ``str()`` is the English
    sentence.  Raises `ValueError` for an unknown code or other values than its English
    sentence names: an error the page cannot say in Dutch is a bug here.  A code is never
    renamed or given other values; a new error gets a new code."""

    code: str
    values: "MappingProxyType[str, Any]"

    def __init__(self, code: str, **values: Any) -> None:
        from device import phrases

        phrases.check_error(code, values)
        super().__init__(phrases.error_text(code, "en", values))
        self.code = code
        self.values = MappingProxyType(dict(values))

    def say(self, language: str) -> str:
        """The error in ``language`` (English for one without a table)."""
        from device import phrases

        return phrases.error_text(self.code, language, self.values)

    def as_json(self) -> dict[str, Any]:
        """As an answer carries it (`device.phrases.error_json`)."""
        from device import phrases

        return phrases.error_json(self.code, self.values)


class Refused(Coded, ValueError):
    """What was asked cannot be done as things are (a position that is none, a board not yet
    found): one line, said by its code (`Coded`)."""


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
