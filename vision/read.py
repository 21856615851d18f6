"""Reading one photo of a board: `read_image` and its text and JSON forms (the CLI's ``read``).

The reading is in the image's own terms: the four corners of the playing area (top-left,
top-right, bottom-right, bottom-left as seen in the image), the 10x10 grid as seen (row 0 along
the top edge; ``.`` empty, ``w``/``b`` for the lighter/darker piece colour, upper case for a
king), the parity (row + col) % 2 of the dark squares, and warnings (pieces on light squares,
uncertain cells; each a `vision.notes.Note`, an English sentence with a stable code).
Nothing is assumed about which side is which or where square 46 is, unless the photo shows the
four ArUco markers of `vision.markers` beside the board's corners: then the board is found by
them ("found by: markers") and they say which image corner square 46 is at.

Kings (`vision.kings.photo_kings`): no position is known, so the men in the same photo are the
height reference (most pieces are men); a piece is a king, upper case, when its top stands as
high as two men's, clearly above the men's own scatter, where the camera can tell (a king's top
at least `vision.kings.PHOTO_SURE_PX` pixels from a man's by the reading's own estimate).  Where
it cannot, or not clearly, a piece that looks like a king is read as a man and named in
``unsure_kings`` and the warnings; a photo whose men are no height reference says so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration import Orientation, cells_out_of_view, describe_edges
from vision.colours import brighten
from vision.imagefile import MAX_PIXELS, ImageFileError, read_image_file
from vision.kings import PHOTO_SURE_PX, KingEvidence, limit_warning, photo_kings
from vision.locate import BoardLocation, BoardNotFound, find_board
from vision.markers import MarkerLayout, MarkersUnavailable, detect_markers, markers_fix
from vision.notes import Note
from vision.photo_cells import read_cells
from vision.pose import estimate_pose
from vision.squares import MAN_HEIGHT, BoardView, board_view

log = logging.getLogger(__name__)

__all__ = ["BoardNotFound", "ImageReadError", "ImageReading", "read_image", "format_text",
           "format_json"]

#: Cells read with less confidence than this are named in a warning.
LOW_CONFIDENCE = 0.8
#: Image corners in the order of `ImageReading.corners`.
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


class ImageReadError(ValueError):
    """The image could not be read (missing file, not an image, empty array)."""


@dataclass(frozen=True)
class ImageReading:
    """One photo's board as seen in the image (see the module docstring).  ``unsure_kings``:
    the cells ([row, col]) whose piece looks like a king where the camera cannot tell a king
    from a man surely (read as a man, upper case never)."""

    corners: tuple[tuple[float, float], ...]
    grid: tuple[str, ...]
    dark_parity: int
    confidence: tuple[tuple[float, ...], ...]
    warnings: tuple[str, ...]
    tilt_deg: float
    method: str
    size: tuple[int, int]
    corner_46: int | None = None
    markers: tuple[int, ...] = ()
    unsure_kings: tuple[tuple[int, int], ...] = ()
    #: The runner-up reading of each cell (``.``, ``w``, ``b``), the grid's shape: what a cell
    #: read with low confidence may be instead.
    runner_up: tuple[str, ...] = ()

    @property
    def pieces_on_light(self) -> int:
        return sum(1 for r, line in enumerate(self.grid) for c, ch in enumerate(line)
                   if ch != "." and (r + c) % 2 != self.dark_parity)


def _load(source: str | Path | np.ndarray) -> np.ndarray:
    if isinstance(source, np.ndarray):
        img = source
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        if img.ndim != 3 or img.shape[2] not in (3, 4) or img.size == 0:
            raise ImageReadError(f"not an image array (shape {img.shape})")
        if img.shape[0] * img.shape[1] > MAX_PIXELS:
            raise ImageReadError(f"an image of {img.shape[1]} x {img.shape[0]} pixels is more than "
                                 f"the {MAX_PIXELS // 1_000_000} megapixels this program reads")
        if img.shape[2] == 4:
            img = img[:, :, :3]
        return np.ascontiguousarray(img, dtype=np.uint8)
    path = Path(source)
    if not path.is_file():
        raise ImageReadError(f"{path}: no such file")
    try:
        return read_image_file(path)
    except ImageFileError as e:
        raise ImageReadError(str(e)) from None
    except OSError as e:
        raise ImageReadError(f"{path}: cannot be read: {e.strerror or e}") from None


def read_image(source: str | Path | np.ndarray, *, debug_dir: str | Path | None = None,
               markers: MarkerLayout | None = MarkerLayout()) -> ImageReading:
    """Read the board in one photo (a path or a BGR array), by its ``markers`` when three or
    more of them are seen (None: do not look for markers), else by its checker pattern.

    Raises `ImageReadError` for an unreadable image and `BoardNotFound` when no board is found
    (both `ValueError`s with a one-line message)."""
    image = _load(source)
    h, w = image.shape[:2]
    seen: dict[int, np.ndarray] = {}
    if markers is not None:
        try:
            seen = detect_markers(image, markers)
        except MarkersUnavailable as e:
            log.info("%s: looking for the checker pattern only", e)
    fix = markers_fix(seen, markers) if markers is not None else None
    if fix is not None:
        location = fix.location
    else:
        try:
            location = find_board(image)
        except BoardNotFound as e:
            raise BoardNotFound(f"{source if not isinstance(source, np.ndarray) else 'image'}: "
                                f"{e}") from None
    pose = estimate_pose(location.homography, (w, h))
    view = board_view(brighten(image), location, pose)
    model, dark_parity, probs, poor = read_cells(view)
    best = probs.best()
    conf = probs.confidence()
    second = np.argsort(probs.p, axis=-1)[..., -2]
    kings, fit = photo_kings(view, pose, best, location.square_px, poor=poor)
    # a king only where the camera can tell it from a man (a king's top `PHOTO_SURE_PX` pixels
    # from a man's) and the photo's men are a height reference; elsewhere a man, the king named
    sep = np.zeros((10, 10)) if kings.separation is None else np.nan_to_num(kings.separation)
    readable = fit.trusted and not pose.top_down
    sure_kings = (best > 0) & kings.king & (sep >= PHOTO_SURE_PX) & readable
    # looking like kings (the weighing's), but where the camera cannot tell or not clearly
    unsure_kings = ([(int(r), int(c)) for r, c in np.argwhere((best > 0) & (kings.p_king > 0.5)
                                                              & ~sure_kings)]
                    if readable else [])
    rows = []
    for r in range(10):
        line = ""
        for c in range(10):
            ch = ".wb"[best[r, c]]
            if sure_kings[r, c]:
                ch = ch.upper()
            line += ch
        rows.append(line)
    warnings = []
    if seen and fix is None:
        ids = ", ".join(map(str, sorted(seen)))
        warnings.append(Note("markers_partial", f"only {len(seen)} of the 4 markers seen (ID "
                             f"{ids}): found by the checker pattern", seen=len(seen), ids=ids))
    on_light = [(r, c) for r in range(10) for c in range(10)
                if best[r, c] and (r + c) % 2 != dark_parity]
    on_dark = int(sum(1 for r in range(10) for c in range(10)
                      if best[r, c] and (r + c) % 2 == dark_parity))
    if on_light:
        warnings.append(Note(
            "pieces_on_light",
            f"{len(on_light)} piece(s) stand on light squares ({on_dark} on dark ones): the "
            "board is set up wrongly or turned (Art. 5 and 26)", count=len(on_light), on_dark=on_dark))
    low = [(r, c) for r in range(10) for c in range(10) if conf[r, c] < LOW_CONFIDENCE]
    if low:
        cells = ", ".join(f"({r},{c})" for r, c in low[:10]) + (" ..." if len(low) > 10 else "")
        warnings.append(Note("low_confidence", f"{len(low)} cell(s) read with low confidence: {cells}",
                             count=len(low), cells=cells))
    pieces = [(r, c) for r in range(10) for c in range(10) if best[r, c]]
    # the squares near the camera's foot where it cannot tell, of those the reading leaves unsure
    near = [(r, c) for r, c in pieces if sep[r, c] < PHOTO_SURE_PX or not readable]
    limit = limit_warning(pose, MAN_HEIGHT, location.square_px, near,
                          [f"({r},{c})" for r, c in near]) if pieces else None
    if limit:
        warnings.append(limit)
    if fit.warning() and not pose.top_down:
        warnings.append(fit.warning())
    if unsure_kings:
        cells = ", ".join(f"({r},{c})" for r, c in unsure_kings)
        warnings.append(Note("unsure_kings", f"{len(unsure_kings)} piece(s) look like kings but the "
                             "camera cannot tell a king from a man surely there, read as men: "
                             f"{cells}; check them", count=len(unsure_kings), cells=cells))
    if fix is None and location.corners_found < 40:
        warnings.append(Note("few_grid_corners", f"only {location.corners_found} of 81 grid "
                             "corners seen: the board outline may be off",
                             found=location.corners_found))
    if model.piece_contrast < 25 and np.count_nonzero(best) > 1:
        warnings.append(Note("colours_alike", "the two piece colours are hard to tell apart"))
    grid_cells = [(r, c) for r in range(10) for c in range(10)]
    beyond, edges = cells_out_of_view(location, (w, h), grid_cells)
    if beyond.any():
        # read as whatever lies at the picture's edge: a piece there may be missed, or one seen
        out = [grid_cells[i] for i in np.flatnonzero(beyond)]
        cells = ", ".join(f"({r},{c})" for r, c in out[:10]) + (" ..." if len(out) > 10 else "")
        where = describe_edges(edges)
        warnings.append(Note("out_of_view", f"{len(out)} cell(s) lie partly outside the picture "
                             f"(at its {where}): pieces there may be misread: {cells}; aim the "
                             "camera so that the whole board is well in view",
                             count=len(out), cells=cells, edges=where))
    reading = ImageReading(
        corners=tuple((float(x), float(y)) for x, y in location.corners),
        grid=tuple(rows), dark_parity=int(dark_parity),
        confidence=tuple(tuple(float(round(v, 3)) for v in row) for row in conf),
        warnings=tuple(warnings), tilt_deg=float(pose.tilt_deg), method=location.method,
        size=(w, h), corner_46=None if fix is None else fix.corner_46,
        markers=() if fix is None else tuple(sorted(fix.markers)),
        unsure_kings=tuple(unsure_kings),
        runner_up=tuple("".join(".wb"[v] for v in row) for row in second))
    if debug_dir is not None:
        _debug(Path(debug_dir), image, location, view, reading, kings, seen)
    return reading


def format_text(reading: ImageReading) -> str:
    """A human-readable block: corners, grid (dark squares marked), warnings."""
    out = ["corners: " + ", ".join(f"{n} ({x:.1f}, {y:.1f})"
                                   for n, (x, y) in zip(CORNER_NAMES, reading.corners))]
    if reading.markers:
        out.append(f"found by: markers (ID {', '.join(map(str, reading.markers))}); square 46 "
                   f"at the {CORNER_NAMES[reading.corner_46]}")
    else:
        out.append(f"found by: the checker pattern ({reading.method})")
    out.append(f"dark squares: (row + col) % 2 == {reading.dark_parity}; camera about "
               f"{reading.tilt_deg:.0f} deg off vertical")
    out.append("board as seen (row 0 at the top; . empty, w/b lighter/darker pieces, W/B kings):")
    out.extend("  " + " ".join(line) for line in reading.grid)
    for wn in reading.warnings:
        out.append("warning: " + wn)
    return "\n".join(out)


#: Where White's men start in the picture (``read --white-at``) -> square 46's image corner
#: (0 TL, 1 TR, 2 BR, 3 BL): square 46 is White's left-hand corner seen from White's side.
CORNER_46_OF_WHITE_AT = {"bottom": 3, "top": 1, "left": 0, "right": 2}


def position_fen(reading: ImageReading, corner_46: int, turn: str = "W",
                 white_is_lighter: bool = True) -> str:
    """The reading as a position (PDN FEN, kings marked; an unsure king on its far row is a
    king, no man stands there): square 46 at image corner
    ``corner_46`` (0 TL, 1 TR, 2 BR, 3 BL), the lighter pieces White's (the darker ones when
    not ``white_is_lighter``), ``turn`` ("W" or "B") to move.  Raises `ImageReadError` when the picture cannot be that position: square 46's
    corner a light square there (a quarter turn off), or pieces on light squares."""
    orientation = Orientation.from_corner_46(corner_46)
    if orientation.dark_parity != reading.dark_parity:
        raise ImageReadError(f"square 46 cannot be at the {CORNER_NAMES[corner_46]} of this "
                             "picture: that corner is a light square (a quarter turn off)")
    if reading.pieces_on_light:
        raise ImageReadError(f"{reading.pieces_on_light} piece(s) stand on light squares: the "
                             "picture shows no position (see the warnings)")
    sides: dict[str, list[str]] = {"W": [], "B": []}
    for sq, (r, c) in enumerate(orientation.square_cells(), start=1):
        ch = reading.grid[r][c]
        if ch != ".":
            side = "W" if (ch.lower() == "w") == white_is_lighter else "B"
            # a piece that looks like a king where the camera cannot tell surely, on its far
            # row: no man stands there (Art. 8), so it is the king
            far = sq <= 5 if side == "W" else sq >= 46
            king = ch.isupper() or (far and (r, c) in reading.unsure_kings)
            sides[side].append(("K" if king else "") + str(sq))
    fen = f"{turn}:W{','.join(sides['W'])}:B{','.join(sides['B'])}"
    from rules.errors import FenError
    from rules.position import Position
    try:
        Position.from_fen(fen)
    except FenError as e:  # (men on their far row: White's side given wrongly, or misread)
        raise ImageReadError(f"the position read is not one the rules allow ({e}): is White's "
                             "side given rightly?") from None
    return fen


def unsure_king_squares(reading: ImageReading, corner_46: int) -> list[int]:
    """The squares (1-50, square 46 at image corner ``corner_46``) of
    `ImageReading.unsure_kings`."""
    cells = Orientation.from_corner_46(corner_46).square_cells()
    return [sq for sq, rc in enumerate(cells, start=1) if rc in reading.unsure_kings]


def format_json(reading: ImageReading) -> dict[str, Any]:
    """A JSON-ready dict of the reading."""
    return {
        "corners": [[round(x, 1), round(y, 1)] for x, y in reading.corners],
        "corner_order": ["top-left", "top-right", "bottom-right", "bottom-left"],
        "grid": list(reading.grid),
        "dark_cell_parity": reading.dark_parity,
        "confidence": [list(r) for r in reading.confidence],
        "pieces_on_light_squares": reading.pieces_on_light,
        "tilt_deg": round(reading.tilt_deg, 1),
        "method": reading.method,
        "markers": list(reading.markers),
        "corner_46": None if reading.corner_46 is None else CORNER_NAMES[reading.corner_46],
        "size": list(reading.size),
        "unsure_kings": [list(rc) for rc in reading.unsure_kings],
        "warnings": list(reading.warnings),
    }


def _debug(folder: Path, image: np.ndarray, location: BoardLocation, view: BoardView,
           reading: ImageReading, kings: KingEvidence, markers: dict[int, np.ndarray]) -> None:
    """Pictures of each stage: corners, grid and markers found, the warped board, the cells'
    classes."""
    folder.mkdir(parents=True, exist_ok=True)
    vis = image.copy()
    thick = max(2, int(round(max(image.shape[:2]) / 400)))
    for i in range(11):
        for a, b in (((i, 0), (i, 10)), ((0, i), (10, i))):
            p = location.to_image(np.array([a, b], dtype=np.float64)).round().astype(np.int32)
            cv2.line(vis, tuple(map(int, p[0])), tuple(map(int, p[1])), (0, 255, 255), 1)
    cv2.polylines(vis, [location.corners.round().astype(np.int32)], True, (0, 0, 255), thick)
    for mid, quad in markers.items():
        cv2.polylines(vis, [quad.round().astype(np.int32)], True, (255, 0, 255), thick)
        cv2.putText(vis, f"ID {mid}", (int(quad[:, 0].min()), int(quad[:, 1].min()) - 6),
                    cv2.FONT_HERSHEY_SIMPLEX, thick * 0.5, (255, 0, 255), thick)
    for i, (x, y) in enumerate(location.corners):
        cv2.putText(vis, ("TL", "TR", "BR", "BL")[i], (int(x) + 6, int(y) - 6),
                    cv2.FONT_HERSHEY_SIMPLEX, thick * 0.5, (0, 0, 255), thick)
    cv2.imwrite(str(folder / "1-corners.png"), vis)
    bgr = cv2.cvtColor(np.clip(view.lab, 0, 255).astype(np.uint8), cv2.COLOR_Lab2BGR)
    bgr = cv2.resize(bgr, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(folder / "2-warped.png"), bgr)
    px = view.px * 2
    cells = bgr.copy()
    for r in range(10):
        for c in range(10):
            ch = reading.grid[r][c]
            x0, y0 = (c + 1) * px, (r + 1) * px
            tx, ty = view.top_xy[r, c] * 0 + view.to_px(view.top_xy[r, c]) * 2
            cv2.circle(cells, (int(tx), int(ty)), 3, (255, 255, 255), -1)
            colour = {".": (128, 128, 128), "w": (255, 255, 255), "b": (0, 0, 0)}[ch.lower()]
            cv2.putText(cells, ch, (x0 + 4, y0 + px - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        colour, 2)
            cv2.putText(cells, f"{reading.confidence[r][c]:.2f}", (x0 + 4, y0 + 14),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 255, 255), 1)
    cv2.imwrite(str(folder / "3-cells.png"), cells)
