"""The kinds of wrong input the rules core reports.  All are ValueErrors."""

from __future__ import annotations


class FenError(ValueError):
    """A position text that is not valid PDN FEN (or names an impossible position)."""


class InvalidMoveError(ValueError):
    """A move text that is not move notation at all (e.g. ``32+28``)."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position; the message lists the legal moves."""


class AmbiguousMoveError(ValueError):
    """A move text that matches several legal moves; the message lists them in full."""


class PdnError(ValueError):
    """A PDN file that cannot be read; the message names the line."""


class CaptureSearchError(ValueError):
    """A position whose captures are too many to work out within the companion's time and memory
    (only set-up positions far beyond any game reach this)."""
