"""The camera view for placing the camera: a still of the last frame with what vision found.

`draw(image, ...)` draws on a copy of a frame: the playing area's outline and its 10x10 grid
(from the calibration's `vision.locate.BoardLocation`), each dark square's number and what the
game says stands there (``w``/``b`` a man, ``W``/``B`` a king, from the arbiter's expected
board), and, across the top, the king-placement warning (`vision.pipeline.BoardWatcher.
king_limits`) or, before the board is found, that it is not found yet, in the page's language
and wrapped to the still's width.  `jpeg` encodes it.  It runs on the web's worker thread,
never the service's: the service only hands over the frame it last read and the calibration
(`device.commands.camera_still`).
"""

from __future__ import annotations

from typing import Any, Mapping

import cv2
import numpy as np

from rules.piece import Piece

OUTLINE = (0, 255, 0)     # BGR
GRID = (0, 200, 255)
TEXT = (255, 255, 255)
LABEL_BACK = (0, 0, 0)
#: How much a label's dark patch hides of what is under it.
LABEL_ALPHA = 0.6
WARNING = (0, 190, 255)   # amber: read on the banner's black
#: The still is made no wider than this (pixels): enough to place a camera, cheap to send.
MAX_WIDTH = 960
#: Said across the top before the board is found, in each language of the page.
NOT_FOUND = {"en": "The board is not found yet", "nl": "Het bord is nog niet gevonden"}
FONT = cv2.FONT_HERSHEY_SIMPLEX
#: The banner's text size (OpenCV's font scale, at 1280 pixels wide).
BANNER_TEXT = 0.6


def banner_lines(warning: str | None, found: bool, width: int, language: str = "en") -> list[str]:
    """The lines said across the top of a still ``width`` pixels wide: before the board is
    ``found``, that it is not; after, the king-placement ``warning`` (None: nothing), in
    ``language`` (a `vision.notes.Note` is said by its code, `device.setup_reading.Said`),
    wrapped at word breaks so that every line fits (never cut: its end says the fix)."""
    if not found:
        text = NOT_FOUND.get(language, NOT_FOUND["en"])
    elif warning is None:
        return []
    elif hasattr(warning, "code"):
        from device.setup_reading import Said

        text = Said.of(warning).say(language)
    else:
        text = str(warning)
    scale = max(1.0, width / 1280)
    room = width - int(16 * scale)
    lines: list[str] = []
    for word in text.split():
        wider = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(wider, FONT, BANNER_TEXT * scale, _thick(scale))[0][0] <= room:
            lines[-1] = wider
        else:
            lines.append(word)
    return lines


def _thick(scale: float) -> int:
    return max(1, round(2 * scale))


def draw(image: np.ndarray, location: Any = None, orientation: Any = None,
         board: Mapping[int, Piece] | None = None, warning: str | None = None,
         language: str = "en") -> np.ndarray:
    """A copy of ``image`` (BGR) with the board's outline, grid, numbers and pieces drawn
    (``location``: a `BoardLocation`, None when the board is not found yet; ``orientation``: the
    calibration's `Orientation`, None before calibration: then no numbers), and across the top
    the `banner_lines` in ``language``."""
    out = image.copy()
    scale = max(1.0, out.shape[1] / 1280)
    thick = _thick(scale)
    if location is not None:
        t = np.linspace(0.0, 1.0, 11)[:, None]  # each line in pieces: a lens bends it
        for i in range(11):
            edge = i in (0, 10)  # the playing area's outline
            for a, b in (((i, 0), (i, 10)), ((0, i), (10, i))):
                pts = location.to_image(np.asarray(a) * (1 - t) + np.asarray(b) * t)
                cv2.polylines(out, [np.round(pts).astype(np.int32)], False,
                              OUTLINE if edge else GRID, thick * (2 if edge else 1), cv2.LINE_AA)
        if orientation is not None:
            cells = orientation.square_cells()
            centres = location.to_image(np.array([[c + 0.5, r + 0.5] for r, c in cells]))
            labels = []
            for sq, (x, y) in enumerate(centres, 1):
                piece = (board or {}).get(sq)
                label = str(sq) + ("" if piece is None else " " + piece.symbol())
                (w, h), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.4 * scale, 1)
                labels.append((label, int(x) - w // 2, int(y) + h // 2, w, h, base))
            # each label on a dark patch, half see-through: white text is read on light
            # pieces and squares too, and the piece under it still shows
            shade = out.copy()
            pad = max(1, round(2 * scale))
            for _, x0, y0, w, h, base in labels:
                cv2.rectangle(shade, (x0 - pad, y0 - h - pad), (x0 + w + pad, y0 + base), LABEL_BACK, -1)
            cv2.addWeighted(shade, LABEL_ALPHA, out, 1 - LABEL_ALPHA, 0, dst=out)
            for label, x0, y0, *_ in labels:
                cv2.putText(out, label, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * scale, TEXT, 1,
                            cv2.LINE_AA)
    lines = banner_lines(warning, location is not None, out.shape[1], language)
    step = int(26 * scale)
    if lines:
        cv2.rectangle(out, (0, 0), (out.shape[1], step * len(lines) + int(12 * scale)), (0, 0, 0), -1)
    for i, line in enumerate(lines):
        cv2.putText(out, line, (int(8 * scale), int(26 * scale) + i * step), FONT,
                    BANNER_TEXT * scale, WARNING if location is not None else TEXT, thick, cv2.LINE_AA)
    return out


def jpeg(image: np.ndarray, quality: int = 80) -> bytes:
    """``image`` as JPEG, made no wider than `MAX_WIDTH`."""
    if image.shape[1] > MAX_WIDTH:
        f = MAX_WIDTH / image.shape[1]
        image = cv2.resize(image, (MAX_WIDTH, round(image.shape[0] * f)), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the still could not be encoded as JPEG")
    return data.tobytes()
