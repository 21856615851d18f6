"""Finding the 10x10 playing area in a frame, without markers, and keeping it between frames.

Grid coordinates: ``(x, y)`` in squares, ``x`` along the image-top edge of the playing area, ``y``
down from it; the playing area is ``[0, 10] x [0, 10]`` and the 81 inner corners are the integer
points ``1..9``.  A `BoardLocation` holds the homography from grid coordinates to image pixels,
oriented so that grid row 0 is the edge nearest the top of the image (the corners come out
top-left, top-right, bottom-right, bottom-left as seen in the image).

How the board is found (`find_board`):

1. a seed grid: OpenCV's sector-based chessboard detector for the 9x9 inner corners; when pieces,
   glare or blur defeat it, the same detector in "larger" mode for any patch of at least 3x3
   corners, fitted robustly (`_seed_homography`: such a patch carries stray corners at times)
   and tried as every lattice of squares it can be part of (`_square_lattices`: the patch
   sometimes steps over every other corner, along an axis or askew);
2. growth: the image is warped to a top-down view through the current fit, every lattice point
   is scored as a checker "X" corner (diagonal quadrants alike, neighbouring quadrants unlike,
   sampled close to the corner where round pieces never reach), the good points are refined to
   sub-pixel precision and the homography refitted, until the set of good corners stops growing;
   a lattice whose cells no camera can see as squares (`_stretch`: the detector locked onto
   every other row or column) is dropped;
3. placement: the 9x9 window of lattice points with the best corner evidence inside, no
   checker evidence on its boundary and no alternating row of squares just beyond it (the
   playing area's edge against the border, `_checkered_beyond`) is the board; a window that
   few corners back is grown again from all its 81 grid points (`_grown_whole`: a crowded
   board's corners come in chains the growth from one seed does not link), in a larger copy
   of the image when its squares are small (`_regrown`);
4. check: the window's 100 cells must alternate two colours at their corners
   (`_alternation`): a lattice half a square off, a patch of grain or a hand does not.

`BoardLocator` caches the location between frames and checks it cheaply (a small warp and the
corner scores); when the checker pattern is no longer where it was and nothing covers the board
(`moved`), it finds the board again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.gridfit import fit_homography, project
from vision.lens import Lens, fit_lens, remap_grid

log = logging.getLogger(__name__)

#: Grid coordinates of the playing area's corners in grid order.
GRID_CORNERS: np.ndarray = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float64)


class BoardNotFound(ValueError):
    """No 10x10 checkered playing area could be found in the image."""


@dataclass(frozen=True, eq=False)
class BoardLocation:
    """Where the playing area is in an image.

    ``homography`` maps grid coordinates (squares, see the module docstring) to image pixels;
    ``corners`` are the playing area's outer corners TL, TR, BR, BL as seen in the image;
    ``corners_found`` how many of the 81 inner corners backed the fit; ``method`` how the seed
    was found.
    """

    homography: np.ndarray
    corners: np.ndarray
    corners_found: int
    method: str
    lens: Lens | None = None
    _maps: dict = field(default_factory=dict, init=False, repr=False)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Grid coordinates (N x 2) to image pixels (N x 2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)
        return self.lens.distort(out) if self.lens is not None else out

    def to_grid(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) to grid coordinates (N x 2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.lens is not None:
            pts = self.lens.undistort(pts)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2),
                                        np.linalg.inv(self.homography)).reshape(-1, 2)

    def remap(self, px: float, lo: float, size: int) -> tuple[np.ndarray, np.ndarray]:
        """`cv2.remap` maps of a top-down view through the lens (see `vision.lens.remap_grid`),
        kept with the location: it changes rarely."""
        assert self.lens is not None
        key = (float(px), float(lo), int(size))
        if key not in self._maps:
            if len(self._maps) > 8:
                self._maps.clear()
            self._maps[key] = remap_grid(self.lens, self.homography, px, lo, size)
        return self._maps[key]

    @property
    def square_px(self) -> float:
        """The mean side of a square in image pixels."""
        c = self.corners
        return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]) / 10.0)

    @classmethod
    def from_homography(cls, homography: np.ndarray, corners_found: int, method: str,
                        lens: Lens | None = None) -> "BoardLocation":
        """The location of a grid->image homography already oriented (see `orient_homography`),
        seen through ``lens`` when one is given (the homography then maps to distortion-free
        pixels)."""
        corners = cv2.perspectiveTransform(GRID_CORNERS.reshape(-1, 1, 2), homography).reshape(-1, 2)
        if lens is not None:
            corners = lens.distort(corners)
        return cls(homography, corners, corners_found, method, lens)

    def scaled(self, factor: float) -> "BoardLocation":
        """The same location in an image scaled by ``factor``."""
        s = np.diag([factor, factor, 1.0])
        lens = self.lens
        if lens is not None:
            lens = Lens((lens.centre[0] * factor, lens.centre[1] * factor), lens.norm * factor,
                        lens.lam)
        return BoardLocation(s @ self.homography, self.corners * factor, self.corners_found,
                             self.method, lens)


def warp_matrix(homography: np.ndarray, px: float, lo: float = 0.0) -> np.ndarray:
    """The matrix mapping image pixels to a top-down view with ``px`` pixels per square whose
    pixel (0, 0) is grid point (lo, lo) (for `cv2.warpPerspective`)."""
    g2w = np.array([[px, 0.0, -lo * px], [0.0, px, -lo * px], [0.0, 0.0, 1.0]])
    return g2w @ np.linalg.inv(homography)


def warp(image: np.ndarray, where: "BoardLocation | np.ndarray", px: int, lo: float = 0.0,
         hi: float = 10.0, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """A top-down view of grid square range [lo, hi]^2 with ``px`` pixels per square, of a
    `BoardLocation` (through its lens, if any) or of a grid->image homography."""
    size = int(round((hi - lo) * px))
    if isinstance(where, BoardLocation):
        if where.lens is not None:
            m1, m2 = where.remap(px, lo, size)
            if interpolation == cv2.INTER_AREA:  # not one of remap's
                interpolation = cv2.INTER_LINEAR
            return cv2.remap(image, m1, m2, interpolation, borderMode=cv2.BORDER_REPLICATE)
        where = where.homography
    return cv2.warpPerspective(image, warp_matrix(where, px, lo), (size, size),
                               flags=interpolation, borderMode=cv2.BORDER_REPLICATE)


def x_corner_scores(view: np.ndarray, px: int, n: int, origin: int = 0) -> np.ndarray:
    """Checker-corner scores of the (n x n) lattice points at multiples of ``px`` in a top-down
    float Lab ``view``: the smallest colour step between neighbouring quadrants minus the largest
    between diagonal ones, relative to the largest step.  Around 1 for a clean X corner, <= 0 for
    an edge, a uniform patch or a T junction.  Index [j, i] is the point at (x=i, y=j)."""
    k = max(3, int(round(px * 0.14)))
    blurred = cv2.blur(view, (k, k))
    off = max(2, int(round(px * 0.16)))
    idx = origin + np.arange(n) * px
    h, w = blurred.shape[:2]

    def at(dx: int, dy: int) -> np.ndarray:
        ys = np.clip(idx + dy, 0, h - 1)
        xs = np.clip(idx + dx, 0, w - 1)
        return blurred[ys[:, None], xs[None, :]]

    return _quadrant_score(at(off, off), at(-off, off), at(-off, -off), at(off, -off))


def _quadrant_score(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The checker-corner score of four quadrant colours, in turn round the point
    (`x_corner_scores`)."""

    def dist(p: np.ndarray, q: np.ndarray) -> np.ndarray:
        return np.sqrt(((p - q) ** 2).sum(axis=-1))

    steps = [dist(a, b), dist(b, c), dist(c, d), dist(d, a)]
    diag = np.minimum(dist(a, c), dist(b, d))  # a piece may cover one quadrant
    return (np.minimum.reduce(steps) - diag) / (np.maximum.reduce(steps) + 6.0)


def _lab(image: np.ndarray) -> np.ndarray:
    """8-bit Lab of the working image (the search warps small views of it, made float then: a
    float copy of the whole image was 6 MB of the process's peak memory)."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2Lab)


def _normalise(image: np.ndarray) -> np.ndarray:
    """Brighten dark exposures (a gamma bringing the median to mid-grey, then local contrast
    equalisation of the luminance) so that colour distances mean much the same in every photo."""
    median = float(np.median(image[::4, ::4]))
    if median < 90:
        gamma = np.log(110 / 255) / np.log(max(median, 2.0) / 255)
        lut = np.clip(255 * (np.arange(256) / 255) ** gamma, 0, 255).astype(np.uint8)
        image = cv2.LUT(image, lut)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    lab[:, :, 0] = cv2.createCLAHE(2.0, (8, 8)).apply(lab[:, :, 0])
    return cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)


# No CALIB_CB_ACCURACY: it upsamples the image (about 80 MB more at the 800-pixel working size,
# the process's peak memory) and twice the time, for corners that `_grow` refines anyway.
_SB_FLAGS = cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_NORMALIZE_IMAGE
#: The long side (pixels) of the copy the chessboard detector seeds the search on.
_SEED_PX = 640


def _seeds(gray: np.ndarray, enhanced: np.ndarray):
    """Candidate (grid points, image points, method) seeds, best first."""
    grid = np.array([(i, j) for j in range(9) for i in range(9)], dtype=np.float64)
    cv2.setRNGSeed(12345)  # the exhaustive search draws random numbers: same image, same answer
    # the detector only seeds the search (`_grow` refines every corner in the working image):
    # it runs on a smaller copy, which halves its transient memory, the process's peak
    k = min(1.0, _SEED_PX / max(gray.shape[:2]))
    if k < 1.0:
        gray, enhanced = (cv2.resize(im, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
                          for im in (gray, enhanced))
    # the whole 9x9 pattern without the exhaustive search: with men on the board it is seldom
    # found at all, and the exhaustive search took a second to say so (the partial patterns
    # below seed such boards; on the rendered and real boards the seeds found are the same)
    # The enhanced copy is normalised already (`_normalise`: local contrast equalisation):
    # the detector's own histogram equalisation of the whole picture on top of it stretched a
    # dark table's noise or a lit table's grain to the board's contrast, and the partial
    # patterns locked onto those (home stills 0007 and 0232 at seed 0: no board found).  It is
    # searched as it is first, equalised last (home still 0266's board was seeded only so).
    full = _SB_FLAGS & ~cv2.CALIB_CB_EXHAUSTIVE
    as_is = ~cv2.CALIB_CB_NORMALIZE_IMAGE
    for img, flags in ((gray, full), (enhanced, full & as_is)):
        ok, pts = cv2.findChessboardCornersSB(img, (9, 9), flags=flags)
        if ok:
            yield grid, pts.reshape(-1, 2).astype(np.float64) / k, "chessboard"
    larger = _SB_FLAGS | cv2.CALIB_CB_LARGER
    for img, pattern, flags in ((enhanced, (5, 5), larger & as_is), (gray, (5, 5), larger),
                                (enhanced, (3, 3), larger & as_is), (gray, (3, 3), larger),
                                (enhanced, (5, 5), larger), (enhanced, (3, 3), larger)):
        cv2.setRNGSeed(12345)  # each search its own draws: one added does not change another
        try:
            ok, pts, meta = cv2.findChessboardCornersSBWithMeta(img, pattern, flags=flags)
        except cv2.error:
            ok = False
        if not ok or meta is None:
            continue
        rows, cols = meta.shape[:2]
        pts = pts.reshape(-1, 2).astype(np.float64) / k
        if len(pts) != rows * cols:
            continue
        part = np.array([(i, j) for j in range(rows) for i in range(cols)], dtype=np.float64)
        # the detector sometimes locks onto every other corner, along one axis (pieces on
        # every other row of the dark squares, a dim light), both (pieces on the light
        # squares) or askew: the seed's lattice is then a part of the board's, and is tried
        # as each lattice of squares it can be part of; the grown fit with the most corners
        # decides (`_find_at`)
        for M in _square_lattices(part, pts, gray.shape[:2], k):
            name = "" if M is _SAME else "-lattice" + "".join(f"{v:+d}" for v in M.ravel())
            yield part @ M.T, pts, f"partial-{cols}x{rows}{name}"


def _sublattice_maps() -> tuple[np.ndarray, ...]:
    """Integer maps M (2x2, entries -2..2, determinant 1, 2 or 4 in size) from a seed's lattice
    coordinates to a lattice it may be a part of, one per lattice up to the square's symmetries
    (turns and mirrors of the lattice name the same points), the fewest-times finer first."""
    symmetries = [np.diag([sx, sy]) @ P for P in (np.eye(2, dtype=int), np.array([[0, 1], [1, 0]]))
                  for sx in (1, -1) for sy in (1, -1)]
    seen: dict[tuple[int, ...], tuple[int, np.ndarray]] = {}
    for entries in np.array(np.meshgrid(*[np.arange(-2, 3)] * 4)).reshape(4, -1).T:
        M = entries.reshape(2, 2)
        det = abs(int(round(np.linalg.det(M))))
        if det not in (1, 2, 4):
            continue
        key = max(tuple(int(v) for v in (S @ M).ravel()) for S in symmetries)
        if key not in seen:
            seen[key] = (det, np.array(key).reshape(2, 2))
    maps = sorted(seen.values(), key=lambda dm: (dm[0], -int(np.trace(dm[1])), dm[1].tobytes()))
    return tuple(m for _, m in maps)


#: A seed's lattice taken as it is.
_SAME = np.eye(2, dtype=int)
#: The other lattices a seed's may be part of (`_sublattice_maps`).
_SUBLATTICES = tuple(m for m in _sublattice_maps() if not np.array_equal(m, _SAME))


#: `_stretch` of a seed's lattice up to which it may be a board's: a seed of 9 to 15 corners
#: measures its lattice roughly (home still 0275 at seed 0: the board's own lattice measured
#: 1.65 and 1.92 on two 3x3 seeds, where the grown fit's measure 1.0).
_SEED_STRETCH = 2.0


def _square_lattices(grid: np.ndarray, pts: np.ndarray, shape: tuple[int, int], k: float
                     ) -> list[np.ndarray]:
    """The maps M (seed lattice -> lattice, `_sublattice_maps`) under which a seed's lattice
    is part of a lattice whose cells a camera can see as squares (`_stretch`), the seed's own
    lattice first, then the fewest-times finer, the squarest first.  The detector's "larger"
    patterns sometimes step two squares along one axis and one across the other at once (home
    still 0145 at seed 0: a 4x4 seed stepping (0, -1) and (2, -1) squares): halving one axis
    or both, as tried before, never made that the board's lattice, and it was not found.
    ``pts`` in pixels of an image of ``shape`` times 1 / ``k``."""
    H, _ = _seed_homography(grid, pts)
    if not _regular(H):
        return [_SAME]
    full = (int(round(shape[0] / k)), int(round(shape[1] / k)))
    out: list[tuple[int, float, int, np.ndarray]] = []
    for n, M in enumerate(_SUBLATTICES):
        lattice = np.eye(3)
        lattice[:2, :2] = np.linalg.inv(M)
        stretch = _stretch(H @ lattice, full)
        if stretch <= _SEED_STRETCH:
            out.append((abs(int(round(np.linalg.det(M)))), stretch, n, M))
    return [_SAME] + [M for *_, M in sorted(out, key=lambda o: o[:3])]


@dataclass(frozen=True)
class _Fit:
    homography: np.ndarray  # lattice -> image
    good: dict[tuple[int, int], float]  # lattice point -> score
    points: dict[tuple[int, int], tuple[float, float]]  # lattice point -> refined image point


#: A lattice-to-image homography conditioned worse than this maps the grid onto a line or a
#: point: no board (a seed on a patch of noise gave an exactly singular one, and inverting it
#: for the warp raised numpy's LinAlgError out of the search).
_WORST_CONDITION = 1e10


def _regular(H: np.ndarray | None) -> bool:
    """Whether ``H`` is a homography a board's grid can have: finite and well conditioned."""
    return (H is not None and bool(np.isfinite(H).all())
            and float(np.linalg.cond(H)) < _WORST_CONDITION)


#: Fewest seed corners a robust fit sorts (fewer: all are taken as they are).
_ROBUST_SEED = 8


def _seed_homography(grid: np.ndarray, pts: np.ndarray
                     ) -> tuple[np.ndarray | None, set[tuple[int, int]]]:
    """The seed's lattice -> image homography and the lattice points that agree with it.

    The detector's "larger" patterns carry wrong corners at times: a row or a column extended
    onto the border, the table's grain or a piece's rim, a square or more off (home still 0242
    at seed 0: 3 of a 3x9 seed's corners off the board's lattice).  A least-squares homography
    through all of them lay off every lattice point and the growth found no corner near it:
    the board was not found.  So the homography is the least-median-of-squares fit's, refitted
    on the corners within a quarter of the seed's step of it, when most of them are."""
    everything = {(int(g[0]), int(g[1])) for g in grid}
    H, _ = cv2.findHomography(grid, pts, 0)
    if len(grid) < _ROBUST_SEED or not _regular(H):
        return H, everything
    Hr, _ = cv2.findHomography(grid, pts, cv2.LMEDS)
    if not _regular(Hr):
        return H, everything
    at = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), Hr).reshape(-1, 2)
    apart = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    step = float(np.median(apart.min(axis=1)))  # between the seed's neighbouring corners
    keep = np.linalg.norm(at - pts, axis=1) < 0.25 * step
    if keep.all() or keep.sum() < max(_ROBUST_SEED // 2 + 2, (len(grid) + 1) // 2):
        return H, everything
    H2, _ = cv2.findHomography(grid[keep], pts[keep], 0)
    return H2, {(int(g[0]), int(g[1])) for g in grid[keep]}


def _grow(lab: np.ndarray, gray: np.ndarray, grid: np.ndarray, pts: np.ndarray,
          px: int = 32, threshold: float = 0.25) -> _Fit | None:
    """Grow a seed fit over the whole checker pattern (see the module docstring)."""
    H, known = _seed_homography(grid, pts)
    if not _regular(H):
        return None
    scores: dict[tuple[int, int], float] = {}
    points: dict[tuple[int, int], tuple[float, float]] = {}
    for _ in range(8):
        xs = [k[0] for k in known]
        ys = [k[1] for k in known]
        lo_x, hi_x = min(xs) - 2, max(xs) + 2
        lo_y, hi_y = min(ys) - 2, max(ys) + 2
        if hi_x - lo_x > 16 or hi_y - lo_y > 16:  # more than a board: clip around the middle
            return None
        # warp a window [lo-0.5, hi+0.5] so that each lattice point has room for its quadrants
        shift = np.array([[1, 0, lo_x - 0.5], [0, 1, lo_y - 0.5], [0, 0, 1]], dtype=np.float64)
        Hs = H @ shift
        nx, ny = hi_x - lo_x + 1, hi_y - lo_y + 1
        W = warp_matrix(Hs, px)
        view = cv2.warpPerspective(lab, W, (nx * px, ny * px), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=(0, 128, 128)).astype(np.float32)
        n = max(nx, ny)
        sc = x_corner_scores(view, px, n, px // 2)[:ny, :nx]
        # inside the image only
        lat = np.array([(i, j) for j in range(lo_y, hi_y + 1) for i in range(lo_x, hi_x + 1)],
                       dtype=np.float64)
        img_pts = cv2.perspectiveTransform(lat.reshape(-1, 1, 2), H).reshape(-1, 2)
        h, w = gray.shape[:2]
        inside = ((img_pts[:, 0] > 3) & (img_pts[:, 0] < w - 4) & (img_pts[:, 1] > 3)
                  & (img_pts[:, 1] < h - 4)).reshape(ny, nx)
        good_mask = (sc > threshold) & inside
        # keep the 4-connected component linked to the known points
        new_known: set[tuple[int, int]] = set()
        frontier = [k for k in known
                    if lo_x <= k[0] <= hi_x and lo_y <= k[1] <= hi_y
                    and good_mask[k[1] - lo_y, k[0] - lo_x]]
        new_known.update(frontier)
        while frontier:
            i, j = frontier.pop()
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
                q = (i + di, j + dj)
                if q in new_known or not (lo_x <= q[0] <= hi_x and lo_y <= q[1] <= hi_y):
                    continue
                if good_mask[q[1] - lo_y, q[0] - lo_x]:
                    new_known.add(q)
                    frontier.append(q)
        if len(new_known) < 6:
            return None
        keys = sorted(new_known)
        lat_k = np.array(keys, dtype=np.float64)
        guess = cv2.perspectiveTransform(lat_k.reshape(-1, 1, 2), H).reshape(-1, 2)
        step = np.linalg.norm(cv2.perspectiveTransform(lat_k.reshape(-1, 1, 2) + [1, 0], H)
                              .reshape(-1, 2) - guess, axis=1)
        win = int(max(2, min(12, np.median(step) * 0.2)))
        refined = guess.astype(np.float32).reshape(-1, 1, 2).copy()
        cv2.cornerSubPix(gray, refined, (win, win), (-1, -1),
                         (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05))
        refined = refined.reshape(-1, 2).astype(np.float64)
        moved = np.linalg.norm(refined - guess, axis=1)
        keep = moved < np.median(step) * 0.25
        if keep.sum() < 6:
            return None
        H2, inl = cv2.findHomography(lat_k[keep], refined[keep], cv2.RANSAC,
                                     max(1.0, float(np.median(step)) * 0.08))
        if not _regular(H2):
            return None
        H = H2
        scores = {k: float(sc[k[1] - lo_y, k[0] - lo_x]) for k in keys}
        points = {k: (float(p[0]), float(p[1])) for k, p, ok in zip(keys, refined, keep) if ok}
        if new_known == known:
            break
        known = new_known
    return _Fit(H, scores, points)


#: How far (in squares) a window's outer corner may lie outside the picture (`_place`).  A
#: board whose edge column is half out of view (a camera aimed off the board's middle, a
#: strong wide-angle lens) was placed one column over, the border taken for its far column,
#: and calibrating then failed with "6 squares differ": a user is told that pieces are set
#: wrong, not where the camera looks.  Placed where it is, the squares out of view are named
#: (`vision.calibration.BoardOutOfView`).  A window one column beyond a board wholly in view
#: scores worse anyway: the board's real corners lie on its ring.
_OUT_OF_VIEW = 1.0


def _place(lab: np.ndarray, fit: _Fit, px: int = 24) -> tuple[int, int, float, float] | None:
    """The lattice offset (ox, oy) of grid point (0, 0), with the window's score and margin."""
    keys = list(fit.good)
    xs = [k[0] for k in keys]
    ys = [k[1] for k in keys]
    lo_x, hi_x, lo_y, hi_y = min(xs) - 10, max(xs) + 10, min(ys) - 10, max(ys) + 10
    # score every lattice point in a range around the fit
    shift = np.array([[1, 0, lo_x - 0.5], [0, 1, lo_y - 0.5], [0, 0, 1]], dtype=np.float64)
    nx, ny = hi_x - lo_x + 1, hi_y - lo_y + 1
    W = warp_matrix(fit.homography @ shift, px)
    view = cv2.warpPerspective(lab, W, (nx * px, ny * px), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT,
                               borderValue=(0, 128, 128)).astype(np.float32)
    n = max(nx, ny)
    sc = x_corner_scores(view, px, n, px // 2)[:ny, :nx]
    pos = np.clip(sc, 0, None)
    clipped = np.clip(sc, -0.5, None)
    lat = np.array([(i, j) for j in range(lo_y, hi_y + 1) for i in range(lo_x, hi_x + 1)],
                   dtype=np.float64)
    img_pts = cv2.perspectiveTransform(lat.reshape(-1, 1, 2), fit.homography).reshape(ny, nx, 2)
    h, w = lab.shape[:2]
    tol = _OUT_OF_VIEW * float(np.median([np.linalg.norm(img_pts[0, 1] - img_pts[0, 0]),
                                 np.linalg.norm(img_pts[1, 0] - img_pts[0, 0])]))
    inside = ((img_pts[..., 0] > -tol) & (img_pts[..., 0] < w + tol)
              & (img_pts[..., 1] > -tol) & (img_pts[..., 1] < h + tol))
    # each lattice square's mean colour (the square right and down of a lattice point), and how
    # much a square differs from its neighbour along a row or a column: the playing area
    # alternates, the border round it does not
    sq = 8
    corner = np.array([[1, 0, lo_x], [0, 1, lo_y], [0, 0, 1]], dtype=np.float64)
    squares = cv2.warpPerspective(lab, warp_matrix(fit.homography @ corner, sq), (nx * sq, ny * sq),
                                  flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                                  borderValue=(0, 128, 128)).astype(np.float32)
    cells = squares.reshape(ny, sq, nx, sq, 3).mean(axis=(1, 3))
    along_x = np.linalg.norm(np.diff(cells, axis=1), axis=2)  # (ny, nx - 1)
    along_y = np.linalg.norm(np.diff(cells, axis=0), axis=2)  # (ny - 1, nx)
    beyond = _checkered_beyond(along_x, along_y)
    best: list[tuple[float, int, int]] = []
    for oy in range(lo_y, hi_y - 9):
        for ox in range(lo_x, hi_x - 9):
            # inner corners at ox+1..ox+9, boundary at ox and ox+10
            jy, ix = oy - lo_y, ox - lo_x
            if jy + 10 >= ny or ix + 10 >= nx:
                continue
            if not (inside[jy, ix] and inside[jy, ix + 10] and inside[jy + 10, ix]
                    and inside[jy + 10, ix + 10]):
                continue
            inner = clipped[jy + 1:jy + 10, ix + 1:ix + 10].sum()
            ring = np.concatenate([pos[jy, ix:ix + 11], pos[jy + 10, ix:ix + 11],
                                   pos[jy + 1:jy + 10, ix], pos[jy + 1:jy + 10, ix + 10]])
            best.append((float(inner - 2.0 * ring.sum() - _BEYOND * float(beyond[jy, ix])), ox, oy))
    if not best:
        return None
    best.sort(reverse=True)
    margin = best[0][0] - best[1][0] if len(best) > 1 else best[0][0]
    return best[0][1], best[0][2], best[0][0], margin


def orient_homography(H: np.ndarray) -> np.ndarray:
    """Re-express a grid->image homography so that the corners run clockwise TL, TR, BR, BL in
    the image, the top edge being the upper one of the pair of opposite edges nearer to
    horizontal (sum of |dy|/|dx| of the pair)."""
    best = None
    for flip in (False, True):
        for rot in range(4):
            # grid symmetry: (x, y) -> R (x, y) about the board centre
            m = np.eye(3)
            if flip:
                m = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], dtype=np.float64) @ m
            for _ in range(rot):
                m = np.array([[0, -1, 10], [1, 0, 0], [0, 0, 1]], dtype=np.float64) @ m
            H2 = H @ m
            c = cv2.perspectiveTransform(GRID_CORNERS.reshape(-1, 1, 2), H2).reshape(-1, 2)
            v1, v2 = c[1] - c[0], c[3] - c[0]
            if v1[0] * v2[1] - v1[1] * v2[0] <= 0:  # must be clockwise on screen (y down)
                continue

            def flat(i: int, j: int) -> float:
                d = c[j] - c[i]
                return abs(d[1]) / (abs(d[0]) + 1e-9)

            horizontal = flat(0, 1) + flat(2, 3) <= flat(1, 2) + flat(3, 0)
            top_above = (c[0, 1] + c[1, 1]) < (c[2, 1] + c[3, 1])
            if horizontal and top_above:
                best = H2
    assert best is not None
    return best


def find_board(image: np.ndarray, *, work_px: int = 800) -> BoardLocation:
    """Find the playing area in a BGR image (see the module docstring); `BoardNotFound` if none.

    The search runs on a copy scaled to ``work_px`` on its long side (then, when that fails,
    smaller copies: the detector's sectors then span more of each square); the result is in the
    image's own pixels."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        raise BoardNotFound("not a colour image")
    tried = 0
    for px in (work_px, int(work_px * 0.8), int(work_px * 0.625)):
        found, n = _find_at(image, px)
        tried += n
        if found is not None:
            return _regrown(image, found, work_px)
    raise BoardNotFound("no 10x10 checkered board found in the image"
                        + ("" if tried else " (no checker pattern at all)"))


#: A placed window with fewer inner grid corners than this is grown again from all 81 of its
#: grid points (`_grown_whole`): as few as `vision.read` warns of ("the board outline may be
#: off").  Not more: corners beside pieces, pulled off by their edges, come in with the others
#: (the start position of tests/test_vision_rendered.py's seed 1: 48 corners, 0.022 of a
#: square at the worst corner; grown again to 49, 0.053).
_REGROW_BELOW = 40
#: Squares smaller than this (pixels, in the working image) are grown again in a larger copy,
#: up to the image's own size (`_regrown`).
_SMALL_SQUARE_PX = 28.0
#: The 81 inner grid points.
_INNER_GRID = np.array([(i, j) for j in range(1, 10) for i in range(1, 10)], dtype=np.float64)


#: How far (squares) from where a fit puts a grid point its corner is looked for (`_snapped`).
_SNAP = 0.3


def _snapped(lab: np.ndarray, points: np.ndarray, px: int = 32, threshold: float = 0.25
             ) -> tuple[np.ndarray, np.ndarray]:
    """The inner grid points (`_INNER_GRID`, where a fit puts them: ``points`` in the working
    image) moved each to the best checker corner (`_quadrant_score` at every pixel of a top-down
    view) within `_SNAP` of a square, as (grid points, image points) of those that have one
    scoring above ``threshold``; all of them as they are when fewer than nine do.  A fit from
    one chain of corners is off by a fifth of a square or more at the board's far side, where
    an X corner's quadrants then lie across its lines and score nothing at the point itself."""
    H, _ = cv2.findHomography(_INNER_GRID, points, 0)
    if not _regular(H):
        return _INNER_GRID, points
    size = 10 * px
    view = cv2.warpPerspective(lab, warp_matrix(H, px), (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    k = max(3, int(round(px * 0.14)))
    off = max(2, int(round(px * 0.16)))
    padded = cv2.copyMakeBorder(cv2.blur(view, (k, k)), off, off, off, off, cv2.BORDER_REPLICATE)

    def at(dx: int, dy: int) -> np.ndarray:
        return padded[off + dy:off + dy + size, off + dx:off + dx + size]

    score = _quadrant_score(at(off, off), at(-off, off), at(-off, -off), at(off, -off))
    r = int(round(_SNAP * px))
    grid, found = [], []
    for gx, gy in _INNER_GRID.astype(int):
        x0, y0 = gx * px - r, gy * px - r
        patch = score[y0:y0 + 2 * r + 1, x0:x0 + 2 * r + 1]
        j, i = np.unravel_index(int(np.argmax(patch)), patch.shape)
        if patch[j, i] > threshold:
            grid.append((gx, gy))
            found.append((x0 + i, y0 + j))
    if len(grid) < 9:
        return _INNER_GRID, points
    back = cv2.perspectiveTransform(np.array(found, dtype=np.float64).reshape(-1, 1, 2) / px,
                                    H).reshape(-1, 2)
    return np.array(grid, dtype=np.float64), back


def _grown_whole(lab: np.ndarray, gray: np.ndarray, points: np.ndarray
                 ) -> tuple[dict[tuple[int, int], tuple[float, float]], float] | None:
    """The inner corners grown from all 81 inner grid points at once (``points``: where a fit
    puts `_INNER_GRID` in the working image), by grid point, and the window's margin (`_place`),
    when the window stays where the fit put it.

    The growth from a seed keeps only the corners linked to the seed's (`_grow`): on a crowded
    board in a dim room the corners between the pieces come in short diagonal chains, and a
    seed's chain alone bent the homography off across the board (home still 0257 at seed 0:
    19 corners along one diagonal, the far corners 0.37 of a square off, 21 light squares read
    as pieces; 39 corners, 0.14 of a square at the worst, grown so).  The grid predicted by
    such a fit lies close enough to the other chains' corners for the growth to find them,
    each chain from its own points; where the fit is bent, each point is first moved to the
    best checker corner within `_SNAP` of a square of it (`_snapped`)."""
    grid, points = _snapped(lab, points)
    fit = _grow(lab, gray, grid, points)
    if fit is None:
        return None
    placed = _place(lab, fit)
    if placed is None or placed[:2] != (0, 0):
        return None
    inner = {k: p for k, p in fit.points.items() if 1 <= k[0] <= 9 and 1 <= k[1] <= 9}
    return inner, placed[3]


def _regrown(image: np.ndarray, found: BoardLocation, work_px: int) -> BoardLocation:
    """``found`` grown again from all of its inner grid points (`_grown_whole`) in a larger copy
    of the image when its squares are small there (`_SMALL_SQUARE_PX`: an X corner's quadrants
    need a few pixels clear of the pieces) and few corners back it: the found location or the
    regrown one, whichever more corners back."""
    long_side = max(image.shape[:2])
    square = found.square_px * min(1.0, work_px / long_side)
    if found.corners_found >= _REGROW_BELOW or square >= _SMALL_SQUARE_PX or long_side <= work_px:
        return found
    px = int(min(long_side, work_px * _SMALL_SQUARE_PX / max(square, 1.0)))
    scale, _, _, gray, lab = _working_images(image, px)
    again = _grown_whole(lab, gray, found.to_image(_INNER_GRID) * scale)
    if again is None or len(again[0]) <= found.corners_found:
        return found
    inner = again[0]
    located = _fitted(np.array(list(inner), dtype=np.float64),
                      np.array(list(inner.values()), dtype=np.float64), scale, image.shape,
                      found.method)
    if located is None or located.corners_found <= found.corners_found:
        return found
    return located


#: What a row of squares just beyond a window's side, alternating as the playing area does,
#: costs the window (`_place`), against a corner's X evidence of about one.
_BEYOND = 3.0


def _checkered_beyond(along_x: np.ndarray, along_y: np.ndarray) -> np.ndarray:
    """Per 10x10 window of lattice cells (indexed by its top-left cell, row ``jy`` and column
    ``ix``): how much the four rows of cells just beyond it alternate from cell to cell, each
    as a share (0-1) of how much the window's own rows do; summed over the sides that lie in
    the view.  The border round the playing area is one colour: a window one row off the
    playing area has a row of squares beyond one side.  In the start position under a low lamp
    the pieces' shadows hide most grid corners near the edges, and the corners alone placed
    the window a row off (the system bench's lidraughts-8 at seed 404022: the start position
    never recognised).  ``along_x`` (ny, nx - 1) and ``along_y`` (ny - 1, nx): the colour steps
    between neighbouring cells.  All windows at once: one by one, the medians took a second
    of every search for the board."""
    ny, nx = along_y.shape[0] + 1, along_x.shape[1] + 1
    wy, wx = ny - 9, nx - 9  # windows whose cells all lie in the view (and one row beyond)
    out = np.zeros((max(wy, 0), max(wx, 0)))
    if wy <= 0 or wx <= 0:
        return out
    view = np.lib.stride_tricks.sliding_window_view
    own = np.median(np.concatenate([view(along_x, (10, 9))[:wy, :wx].reshape(wy, wx, -1),
                                    view(along_y, (9, 10))[:wy, :wx].reshape(wy, wx, -1)],
                                   axis=2), axis=2).astype(np.float64)
    # (ny, nx - 9): a row of 9 steps from column ix; (ny - 9, nx): a column of 9 from row jy
    rows = np.median(view(along_x, 9, axis=1), axis=2).astype(np.float64)
    cols = np.median(view(along_y, 9, axis=0), axis=2).astype(np.float64)
    safe = np.where(own > 1e-6, own, 1.0)
    jy, ix = np.arange(wy)[:, None], np.arange(wx)[None, :]
    total = np.zeros((wy, wx))
    for present, side in ((jy >= 1, rows[np.maximum(jy - 1, 0), ix]),
                          (jy + 10 < ny, rows[np.minimum(jy + 10, ny - 1), ix]),
                          (ix >= 1, cols[jy, np.maximum(ix - 1, 0)]),
                          (ix + 10 < nx, cols[jy, np.minimum(ix + 10, nx - 1)])):
        total += np.where(present, np.minimum(1.0, side / safe), 0.0)
    return np.where(own > 1e-6, total, 0.0)


def _working_images(image: np.ndarray, work_px: int
                    ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The frame scaled to ``work_px`` on its long side (never up): (scale, scaled BGR,
    normalised BGR, its grey, its Lab), the images the board search works on."""
    scale = min(1.0, work_px / max(image.shape[:2]))
    small = (cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
             if scale < 1.0 else image)
    norm = _normalise(small)
    return scale, small, norm, cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY), _lab(norm)


#: A lattice whose cells the camera cannot see as squares, for any focal length, by this ratio
#: of their sides or more, is not the board's (`_stretch`).
MAX_STRETCH = 1.5


def _stretch(homography: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far a lattice (``homography``: lattice -> image pixels) is from a grid of squares
    seen by a camera, at best: for every focal length from a third of the image's width to five
    times it (the principal point in the image's middle), the ratio of the cells' two sides on
    the plane (the larger over the smaller) times one plus the cosine of their angle; the least
    (1.0: squares).  The seed detector sometimes locks onto every other corner along one axis:
    that lattice's cells are two squares by one (2.0), and with as many corners grown as the
    board's own it was taken for the board when its window's margin was a tenth better (a board
    found twice its width, nothing read: the system bench's lidraughts-8 at seed 404022)."""
    h, w = shape[:2]
    centred = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]]) @ homography
    h1, h2 = centred[:, 0], centred[:, 1]
    f2 = np.geomspace(w / 3, 5.0 * w, 120) ** 2
    a = (h1[0] ** 2 + h1[1] ** 2) / f2 + h1[2] ** 2
    b = (h2[0] ** 2 + h2[1] ** 2) / f2 + h2[2] ** 2
    ab = (h1[0] * h2[0] + h1[1] * h2[1]) / f2 + h1[2] * h2[2]
    ratio = np.sqrt(np.maximum(a, b) / np.maximum(np.minimum(a, b), 1e-300))
    cosine = np.abs(ab) / np.sqrt(np.maximum(a * b, 1e-300))
    return float(np.min(ratio * (1.0 + cosine)))


def _find_at(image: np.ndarray, work_px: int) -> tuple[BoardLocation | None, int]:
    """The board searched at one working scale: (location or None, seeds tried).  The seeds
    are ranked by their corners and window margin; the lens and homography are fitted for
    the best only."""
    scale, small, norm, gray, lab = _working_images(image, work_px)
    ranked: list[tuple[float, np.ndarray, np.ndarray, str]] = []
    tried = 0
    for grid, pts, method in _seeds(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), gray):
        tried += 1
        fit = _grow(lab, gray, grid, pts)
        if fit is None or _stretch(fit.homography, gray.shape) > MAX_STRETCH:
            continue
        placed = _place(lab, fit)
        if placed is None:
            continue
        ox, oy, score, margin = placed
        # lattice (ox + i, oy + j) is grid point (i, j)
        inner = {(k[0] - ox, k[1] - oy): p for k, p in fit.points.items()
                 if 1 <= k[0] - ox <= 9 and 1 <= k[1] - oy <= 9}
        if len(inner) < _REGROW_BELOW:
            window = np.array([[1.0, 0.0, ox], [0.0, 1.0, oy], [0.0, 0.0, 1.0]])
            again = _grown_whole(lab, gray, project(fit.homography @ window, _INNER_GRID))
            if again is not None and len(again[0]) > len(inner):
                inner, margin = again
        if len(inner) < 20:
            continue
        log.debug("seed %s: %d inner corners, window score %.1f margin %.1f", method,
                  len(inner), score, margin)
        g = np.array(list(inner), dtype=np.float64)
        p = np.array(list(inner.values()), dtype=np.float64)
        ranked.append((len(inner) + min(margin, 10.0), g, p, method))
        if len(inner) >= 60 and margin > 3.0:
            break
    for _, g, p, method in sorted(ranked, key=lambda r: -r[0]):  # stable: the first of equals
        loc = _fitted(g, p, scale, image.shape, method)
        if loc is not None and _alternation(lab, loc.scaled(scale)) >= MIN_ALTERNATION:
            return loc, tried
    return None, tried


#: Least share of the playing area's cell corners (`_alternation`) that must show their own
#: parity's colour.  The boards found on 300 `bench.stills` home stills (seed 0) showed 0.82
#: to 1.0, on 100 `altrender` stills 0.85 to 1.0; the same boards' lattices shifted half a
#: square 0.50 to 0.58 (two of each cell's four corners on either colour).  A search that
#: finds more must also refuse more (the unequalised seeds of a450353 found wrong boards of
#: 19-25 corners on frames a hand covered, and were reverted): this is that refusal.
MIN_ALTERNATION = 0.7


def _alternation(lab: np.ndarray, location: BoardLocation, px: int = 16) -> float:
    """The share of the 10x10 cells' corners (a patch a sixth of a square inside each of a
    cell's four corners, where a round piece standing on it seldom reaches) that lie nearer the
    median colour of their own parity's corners than the other parity's.  A board's squares
    alternate two colours over all 100 cells; a lattice half a square off, a wood grain or a
    hand does not.  ``lab`` the working image's Lab, ``location`` in its pixels."""
    view = warp(lab, location, px, interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(3, int(round(px * 0.14)))
    blurred = cv2.blur(view, (k, k))
    near, far = int(round(px / 6)), px - 1 - int(round(px / 6))
    idx = np.arange(10) * px
    patches = np.stack([blurred[(idx + dy)[:, None], (idx + dx)[None, :]]
                        for dx in (near, far) for dy in (near, far)], axis=2)  # (10, 10, 4, 3)
    parity = np.add.outer(np.arange(10), np.arange(10)) % 2
    centres = [np.median(patches[parity == q].reshape(-1, 3), axis=0) for q in (0, 1)]
    to_0, to_1 = (np.linalg.norm(patches - c, axis=-1) for c in centres)
    own = np.where((parity == 0)[..., None], to_0 < to_1, to_1 < to_0)
    return float(own.mean())


def location_from_corners(corners) -> BoardLocation:
    """The location whose playing area has these four outer corners in the image (pixels, TL,
    TR, BR, BL as `BoardLocation.corners`), as a calibration saved them."""
    points = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), points.astype(np.float32))
    return BoardLocation.from_homography(homography.astype(np.float64), 0, "configured")


def refine_location(image: np.ndarray, previous: BoardLocation, *, work_px: int = 800
                    ) -> BoardLocation | None:
    """A quick search near a known location (the camera or the board moved a little): the
    previous grid's inner corners seed the corner growth directly, skipping the chessboard
    detector.  None when the pattern is not found there."""
    scale, small, norm, gray, lab = _working_images(image, work_px)
    grid = np.array([(i, j) for j in range(1, 10) for i in range(1, 10)], dtype=np.float64)
    pts = previous.to_image(grid) * scale
    fit = _grow(lab, gray, grid, pts)
    if fit is None:
        return None
    inner = {k: p for k, p in fit.points.items() if 1 <= k[0] <= 9 and 1 <= k[1] <= 9}
    placed = _place(lab, fit)
    if placed is None or placed[:2] != (0, 0) or len(inner) < 40:
        return None
    g = np.array(list(inner), dtype=np.float64)
    p = np.array(list(inner.values()), dtype=np.float64)
    return _fitted(g, p, scale, image.shape, "refined")


def _fitted(grid: np.ndarray, points: np.ndarray, scale: float, shape: tuple[int, ...],
            method: str) -> BoardLocation | None:
    """The location from inner grid corners (``grid`` in squares, ``points`` in pixels of the
    working image, ``scale`` times the frame's): the lens that straightens them, if any
    (`vision.lens`), then the homography, in the frame's own pixels."""
    full = points / scale
    lens = fit_lens(grid, full, (shape[1], shape[0]))
    fitted = fit_homography(grid, lens.undistort(full) if lens is not None else full)
    if fitted is None:
        return None
    H, keep = fitted
    return BoardLocation.from_homography(orient_homography(H), int(keep.sum()), method, lens)
