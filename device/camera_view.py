"""The camera view for placing the camera: a still of the last frame with what vision found.

`draw(image, ...)` draws on a copy of a frame: the playing area's outline and its 10x10 grid
(from the calibration's `vision.locate.BoardLocation`), each dark square's number and what the
game says stands there (``w``/``b`` a man, ``W``/``B`` a king, from the arbiter's expected
board), and, across the top, the king-placement warning (`vision.pipeline.BoardWatcher.
king_limits`) or, before the board is found, that it is not found yet.  `jpeg` encodes it.  It
runs on the web's worker thread, never the service's: the service only hands over the frame it
last read and the calibration (`device.commands.camera_still`).
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
WARNING = (0, 0, 255)
#: The still is made no wider than this (pixels): enough to place a camera, cheap to send.
MAX_WIDTH = 960


def draw(image: np.ndarray, location: Any = None, orientation: Any = None,
         board: Mapping[int, Piece] | None = None, warning: str | None = None) -> np.ndarray:
    """A copy of ``image`` (BGR) with the board's outline, grid, numbers and pieces drawn
    (``location``: a `BoardLocation`, None when the board is not found yet; ``orientation``: the
    calibration's `Orientation`, None before calibration: then no numbers)."""
    out = image.copy()
    scale = max(1.0, out.shape[1] / 1280)
    thick = max(1, round(2 * scale))
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
    note = warning if location is not None else "The board is not found yet"
    if note:
        cv2.rectangle(out, (0, 0), (out.shape[1], int(34 * scale)), (0, 0, 0), -1)
        cv2.putText(out, note[:150], (int(8 * scale), int(24 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * scale, WARNING if location is not None else TEXT, thick, cv2.LINE_AA)
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
