"""A game played by two pairs of hands, as a timeline: every disc's whereabouts, every hand's pose
and the room's passing shadows at any time, and the truth an arbiter would see.

What the players do (`Pace` draws how quickly):
- think 0.3-3 s (quick play mostly 0.3-0.8 s); sometimes a hand hovers over the board meanwhile
  without touching it; sometimes the reply begins before the previous hand has left;
- reach, pinch the piece (a king's two discs together), lift it 20-40 mm or slide it along the
  board, carry it (a capture either hops down on every landing square or goes straight to its
  end) and put it down a few millimetres off centre;
- take the captured pieces off one by one, or sweep them together off the board, onto the table
  beside the board on the mover's right;
- crown a man that reached the last row with a spare man from beside the board (or a man of its
  colour that was captured), a little off centre;
- rest a hand on the table by the board's edge for a while; a spectator's shadow passes now and
  then.
A move counts as made (the truth's ``ply``) when its last disc is put down.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

import numpy as np

from altrender.hands import HandModel, capsules
from rules.piece import Color, Piece


@dataclass
class Pace:
    name: str  # "quick" or "normal"
    pause: tuple[float, float]
    speed: float  # mm/s of a hand travelling
    early: float  # chance that a reply starts before the previous hand left
    hover: float
    rest: float
    slide: float
    hop: float  # chance that a capture hops through its landing squares
    sweep: float  # chance that captured pieces are swept off together

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Pace":
        if rng.random() < 0.55:
            return cls("quick", (0.3, 0.8), float(rng.uniform(650, 1000)), float(rng.uniform(0.15, 0.4)),
                       float(rng.uniform(0.0, 0.15)), float(rng.uniform(0.05, 0.2)), float(rng.uniform(0.1, 0.4)),
                       float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)))
        return cls("normal", (0.8, 3.0), float(rng.uniform(400, 700)), float(rng.uniform(0.0, 0.15)),
                   float(rng.uniform(0.1, 0.3)), float(rng.uniform(0.05, 0.25)), float(rng.uniform(0.0, 0.3)),
                   float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)))

    def think(self, rng) -> float:
        if rng.random() < 0.12:  # a longer think now and then
            return float(rng.uniform(1.0, 3.0))
        return float(rng.uniform(*self.pause))


@dataclass
class Key:
    t: float
    p: np.ndarray
    grip: float
    flat: float
    phase: str


@dataclass
class Track:
    """One appearance of a hand: keys between which it moves smoothly."""

    model: HandModel
    shoulder: np.ndarray
    kind: str  # "move", "rest"
    keys: list[Key] = field(default_factory=list)

    @property
    def t0(self) -> float:
        return self.keys[0].t

    @property
    def t1(self) -> float:
        return self.keys[-1].t

    def at(self, t: float) -> tuple[np.ndarray, float, float, str] | None:
        if not self.keys or t < self.t0 or t > self.t1:
            return None
        times = [k.t for k in self.keys]
        i = bisect.bisect_right(times, t) - 1
        if i >= len(self.keys) - 1:
            k = self.keys[-1]
            return k.p, k.grip, k.flat, k.phase
        a, b = self.keys[i], self.keys[i + 1]
        u = 0.0 if b.t <= a.t else (t - a.t) / (b.t - a.t)
        s = u * u * (3 - 2 * u)
        return (a.p + (b.p - a.p) * s, a.grip + (b.grip - a.grip) * s, a.flat + (b.flat - a.flat) * s, b.phase)

    def capsules(self, t: float):
        pose = self.at(t)
        if pose is None:
            return None
        p, grip, flat, _ = pose
        return capsules(self.model, p, self.shoulder, grip, flat)


@dataclass
class Token:
    """One disc: where it rests, or which hand holds it, from given times on."""

    light: bool
    states: list = field(default_factory=list)  # (t, ("rest", xyz)) or (t, ("held", track, offset))

    def at(self, t: float):
        times = [s[0] for s in self.states]
        i = bisect.bisect_right(times, t) - 1
        return self.states[max(i, 0)][1]


@dataclass
class Shadow:
    t0: float
    t1: float
    a: np.ndarray
    b: np.ndarray
    radius: float
    strength: float


class Play:
    """The timeline of one game (see the module docstring)."""

    def __init__(self, scene, game, rng: np.random.Generator, start_still: float = 2.0, tail: float = 3.0) -> None:
        self.scene = scene
        self.rng = rng
        self.pace = Pace.random(rng)
        self.tokens: list[Token] = []
        self.tracks: list[Track] = []
        self.shadows: list[Shadow] = []
        self.done_at: list[float] = []  # when each move was made
        self.stack: dict[int, list[int]] = {}
        self.table_spots: dict[bool, list[np.ndarray]] = {True: [], False: []}
        self.spares: dict[bool, list[int]] = {True: [], False: []}  # keyed by the disc's colour (white)
        self.captured: dict[bool, list[int]] = {True: [], False: []}
        self.hands = {w: HandModel.random(rng, scene.table_colour) for w in (True, False)}
        self.rest_hands = {w: HandModel.random(rng, scene.table_colour) for w in (True, False)}
        for w in (True, False):  # each player's two hands share skin and sleeve
            self.rest_hands[w].skin = self.hands[w].skin
            self.rest_hands[w].sleeve = self.hands[w].sleeve
            self.rest_hands[w].right = not self.hands[w].right
        for sq, piece in game.start.pieces().items():
            self._place_new(sq, piece)
        for w in (True, False):
            for _ in range(scene.spares):
                k = self._new_token(w, self._table_spot(w))
                self.spares[w].append(k)
        t = start_still
        last_leave = t
        self.early = 0
        self.slides = 0
        self.hovers = 0
        self.rests = 0
        for ply, (before, move) in enumerate(zip(game.positions, game.moves)):
            white = before.turn is Color.WHITE
            after = game.positions[ply + 1]
            if ply == 0:
                start = t
            elif rng.random() < self.pace.early:
                start = self.done_at[-1] + float(rng.uniform(0.05, 0.3))  # before the other hand left
                self.early += 1
            else:
                start = max(self.done_at[-1] + self.pace.think(rng), last_leave - 0.2)
            if rng.random() < self.pace.rest:
                self._rest(not white if rng.random() < 0.5 else white, start - float(rng.uniform(0, 2)),
                           float(rng.uniform(1.5, 6.0)))
            done, leave = self._move(white, move, before, after, start)
            self.done_at.append(done)
            last_leave = leave
        self.end = (self.done_at[-1] if self.done_at else start_still) + tail
        self.end = max(self.end, last_leave + tail)
        if rng.random() < 0.45:  # spectators walking by
            t = float(rng.uniform(3, 20))
            while t < self.end - 3:
                self._shadow(t)
                t += float(rng.uniform(15, 60))
        self.track_times = sorted((tr.t0, tr.t1, i) for i, tr in enumerate(self.tracks))

    # -- building ---------------------------------------------------------------------------

    def _new_token(self, white: bool, where: np.ndarray, t: float = -1.0) -> int:
        light = white == self.scene.white_is_light
        tok = Token(light=light, states=[(t, ("rest", np.asarray(where, np.float64)))])
        self.tokens.append(tok)
        return len(self.tokens) - 1

    def _jitter(self, amount: float = 2.5) -> np.ndarray:
        return np.array([*self.rng.normal(0, amount / 2, 2).clip(-amount, amount), 0.0])

    def _place_new(self, sq: int, piece: Piece) -> None:
        base = self.scene.centre(sq) + self._jitter(1.5)
        ids = [self._new_token(piece.color is Color.WHITE, base)]
        if piece.king:
            top = base + self._king_offset() + np.array([0, 0, self.scene.height])
            ids.append(self._new_token(piece.color is Color.WHITE, top))
        self.stack[sq] = ids

    def _king_offset(self) -> np.ndarray:
        a = self.rng.uniform(0, 2 * np.pi)
        r = self.rng.uniform(0.3, 2.0)
        return np.array([r * math.cos(a), r * math.sin(a), 0.0])

    def _table_spot(self, white: bool) -> np.ndarray:
        """The next free place on the table on the right of ``white``'s player (white: x
        beyond the board's right edge near y=0 side; black: beyond x=0 near its own side)."""
        sc = self.scene
        n = len(self.table_spots[white])
        gap = sc.diameter + 4
        col, rw = divmod(n, 8)
        off = sc.border + 25 + sc.diameter / 2 + col * gap
        along = 20 + sc.diameter / 2 + rw * gap
        if white:
            p = np.array([sc.size + off, along, 0.0])
        else:
            p = np.array([-off, sc.size - along, 0.0])
        p = p + self._jitter(3)
        self.table_spots[white].append(p)
        return p

    def _shoulder(self, white: bool, model: HandModel) -> np.ndarray:
        sc = self.scene
        lateral = 170 * (1 if model.right else -1)
        if white:
            return np.array([sc.size / 2 + lateral, -sc.border - 380, 420.0])
        return np.array([sc.size / 2 - lateral, sc.size + sc.border + 380, 420.0])

    def _home(self, white: bool, shoulder: np.ndarray) -> np.ndarray:
        sc = self.scene
        y = -sc.border - 260 if white else sc.size + sc.border + 260
        return np.array([shoulder[0], y, 260.0])

    def _rest(self, white: bool, t: float, dur: float) -> None:
        sc = self.scene
        model = self.rest_hands[white]
        sh = self._shoulder(white, model)
        tr = Track(model, sh, "rest")
        x = float(self.rng.uniform(0.1, 0.9) * sc.size)
        edge = -sc.border - float(self.rng.uniform(-15, 40)) if white else sc.size + sc.border + float(self.rng.uniform(-15, 40))
        spot = np.array([x, edge, 14.0])
        home = self._home(white, sh)
        tr.keys = [Key(t, home, 0.6, 0.3, "rest"), Key(t + 0.5, spot, 0.7, 1.0, "rest"),
                   Key(t + 0.5 + dur, spot + self._jitter(6), 0.7, 1.0, "rest"),
                   Key(t + 1.0 + dur, home, 0.6, 0.3, "rest")]
        self.tracks.append(tr)
        self.rests += 1

    def _shadow(self, t: float) -> None:
        sc = self.scene
        c = np.array([sc.size / 2, sc.size / 2, 0])
        ang = self.rng.uniform(0, 2 * np.pi)
        d = np.array([math.cos(ang), math.sin(ang), 0])
        off = np.array([-d[1], d[0], 0]) * self.rng.uniform(-0.4, 0.4) * sc.size
        dur = float(self.rng.uniform(1.5, 3.5))
        self.shadows.append(Shadow(t, t + dur, c + off - d * sc.size, c + off + d * sc.size,
                                   float(self.rng.uniform(0.2, 0.5) * sc.size), float(self.rng.uniform(0.25, 0.6))))

    def _move(self, white: bool, move, before, after, t: float) -> tuple[float, float]:
        """Script ``move``'s hand from ``t``: (when the move is made, when the hand is gone)."""
        sc, rng, pace = self.scene, self.rng, self.pace
        H = sc.height
        model = self.hands[white]
        sh = self._shoulder(white, model)
        tr = Track(model, sh, "move")
        home = self._home(white, sh)
        keys = tr.keys
        keys.append(Key(t, home, 0.8, 0.0, "reach"))

        def go(p, phase, grip=None, dur=None, flat=0.0):
            last = keys[-1]
            dist = float(np.linalg.norm(p - last.p))
            d = dur if dur is not None else max(0.12, dist / pace.speed + 0.05)
            keys.append(Key(last.t + d, np.asarray(p, np.float64), last.grip if grip is None else grip, flat, phase))

        def wait(d, phase):
            last = keys[-1]
            keys.append(Key(last.t + d, last.p, last.grip, last.flat, phase))

        def now():
            return keys[-1].t

        def grab(ids: list[int], pinch: np.ndarray) -> None:
            for k in ids:
                pos = self.tokens[k].at(now())[1]
                self.tokens[k].states.append((now(), ("held", tr, pos - pinch)))

        def release(ids: list[int], pinch: np.ndarray, base: np.ndarray) -> None:
            for i, k in enumerate(ids):
                st = self.tokens[k].at(now())
                off = st[2] if st[0] == "held" else np.zeros(3)
                lateral = np.array([off[0], off[1], 0.0]) if i > 0 else np.zeros(3)
                pos = base + lateral + np.array([0, 0, i * H])
                self.tokens[k].states.append((now(), ("rest", pos)))

        if rng.random() < pace.hover:  # a hand hovering over the board while thinking
            self.hovers += 1
            for _ in range(int(rng.integers(1, 3))):
                spot = np.array([rng.uniform(0.15, 0.85) * sc.size, rng.uniform(0.15, 0.85) * sc.size,
                                 rng.uniform(70, 150)])
                go(spot, "hover", 0.7)
                wait(float(rng.uniform(0.4, 1.5)), "hover")

        src = move.from_square
        ids = self.stack.pop(src)
        n = len(ids)
        top_z = n * H
        pick = self.tokens[ids[0]].at(now())[1] + np.array([0, 0, top_z - 0.4 * H])
        go(pick + [0, 0, 45], "reach", 0.9)
        go(pick, "pinch", 0.9, dur=float(rng.uniform(0.12, 0.25)))
        wait(0.08, "pinch")
        keys[-1].grip = 0.25
        grab(ids, pick)
        slide = not move.captured and rng.random() < pace.slide
        if slide:
            self.slides += 1
        lift = 0.0 if slide else float(rng.uniform(20, 40))
        go(pick + [0, 0, lift], "lift", dur=0.15 if lift else 0.08)
        hop = move.captured and len(move.path) > 2 and rng.random() < pace.hop
        landings = list(move.path[1:]) if hop else [move.to_square]
        for k, sq in enumerate(landings):
            last_one = k == len(landings) - 1
            base = sc.centre(sq) + (self._jitter(3.0) if last_one else 0)
            at = base + np.array([0, 0, top_z - 0.4 * H])
            go(at + [0, 0, lift], "slide" if slide else "carry")
            go(at, "place", dur=0.12 if lift else 0.06)
            if last_one:
                wait(0.06, "place")
                release(ids, at, base)
                keys[-1].grip = 0.9
                self.stack[move.to_square] = ids
            else:
                wait(0.1, "hop")
                go(at + [0, 0, lift], "hop", dur=0.12)
        go(keys[-1].p + [0, 0, 35], "release", 0.9, dur=0.15)
        done = now()
        if move.captured:
            mine_spot = lambda: self._table_spot(white)  # noqa: E731
            order = list(move.captured)
            if rng.random() < 0.3:
                order = order[::-1]
            if rng.random() < pace.sweep and len(order) > 1:  # swept off together
                held: list[int] = []
                D = sc.diameter * 1.02
                cluster = [(0, 0), (D, 0), (D / 2, D * 0.87), (-D / 2, D * 0.87), (-D, 0), (D / 2, -D * 0.87),
                           (-D / 2, -D * 0.87)] + [(D * (j % 3), D * (2 + j // 3)) for j in range(20)]
                for j, sq in enumerate(order):
                    ids_c = self.stack.pop(sq)
                    base = self.tokens[ids_c[0]].at(now())[1]
                    at = base + np.array([0, 0, 0.5 * H])
                    go(at + [0, 0, 30], "remove", 0.7)
                    go(at, "remove", 0.6, dur=0.12)
                    for i, k in enumerate(ids_c):  # pushed together under the hand
                        off = np.array([cluster[j][0], cluster[j][1], i * H - 0.5 * H])
                        self.tokens[k].states.append((now(), ("held", tr, off)))
                    held.append(ids_c)
                # off the board's edge, along the table
                spot = self._table_spot(white)
                go(spot + np.array([0, 0, 0.5 * H]), "remove", 0.6)
                for j, ids_c in enumerate(held):
                    dest = spot if j == 0 else self._table_spot(white)
                    release(ids_c, spot, dest)
                    self.captured[not white].extend(ids_c)
                go(keys[-1].p + [0, 0, 40], "remove", 0.9, dur=0.15)
            else:
                for sq in order:
                    ids_c = self.stack.pop(sq)
                    base = self.tokens[ids_c[0]].at(now())[1]
                    at = base + np.array([0, 0, len(ids_c) * H - 0.4 * H])
                    go(at + [0, 0, 40], "remove", 0.9)
                    go(at, "remove", 0.9, dur=0.12)
                    keys[-1].grip = 0.25
                    grab(ids_c, at)
                    go(at + [0, 0, 35], "remove", dur=0.12)
                    dest = mine_spot()
                    go(dest + np.array([0, 0, len(ids_c) * H - 0.4 * H + 20]), "remove")
                    go(dest + np.array([0, 0, len(ids_c) * H - 0.4 * H]), "remove", dur=0.1)
                    release(ids_c, dest, dest)
                    keys[-1].grip = 0.9
                    self.captured[not white].extend(ids_c)
                    go(keys[-1].p + [0, 0, 30], "remove", dur=0.1)
            done = now()
        crowned = not before.pieces()[src].king and after.pieces()[move.to_square].king
        if crowned:
            pool = self.spares[white] or self.captured[white]
            if pool:
                k = pool.pop()
            else:
                k = self._new_token(white, self._table_spot(white))
            pos = self.tokens[k].at(now())[1]
            at = pos + np.array([0, 0, 0.6 * H])
            go(at + [0, 0, 40], "crown", 0.9)
            go(at, "crown", 0.9, dur=0.12)
            keys[-1].grip = 0.25
            grab([k], at)
            dest_base = self.tokens[self.stack[move.to_square][0]].at(now())[1]
            top = dest_base + self._king_offset() + np.array([0, 0, H])
            go(top + [0, 0, 0.6 * H + 30], "crown")
            go(top + [0, 0, 0.6 * H], "crown", dur=0.15)
            self.tokens[k].states.append((now(), ("rest", top)))
            keys[-1].grip = 0.9
            self.stack[move.to_square].append(k)
            go(keys[-1].p + [0, 0, 30], "crown", dur=0.12)
            done = now()
        go(home, "leave", 0.7)
        self.tracks.append(tr)
        return done, now()

    # -- reading ------------------------------------------------------------------------------

    def active(self, t: float) -> list[Track]:
        return [self.tracks[i] for (t0, t1, i) in self.track_times if t0 <= t <= t1]

    def discs(self, t: float):
        """(resting discs as (index, xyz)), (held discs as (index, xyz, track))."""
        rest, held = [], []
        for k, tok in enumerate(self.tokens):
            st = tok.at(t)
            if st[0] == "rest":
                rest.append((k, st[1]))
            else:
                pose = st[1].at(t)
                p = pose[0] if pose is not None else st[1].keys[-1].p
                held.append((k, p + st[2], st[1]))
        return rest, held

    def board(self, t: float) -> dict[int, Piece]:
        """What rests on the board's squares at ``t``: square -> piece."""
        from rules.squares import square_at

        sc = self.scene
        rest, _ = self.discs(t)
        count: dict[int, list[int]] = {}
        for k, p in rest:
            c, r = int(p[0] // sc.square), int(9 - p[1] // sc.square)
            sq = square_at(r, c) if 0 <= p[0] < sc.size and 0 <= p[1] < sc.size else None
            if sq is not None:
                count.setdefault(sq, []).append(k)
        out = {}
        for sq, ks in count.items():
            light = self.tokens[ks[0]].light
            white = light == sc.white_is_light
            out[sq] = Piece(Color.WHITE if white else Color.BLACK, len(ks) > 1)
        return out

    def ply(self, t: float) -> int:
        return bisect.bisect_right(self.done_at, t)

    def hand_over_board(self, t: float) -> bool:
        sc = self.scene
        for tr in self.active(t):
            pose = tr.at(t)
            if pose is None:
                continue
            for c in tr.capsules(t)[2:]:  # hand and forearm (the upper arm is high above)
                for q in (c.a, c.b):
                    if -c.r < q[0] < sc.size + c.r and -c.r < q[1] < sc.size + c.r:
                        return True
        return False
