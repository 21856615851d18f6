"""Finding the board by four ArUco markers beside its corners, and the sheet to print them on.

Markers are optional: `vision.locate` finds the board without them.  With them the board is found
in a few milliseconds, a hand over the playing area never hides it (the markers lie outside it),
and the markers also say where square 46 is, so no convention about the pieces' colours is
needed to orient the board.

Layout (`MarkerLayout`): four markers of one ArUco dictionary (default ``DICT_4X4_50``), IDs
0-3, one beside each corner of the playing area.  The IDs are tied to the board's corners:

- ID 0 beside square 46's corner (white's left; the dark corner square),
- ID 1 beside the corner at white's right (beside square 50),
- ID 2 beside square 5's corner (the far right as white sees the board),
- ID 3 beside the remaining corner (beside square 1, the far left).

Positions are in the board's own grid: squares, the playing area ``[0, 10] x [0, 10]``, ``x``
from the corner beside square 1 towards square 5's corner, ``y`` towards white.  This is
`vision.locate`'s grid when the picture shows the board as white sees it (square 46's corner at
the bottom-left).  Each marker lies flat and upright as white sees the board: its top edge (the
top of the printed marker) towards black.

The default layout puts markers 0.8 square wide (32 mm on 40 mm squares) with their centres 0.7
square out from the corner along both edges, diagonally off each corner:

- 0.8 square is about the largest that fits beside a corner; at 1280x960 with the board filling
  half the frame a square spans 35-50 px, so the marker's six modules (4x4 bits and the black
  border) are 5-7 px each, comfortably decodable;
- 0.7 square out leaves 0.3 square (12 mm) between the marker and the playing area, room for the
  white paper margin (1/6 of the side, at least one module: the quiet zone ArUco needs) without
  touching the squares, so the marker-less search and the border ring watched for hands see the
  playing area's edge as before; the marker sits mostly on the board's border, partly on the
  table (both are flat: only the plane matters);
- diagonally off the corners the four are as far apart as they can be (the best-conditioned
  homography) and where the players' arms never reach: arms come in over the middle of a side.

Finding (`find_markers`): the markers are detected (`detect_markers`) on a downscaled grey copy of
the frame, then each one again at full resolution in a small region around it with sub-pixel
corner refinement; with a known location (``near``) only the regions beside its four corners are
searched, which is what makes checking every frame cheap.  The homography from the board's grid to
the image is fitted to all corners of the markers seen: three or four markers give a full fit,
fewer are not enough (None).  The result is a `vision.locate.BoardLocation` (method "markers")
oriented as `vision.locate` orients its own, and the image corner (0 TL, 1 TR, 2 BR, 3 BL) of
square 46: the board corner that marker 0 marks (placed by the other three when it is hidden).

OpenCV has two ArUco interfaces: 4.7 and later (pip's wheels) use ``ArucoDetector``,
``getPredefinedDictionary``, ``DetectorParameters()`` and ``generateImageMarker``; 4.6 (Debian
bookworm's and so Raspberry Pi OS's python3-opencv) has ``Dictionary_get``,
``DetectorParameters_create()``, ``detectMarkers(image, dictionary, parameters=...)`` and
``drawMarker``.  `ArucoApi` is the only place that knows the difference.

Printing (`marker_sheet`, `write_sheet`, the CLI's ``markers OUT.png``): an A4 page at 300 dpi
with the four markers laid out as white sees the board, each labelled with its ID and corner, how
far out to place it, and a 100 mm ruler to check the print scale.
"""

from __future__ import annotations

import logging
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from vision.locate import BoardLocation, orient_homography

log = logging.getLogger(__name__)

__all__ = ["ArucoApi", "MarkerFix", "MarkerLayout", "MarkersUnavailable", "CORNER_NAMES",
           "detect_markers", "find_markers", "markers_fix", "marker_bits", "marker_sheet",
           "write_sheet"]

#: The playing area's corner each marker ID stands beside, in the board's grid.
ID_CORNERS: tuple[tuple[float, float], ...] = ((0.0, 10.0), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0))
#: Each ID's corner in words (as white sees the board).
CORNER_NAMES: tuple[str, ...] = ("white's left corner (square 46)",
                                 "white's right corner (beside square 50)",
                                 "far right corner (square 5)",
                                 "far left corner (beside square 1)")
#: Marker corners TL, TR, BR, BL (as generated) relative to the centre, in half sides.
_UNIT = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
#: A marker whose corners miss the common fit by more than this (squares) is left out.
_MAX_RESIDUAL = 0.15
#: The coarse full-frame search works on a copy this long (pixels, long side).
_COARSE_PX = 960


class MarkersUnavailable(ValueError):
    """This OpenCV has no ArUco module (a build without the contrib modules)."""


@dataclass(frozen=True)
class MarkerLayout:
    """Where the four markers lie (see the module docstring): the ArUco ``dictionary`` by its
    OpenCV name, the black marker's ``side`` in squares, and the ``centres`` of markers 0-3 in the
    board's grid (squares; the playing area is [0, 10] x [0, 10])."""

    dictionary: str = "DICT_4X4_50"
    side: float = 0.8
    centres: tuple[tuple[float, float], ...] = ((-0.7, 10.7), (10.7, 10.7), (10.7, -0.7),
                                                (-0.7, -0.7))

    def __post_init__(self) -> None:
        if len(self.centres) != 4 or any(len(c) != 2 for c in self.centres):
            raise ValueError("a marker layout has four centres (x, y), for markers 0-3")
        if not 0.1 <= self.side <= 3.0:
            raise ValueError(f"marker side {self.side} squares: use 0.1 to 3")
        if not self.dictionary.startswith("DICT_"):
            raise ValueError(f"{self.dictionary!r} is not an ArUco dictionary name (DICT_4X4_50...)")

    @property
    def paper(self) -> float:
        """The white margin printed round each marker (squares): a sixth of its side, at least one
        module for 4x4 and larger dictionaries."""
        return self.side / 6.0

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """Board-grid corners (4 x 2) of a marker in ArUco's order: its top-left, top-right,
        bottom-right, bottom-left as printed (upright as white sees the board)."""
        return np.asarray(self.centres[marker_id], dtype=np.float64) + _UNIT * (self.side / 2)

    @property
    def reach(self) -> float:
        """How far (squares) the markers with their paper reach beyond the playing area."""
        pts = np.concatenate([self.marker_corners(i) for i in range(4)])
        out = np.concatenate([-pts, pts - 10.0], axis=1).max()
        return float(max(out, 0.0) + self.paper)


@dataclass(frozen=True, eq=False)
class MarkerFix:
    """The board found by its markers: ``location`` (oriented as `vision.locate` orients its
    own; method "markers"), ``corner_46`` the image corner index (0 TL, 1 TR, 2 BR, 3 BL) of
    square 46, ``markers`` ID -> image corners (4 x 2, ArUco order) of the markers used,
    ``board_homography`` the board's grid -> image, ``residual`` the largest miss of a used marker
    corner (squares), ``layout`` the layout they were found by."""

    location: BoardLocation
    corner_46: int
    markers: dict[int, np.ndarray]
    board_homography: np.ndarray
    residual: float
    layout: MarkerLayout

    def shift_from(self, earlier: "MarkerFix") -> float:
        """How far (squares) the markers seen in both fixes moved in the image between an
        ``earlier`` fix and this one: the largest corner displacement over the board's square
        size.  About 0.005 while the board and the camera stay put, whichever markers are seen."""
        common = [i for i in self.markers if i in earlier.markers]
        if not common:
            return float("inf")
        moved = max(float(np.linalg.norm(self.markers[i] - earlier.markers[i], axis=1).max())
                    for i in common)
        return moved / max(earlier.location.square_px, 1e-9)

    def motion_from(self, earlier: "MarkerFix") -> np.ndarray:
        """The image -> image homography taking where the board's plane was in an ``earlier``
        fix to where it is now: from the corners of the markers seen in both (three or more),
        else from the two fits."""
        common = [i for i in self.markers if i in earlier.markers]
        if len(common) >= 3:
            src = np.concatenate([earlier.markers[i] for i in common])
            dst = np.concatenate([self.markers[i] for i in common])
            H, _ = cv2.findHomography(src, dst, 0)
            if H is not None:
                return H
        return self.board_homography @ np.linalg.inv(earlier.board_homography)


# -- the two OpenCV interfaces -----------------------------------------------------------------


class ArucoApi:
    """The ArUco calls of one OpenCV: 4.7 and later (``ArucoDetector``, ``generateImageMarker``)
    or 4.6 (``Dictionary_get``, ``DetectorParameters_create``, ``detectMarkers``,
    ``drawMarker``).  ``aruco`` is ``cv2.aruco`` unless given (tests pass a stand-in)."""

    def __init__(self, aruco: Any = None) -> None:
        if aruco is None:
            aruco = getattr(cv2, "aruco", None)
            if aruco is None:
                raise MarkersUnavailable(
                    f"OpenCV {cv2.__version__} has no ArUco module: install python3-opencv "
                    "(Debian, Raspberry Pi OS) or opencv-python-headless 4.7 or later")
        self.aruco = aruco
        self.modern = hasattr(aruco, "ArucoDetector")
        self._dictionaries: dict[str, Any] = {}
        self._detectors: dict[tuple[str, int], Callable[[np.ndarray], tuple[Any, Any]]] = {}

    def dictionary(self, name: str) -> Any:
        if name not in self._dictionaries:
            code = getattr(self.aruco, name, None) if name.startswith("DICT_") else None
            if not isinstance(code, int):
                raise ValueError(f"{name!r} is not an ArUco dictionary of this OpenCV "
                                 "(use one such as DICT_4X4_50)")
            self._dictionaries[name] = (self.aruco.getPredefinedDictionary(code) if self.modern
                                        else self.aruco.Dictionary_get(code))
        return self._dictionaries[name]

    def detector(self, name: str, refine_px: int = 0) -> Callable[[np.ndarray], tuple[Any, Any]]:
        """A function grey image -> (corners, ids) as OpenCV returns them; ``refine_px`` > 0
        refines the corners to sub-pixel precision in windows of that half size."""
        key = (name, refine_px)
        if key not in self._detectors:
            a = self.aruco
            params = a.DetectorParameters() if self.modern else a.DetectorParameters_create()
            if refine_px > 0:
                params.cornerRefinementMethod = a.CORNER_REFINE_SUBPIX
                params.cornerRefinementWinSize = refine_px
            dictionary = self.dictionary(name)
            if self.modern:
                detector = a.ArucoDetector(dictionary, params)
                self._detectors[key] = lambda grey: detector.detectMarkers(grey)[:2]
            else:
                self._detectors[key] = lambda grey: a.detectMarkers(grey, dictionary,
                                                                    parameters=params)[:2]
        return self._detectors[key]

    def marker_image(self, name: str, marker_id: int, side_px: int) -> np.ndarray:
        """The marker as a grey image ``side_px`` square (black border of one module)."""
        dictionary = self.dictionary(name)
        if self.modern:
            return self.aruco.generateImageMarker(dictionary, marker_id, side_px, borderBits=1)
        return self.aruco.drawMarker(dictionary, marker_id, side_px, borderBits=1)


_api: ArucoApi | None = None


def _default_api() -> ArucoApi:
    global _api
    if _api is None:
        _api = ArucoApi()
    return _api


def marker_bits(layout: MarkerLayout, marker_id: int, api: ArucoApi | None = None) -> np.ndarray:
    """A marker's modules (n x n, 1 white, 0 black, border included), row 0 at its top."""
    api = api or _default_api()
    n = int(api.dictionary(layout.dictionary).markerSize) + 2
    return (api.marker_image(layout.dictionary, marker_id, n) > 127).astype(np.uint8)


# -- detection ---------------------------------------------------------------------------------


def _detect_in(image: np.ndarray, box: tuple[int, int, int, int], api: ArucoApi, name: str,
               refine_px: int = 0, scale: float = 1.0) -> list[tuple[int, np.ndarray]]:
    """Markers 0-3 inside ``box`` (x0, y0, x1, y1) of a BGR or grey image, searched on a copy
    scaled by ``scale``; corners in the image's own pixels."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 16 or y1 - y0 < 16:
        return []
    crop = image[y0:y1, x0:x1]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else np.ascontiguousarray(crop)
    if scale < 1.0:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids = api.detector(name, refine_px)(grey)
    if ids is None:
        return []
    return [(int(i), (np.asarray(c, dtype=np.float64).reshape(4, 2) + 0.5) / scale - 0.5 + (x0, y0))
            for c, i in zip(corners, np.asarray(ids).ravel()) if 0 <= int(i) < 4]


def _box(points: np.ndarray, grow: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The bounding box of ``points`` grown by ``grow`` pixels, clipped to the image."""
    lo = np.floor(points.min(axis=0) - grow).astype(int)
    hi = np.ceil(points.max(axis=0) + grow).astype(int)
    h, w = shape[:2]
    return max(0, int(lo[0])), max(0, int(lo[1])), min(w, int(hi[0]) + 1), min(h, int(hi[1]) + 1)


def _detect_near(image: np.ndarray, homography: np.ndarray, layout: MarkerLayout,
                 api: ArucoApi) -> dict[int, np.ndarray]:
    """Markers searched at full resolution, with sub-pixel corners, only in the regions beside
    the four corners of a known grid -> image homography.  Which way that grid is turned is not
    known, so every corner's region is the same in "outward" coordinates (away from the board's
    centre): the union of where the four markers lie beside their own corners, with a margin."""
    lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
    for i, corner in enumerate(ID_CORNERS):
        outward = np.sign(np.asarray(corner) - 5.0)
        u = (layout.marker_corners(i) - corner) * outward
        lo, hi = np.minimum(lo, u.min(axis=0)), np.maximum(hi, u.max(axis=0))
    lo, hi = lo - layout.paper - 0.35, hi + layout.paper + 0.35
    n = api.dictionary(layout.dictionary).markerSize + 2
    found: dict[int, np.ndarray] = {}
    for corner in ID_CORNERS:
        c, outward = np.asarray(corner), np.sign(np.asarray(corner) - 5.0)
        region = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]],
                           [0.0, 0.0], [1.0, 0.0]]) * outward + c
        pts = cv2.perspectiveTransform(region.reshape(-1, 1, 2), homography).reshape(-1, 2)
        module = layout.side * float(np.linalg.norm(pts[5] - pts[4])) / n
        refine = int(np.clip(round(module * 0.45), 2, 10))
        for mid, corners in _detect_in(image, _box(pts[:4], 2, image.shape), api,
                                       layout.dictionary, refine):
            found.setdefault(mid, corners)
    return found


def _detect_whole(image: np.ndarray, layout: MarkerLayout, api: ArucoApi
                  ) -> dict[int, np.ndarray]:
    """Markers searched in the whole frame: on a copy `_COARSE_PX` long, then, when fewer than
    three are seen there, at full resolution (small or blurred markers)."""
    h, w = image.shape[:2]
    scale = min(1.0, _COARSE_PX / max(h, w))
    found: dict[int, np.ndarray] = {}
    for s in ((scale, 1.0) if scale < 1.0 else (1.0,)):
        found = {}
        for mid, corners in _detect_in(image, (0, 0, w, h), api, layout.dictionary, 0, s):
            # a marker ID seen twice (a spare sheet on the table): the larger one
            if mid not in found or cv2.contourArea(corners.astype(np.float32)) > \
                    cv2.contourArea(found[mid].astype(np.float32)):
                found[mid] = corners
        if len(found) >= 3:
            break
    return found


def detect_markers(image: np.ndarray, layout: MarkerLayout = MarkerLayout(), *,
                   near: BoardLocation | None = None, whole: bool = True,
                   api: ArucoApi | None = None) -> dict[int, np.ndarray]:
    """The markers 0-3 of ``layout`` seen in a BGR or grey image: ID -> image corners (4 x 2,
    ArUco order), refined to sub-pixel precision when three or more are seen.  With ``near`` (a
    recent location) only the regions beside its corners are searched first; the whole frame
    when fewer than three markers are there, unless ``whole`` is False."""
    api = api or _default_api()
    found: dict[int, np.ndarray] = {}
    if near is not None:
        found = _detect_near(image, near.homography, layout, api)
        if len(found) >= 3 or not whole:
            return found
    whole = _detect_whole(image, layout, api)
    if len(whole) < 3:
        return whole if len(whole) > len(found) else found
    fitted = _fit(layout, whole)
    if fitted is None:
        return whole
    # again at full resolution with sub-pixel corners beside the corners just found
    return {**whole, **_detect_near(image, fitted[0], layout, api)}


def find_markers(image: np.ndarray, layout: MarkerLayout = MarkerLayout(), *,
                 near: BoardLocation | None = None, whole: bool = True,
                 api: ArucoApi | None = None) -> MarkerFix | None:
    """The board located by its markers (see the module docstring), or None when fewer than
    three of the four are seen (or they do not fit together).  ``near`` and ``whole`` as for
    `detect_markers`."""
    return markers_fix(detect_markers(image, layout, near=near, whole=whole, api=api), layout)


def markers_fix(seen: dict[int, np.ndarray], layout: MarkerLayout = MarkerLayout()
                ) -> MarkerFix | None:
    """The board located from markers already detected (`detect_markers`), or None when fewer
    than three are seen (or they do not fit together)."""
    if len(seen) < 3:
        log.debug("only %d of the 4 markers seen (%s): need 3", len(seen), sorted(seen))
        return None
    fitted = _fit(layout, seen)
    if (fitted is None or fitted[1] > _MAX_RESIDUAL) and len(seen) == 4:
        # one marker does not fit the others (misread, or moved on its own): the best three
        threes = [{k: v for k, v in seen.items() if k != i} for i in seen]
        fits = [(f, c) for c in threes if (f := _fit(layout, c)) is not None]
        if fits:
            fitted, seen = min(fits, key=lambda fc: fc[0][1])
    if fitted is None or fitted[1] > _MAX_RESIDUAL:
        log.debug("markers %s do not fit together", sorted(seen))
        return None
    H, residual = fitted
    location = BoardLocation.from_homography(orient_homography(H), 0, "markers")
    p46 = cv2.perspectiveTransform(np.array([[ID_CORNERS[0]]]), H).reshape(2)
    corner_46 = int(np.argmin(np.linalg.norm(location.corners - p46, axis=1)))
    return MarkerFix(location, corner_46, dict(seen), H, residual, layout)


def _fit(layout: MarkerLayout, seen: dict[int, np.ndarray]) -> tuple[np.ndarray, float] | None:
    """The board grid -> image homography fitted to every corner of the ``seen`` markers, and
    the largest miss of one of them (squares, measured back in the grid)."""
    grid = np.concatenate([layout.marker_corners(i) for i in seen])
    pts = np.concatenate([seen[i] for i in seen])
    H, _ = cv2.findHomography(grid, pts, 0)
    if H is None:
        return None
    back = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    return H, float(np.abs(back - grid).max())


# -- the sheet to print ------------------------------------------------------------------------

_A4_MM = (210.0, 297.0)


def marker_sheet(layout: MarkerLayout = MarkerLayout(), *, size_mm: float | None = None,
                 square_mm: float = 40.0, dpi: int = 300, api: ArucoApi | None = None
                 ) -> np.ndarray:
    """An A4 page (grey, ``dpi``) with the four markers, ``size_mm`` wide each (default: the
    layout's side on ``square_mm`` squares), laid out as white sees the board, each labelled
    with its ID, its corner and where its centre goes, and a 100 mm ruler."""
    api = api or _default_api()
    size_mm = layout.side * square_mm if size_mm is None else float(size_mm)
    square = size_mm / layout.side  # the board's square in mm, as the markers' size implies
    mm = dpi / 25.4
    w, h = int(round(_A4_MM[0] * mm)), int(round(_A4_MM[1] * mm))
    page = np.full((h, w), 255, np.uint8)
    font, ink = cv2.FONT_HERSHEY_SIMPLEX, 0
    text_scale = dpi / 300 * 1.25

    def text(s: str, x: float, y: float, scale: float = text_scale, thick: int = 3) -> None:
        cv2.putText(page, s, (int(x), int(y)), font, scale, ink, max(1, int(thick * dpi / 300)),
                    cv2.LINE_AA)

    x0 = 15 * mm
    y = 20 * mm
    text("frisian-companion: board markers", x0, y, text_scale * 1.4, 4)
    y += 3 * mm
    for s in (f"ArUco {layout.dictionary}, IDs 0-3. Print at 100% (no fit-to-page): each marker "
              f"(the black square) is {size_mm:g} mm wide,",
              f"for a board of {square:g} mm squares. Cut out with the white margin and lay "
              "each marker flat beside",
              "its corner, upright as white sees the board (its label towards white), as laid "
              "out below."):
        y += 6 * mm
        text(s, x0, y, text_scale * 0.8, 2)
    side_px = int(round(size_mm * mm))
    margin_px = int(round(size_mm * mm / 6))
    # as white sees the board: the far corners (IDs 3, 2) above the near ones (IDs 0, 1)
    slots = {3: (0, 0), 2: (1, 0), 0: (0, 1), 1: (1, 1)}
    cell_w = (w - 2 * x0) / 2
    cell_h = side_px + 2 * margin_px + 20 * mm
    top = y + 8 * mm + margin_px
    for mid, (col, row) in slots.items():
        cx = x0 + cell_w * (col + 0.5)
        my = int(top + cell_h * row)
        mx = int(cx - side_px / 2)
        page[my:my + side_px, mx:mx + side_px] = api.marker_image(layout.dictionary, mid, side_px)
        cv2.rectangle(page, (mx - margin_px, my - margin_px),
                      (mx + side_px + margin_px, my + side_px + margin_px), 170, 1)
        dx, dy = np.asarray(layout.centres[mid]) - np.asarray(ID_CORNERS[mid])
        ly = my + side_px + margin_px + 7 * mm
        text(f"ID {mid}: {CORNER_NAMES[mid]}", cx - cell_w / 2 + 5 * mm, ly, text_scale * 0.8, 2)
        across = "left of" if dx < 0 else "right of"
        along = "towards black from" if dy < 0 else "towards white from"
        text(f"centre {abs(dx) * square:.0f} mm {across} and {abs(dy) * square:.0f} mm "
             f"{along} the corner", cx - cell_w / 2 + 5 * mm, ly + 6 * mm, text_scale * 0.65, 2)
    ry = int(h - 25 * mm)
    rx0, rx1 = int(x0), int(x0 + 100 * mm)
    cv2.line(page, (rx0, ry), (rx1, ry), ink, max(2, int(dpi / 150)))
    for k in range(11):
        x = int(round(x0 + k * 10 * mm))
        cv2.line(page, (x, ry), (x, ry - int((4 if k % 5 else 7) * mm)), ink, max(1, int(dpi / 300)))
    text("100 mm: check the print scale", rx1 + 5 * mm, ry, text_scale * 0.8, 2)
    return page


def write_sheet(path: str | Path, page: np.ndarray, dpi: int = 300) -> None:
    """Write a sheet as PNG with its resolution recorded (a pHYs chunk), so that printing at
    100% gives the markers their size."""
    ok, buf = cv2.imencode(".png", page)
    if not ok:
        raise ValueError("OpenCV could not encode the sheet as PNG")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    end_of_ihdr = 8 + 4 + 4 + 13 + 4  # signature, then IHDR's length, type, data and CRC
    Path(path).write_bytes(data[:end_of_ihdr] + chunk + data[end_of_ihdr:])
