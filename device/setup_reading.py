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
(`WARNINGS_NL`, by the code and its values, never by reading the English).  The lighter pieces are White's unless the service
was told otherwise (``white_is_lighter``, `device.service.Companion.turn_reading`).

It runs on the web's worker thread, never the service's: the service only hands over the frame
and what it knows (`device.commands.read_position`).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

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

#: Every warning in Dutch, by its code: `str.format` templates of the warning's values (a
#: number with a decimal comma; the values in `_NL_VALUES` said in Dutch).
WARNINGS_NL: Mapping[str, str] = MappingProxyType({
    "markers_partial": "maar {seen} van de 4 markers gezien (ID {ids}): het bord is aan zijn "
                       "ruitpatroon gevonden",
    "pieces_on_light": "{count} stuk(ken) op lichte velden ({on_dark} op donkere): het bord is "
                       "verkeerd opgezet of gedraaid (art. 5 en 26)",
    "low_confidence": "{count} vak(ken) onzeker gelezen: {cells}",
    "unsure_kings": "{count} stuk(ken) lijken dammen, maar de camera ziet daar geen zeker "
                    "verschil tussen dam en schijf; als schijf gelezen: {cells}; controleer ze",
    "few_grid_corners": "maar {found} van de 81 hoekpunten van het raster gezien: de omtrek van "
                        "het bord kan verschoven zijn",
    "colours_alike": "de twee kleuren stukken zijn moeilijk uit elkaar te houden",
    "kings_top_down": "dammen zijn niet van schijven te onderscheiden: de camera hangt bijna "
                      "recht boven het bord ({tilt:.0f} graden uit het lood); kantel hem 20 tot "
                      "45 graden",
    "kings_camera_far": "dammen zijn niet zeker van schijven te onderscheiden: de bovenkant van "
                        "een dam ligt maar {px:.1f} pixels van die van een schijf (de camera "
                        "staat ver van het bord, {square_px:.0f} pixels per veld); zet hem "
                        "dichterbij",
    "kings_camera_steep": "dammen zijn niet zeker van schijven te onderscheiden: de bovenkant "
                          "van een dam ligt maar {px:.1f} pixels van die van een schijf (de "
                          "camera staat maar {tilt:.0f} graden uit het lood, {square_px:.0f} "
                          "pixels per veld); kantel hem verder, 20 tot 45 graden, of zet hem "
                          "dichterbij",
    "kings_near_camera": "dammen zijn niet zeker van schijven te onderscheiden op {count} "
                         "veld(en) het dichtst bij de camera ({cells}): de bovenkant van een dam "
                         "ligt daar minder dan {sure_px:g} pixels van die van een schijf; kantel "
                         "de camera verder of zet hem dichterbij",
    "kings_colour_scatter": "dammen van de {colour} stukken zijn op deze foto niet zeker van "
                            "schijven te onderscheiden: hun bovenkanten wijken {px:.1f} pixels "
                            "af (een bovenkant valt weg tegen de velden, schittering of "
                            "onscherpte): ze zijn als schijf gelezen",
    "kings_few_men": "dammen zijn niet zeker van schijven te onderscheiden: te weinig schijven "
                     "om mee te vergelijken ({men} van {pieces} stukken; de schijven zijn de "
                     "maat voor de hoogte): elk stuk is als schijf gelezen",
    "kings_scatter": "dammen zijn op deze foto niet zeker van schijven te onderscheiden: de "
                     "bovenkanten van de schijven wijken {px:.1f} pixels af (afwijkende stukken, "
                     "een glanzende bovenkant, onscherpte of een verkeerd gelezen bord): elk "
                     "stuk is als schijf gelezen",
    "orientation_impossible": "veld 46 kan niet {corner} in dit beeld liggen ({by}): die hoek "
                              "is hier een licht veld; is de camera gedraaid?",
})
#: Values said in Dutch otherwise than in English (by the value's name).
_NL_VALUES: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "colour": {"lighter": "lichte", "darker": "donkere"},
    "corner": {"top-left": "linksboven", "top-right": "rechtsboven",
               "bottom-right": "rechtsonder", "bottom-left": "linksonder"},
    "by": {"calibration": "zoals het bord eerder gevonden is",
           "markers": "zoals de markers zeggen", "configuration": "zoals ingesteld"},
})


class _Dutch(string.Formatter):
    """`str.format` with a decimal comma."""

    def format_field(self, value: Any, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        return text.replace(".", ",") if isinstance(value, float) else text


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
        values = {k: _NL_VALUES.get(k, {}).get(v, v) if isinstance(v, str) else v
                  for k, v in self.values.items()}
        return _Dutch().format(template, **values)

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
    guessed (see the module docstring).  Raises `vision.read.ImageReadError` or
    `vision.locate.BoardNotFound` (`ValueError`s, one line) when the frame shows no board or
    no position."""
    try:
        reading = read_image(image)
    except BoardNotFound as e:  # (said of "image": here it is the camera's frame)
        raise BoardNotFound(str(e).removeprefix("image: ")) from None
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
    if fitting:
        corner, by = fitting[0]
        fen = position_fen(reading, corner, side, white_is_lighter)
    else:
        corner, fen = _guess(reading, side, white_is_lighter)
        by = "guess"
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
