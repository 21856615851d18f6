"""Warnings that another language can say: `Note`, an English sentence with a stable code.

The one-photo reader (`vision.read.read_image`) and the king-placement checks
(`vision.kings.limit_warning`, `vision.kings.PhotoFit.warning`) warn in English sentences,
printed by the CLI and logged.  Each is a `Note`: still a `str` (printed, logged and searched
as one), with a ``code`` from `CODES` naming what it warns of and the ``values`` it names, so
that the club's screen can say it in Dutch by its code, never by reading the English
(`device.setup_reading`).  A code is never renamed or given other values; a new warning gets a
new code here.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

#: Every code and the names of the values its note carries.
CODES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # vision.read.read_image
    "markers_partial": ("seen", "ids"),                  # 2 or 3 of the 4 markers seen
    "pieces_on_light": ("count", "on_dark"),             # pieces on light squares
    "low_confidence": ("count", "cells"),                # cells read with low confidence
    "unsure_kings": ("count", "cells"),                  # pieces like kings, read as men
    "few_grid_corners": ("found",),                      # few of the 81 inner corners seen
    "colours_alike": (),                                 # the two piece colours alike
    "out_of_view": ("count", "cells", "edges"),          # cells partly outside the picture
    # vision.kings.limit_warning: kings cannot be told from men from where the camera stands
    "kings_top_down": ("tilt",),                         # the camera nearly above the board
    "kings_camera_far": ("px", "square_px"),             # ... far from the board
    "kings_camera_steep": ("px", "tilt", "square_px"),   # ... little tilted
    "kings_near_camera": ("count", "cells", "sure_px"),  # on the squares nearest its foot
    # vision.kings.PhotoFit.warning: the photo's men are no height reference
    "kings_colour_scatter": ("colour", "px"),            # colour: "lighter" or "darker"
    "kings_few_men": ("men", "pieces"),
    "kings_scatter": ("px",),
})


class Note(str):
    """A warning: its English sentence (the `str`), its ``code`` (one of `CODES`) and the
    ``values`` it names (exactly the names `CODES` gives the code).  Raises `ValueError` for an
    unknown code or other values: a note another language cannot say is a bug here."""

    code: str
    values: Mapping[str, Any]

    def __new__(cls, code: str, text: str, **values: Any) -> "Note":
        names = CODES.get(code)
        if names is None:
            raise ValueError(f"no warning code {code!r}: add it to vision.notes.CODES")
        if set(values) != set(names):
            raise ValueError(f"the {code!r} warning names {sorted(names)}, not {sorted(values)}")
        note = super().__new__(cls, text)
        note.code = code
        note.values = MappingProxyType(dict(values))
        return note

    def __reduce__(self) -> tuple:
        return (_note, (self.code, str(self), dict(self.values)))

    def __repr__(self) -> str:
        return f"Note({self.code!r}, {str(self)!r})"


def _note(code: str, text: str, values: dict[str, Any]) -> Note:
    return Note(code, text, **values)
