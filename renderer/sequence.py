"""Rendered frame sequences of a whole game: hands making the moves on a camera-watched board.

`game_frames(start, moves)` yields one `GameFrame` per camera frame at ``fps``: the board still
for a pause; the mover's arm reaching in from the player's side (out of the picture) to the
piece; the piece lifted (gone from its square, held in the hand), carried along its path and put
down, or slid along the board under the fingertips; captured pieces taken off one by one by the
same hand; a man reaching the far row crowned (the hand fetches a second man and stacks it);
the arm leaving, or coming to rest at the player's edge of the board for the pause; the board
still again.  The players' `Pace` sets the pauses and habits: quick play has pauses of
0.3-0.8 s, replies made before the board was seen still (the reply's hand coming in while the
mover's leaves), hands resting at the edge, slid pieces.  Sometimes (``touches``) the hand
first hovers over another piece without moving it, sometimes (``put_backs``) it lifts another
piece and puts it back, sometimes (``Pace.hover``) the next mover's hand already hovers over its
own side while the move is made, and sometimes (``jitter``) the camera is bumped a little while
the board is still.  Every frame then goes through the camera's own behaviour (``behaviour``,
`renderer.sensor`): sub-pixel shake and roll, exposure and white-balance drift, sensor noise
that grows in dim light, focus breathing and JPEG.

Each frame carries its truth: the pieces on the board, whether a hand is over the board (a
resting one too), the squares lifted so far in the current move, whether the board is settled,
and the camera and corners (moved with the camera's shake and bumps).  Timing is randomised per
move from ``seed``; the same arguments always give the same frames.

With ``spectators`` (the benches' scenes: `SPECTATOR_SHARE`, a third of games) people walk
past between the lamp and the board, one to three times: their soft shade crosses part of the
board in 1-3 s, while the board is still or while a move is being made (`SpectatorPass`; the
truth calls no shade a hand: it covers no square).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Iterator, Mapping, Sequence

import cv2
import numpy as np

from rules.move import Move
from rules.piece import Color, Piece
from rules.position import Position
from rules.squares import DIAGONALS, column, neighbour, row
from renderer import recording
from renderer.camera_model import BOARD_MM, SQUARE_MM, Camera, CameraModel
from renderer.hands import SKIN_TONES, SLEEVES, Hand, mask_of, hand_shapes, in_picture
from renderer.render import Lighting, Rendered, Renderer, Style
from renderer.scene import BGR, Aside, Light, Shade
from renderer.sensor import CameraBehaviour, apply_affine


@dataclass(frozen=True, eq=False)
class GameFrame:
    """One frame of a rendered game and its truth.

    ``ply``: moves completed so far (the board shows the position after them once the hand has
    finished); ``pieces``: what stands on the board in this frame (a lifted piece is not on it);
    ``hand``: a hand or arm is over the board (the next mover's hovering one too: `Pace.hover`);
    ``lifted``: squares whose pieces were lifted in the current move so far (kept until the next
    move's hand comes in), in order; ``settled``: the board has been unchanged for this frame and
    the one before, with no hand in the picture in either but, at most, a hand lying still at the
    board's edge over no square (``resting``);
    ``resting``: the only hands in the picture lie still at the board's edge;
    ``shaking``: the camera is bumped in this frame (``camera`` and ``corners`` say where it
    is); ``phase``: what the mover's hand is doing (still, hover, reach, grab, carry, slide,
    place, take, crown, leave; rest: a hand resting at the edge shifts); ``affine`` (2 x 3):
    where the camera's own shake moved the scene's pixels in this frame (`renderer.sensor`;
    ``corners``, ``board_corners`` and ``rendered.corners`` already include it, `project`
    applies it to board points); ``rendered``: the scene's picture and truth, its image the
    frame's ``image``; ``shades``: the passing spectators' shades drawn on it (`SpectatorPass`;
    no part of ``hand``, ``occluded`` or ``settled``); ``aside``: the captured pieces laid down
    on the table beside the board so far (`Pace.lay_aside`; board mm and piece).
    """

    image: np.ndarray
    time: float
    index: int
    ply: int
    pieces: dict[int, Piece]
    hand: bool
    lifted: tuple[int, ...]
    settled: bool
    corners: np.ndarray
    board_corners: np.ndarray
    corner_46: int
    camera: Camera
    occluded: tuple[int, ...]
    phase: str
    move: Move | None
    shaking: bool
    rendered: Rendered
    affine: np.ndarray
    resting: bool = False
    shades: tuple[Shade, ...] = ()
    aside: tuple[Aside, ...] = ()

    def project(self, points: object) -> np.ndarray:
        """Pixels (N x 2) in this frame's ``image`` of board points (x, y) or (x, y, h) in mm."""
        return apply_affine(self.affine, self.rendered.project(points))


@dataclass(frozen=True)
class _Key:
    """A point the fingertips travel to (``pos`` None: out of the picture), taking ``duration``
    seconds; ``action`` changes the board on arrival."""

    duration: float
    pos: tuple[float, float, float] | None
    phase: str
    action: Callable[["_State"], None] | None = None


class _State:
    """The board and hand while a move is being made (mutable, private to one sequence)."""

    def __init__(self, pieces: dict[int, Piece]) -> None:
        self.pieces = dict(pieces)
        self.holding: Piece | None = None
        self.lifted: list[int] = []
        self.ply = 0
        self.aside: list[Aside] = []  # captured pieces laid down beside the board, in order


def _centre(square: int) -> tuple[float, float]:
    return ((column(square) + 0.5) * SQUARE_MM, (row(square) + 0.5) * SQUARE_MM)


def _lift(square: int) -> Callable[[_State], None]:
    """The hand picks up the piece on ``square`` (it counts as lifted in this move)."""
    def act(s: _State) -> None:
        s.holding = s.pieces.pop(square)
        s.lifted.append(square)
    return act


def _drop(s: _State) -> None:
    """The hand puts the piece it holds down off the board (a captured piece, on the table)."""
    s.holding = None


def _lay(x: float, y: float) -> Callable[[_State], None]:
    """The hand lays the piece it holds down on the table beside the board at board (x, y) mm,
    where it stays (`Pace.lay_aside`)."""
    def act(s: _State) -> None:
        assert s.holding is not None
        s.aside.append((x, y, s.holding))
        s.holding = None
    return act


def _done(ply: int, target: dict[int, Piece]) -> Callable[[_State], None]:
    """The move is done: ``ply`` plies played, the board as ``target`` has it."""
    def act(s: _State) -> None:
        s.ply = ply
        s.pieces = dict(target)
    return act


def _then(first: Callable[[_State], None], second: Callable[[_State], None]
          ) -> Callable[[_State], None]:
    """One action after the other, on one key."""
    def act(s: _State) -> None:
        first(s)
        second(s)
    return act


def _put(square: int) -> Callable[[_State], None]:
    """The hand puts the piece it holds on ``square``."""
    def act(s: _State) -> None:
        assert s.holding is not None
        s.pieces[square] = s.holding
        s.holding = None
    return act


def _offscreen(model: CameraModel, x: float, y: float, from_deg: float, h: float) -> tuple[float, float, float]:
    """A fingertip point out along the arm's direction where the hand is out of the picture."""
    a = math.radians(from_deg)
    cam = model.camera
    for s in np.arange(250.0, 3000.0, 50.0):
        p = np.array([[x + math.cos(a) * s, y + math.sin(a) * s, h + 0.2 * s]])
        if model.depth(p)[0] < 150:
            return tuple(p[0])  # type: ignore[return-value]
        u, v = model.project(p)[0]
        margin = 0.3 * model.scale_px_per_mm(p)[0] * 120  # the whole hand, not just the fingertips
        if u < -margin or v < -margin or u > cam.width + margin or v > cam.height + margin:
            return tuple(p[0])  # type: ignore[return-value]
    return (x + math.cos(a) * 3000, y + math.sin(a) * 3000, h + 600)


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


#: How far beyond the border a player who lays captured pieces aside (`Pace.lay_aside`) puts his
#: row of them: its near edge that many mm from the border's outer edge (drawn per player).
LAY_ASIDE_GAP_MM = (5.0, 30.0)


def _aside_spot(seed: int, mover: Color, style: Style, count: int) -> tuple[float, float]:
    """Where a player who lays captured pieces aside puts down his ``count``-th one (from 0):
    rows along his edge of the board, beyond its border, a piece's width and a little apart,
    the first row nearest the board (the row's start and its distance drawn once per player)."""
    rng = np.random.default_rng([seed, 0x1A5D, 0 if mover is Color.WHITE else 1])
    gap = float(rng.uniform(*LAY_ASIDE_GAP_MM))
    first = float(rng.uniform(0.0, 120.0))
    pitch = 2 * style.radius_mm * 1.08
    per_row = max(1, int((BOARD_MM - first) // pitch))
    along = first + style.radius_mm + (count % per_row) * pitch
    out = style.border_mm + gap + style.radius_mm + (count // per_row) * pitch
    # White plays from beyond row 9's edge (board y = BOARD_MM), Black from beyond row 0's
    return (along, BOARD_MM + out) if mover is Color.WHITE else (BOARD_MM - along, -out)


#: The share of quick games that `Pace.random` draws as blitz (`Pace.blitz`).
BLITZ_SHARE = 0.25


@dataclass(frozen=True)
class Pace:
    """How quickly the players play, and their habits at the board.

    ``pause_s``: the range of the still board's length before each move (drawn per move);
    ``speed``: the range of the factor on the durations of the hand's motions (drawn per move;
    below 1 is quicker); ``early_reply``: the chance per move that the reply comes before the
    board was seen still (its hand comes in while the mover's hand is leaving, or at most
    0.15 s after it left); ``rest``: the chance per move that the mover's hand comes to rest at
    its edge of the board (fingers on the border, the hand and forearm on the table, over no
    square; now and then the fingertips just over an edge square's outer part, which the truth
    then marks) and stays for the pause, sometimes shifting a little, leaving as the reply is
    made; ``slide``: the chance per move without a capture that the piece is slid along the
    board under the fingertips instead of lifted (the truth counts it lifted all the same);
    ``clear_pauses``: a pause is the time with no hand in the picture (False: the old way,
    from the leaving hand's last point, out of the picture, to the next hand's first, a few
    tenths of a second longer); ``carry_off``: the chance per capture of two pieces or more
    that the mover carries each captured piece to the table beside the board before taking the
    next, the hand away from the board for a moment while the board stands still with some of
    them still on it (found on `altrender`'s players, which the arbiter took for a capture with
    too few pieces taken off, Art. 27b); ``fidget``: the chance per pause that a hand resting at
    the edge never lies still but drifts a centimetre or more over the whole pause, so that
    something moves beside the board on every frame and the view is never still (found on
    `altrender`'s players: at quick play no still view for eight to seventeen plies, while
    the board itself stood untouched for a moment after every move); ``hover``: the chance per
    move that the next mover's hand comes in over the board while the mover is still playing
    (as he reaches, or just after he lifts) and hovers 40-90 mm above its own side, over one of
    its pieces or an empty square beside them, drifting a few mm, a square and a half or more
    from the squares the move changes and covering none of them, until it goes on to make its
    own move: two hands over the board at once, and ply after ply no board seen without a hand
    over some squares (found on altrender's players (lidraughts-1, seed 33007)); ``lean``: the
    chance per move that ends with the hand at rest that the player's arm rises steeply towards
    the shoulder (`LEAN_RISE`, up to `renderer.hands.SHOULDER_MM`) all through that move and the
    rest: under one low lamp its shadow lies long across the board, over the men just moved
    (found on altrender's players: selfplay-30 at seed 5757004, a third of the squares under a
    resting arm's shadow, and no still board for 53 seconds); ``drape``: the chance per move
    that the player who made it leaves an arm lying across the board (the fingertips over the
    opponent's half, 25-45 mm up, the forearm low over the squares towards the player, row upon
    row of squares under it) for the next `DRAPE_PLIES` plies, while both play on beside
    and under it with their other hands (found on altrender's players: selfplay-25 at seed
    5151004, a bare arm across the board for 27 seconds while eleven plies went by, and no
    board seen whole between them); ``lay_aside``: the chance that a player (drawn once per
    player and game) lays each piece he captures down on the table on his side, in a row a
    little beyond the border (`LAY_ASIDE_GAP_MM`), where it stays for the rest of the game, in
    the picture and next to the board (found on altrender's players: its captured men lie
    25 mm beyond the border, and the view beside the board never looked as it did at the start
    again: the other renderer's selfplay-21 at seed 6565004); ``wait``: the chance that the
    first mover waits for the game to begin with a hand resting on the table at his edge of the
    board, his forearm leaning up (`LEAN_RISE`: under one low lamp its shadow lies over the
    squares) for `WAIT_S` before the first move, coming in once the board has stood alone for
    `WAIT_LEAD_S` (the companion learns it then; found on
    altrender's players: a resting arm's shadow learnt by the young still memory as the board,
    a hand over the board on every still frame once it had gone: the other renderer's
    selfplay-6 at seed 6262001).
    """

    pause_s: tuple[float, float] = (1.0, 1.5)
    speed: tuple[float, float] = (0.8, 1.25)
    early_reply: float = 0.0
    rest: float = 0.0
    slide: float = 0.0
    clear_pauses: bool = True
    carry_off: float = 0.0
    fidget: float = 0.0
    hover: float = 0.0
    lean: float = 0.0
    drape: float = 0.0
    lay_aside: float = 0.0
    wait: float = 0.0

    @classmethod
    def slow(cls, pause_s: float | None = None) -> "Pace":
        """The old pace, frame for frame: pauses of 1.0-1.5 s (or exactly ``pause_s``) counted
        from the hand's last point out of the picture to the next's, every piece lifted, no
        early replies, no hands resting at the board or hovering over it."""
        p = (1.0, 1.5) if pause_s is None else (pause_s, pause_s)
        return cls(pause_s=p, clear_pauses=False)

    @classmethod
    def quick(cls) -> "Pace":
        """Quick play: pauses of 0.3-0.8 s, quicker hands, a reply before the board was seen
        still in one move of four, hands resting at the edge, pieces slid, and the next mover's
        hand hovering over the board in one move of three."""
        return cls(pause_s=(0.3, 0.8), speed=(0.6, 0.95), early_reply=0.25, rest=0.35, slide=0.3,
                   carry_off=0.3, fidget=0.5, hover=0.3, lean=0.5, drape=0.015, lay_aside=0.5,
                   wait=0.3)

    @classmethod
    def normal(cls) -> "Pace":
        """Club play at an ordinary pace: pauses of 0.6-1.2 s, sometimes a quick reply, a hand
        resting at the edge or the next mover's hovering over the board."""
        return cls(pause_s=(0.6, 1.2), speed=(0.75, 1.15), early_reply=0.08, rest=0.25, slide=0.15,
                   carry_off=0.3, fidget=0.3, hover=0.1, lean=0.5, drape=0.008, lay_aside=0.5,
                   wait=0.3)

    @classmethod
    def blitz(cls) -> "Pace":
        """Blitz, or time trouble: pauses of 0.2-0.5 s, quick hands, and most replies made
        before the board was seen still, so that several plies may go by with a hand always
        over or beside the board (found on `altrender`'s quick players: eight to seventeen
        plies without a still board, which no catch-up search of `rules.recovery.RECOVERY_PLIES`
        spans)."""
        return cls(pause_s=(0.2, 0.5), speed=(0.55, 0.85), early_reply=0.6, rest=0.5, slide=0.3,
                   carry_off=0.3, fidget=0.7, hover=0.5, lean=0.5, drape=0.025, lay_aside=0.5,
                   wait=0.3)

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Pace":
        """Quick play (six games in ten) or club play at an ordinary pace, its habits varied;
        one game in `BLITZ_SHARE` of the quick ones is blitz (`blitz`).  (The blitz draw comes
        last, so that the other games keep the pace they were drawn before it was added.)"""
        quick = rng.random() < 0.6
        base = cls.quick() if quick else cls.normal()
        k = rng.uniform(0.6, 1.4, 3)
        if quick and rng.random() < BLITZ_SHARE:
            base = cls.blitz()
        return replace(base, early_reply=float(min(1.0, base.early_reply * k[0])),
                       rest=float(min(1.0, base.rest * k[1])), slide=float(min(1.0, base.slide * k[2])))

    @classmethod
    def of_seed(cls, seed: int) -> "Pace":
        """The pace `game_frames` draws for a scene's ``seed`` when none is given (`random`)."""
        return cls.random(np.random.default_rng([seed, 0x9ACE]))

    @property
    def quick_play(self) -> bool:
        """Pauses of at most 0.85 s between moves."""
        return self.pause_s[1] <= 0.85

    def pause(self, rng: np.random.Generator) -> float:
        lo, hi = self.pause_s
        return lo if hi <= lo else float(rng.uniform(lo, hi))


@dataclass(frozen=True)
class _Sample:
    """One hand in one frame: ``hand`` placed (None: out of the picture), ``role`` "mover" (it
    holds what the board state says is held), "rest" (a hand at rest at the board's edge, or
    leaving from it) or "hover" (the next mover's, hovering over its side: `Pace.hover`; it
    holds nothing), ``still``: where it was in the frame before."""

    hand: Hand | None
    role: str
    still: bool


@dataclass
class _Slot:
    """One frame to be rendered: its hands, the board changes made on it (in order), what the
    mover is doing, and whether the camera is bumped."""

    samples: list[_Sample]
    actions: list[Callable[[_State], None]]
    phase: str
    move: Move | None
    bump: bool = False


def _track(keys: list[_Key], proto: Hand | None, role: str, fps: float) -> list[_Slot]:
    """The frames of a hand travelling through ``keys`` (eased between them)."""
    out: list[_Slot] = []
    pos = keys[0].pos
    prev = pos
    for key in keys[1:]:
        n = max(1, int(round(key.duration * fps)))
        for k in range(1, n + 1):
            t = _ease(k / n)
            here = None if key.pos is None or pos is None else \
                tuple(a + (b - a) * t for a, b in zip(pos, key.pos))
            hand = None
            if proto is not None and here is not None:
                hand = replace(proto, x_mm=float(here[0]), y_mm=float(here[1]), height_mm=float(here[2]))
            sample = _Sample(hand, role, here is not None and here == prev)
            out.append(_Slot([sample], [key.action] if k == n and key.action is not None else [],
                             key.phase, None))
            prev = here
        pos = key.pos
    return out


def _fidgeting(keys: list[_Key], rng: np.random.Generator) -> list[_Key]:
    """``keys`` of a hand resting at the edge, drifting all along by 15-40 mm in a random
    direction (`Pace.fidget`): never still."""
    angle = float(rng.uniform(0.0, 2.0 * np.pi))
    drift = float(rng.uniform(15.0, 40.0)) * np.array([np.cos(angle), np.sin(angle)])
    total = sum(k.duration for k in keys) or 1.0
    out, elapsed = [], 0.0
    for k in keys:
        elapsed += k.duration
        if k.pos is None:
            out.append(k)
            continue
        f = elapsed / total
        pos = (k.pos[0] + float(drift[0]) * f, k.pos[1] + float(drift[1]) * f, k.pos[2])
        out.append(_Key(k.duration, pos, "rest", k.action))
    return out


def _merge(pending: list[_Slot], track: list[_Slot], at: int, phase: bool = True) -> None:
    """Lays ``track`` over the frames from ``at`` on (extending them); with ``phase`` its phase
    and move are the frame's."""
    for j, slot in enumerate(track):
        i = at + j
        if i < len(pending):
            pending[i].samples.extend(slot.samples)
            pending[i].actions.extend(slot.actions)
            if phase:
                pending[i].phase, pending[i].move = slot.phase, slot.move
        else:
            pending.append(slot)


def _in_view(track: list[_Slot], model: CameraModel, keep_end: bool = False) -> list[_Slot]:
    """The track without its frames at either end where the hand is out of the picture (their
    board changes made on the nearest frame kept); ``keep_end`` keeps the end."""
    seen = [any(x.hand is not None and in_picture(model, x.hand) for x in slot.samples)
            for slot in track]
    if not any(seen):
        return track
    first = seen.index(True)
    last = len(seen) - 1 if keep_end else len(seen) - 1 - seen[::-1].index(True)
    kept = track[first:last + 1]
    kept[0].actions[:0] = [a for slot in track[:first] for a in slot.actions]
    kept[-1].actions.extend(a for slot in track[last + 1:] for a in slot.actions)
    return kept


def _rest_place(rng: np.random.Generator, mover: Color, style: Style) -> tuple[float, float, float]:
    """Where the mover's fingertips rest at its edge of the board: on the border (the hand and
    forearm beyond it, on the table), over no square; one time in ten the fingertips reach just
    over the outer part of an edge square."""
    if rng.random() < 0.1:
        out = float(rng.uniform(6.0, 14.0))
    else:
        out = float(rng.uniform(20.0, max(22.0, style.border_mm + 12.0)))
    x = float(rng.uniform(60.0, 340.0))
    y = 400.0 + out if mover is Color.WHITE else -out
    return (x, y, float(rng.uniform(6.0, 12.0)))


#: The slope of a leaning player's forearm beyond the wrist (`Pace.lean`; a hand's own is 0.3-0.6).
LEAN_RISE = (1.0, 1.6)
#: How long the first mover's hand rests beside the board before the first move (`Pace.wait`).
WAIT_S = (2.5, 4.5)
#: ... and how long the board stands alone before the hand comes in (the companion learns it).
WAIT_LEAD_S = (0.8, 1.5)


#: How high the next mover's fingertips hover over its side (`Pace.hover`), in mm above the board.
HOVER_HEIGHT_MM = (40.0, 90.0)
#: How far they keep from the centres of the squares the move being made changes: a square and
#: a half, so that they never touch what the mover does.
HOVER_CLEAR_MM = 1.5 * SQUARE_MM


class _Hover:
    """The next mover's hand hovering over its side while the mover plays (`Pace.hover`): it
    comes in along ``path`` (fingertip points, one per frame) from frame ``first`` (counted
    from the sequence's start) on, then stays over ``anchor``, drifting by up to ``amp`` mm
    (x, y, height) with ``period`` seconds, until its own move begins from where it is."""

    def __init__(self, proto: Hand, out: tuple[float, float, float],
                 path: list[tuple[float, float, float]], anchor: tuple[float, float, float],
                 amp: np.ndarray, period: np.ndarray, first: int, fps: float) -> None:
        self.proto, self.out, self.path, self.anchor = proto, out, path, anchor
        self.amp, self.period, self.first, self.fps = amp, period, first, fps
        self.next = first  # the first frame it has not been put on yet

    def at(self, frame: int) -> tuple[float, float, float]:
        """Where its fingertips are in ``frame`` (out of the picture before it comes in)."""
        k = frame - self.first
        if k < 0:
            return self.out
        if k < len(self.path):
            return self.path[k]
        # (zero when it has just come in: no jump at the end of its path)
        t = (k - len(self.path) + 1) / self.fps
        d = self.amp * np.sin(2.0 * np.pi * t / self.period)
        x, y, h = self.anchor
        return (x + float(d[0]), y + float(d[1]), h + float(d[2]))

    def sample(self, frame: int) -> _Sample:
        x, y, h = self.at(frame)
        hand = replace(self.proto, x_mm=x, y_mm=y, height_mm=h)
        return _Sample(hand, "hover", frame > self.first and self.at(frame - 1) == (x, y, h))


_Point = tuple[float, float, float]


#: How many plies an arm lies across the board (`Pace.drape`), at least and at most.
DRAPE_PLIES = (2, 9)
#: How high its fingertips lie over the board, in mm (a king stands about 20 mm).
DRAPE_HEIGHT_MM = (25.0, 45.0)
#: The slope of its forearm beyond the wrist: low, over the squares towards the player.
DRAPE_RISE = (0.04, 0.16)


class _Drape:
    """An arm lying across the board (`Pace.drape`): it comes in along ``way_in`` (one point
    per frame) from frame ``first`` on, lies over ``anchor`` (still, or breathing by up to
    ``amp`` mm with ``period`` seconds) and, once `end` is set (the frame after the move it
    stays for), goes out along ``way_out``."""

    def __init__(self, proto: Hand, way_in: list[_Point], way_out: list[_Point], anchor: _Point,
                 amp: np.ndarray, period: float, first: int, until_ply: int, fps: float) -> None:
        self.proto, self.way_in, self.way_out, self.anchor = proto, way_in, way_out, anchor
        self.amp, self.period, self.first, self.until_ply, self.fps = amp, period, first, until_ply, fps
        self.end: int | None = None

    def at(self, frame: int) -> _Point | None:
        """Where its fingertips are in ``frame``; None before it comes in or after it left."""
        k = frame - self.first
        if k < 0:
            return None
        if self.end is not None and frame >= self.end:
            j = frame - self.end
            return self.way_out[j] if j < len(self.way_out) else None
        if k < len(self.way_in):
            return self.way_in[k]
        t = (k - len(self.way_in) + 1) / self.fps
        d = self.amp * math.sin(2.0 * math.pi * t / self.period)
        return (self.anchor[0] + float(d[0]), self.anchor[1] + float(d[1]), self.anchor[2] + float(d[2]))

    def gone(self, frame: int) -> bool:
        return self.end is not None and frame >= self.end + len(self.way_out)

    def sample(self, frame: int) -> _Sample | None:
        here = self.at(frame)
        if here is None:
            return None
        hand = replace(self.proto, x_mm=here[0], y_mm=here[1], height_mm=here[2])
        return _Sample(hand, "drape", self.at(frame - 1) == here)


def _drape_of(habit: np.random.Generator, model: CameraModel, proto: Hand, side: Color,
              ply: int, first: int, fps: float) -> _Drape:
    """The arm of ``side`` (the player who just made move ``ply``) laid across the board from
    frame ``first`` on, for `DRAPE_PLIES` plies: the fingertips over the opponent's half, the
    forearm low towards the player, a little aslant."""
    far = (60.0, 190.0) if side is Color.WHITE else (210.0, 340.0)
    base = 90.0 if side is Color.WHITE else -90.0
    arm = replace(proto, from_deg=base + float(habit.normal(0.0, 22.0)),
                  rise=float(habit.uniform(*DRAPE_RISE)), right=bool(habit.random() < 0.5))
    anchor = (float(habit.uniform(70.0, 330.0)), float(habit.uniform(*far)),
              float(habit.uniform(*DRAPE_HEIGHT_MM)))
    out = _offscreen(model, anchor[0], anchor[1], arm.from_deg, 120.0)
    way_in = _way(arm, out, anchor, float(habit.uniform(0.6, 1.0)), fps)
    way_out = _way(arm, anchor, out, float(habit.uniform(0.5, 0.8)), fps)
    # half the arms lie still; the others breathe by a millimetre or two
    amp = habit.uniform(0.5, 2.0, 3) * (habit.random() < 0.5)
    plies = int(habit.integers(DRAPE_PLIES[0], DRAPE_PLIES[1] + 1))
    return _Drape(arm, way_in, way_out, anchor, amp, float(habit.uniform(2.0, 4.0)), first,
                  ply + plies, fps)


def _way(arm: Hand, a: _Point, b: _Point, seconds: float, fps: float) -> list[_Point]:
    """Where ``arm``'s fingertips are on each frame travelling from ``a`` (excluded) to ``b``
    (included) in ``seconds``: eased as every hand's way (`_track`)."""
    slots = _track([_Key(0.0, a, "drape"), _Key(seconds, b, "drape")], arm, "drape", fps)
    return [(h.x_mm, h.y_mm, h.height_mm) for h in (slot.samples[0].hand for slot in slots)
            if h is not None]


def _covers(model: CameraModel, hands: Sequence[Hand], squares: Sequence[int], top_mm: float) -> bool:
    """Whether any of ``hands`` covers any part of ``squares`` in the picture (from the board up
    to ``top_mm``, a king's top), judged on masks a quarter of the image's size with a pixel's
    margin there (four in the picture)."""
    scale = 0.25
    cam = model.camera
    size = (max(1, int(cam.height * scale)), max(1, int(cam.width * scale)))
    grid = np.linspace(-0.45 * SQUARE_MM, 0.45 * SQUARE_MM, 4)
    points = np.array([(x + dx, y + dy, h) for x, y in map(_centre, squares)
                       for dx in grid for dy in grid for h in (0.0, top_mm)])
    uv = np.round(model.project(points) * scale).astype(int)
    inside = (uv[:, 0] >= 0) & (uv[:, 1] >= 0) & (uv[:, 0] < size[1]) & (uv[:, 1] < size[0])
    uv = uv[inside]
    for hand in hands:
        mask = mask_of(hand_shapes(model, hand), size, scale, "all")
        if cv2.dilate(mask, np.ones((3, 3), np.uint8))[uv[:, 1], uv[:, 0]].any():
            return True
    return False


def _hover_place(rng: np.random.Generator, model: CameraModel, pieces: Mapping[int, Piece],
                 side: Color, changed: Sequence[int], proto: Hand, amp: np.ndarray,
                 top_mm: float) -> tuple[_Point, _Point] | None:
    """Where the next mover (``side``) hovers while the move changing ``changed`` is made
    (`Pace.hover`), and the point out of the picture it comes in from: over one of its pieces
    or an empty square diagonally beside one, on its own half of the board when it can, at
    `HOVER_HEIGHT_MM`, `HOVER_CLEAR_MM` or more from the changed squares, and neither there
    (drifting by ``amp``) nor on its way in covering any of them in the picture; None when no
    such place is found."""
    own = [sq for sq, p in pieces.items() if p.color is side and sq not in changed]
    beside = {n for sq in own for d in DIAGONALS if (n := neighbour(sq, d)) is not None
              and n not in pieces}
    home = (lambda sq: row(sq) >= 5) if side is Color.WHITE else (lambda sq: row(sq) <= 4)
    ours = sorted(set(own) | beside)
    first = [int(sq) for sq in rng.permutation([sq for sq in ours if home(sq)])]
    rest = [int(sq) for sq in rng.permutation([sq for sq in ours if not home(sq)])]
    away = [_centre(sq) for sq in changed]
    for sq in (first + rest)[:12]:
        cx, cy = _centre(sq)
        x, y = cx + float(rng.uniform(-8.0, 8.0)), cy + float(rng.uniform(-8.0, 8.0))
        h = float(rng.uniform(*HOVER_HEIGHT_MM))
        # a square and a half away however it drifts
        if min(math.hypot(x - ax, y - ay) for ax, ay in away) < HOVER_CLEAR_MM + math.hypot(*amp[:2]):
            continue
        out = tuple(float(v) for v in _offscreen(model, x, y, proto.from_deg, 120.0))
        # the drift's extremes, and the way in (a straight line from out of the picture)
        points = [(x + sx * amp[0], y + sy * amp[1], h + sh * amp[2])
                  for sx in (-1, 1) for sy in (-1, 1) for sh in (-1, 1)]
        points += [tuple(a + (b - a) * f for a, b in zip((x, y, h), out)) for f in (0.2, 0.4, 0.6)]
        hands = [replace(proto, x_mm=float(px), y_mm=float(py), height_mm=float(ph))
                 for px, py, ph in points]
        if not _covers(model, hands, changed, top_mm):
            return (x, y, h), out  # type: ignore[return-value]
    return None


#: The share of games in which people walk past the board between the lamp and it, in the
#: benches' scenes (found on `altrender`'s rooms: a spectator's big soft shade passing over the
#: board now and then).  `game_frames` draws none unless asked: the vision tests' sequences
#: keep the conditions they were written for.
SPECTATOR_SHARE = 1 / 3
#: How many times they pass in such a game (at least, at most).
SPECTATOR_PASSES = (1, 3)


@dataclass(frozen=True)
class SpectatorPass:
    """A person walking past between the lamp and the board: their shade (`Shade`) crosses
    the board at right angles to the light, from beyond one side of the board to beyond the
    other, in ``duration_s``.

    It starts in the stretch before move ``ply`` (the still board before it and the move's
    first 1.5 s; in a game without moves, ``ply`` 0 is the still board at its end, and the pass
    ends within it), at ``at`` (0-1) of that stretch; ``turn_deg`` turns its axis from straight
    away from the lamp; ``reach_mm``: how far beyond the board's centre (away from the lamp)
    its shoulders reach; ``direction`` (+1 or -1): which way it walks; ``width_mm`` and
    ``softness_mm`` as in `Shade`; ``strength``: the share of the light it takes in an evenly
    lit room (`shade`: a stronger lamp, a darker shade).
    """

    ply: int
    at: float
    duration_s: float
    turn_deg: float
    reach_mm: float
    direction: int
    width_mm: float
    softness_mm: float
    strength: float

    def shade(self, t: float, light: Light) -> Shade | None:
        """The shade ``t`` seconds after the pass began (None before or after it): the lamp's
        share of the light (its shadows' strength) deepens it, up to 0.6."""
        if not 0.0 <= t <= self.duration_s:
            return None
        away = light.azimuth_deg + 180.0 + self.turn_deg
        a = math.radians(away)
        d, p = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        span = 200.0 * math.sqrt(2.0) + 0.6 * self.width_mm + 2.0 * self.softness_mm  # off the board
        across = self.direction * span * (2.0 * t / self.duration_s - 1.0)
        x, y = np.array([200.0, 200.0]) + d * self.reach_mm + p * across
        return Shade(float(x), float(y), away, self.width_mm, self.softness_mm,
                     float(min(0.6, self.strength + 0.25 * light.shadow)))


def spectator_passes(seed: int, plies: int, share: float = SPECTATOR_SHARE) -> tuple[SpectatorPass, ...]:
    """The spectators' passes in a game of ``plies`` moves drawn with ``seed``: in ``share`` of
    games, `SPECTATOR_PASSES` of them, in order of their moves.  (Drawn from their own stream,
    so that a seed's scene is otherwise the same whether they pass or not.)"""
    rng = np.random.default_rng([seed, 0x5EC7A7])
    if share <= 0 or rng.random() >= share:
        return ()
    lo, hi = SPECTATOR_PASSES
    out = []
    for _ in range(int(rng.integers(lo, hi + 1))):
        out.append(SpectatorPass(
            ply=int(rng.integers(0, max(plies, 1))), at=float(rng.uniform(0.0, 1.0)),
            duration_s=float(rng.uniform(1.0, 3.0)), turn_deg=float(rng.normal(0.0, 15.0)),
            reach_mm=float(rng.uniform(-150.0, 150.0)), direction=int(rng.choice([-1, 1])),
            width_mm=float(rng.uniform(300.0, 480.0)), softness_mm=float(rng.uniform(25.0, 50.0)),
            strength=float(rng.uniform(0.2, 0.35))))
    return tuple(sorted(out, key=lambda x: (x.ply, x.at)))


def game_frames(start: Position, moves: Sequence[Move] | object, *, fps: float = 10.0,
                camera: Camera = Camera(), style: Style = Style(), lighting: Lighting = Lighting(),
                seed: int = 0, pause_s: float | None = None, hands: bool = True, jitter: float = 0.0,
                touches: float = 0.0, put_backs: float = 0.0, renderer: Renderer | None = None,
                behaviour: CameraBehaviour | None = None, end_s: float | None = None,
                pace: Pace | None = None, still_before: Mapping[int, float] | None = None,
                spectators: float = 0.0, skins: Mapping[Color, BGR] | None = None
                ) -> Iterator[GameFrame]:
    """Frames of ``moves`` (a sequence of `Move`, or a `rules.game.Game`) played from ``start``.

    ``pace``: how quickly the players play and their habits (`Pace`: pauses, early replies,
    hands resting at the edge, slid pieces); by default drawn at random from ``seed``
    (`Pace.random`: quick play more often than not); `Pace.slow()` is the old pace.
    ``pause_s``, if given, fixes the still board's length before each move and at the end
    (``end_s``, if given, at the end); ``hands``: False makes pieces jump between still frames
    (no hands at all); ``jitter``: the chance per move that the camera is bumped for a moment
    while the board is still; ``touches``: the chance per move that the hand first hovers over
    another piece; ``put_backs``: the chance per move that the mover first lifts another of its
    pieces and puts it back on its own square (the touch-move case, Art. 15: the truth's
    ``lifted`` then starts with it); ``still_before``: move index -> seconds the board stays
    still before that move, whatever the pace (say, while an arbiter's announcement is heard).
    ``spectators``: the chance that people walk past between the lamp and the board in this
    game (`spectator_passes`; `SPECTATOR_SHARE` in the benches' scenes; by default none), their
    shades crossing it.  ``skins``: a side's hand colour instead of the one drawn from ``seed``
    (a hand the colour of the board, say).  A `Renderer` may be shared.

    ``behaviour``: how the camera behaves from frame to frame (`renderer.sensor`: sub-pixel
    shake and roll, exposure and white-balance drift, noise growing in dim light, focus
    breathing, JPEG); by default a random real camera drawn from ``seed``;
    `CameraBehaviour.still()` gives clean frames, the scene as drawn.  With a behaviour, the
    lighting's own noise, blur and JPEG fold into the camera's (the larger noise, the larger
    blur, the lower quality), so none is applied twice.
    """
    if hasattr(moves, "moves") and hasattr(moves, "positions"):
        # A Game: its positions include irregular moves that stood (Art. 27).
        positions = list(moves.positions)  # type: ignore[attr-defined]
        moves = list(moves.moves)  # type: ignore[attr-defined]
    else:
        moves = list(moves)  # type: ignore[call-overload]
        positions = [start]
        for m in moves:
            positions.append(positions[-1].play(m))
    args = dict(fps=fps, camera=camera, style=style, lighting=lighting, seed=seed, pause_s=pause_s,
                hands=hands, jitter=jitter, touches=touches, put_backs=put_backs,
                behaviour=behaviour, end_s=end_s, pace=pace,
                still_before=None if still_before is None else dict(sorted(still_before.items())),
                spectators=spectators)
    if skins:  # (only when given: the recordings of every other game keep their keys)
        args["skins"] = dict(skins)

    def draw() -> Iterator[GameFrame]:
        return _drawn_frames(positions, moves, renderer=renderer, **args)  # type: ignore[arg-type]

    return recording.replayed(draw, positions, moves, args)


def _drawn_frames(positions: list[Position], moves: list[Move], *, fps: float, camera: Camera,
                  style: Style, lighting: Lighting, seed: int, pause_s: float | None, hands: bool,
                  jitter: float, touches: float, put_backs: float, renderer: Renderer | None,
                  behaviour: CameraBehaviour | None, end_s: float | None, pace: Pace | None,
                  still_before: Mapping[int, float] | None, spectators: float,
                  skins: Mapping[Color, BGR] | None = None) -> Iterator[GameFrame]:
    """`game_frames`, drawn (``positions``: the start and the position after each move)."""
    rng = np.random.default_rng(seed)
    renderer = renderer or Renderer()
    model = CameraModel.of(camera)
    if behaviour is None:
        behaviour = CameraBehaviour.random(np.random.default_rng([seed, 0xCA3E7A]))
    if pace is None:
        pace = Pace.of_seed(seed)
    if pause_s is not None:
        pace = replace(pace, pause_s=(pause_s, pause_s))
    sensor = None
    scene_lighting = lighting
    if not behaviour.is_still:
        sensor = behaviour.start(camera.width, camera.height, fps, seed, exposure=lighting.exposure,
                                 min_noise=lighting.noise, min_blur=lighting.blur,
                                 jpeg_cap=lighting.jpeg_quality)
        scene_lighting = replace(lighting, noise=0.0, blur=0.0, jpeg_quality=None)
    identity = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    people = {
        c: Hand.random(rng, 0.0, 0.0, skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
                       sleeve=None if rng.random() < 0.2 else SLEEVES[int(rng.integers(len(SLEEVES)))])
        for c in Color
    }
    for c, skin in (skins or {}).items():
        people[c] = replace(people[c], skin=tuple(skin))
    state = _State(positions[0].pieces())
    passes = list(spectator_passes(seed, len(moves), spectators))
    passing: list[tuple[int, SpectatorPass]] = []  # (first frame, pass), once its stretch began
    light = scene_lighting.light

    def spectators_from(ply: int, seconds: float) -> None:
        """The passes of move ``ply`` start in the stretch of ``seconds`` beginning with the next
        frame to be made."""
        while passes and passes[0].ply == ply:
            one = passes.pop(0)
            passing.append((index + len(pending) + int(round(one.at * seconds * fps)), one))

    index = 0
    prev_clear = False
    prev_pieces: dict[int, Piece] | None = None
    base_from = {Color.WHITE: 90.0, Color.BLACK: -90.0}
    laid = {Color.WHITE: 0, Color.BLACK: 0}  # pieces each player laid aside so far
    # who lays captured pieces aside (`Pace.lay_aside`): drawn once per player and game, from a
    # stream of its own
    lays_aside = {c: pace.lay_aside > 0 and np.random.default_rng(
        [seed, 0x1A5E, 0 if c is Color.WHITE else 1]).random() < pace.lay_aside for c in Color}
    pending: list[_Slot] = []

    def render(slot: _Slot) -> GameFrame:
        nonlocal index, prev_clear, prev_pieces
        for action in slot.actions:
            action(state)
        samples = [x for x in slot.samples if x.hand is not None]
        for drape in drapes:
            lying = drape.sample(index)
            if lying is not None:
                samples.append(lying)
        drapes[:] = [d for d in drapes if not d.gone(index)]
        drawn = [replace(x.hand, holding=state.holding if x.role == "mover" else None)  # type: ignore[arg-type]
                 for x in samples]
        cam = camera
        shaking = False
        if slot.bump:
            cam = camera.jittered(rng)
            shaking = True
        shades = tuple(shade for first, one in passing
                       if (shade := one.shade((index - first) / fps, light)) is not None)
        r = renderer.render(state.pieces, cam, style, scene_lighting, drawn or None,
                            seed=seed * 100003 + index, shades=shades, aside=state.aside)
        affine = identity
        if sensor is not None:
            seen = sensor.frame(r.image, index)
            affine = seen.affine
            r = replace(r, image=seen.image, jpeg=seen.jpeg, corners=apply_affine(affine, r.corners),
                        board_corners=apply_affine(affine, r.board_corners))
        shown = [x for x, inside in zip(samples, r.hands_in_picture) if inside]
        resting = bool(shown) and all(x.role == "rest" and x.still for x in shown)
        clear = not shown or (resting and not r.occluded)
        settled = clear and prev_clear and prev_pieces == state.pieces
        frame = GameFrame(
            image=r.image, time=index / fps, index=index, ply=state.ply,
            pieces=dict(state.pieces), hand=r.hand, lifted=tuple(state.lifted), aside=tuple(state.aside),
            settled=settled, corners=r.corners, board_corners=r.board_corners,
            corner_46=r.corner_46, camera=cam, occluded=r.occluded, phase=slot.phase,
            move=slot.move, shaking=shaking, rendered=r, affine=affine, resting=resting,
            shades=shades)
        prev_clear, prev_pieces = clear, dict(state.pieces)
        index += 1
        return frame

    def flush(keep: int = 0) -> Iterator[GameFrame]:
        while len(pending) > keep:
            yield render(pending.pop(0))

    def still(seconds: float, rest: tuple[Hand, tuple[float, float, float]] | None,
              fidgets: bool = True) -> list[_Slot]:
        """The board still for ``seconds``, a hand perhaps resting at its edge (shifting a
        little once, sometimes, or drifting all along: `Pace.fidget`), the camera perhaps
        bumped once."""
        n = max(2, int(round(seconds * fps)))
        slots = [_Slot([], [], "still", None) for _ in range(n)]
        if jitter > 0 and rng.random() < jitter and n >= 4:
            at = int(rng.integers(1, n - 2))
            m = min(n - at, max(1, int(round(rng.uniform(0.2, 0.5) * fps))))
            for slot in slots[at:at + m]:
                slot.bump = True
        if rest is not None:
            proto, place = rest
            keys = [_Key(0, place, "still"), _Key(n / fps, place, "still")]
            if n >= 5 and rng.random() < 0.5:
                at = int(rng.integers(1, n - 3))
                step = float(rng.choice([-1.0, 1.0]) * rng.uniform(10.0, 40.0))
                moved = (min(max(place[0] + step, 40.0), 360.0), place[1], place[2])
                took = min(n - at - 1, max(1, int(round(0.3 * fps))))
                keys = [_Key(0, place, "still"), _Key(at / fps, place, "still"),
                        _Key(took / fps, moved, "rest"), _Key((n - at - took) / fps, moved, "still")]
                rest_moved[0] = (proto, moved)
            # (drawn from its own stream, so that the scenes of every seed are otherwise unchanged)
            habit = np.random.default_rng([seed, index + len(pending), 0xF1D6])
            if habit.random() < pace.fidget and fidgets:
                keys = _fidgeting(keys, habit)
                rest_moved[0] = (proto, keys[-1].pos)  # the next move's hand leaves from there
            for j, slot in enumerate(_track(keys, proto, "rest", fps)[:n]):
                slots[j].samples.extend(slot.samples)
                if slot.phase == "rest":
                    slots[j].phase = "rest"
        return slots

    def hover_in(ply: int, track: list[_Slot], at: int, changed: Sequence[int]) -> _Hover | None:
        """The next mover's hand coming in over its side while move ``ply`` is made (its hand's
        ``track`` laid from pending frame ``at`` on; ``changed``: the squares it changes), or
        None (`Pace.hover`: not this time, no next move by hand, or the board is to be held
        still before it)."""
        held = still_before is not None and ply + 1 in still_before
        if pace.hover <= 0 or ply + 1 >= len(moves) or held:
            return None
        nxt = positions[ply + 1]
        if nxt.piece_at(moves[ply + 1].from_square) is None:
            return None
        # (drawn from its own stream, so that the scenes of every seed are otherwise unchanged)
        habit = np.random.default_rng([seed, ply, 0x40E5])
        if habit.random() >= pace.hover:
            return None
        side = nxt.turn
        proto = replace(people[side], from_deg=base_from[side] + float(habit.normal(0, 12)))
        amp = habit.uniform([2.0, 2.0, 2.0], [4.0, 4.0, 6.0])
        period = habit.uniform(1.2, 2.5, 3)
        top = 2 * style.man_height_mm
        place = _hover_place(habit, model, positions[ply].pieces(), side, changed, proto, amp, top)
        if place is None:
            return None
        anchor, out = place
        # it comes in as the mover reaches, or at the latest a moment after the piece is lifted
        lifted_at = next((j for j, slot in enumerate(track) if slot.phase not in ("reach", "hover")),
                         len(track) - 1)
        latest = min(len(track) - 1, lifted_at + int(round(0.4 * fps)))
        begin = int(habit.integers(0, latest + 1))
        way = _track([_Key(0, out, "still"), _Key(float(habit.uniform(0.5, 0.9)), anchor, "still")],
                     proto, "hover", fps)
        path = [(x.hand.x_mm, x.hand.y_mm, x.hand.height_mm)  # type: ignore[union-attr]
                for slot in _in_view(way, model, keep_end=True) for x in slot.samples]
        return _Hover(proto, out, path, anchor, amp, period, index + at + begin, fps)

    def hover_over(hover: _Hover | None, end: int) -> None:
        """The hovering hand put on the pending frames before ``end`` it is not on yet."""
        if hover is None:
            return
        for j in range(max(0, hover.next - index), end):
            pending[j].samples.append(hover.sample(index + j))
        hover.next = max(hover.next, index + end)

    def wait_in(pos: Position) -> tuple[tuple[Hand, tuple[float, float, float]], float] | None:
        """The first mover waiting for the game to begin (`Pace.wait`): the board alone a
        moment (the companion learns it), then his hand coming to rest at his edge, laid on
        the pending frames; the resting hand and how long it waits, or None (not this game).
        Drawn from its own stream: a scene whose first mover does not wait is unchanged."""
        waiting = np.random.default_rng([seed, 0x3A17])
        if waiting.random() >= pace.wait:
            return None
        proto = replace(people[pos.turn], height_mm=50.0, rise=float(waiting.uniform(*LEAN_RISE)),
                        from_deg=base_from[pos.turn] + float(waiting.normal(0, 12)))
        place = _rest_place(waiting, pos.turn, style)
        pending.extend(still(float(waiting.uniform(*WAIT_LEAD_S)), None))
        away = _offscreen(model, place[0], place[1], proto.from_deg, 120.0)
        come = [_Key(0, away, "rest"), _Key(float(waiting.uniform(0.5, 0.8)), place, "rest")]
        pending.extend(_in_view(_track(come, proto, "rest", fps), model, keep_end=True))
        return (proto, place), float(waiting.uniform(*WAIT_S))

    hovering: _Hover | None = None  # the next mover's hand over its side (`Pace.hover`)
    drapes: list[_Drape] = []  # an arm lying across the board (`Pace.drape`)
    resting_hand: tuple[Hand, tuple[float, float, float]] | None = None
    rest_moved: list[tuple[Hand, tuple[float, float, float]] | None] = [None]
    leave_frames = 0  # frames of the last move's final leaving, still pending (early replies)
    for ply, move in enumerate(moves):
        pos = positions[ply]
        after = positions[ply + 1]
        pause = pace.pause(rng)
        held = still_before is not None and ply in still_before
        if held:
            pause = float(still_before[ply])  # type: ignore[index]
        early = (not held and ply > 0 and resting_hand is None and leave_frames > 0
                 and pace.early_reply > 0 and rng.random() < pace.early_reply)
        if ply == 0 and hands and pace.wait > 0:
            waited = wait_in(pos)
            if waited is not None:
                resting_hand, wait = waited
                pause = max(pause, wait)
        spectators_from(ply, (0.0 if early else pause) + 1.5)
        mover = pos.turn
        piece = pos.piece_at(move.from_square)
        if early and hands and piece is not None:
            # the reply's hand comes in while the last one leaves, or just after: 0-0.15 s clear
            gap = int(rng.integers(-min(leave_frames, len(pending)), int(0.15 * fps + 1e-9) + 1))
            pending.extend(_Slot([], [], "still", None) for _ in range(max(0, gap)))
            start_at = len(pending) + min(0, gap)
            hover_over(hovering, start_at)
        else:
            rest_moved[0] = None
            pending.extend(still(pause, resting_hand))
            if rest_moved[0] is not None:
                resting_hand = rest_moved[0]
            hover_over(hovering, len(pending))
            yield from flush()
            start_at = len(pending)
        taken = move.captured or tuple(sorted(
            sq for sq in pos.pieces() if after.piece_at(sq) is None and sq != move.from_square))
        if not hands or piece is None:
            yield from flush()
            state.lifted = [move.from_square, *taken]
            state.pieces = after.pieces()
            state.ply = ply + 1
            leave_frames = 0
            continue
        from_deg = base_from[mover] + float(rng.normal(0, 12))
        if hovering is not None:
            from_deg = hovering.proto.from_deg  # the hand hovering over its side makes the move
        proto = replace(people[mover], from_deg=from_deg, height_mm=50.0)
        speed = float(rng.uniform(*pace.speed))
        fx, fy = _centre(move.from_square)
        lift_h = style.man_height_mm * (2 if piece.king else 1) + 4.0
        outside = _offscreen(model, fx, fy, from_deg, 120.0)
        if hovering is not None:
            # it goes on from where it hovers (or, not in yet, from where it was coming in)
            outside = hovering.at(index + start_at - 1)
            hovering = None
        keys: list[_Key] = [_Key(0, outside, "reach")]

        def begin(s: _State) -> None:
            s.lifted = []

        keys.append(_Key(0.001, outside, "reach", begin))
        own = [sq for sq, p in pos.pieces().items() if p.color is mover and sq != move.from_square]
        if touches > 0 and rng.random() < touches:
            if own:
                hx, hy = _centre(int(rng.choice(own)))
                keys.append(_Key(0.5 * speed, (hx, hy, 45.0), "hover"))
                keys.append(_Key(0.3 * speed, (hx, hy, 30.0), "hover"))
        if put_backs > 0 and rng.random() < put_backs:
            if own:
                back = int(rng.choice(own))
                bx, by = _centre(back)
                bh = style.man_height_mm * (2 if pos.pieces()[back].king else 1) + 4.0
                # lifted, held aside (towards the player, a square and a half) for a moment,
                # put back on its own square
                a = math.radians(from_deg)
                ax = bx + math.cos(a) * 1.5 * SQUARE_MM
                ay = by + math.sin(a) * 1.5 * SQUARE_MM
                keys.append(_Key(0.5 * speed, (bx, by, 55.0), "reach"))
                keys.append(_Key(0.2 * speed, (bx, by, bh), "grab", _lift(back)))
                keys.append(_Key(0.3 * speed, (ax, ay, 45.0), "carry"))
                keys.append(_Key(0.4 * speed, (ax, ay, 45.0), "carry"))
                keys.append(_Key(0.3 * speed, (bx, by, bh), "place", _put(back)))
                keys.append(_Key(0.15 * speed, (bx, by, 50.0), "place"))
        slide = not taken and pace.slide > 0 and rng.random() < pace.slide
        tx, ty = _centre(move.to_square)
        if slide:
            # the fingertips on the piece's top, the piece on the board beneath them (a held
            # piece is drawn a little towards the arm from the fingertips)
            a = math.radians(from_deg)
            back_x, back_y = math.cos(a) * 8 * proto.size, math.sin(a) * 8 * proto.size
            low = max(0.0, lift_h - 7.0)
            keys.append(_Key(0.6 * speed, (fx - back_x, fy - back_y, 30.0), "reach"))
            keys.append(_Key(0.2 * speed, (fx - back_x, fy - back_y, low), "grab", _lift(move.from_square)))
            for sq0, sq in zip(move.path, move.path[1:]):
                x, y = _centre(sq)
                squares = max(abs(column(sq) - column(sq0)), abs(row(sq) - row(sq0)))
                keys.append(_Key(0.35 * speed * math.sqrt(squares), (x - back_x, y - back_y, low), "slide"))
            keys.append(_Key(0.1 * speed, (tx - back_x, ty - back_y, low), "place", _put(move.to_square)))
            keys.append(_Key(0.15 * speed, (tx, ty, 40.0), "place"))
        else:
            keys.append(_Key(0.6 * speed, (fx, fy, 55.0), "reach"))
            keys.append(_Key(0.2 * speed, (fx, fy, lift_h), "grab", _lift(move.from_square)))
            keys.append(_Key(0.15 * speed, (fx, fy, 45.0), "carry"))
            for sq in move.path[1:]:
                x, y = _centre(sq)
                keys.append(_Key((0.3 if taken else 0.45) * speed, (x, y, 45.0), "carry"))
            keys.append(_Key(0.2 * speed, (tx, ty, lift_h), "place", _put(move.to_square)))
            keys.append(_Key(0.15 * speed, (tx, ty, 50.0), "place"))
        # (drawn from its own stream, so that the scenes of every seed are otherwise unchanged)
        habit = np.random.default_rng([seed, ply, 0xCA77])
        carry_off = len(taken) > 1 and pace.carry_off > 0 and habit.random() < pace.carry_off
        landed = after.piece_at(move.to_square)
        crowned = not piece.king and landed is not None and landed.king
        lays = lays_aside[mover]
        # the table on the mover's side, about 10 cm beyond the board's edge, level with the capture
        dx, dy = math.cos(math.radians(from_deg)), math.sin(math.radians(from_deg))
        table = (200.0 + dx * 340.0 + (tx - 200.0) * abs(dy),
                 200.0 + dy * 340.0 + (ty - 200.0) * abs(dx), 40.0)
        for k, sq in enumerate(taken):
            x, y = _centre(sq)
            keys.append(_Key(0.35 * speed, (x, y, 50.0), "take"))
            h = style.man_height_mm * (2 if pos.piece_at(sq) and pos.piece_at(sq).king else 1) + 4.0  # type: ignore[union-attr]
            keys.append(_Key(0.15 * speed, (x, y, h), "take", _lift(sq)))
            keys.append(_Key(0.15 * speed, (x, y, 50.0), "take"))
            if lays:
                # to the player's row beside the board, laid down there for good; the last one
                # laid (no crown to come) finishes the move, the hand at work beside the board
                ax, ay = _aside_spot(seed, mover, style, laid[mover])
                laid[mover] += 1
                lay = _lay(ax, ay)
                if k == len(taken) - 1 and not crowned:
                    lay = _then(lay, _done(ply + 1, after.pieces()))
                keys.append(_Key(0.35 * speed, (ax, ay, 45.0), "take"))
                keys.append(_Key(0.15 * speed, (ax, ay, h), "take", lay))
                keys.append(_Key(0.12 * speed, (ax, ay, 45.0), "take"))
            elif carry_off and k < len(taken) - 1:
                # to the table beside the board, put down there, and back for the next
                keys.append(_Key(0.4 * speed, table, "take"))
                keys.append(_Key(float(habit.uniform(0.25, 0.5)), table, "take", _drop))
        if crowned:
            # Fetch a second man from beside the board and stack it.
            a = math.radians(from_deg)
            side = (min(max(tx + math.cos(a) * 260, -150), 550), min(max(ty + math.sin(a) * 260, -150), 550), 40.0)

            def fetch(s: _State, colour: Color = piece.color) -> None:
                s.holding = Piece(colour)

            keys.append(_Key(0.4 * speed, side, "crown", fetch))
            keys.append(_Key(0.4 * speed, (tx, ty, 2 * style.man_height_mm + 5), "crown"))

            def crown(s: _State, sq: int = move.to_square, colour: Color = piece.color) -> None:
                s.pieces[sq] = Piece(colour, king=True)
                s.holding = None

            keys.append(_Key(0.15 * speed, (tx, ty, 2 * style.man_height_mm + 4), "crown", crown))

        done = _done(ply + 1, after.pieces())
        last = keys[-1].pos
        assert last is not None
        keys.append(_Key(0.1, last, "leave", done))
        rest_after = pace.rest > 0 and rng.random() < pace.rest
        if rest_after:
            place = _rest_place(rng, mover, style)
            keys.append(_Key(0.5 * speed, place, "leave"))
            # (drawn from its own stream, so that the scenes of every seed are otherwise unchanged)
            leaning = np.random.default_rng([seed, ply, 0x1EA7])
            if leaning.random() < pace.lean:
                proto = replace(proto, rise=float(leaning.uniform(*LEAN_RISE)))
        else:
            keys.append(_Key(0.5 * speed, _offscreen(model, last[0], last[1], from_deg, 120.0), "leave"))
        track = _track(keys, proto, "mover", fps)
        for slot in track:
            slot.move = move
        if pace.clear_pauses:
            track = _in_view(track, model, keep_end=rest_after)
        if resting_hand is not None:
            # the hand resting at the edge leaves as the reply is made
            rest_proto, rest_at = resting_hand
            wait = int(rng.integers(0, max(1, int(round(0.3 * fps))) + 1))
            away = _offscreen(model, rest_at[0], rest_at[1], rest_proto.from_deg, 120.0)
            withdraw = _track([_Key(0, rest_at, "reach"), _Key(wait / fps, rest_at, "reach"),
                               _Key(float(rng.uniform(0.5, 0.8)), away, "reach")], rest_proto, "rest", fps)
            withdraw = withdraw[1:] if wait == 0 else withdraw
            _merge(pending, track, start_at)
            _merge(pending, withdraw, start_at, phase=False)
        else:
            _merge(pending, track, start_at)
        resting_hand = (proto, place) if rest_after else None
        # the frames of the hand leaving, after the move was done: an early reply may come in
        # over them
        leave_frames = 0
        for slot in reversed(track):
            if slot.phase != "leave" or slot.actions:
                break
            leave_frames += 1
        leave_frames = 0 if rest_after else leave_frames
        # an arm lying across the board goes once the move it stayed for is made; the player
        # who made this one may lay one there
        for drape in drapes:
            if drape.end is None and drape.until_ply <= ply:
                drape.end = index + len(pending)
        if pace.drape > 0 and ply + 2 < len(moves) and all(d.end is not None for d in drapes):
            # (drawn from its own stream, so that the scenes of every seed are otherwise unchanged)
            habit = np.random.default_rng([seed, ply, 0xD4A9E])
            if habit.random() < pace.drape:
                first = max([index + len(pending)] + [d.end + len(d.way_out) for d in drapes
                                                      if d.end is not None])
                drapes.append(_drape_of(habit, model, people[mover], mover, ply, first, fps))
        # the next mover's hand may come in over its side while this move is made
        hovering = hover_in(ply, track, start_at, (move.from_square, move.to_square, *taken))
        keep = leave_frames if pace.early_reply > 0 else 0
        hover_over(hovering, len(pending) - keep)
        yield from flush(keep=keep)
    rest_moved[0] = None
    leaving = 0  # frames of an arm still lying across the board at the end, going
    for drape in drapes:
        if drape.end is None:
            drape.end = index + len(pending)
        leaving = max(leaving, drape.end + len(drape.way_out) - index - len(pending))
    # (the game's end: the hand lies still, so that the last position is seen settled)
    end = max(pace.pause_s[1] if end_s is None else end_s, 2.0 / fps)
    if not moves and passes:
        spectators_from(0, max(0.0, end - max(p.duration_s for p in passes)))
    pending.extend(still(end + leaving / fps, resting_hand, fidgets=False))
    yield from flush()
