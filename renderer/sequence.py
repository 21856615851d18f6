"""Rendered frame sequences of a whole game: hands making the moves on a camera-watched board.

`game_frames(start, moves)` yields one `GameFrame` per camera frame at ``fps``: the board still
for ``pause_s``; the mover's arm reaching in from the player's side (out of the picture) to the
piece; the piece lifted (gone from its square, held in the hand), carried along its path and put
down; captured pieces taken off one by one by the same hand; a man reaching the far row crowned
(the hand fetches a second man and stacks it); the arm leaving; the board still again.  Sometimes
(``touches``) the hand first hovers over another piece without moving it, sometimes
(``put_backs``) it lifts another piece and puts it back, and sometimes (``jitter``) the camera
is bumped a little while the board is still.  Every frame then goes through the camera's own
behaviour (``behaviour``, `renderer.sensor`): sub-pixel shake and roll, exposure and
white-balance drift, sensor noise that grows in dim light, focus breathing and JPEG.

Each frame carries its truth: the pieces on the board, whether a hand is over the board, the
squares lifted so far in the current move, whether the board is settled, and the camera and
corners (moved with the camera's shake and bumps).  Timing is randomised per move from
``seed``; the same arguments always give the same frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Iterator, Sequence

import numpy as np

from rules.move import Move
from rules.piece import Color, Piece
from rules.position import Position
from rules.squares import column, row
from renderer.camera_model import SQUARE_MM, Camera, CameraModel
from renderer.hands import SKIN_TONES, SLEEVES, Hand
from renderer.render import Lighting, Rendered, Renderer, Style
from renderer.sensor import CameraBehaviour, apply_affine


@dataclass(frozen=True, eq=False)
class GameFrame:
    """One frame of a rendered game and its truth.

    ``ply``: moves completed so far (the board shows the position after them once the hand has
    finished); ``pieces``: what stands on the board in this frame (a lifted piece is not on it);
    ``hand``: a hand or arm is over the board; ``lifted``: squares whose pieces were lifted in the
    current move so far (kept until the next move's hand comes in), in order; ``settled``: the
    board has been unchanged with no hand in the picture for this frame and the one before;
    ``shaking``: the camera is jittered in this frame (``camera`` and ``corners`` say where it
    is); ``phase``: what the hand is doing (still, hover, reach, grab, carry, place, take,
    crown, leave); ``affine`` (2 x 3): where the camera's own shake moved the scene's pixels in
    this frame (`renderer.sensor`; ``corners``, ``board_corners`` and ``rendered.corners``
    already include it, `project` applies it to board points); ``rendered``: the scene's
    picture and truth, its image the frame's ``image``.
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


def _centre(square: int) -> tuple[float, float]:
    return ((column(square) + 0.5) * SQUARE_MM, (row(square) + 0.5) * SQUARE_MM)


def _lift(square: int) -> Callable[[_State], None]:
    """The hand picks up the piece on ``square`` (it counts as lifted in this move)."""
    def act(s: _State) -> None:
        s.holding = s.pieces.pop(square)
        s.lifted.append(square)
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


def game_frames(start: Position, moves: Sequence[Move] | object, *, fps: float = 10.0,
                camera: Camera = Camera(), style: Style = Style(), lighting: Lighting = Lighting(),
                seed: int = 0, pause_s: float = 1.0, hands: bool = True, jitter: float = 0.0,
                touches: float = 0.0, put_backs: float = 0.0, renderer: Renderer | None = None,
                behaviour: CameraBehaviour | None = None, end_s: float | None = None
                ) -> Iterator[GameFrame]:
    """Frames of ``moves`` (a sequence of `Move`, or a `rules.game.Game`) played from ``start``.

    ``pause_s``: how long the board stays still before each move and at the end (``end_s``, if
    given, at the end); ``hands``:
    False makes pieces jump between still frames (no hands at all); ``jitter``: the chance per
    move that the camera shakes for a moment while the board is still; ``touches``: the chance
    per move that the hand first hovers over another piece; ``put_backs``: the chance per move
    that the mover first lifts another of its pieces and puts it back on its own square (the
    touch-move case, Art. 15: the truth's ``lifted`` then starts with it).  A `Renderer` may be
    shared.

    ``behaviour``: how the camera behaves from frame to frame (`renderer.sensor`: sub-pixel
    shake and roll, exposure and white-balance drift, noise growing in dim light, focus
    breathing, JPEG); by default a random real camera drawn from ``seed``;
    `CameraBehaviour.still()` gives clean frames, the scene as drawn.  With a behaviour, the
    lighting's own noise, blur and JPEG fold into the camera's (added in quadrature, the larger
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
    rng = np.random.default_rng(seed)
    renderer = renderer or Renderer()
    model = CameraModel.of(camera)
    if behaviour is None:
        behaviour = CameraBehaviour.random(np.random.default_rng([seed, 0xCA3E7A]))
    sensor = None
    scene_lighting = lighting
    if not behaviour.is_still:
        sensor = behaviour.start(camera.width, camera.height, fps, seed, exposure=lighting.exposure,
                                 extra_noise=lighting.noise, min_blur=lighting.blur,
                                 jpeg_cap=lighting.jpeg_quality)
        scene_lighting = replace(lighting, noise=0.0, blur=0.0, jpeg_quality=None)
    identity = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    people = {
        c: Hand.random(rng, 0.0, 0.0, skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
                       sleeve=None if rng.random() < 0.2 else SLEEVES[int(rng.integers(len(SLEEVES)))])
        for c in Color
    }
    state = _State(positions[0].pieces())

    index = 0
    prev_clear = False
    prev_pieces: dict[int, Piece] | None = None
    base_from = {Color.WHITE: 90.0, Color.BLACK: -90.0}

    def frames_for(keys: list[_Key], hand_proto: Hand | None, move: Move | None,
                   shake: bool) -> Iterator[GameFrame]:
        nonlocal index, prev_clear, prev_pieces
        pos = keys[0].pos
        for key in keys[1:]:
            n = max(1, int(round(key.duration * fps)))
            for k in range(1, n + 1):
                t = _ease(k / n)
                if key.pos is None or pos is None:
                    here = None
                else:
                    here = tuple(a + (b - a) * t for a, b in zip(pos, key.pos))
                if k == n and key.action is not None:
                    key.action(state)
                hand = None
                if hand_proto is not None and here is not None:
                    hand = replace(hand_proto, x_mm=float(here[0]), y_mm=float(here[1]),
                                   height_mm=float(here[2]), holding=state.holding)
                cam = camera
                shaking = False
                if shake and hand is None:
                    cam = camera.jittered(rng)
                    shaking = True
                r = renderer.render(state.pieces, cam, style, scene_lighting, hand,
                                    seed=seed * 100003 + index)
                affine = identity
                if sensor is not None:
                    seen = sensor.frame(r.image, index)
                    affine = seen.affine
                    r = replace(r, image=seen.image, corners=apply_affine(affine, r.corners),
                                board_corners=apply_affine(affine, r.board_corners))
                in_picture = r.hand_mask is not None and bool(r.hand_mask.any())
                clear = not in_picture
                settled = clear and prev_clear and prev_pieces == state.pieces
                yield GameFrame(
                    image=r.image, time=index / fps, index=index, ply=state.ply,
                    pieces=dict(state.pieces), hand=r.hand, lifted=tuple(state.lifted),
                    settled=settled, corners=r.corners, board_corners=r.board_corners,
                    corner_46=r.corner_46, camera=cam, occluded=r.occluded, phase=key.phase,
                    move=move, shaking=shaking, rendered=r, affine=affine)
                prev_clear, prev_pieces = clear, dict(state.pieces)
                index += 1
            pos = key.pos

    def still(seconds: float, move: Move | None) -> Iterator[GameFrame]:
        n = max(2, int(round(seconds * fps)))
        keys = [_Key(0, None, "still")]
        shake_at = -1
        if jitter > 0 and rng.random() < jitter and n >= 4:
            shake_at = int(rng.integers(1, n - 2))
        i = 0
        while i < n:
            if i == shake_at:
                m = min(n - i, max(1, int(round(rng.uniform(0.2, 0.5) * fps))))
                yield from frames_for(keys + [_Key(m / fps, None, "still")], None, move, True)
                i += m
            else:
                yield from frames_for(keys + [_Key(1 / fps, None, "still")], None, move, False)
                i += 1

    for ply, move in enumerate(moves):
        pos = positions[ply]
        after = positions[ply + 1]
        yield from still(pause_s, None)
        mover = pos.turn
        piece = pos.piece_at(move.from_square)
        taken = move.captured or tuple(sorted(
            sq for sq in pos.pieces() if after.piece_at(sq) is None and sq != move.from_square))
        if not hands or piece is None:
            state.lifted = [move.from_square, *taken]
            state.pieces = after.pieces()
            state.ply = ply + 1
            continue
        from_deg = base_from[mover] + float(rng.normal(0, 12))
        proto = replace(people[mover], from_deg=from_deg, height_mm=50.0)
        speed = float(rng.uniform(0.8, 1.25))
        fx, fy = _centre(move.from_square)
        lift_h = style.man_height_mm * (2 if piece.king else 1) + 4.0
        outside = _offscreen(model, fx, fy, from_deg, 120.0)
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
        keys.append(_Key(0.6 * speed, (fx, fy, 55.0), "reach"))
        keys.append(_Key(0.2 * speed, (fx, fy, lift_h), "grab", _lift(move.from_square)))
        keys.append(_Key(0.15 * speed, (fx, fy, 45.0), "carry"))
        for sq in move.path[1:]:
            x, y = _centre(sq)
            keys.append(_Key((0.3 if taken else 0.45) * speed, (x, y, 45.0), "carry"))
        tx, ty = _centre(move.to_square)
        keys.append(_Key(0.2 * speed, (tx, ty, lift_h), "place", _put(move.to_square)))
        keys.append(_Key(0.15 * speed, (tx, ty, 50.0), "place"))
        for sq in taken:
            x, y = _centre(sq)
            keys.append(_Key(0.35 * speed, (x, y, 50.0), "take"))
            h = style.man_height_mm * (2 if pos.piece_at(sq) and pos.piece_at(sq).king else 1) + 4.0  # type: ignore[union-attr]
            keys.append(_Key(0.15 * speed, (x, y, h), "take", _lift(sq)))
            keys.append(_Key(0.15 * speed, (x, y, 50.0), "take"))
        landed = after.piece_at(move.to_square)
        crowned = not piece.king and landed is not None and landed.king
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

        def done(s: _State, n: int = ply + 1, target: dict[int, Piece] = after.pieces()) -> None:
            s.ply = n
            s.pieces = dict(target)

        last = keys[-1].pos
        assert last is not None
        keys.append(_Key(0.1, last, "leave", done))
        keys.append(_Key(0.5 * speed, _offscreen(model, last[0], last[1], from_deg, 120.0), "leave"))
        yield from frames_for(keys, proto, move, False)
    yield from still(max(pause_s if end_s is None else end_s, 2.0 / fps), None)
