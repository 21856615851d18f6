"""A position read from the camera's last frame, for the arbiter to set a game up from it (the
page's "Read from the camera", ``POST /api/read-position``).

The frame is read as one photo by the reader behind ``frisian-companion read --fen``
(`vision.read.read_image`, `vision.read.position_fen`), and the reading is said in draughts
terms: the FEN with kings, the squares it is unsure of with what each may be instead, and where
square 46 was taken to be, and by what (`BY`):

- ``calibration``: the service's watcher has found the board (learnt from a game's position);
- ``markers``: the photo shows the ArUco markers beside the board's corners (`vision.markers`);
- ``configuration``: ``board.orientation`` in the configuration file;
- ``guess``: nothing tells; White's side is taken to be the picture's bottom edge (its half
  turn when that puts a man on its far row), for the arbiter to check and turn if need be.

An orientation that cannot be this picture's (square 46 on a light square: the camera was
turned since) is passed over for the next, and said.  The reader's warnings and that one are
`Said`: each with a stable code (`vision.notes.CODES`, `CODES`), said in English and in Dutch
(`device.phrases.WARNINGS_NL`, by the code and its values, never by reading the English).  A
frame that gives no position is `device.errors.Refused`, by its code too.  The lighter pieces
are White's unless the service was told otherwise (``white_is_lighter``,
`device.service.Companion.turn_reading`).

It runs on the web's worker thread, never the service's: the service only hands over the frame
and what it knows (`device.commands.read_position`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from device import phrases
from device.errors import Refused
from device.phrases import WARNINGS_NL
from vision import notes
from vision.calibration import Orientation
from vision.locate import BoardNotFound
from vision.read import LOW_CONFIDENCE, ImageReadError, ImageReading, position_fen, read_image

#: What square 46's corner was taken from, surest first.
BY = ("calibration", "markers", "configuration", "guess")
#: Image corners (0-3) by name, as ``board.orientation`` names them.
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
_SAYING = {"calibration": "as the board was found before", "markers": "as the markers say",
           "configuration": "as configured"}
#: The reader's warnings said here in draughts terms instead (`Unsure`), by their codes.
_SAID_AS_SQUARES = ("unsure_kings", "low_confidence")
#: This module's own warnings' codes and the names of their values (the reader's:
#: `vision.notes.CODES`).
CODES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "orientation_impossible": ("corner", "by"),  # square 46's corner told is a light square
})

@dataclass(frozen=True)
class Said:
    """A warning of the reading: its stable ``code`` (`vision.notes.CODES` or `CODES`), its
    English sentence ``text`` and the ``values`` it names."""

    code: str
    text: str
    values: Mapping[str, Any]

    @classmethod
    def of(cls, note: notes.Note) -> "Said":
        """The reader's warning."""
        return cls(note.code, str(note), note.values)

    def say(self, language: str) -> str:
        """The warning in ``language`` (``nl`` Dutch; English for any other)."""
        template = WARNINGS_NL.get(self.code) if language == "nl" else None
        if template is None:
            return self.text
        return phrases.fill(template, "nl", self.values)

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "text": {"en": self.text, "nl": self.say("nl")}}


@dataclass(frozen=True)
class Unsure:
    """A square the reading is unsure of: ``read`` is in the FEN, ``alternative`` what it may
    be instead (``.`` empty, ``w``/``b`` a man, ``W``/``B`` a king); ``why``: ``king`` (a piece
    that looks like a king where the camera cannot tell surely) or ``colour`` (read with low
    confidence)."""

    square: int
    read: str
    alternative: str
    why: str


@dataclass(frozen=True)
class SetUpReading:
    """The position read (see the module docstring): square 46 at image corner ``corner_46``
    (0 TL, 1 TR, 2 BR, 3 BL), taken from ``by`` (one of `BY`)."""

    fen: str
    unsure: tuple[Unsure, ...]
    corner_46: int
    by: str
    warnings: tuple[Said, ...]

    @property
    def sure_of_orientation(self) -> bool:
        return self.by != "guess"

    def as_json(self) -> dict[str, Any]:
        return {"fen": self.fen,
                "unsure": [{"square": u.square, "read": u.read, "alternative": u.alternative,
                            "why": u.why} for u in self.unsure],
                "orientation": {"corner_46": CORNER_NAMES[self.corner_46], "by": self.by,
                                "sure": self.sure_of_orientation},
                "warnings": [w.as_json() for w in self.warnings]}


def read_position(image: np.ndarray, *, calibrated: int | None = None,
                  configured: int | None = None, white_is_lighter: bool = True,
                  turn: str = "white") -> SetUpReading:
    """The position in ``image`` (BGR), square 46 at the ``calibrated`` corner (the watcher's,
    None before it found the board), else the markers', else the ``configured`` one, else
    guessed (see the module docstring).  Raises `device.errors.Refused` (a ValueError, one
    line, said on the club's screen by its code) when the frame shows no board or no position."""
    try:
        reading = read_image(image)
    except BoardNotFound as e:  # (said of "image": here it is the camera's frame)
        raise Refused("read_no_board", problem=str(e).removeprefix("image: ")) from None
    if reading.pieces_on_light:  # no orientation makes a position of it
        raise Refused("read_pieces_on_light", count=reading.pieces_on_light)
    side = "W" if turn == "white" else "B"
    told = [(corner, by) for corner, by in ((calibrated, "calibration"),
                                            (reading.corner_46, "markers"),
                                            (configured, "configuration")) if corner is not None]
    fitting = [(corner, by) for corner, by in told
               if Orientation.from_corner_46(corner).dark_parity == reading.dark_parity]
    passed_over = [Said("orientation_impossible",
                        f"square 46 cannot be at the {CORNER_NAMES[corner]} of this picture "
                        f"({_SAYING[by]}): that corner is a light square here; was the camera "
                        "turned?", MappingProxyType({"corner": CORNER_NAMES[corner], "by": by}))
                   for corner, by in told if (corner, by) not in fitting]
    try:
        if fitting:
            corner, by = fitting[0]
            fen = position_fen(reading, corner, side, white_is_lighter)
        else:
            corner, fen = _guess(reading, side, white_is_lighter)
            by = "guess"
    except ImageReadError as e:  # (square 46 on a dark square, no piece on a light one: the
        # position read is one the rules do not allow)
        raise Refused("read_not_allowed", problem=str(e)) from None
    return SetUpReading(fen=fen, unsure=unsure_squares(reading, corner, white_is_lighter, fen),
                        corner_46=corner, by=by,
                        warnings=tuple(passed_over + [Said.of(w) for w in reading.warnings
                                                      if w.code not in _SAID_AS_SQUARES]))


def _guess(reading: ImageReading, side: str, white_is_lighter: bool) -> tuple[int, str]:
    """Square 46 at the bottom corner whose square is dark, or the corner a half turn away
    when that reads no position the rules allow."""
    bottom = next(c for c in (3, 2)
                  if Orientation.from_corner_46(c).dark_parity == reading.dark_parity)
    try:
        return bottom, position_fen(reading, bottom, side, white_is_lighter)
    except ImageReadError as first:
        turned = (bottom + 2) % 4
        try:
            return turned, position_fen(reading, turned, side, white_is_lighter)
        except ImageReadError:
            raise first from None


def unsure_squares(reading: ImageReading, corner_46: int, white_is_lighter: bool,
                   fen: str) -> tuple[Unsure, ...]:
    """The squares of ``reading`` (square 46 at ``corner_46``) it is unsure of, in square
    order: pieces that may be kings, and cells read with low confidence with their runner-up
    reading.  A piece read as a king on its far row (no man can stand there) is not unsure."""
    from rules.position import Position

    board = Position.from_fen(fen).pieces()
    colour = {".": ".", "w": "w" if white_is_lighter else "b", "b": "b" if white_is_lighter else "w"}
    out = []
    for sq, (r, c) in enumerate(Orientation.from_corner_46(corner_46).square_cells(), start=1):
        piece = board.get(sq)
        read = "." if piece is None else piece.symbol()
        if (r, c) in reading.unsure_kings and piece is not None and not piece.king:
            out.append(Unsure(sq, read, read.upper(), "king"))
        elif reading.confidence[r][c] < LOW_CONFIDENCE and reading.runner_up:
            other = colour[reading.runner_up[r][c]]
            if other != read.lower():
                out.append(Unsure(sq, read, other, "colour"))
    return tuple(out)
