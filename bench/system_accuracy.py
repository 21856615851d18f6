"""The whole companion on whole games: `python -m bench.system_accuracy`.

Each game of the bundled test data (15 real lidraughts games, 62 engine games with kings and the
endgame rules) is rendered as camera frames (hands making every move, capturing and crowning; a
random camera pose, lens, board and piece colours and light, as in `bench.vision_accuracy`; a
camera that behaves like a real one, `renderer.sensor`: sub-pixel shake, drift, noise growing in
dim light, focus breathing, JPEG; players at a random pace, `renderer.sequence.Pace`, quick play
more often than not: short pauses, replies before the board was seen still, hands resting at
the edge, slid pieces; ``--still-camera`` and ``--slow-pace`` give back the old world) and
fed frame by frame to the real `device.service.Companion`: vision, the arbiter and the SQLite
store.  What an arbiter would see of it is measured against the game itself:

- ``games_exact``: scoresheets equal to the game's, move for move;
- ``plies_right``: moves recorded before the first difference, out of all; ``plies_in_place``:
  moves recorded as the game has them at the same place (a pair whose order no board showed,
  said in a comment, costs two);
- ``false_irregularities``, ``false_touch_moves``, ``false_take_backs``: announcements about a
  game in which none happened (the games are legal and no piece is touched but the mover);
- ``look_agains``: times the companion asked to look at the board again (unsure, but nothing
  wrong recorded);
- ``lost_tracks``: times the companion said it lost track of the game (`rules.events.LostTrack`:
  more moves unseen than it can work out; the record stops there until the board is put back);
- ``results_right``: games the rules end whose result the companion gave.

Square 46's corner is configured (as an installer sets ``board.orientation``): the random
scenes give white the darker pieces half the time, against the "auto" convention that the
lighter pieces are white's; ``--auto-orientation`` learns it from the start position instead
(and from White's first move, which corrects that convention where it is wrong).  The
final position stays in view three seconds.  Examples of every difference go to the JSON's
``problems``.  ``--games N`` (default 8) games are
drawn from the data (every game with kings first when ``--kings``), ``--seed S`` draws them and
their scenes, ``--only NAME ...`` picks games by name (``lidraughts-4``, ``selfplay-40``),
``--fps F`` (default: each game at 6, 10 or 15 frames a second, drawn from its seed: the
watcher's timing must hold at every camera rate), ``--max-plies N`` cuts long games (default 60), ``--jobs J`` (default 2)
processes.  Progress on stderr, one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.trace import command
from device.render_source import RenderedSource

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
FILES = {"lidraughts": "lidraughts-frisian.pdn", "selfplay": "selfplay.pdn"}
#: Seconds the final position stays in view after the last move.
_TAIL_S = 3.0


def _games() -> dict:
    from rules.pdn import read_file

    out = {}
    for short, name in FILES.items():
        for i, read in enumerate(read_file(str(DATA / name))):
            if read.problem is None:
                out[f"{short}-{i + 1}"] = read.game
    return out


#: The share of scenes lit by one low lamp (`renderer.render.Lighting.one_lamp`).
ONE_LAMP_SHARE = 0.25
#: The share of the scenes not lit by one lamp lit by lamps of some size, whose pieces' soft
#: shadows reach the light squares beside them (`renderer.render.Lighting.soft_lamps`).
SOFT_LAMPS_SHARE = 0.3
#: The share of scenes whose one side's pieces have the dark squares' colour
#: (`renderer.scene.Style.like_the_squares`).
LIKE_SQUARES_SHARE = 0.15
#: The share of the other scenes whose one side's pieces have the light squares' colour
#: (`renderer.scene.Style.like_the_light_squares`).
LIKE_LIGHT_SHARE = 0.1
#: The share of scenes where one player's hand is the colour of the board's border or dark
#: squares: over the border it changes nothing the camera can tell (the other renderer's
#: selfplay-10 at seed 51002: a hand hovering over a corner man, taken for a lift).
HAND_LIKE_BOARD_SHARE = 0.15
#: A scene's sheen (the largest share of the lamp's colour in a man's top on any dark square,
#: `_SceneSource.sheen`) from which the "sheen" bucket counts it: a dark man's top then lies
#: between the dark men far from the lamp and the empty dark squares.
SHEEN_BUCKET = 0.15


class _SceneSource(RenderedSource):
    """The game's frames under a random scene: camera pose and lens, board and piece colours,
    light (three in ten rooms dim, exposure 0.6-0.75, besides `Lighting.random`'s dark ones),
    a real camera (`renderer.sensor.CameraBehaviour.random`: shake, drift, noise, focus, JPEG;
    ``still_camera`` turns it off), players at a random pace (`renderer.sequence.Pace.random`;
    ``slow`` the old one), camera bumps and hovering hands (`device.render_source.RenderedSource`
    draws a club room; its reading, with the final position kept in view, is the same), a lamp
    mirrored in glossy piece tops (`Lighting.sheen`: strong under one lamp), soft lamps whose
    pieces' shadows reach the light squares (`Lighting.soft_lamps`) and, in a third of
    games, spectators walking past between the lamp and the board (`renderer.sequence.
    spectator_passes`: ``spectators`` passes of their shade).
    ``played`` (positions and moves, an irregular move among them) and ``still_before`` replace
    the game's own moves when given."""

    def __init__(self, game, seed: int, fps: float, still_camera: bool = False,
                 slow: bool = False, played=None, still_before: dict | None = None) -> None:
        from renderer.sensor import CameraBehaviour
        from renderer.sequence import Pace

        super().__init__(game, fps=fps, seed=seed, tail_s=_TAIL_S,
                         behaviour=CameraBehaviour.still() if still_camera else None,
                         pace=Pace.slow(1.0) if slow else None)
        self.name = f"game rendered with seed {seed}"
        self.played = played
        self.still_before = still_before

    def open(self) -> None:
        from dataclasses import replace

        import numpy as np
        from renderer.render import Camera, Lighting, Style, game_frames
        from renderer.sequence import SPECTATOR_SHARE, spectator_passes
        from rules.piece import Color

        rng = np.random.default_rng(self.seed)
        self.camera = Camera.random(rng)
        self.style = Style.random(rng)
        lighting = Lighting.random(rng)
        if lighting.exposure >= 0.75 and rng.random() < 0.3:
            lighting = replace(lighting, exposure=float(rng.uniform(0.6, 0.75)))
        # one room in `ONE_LAMP_SHARE` lit by one low lamp: long, dark arm shadows (drawn from
        # its own stream, so that every other part of the scene stays as it was drawn before)
        lamp = np.random.default_rng([self.seed, 0x1A3B])
        if lamp.random() < ONE_LAMP_SHARE:
            lighting = lighting.one_lamp(lamp)
        else:  # or, in `SOFT_LAMPS_SHARE` of the others, by soft lamps (its own stream)
            soft = np.random.default_rng([self.seed, 0x50F7])
            if soft.random() < SOFT_LAMPS_SHARE:
                lighting = lighting.soft_lamps(soft)
        # one set in `LIKE_SQUARES_SHARE` dyed like the dark squares (its own stream, as the lamp)
        like = np.random.default_rng([self.seed, 0x5C0A])
        self.like_squares = False
        if like.random() < LIKE_SQUARES_SHARE:
            dyed = self.style.like_the_squares(like)
            self.like_squares, self.style = dyed != self.style, dyed
        # one other set in `LIKE_LIGHT_SHARE` dyed like the light squares (its own stream)
        pale = np.random.default_rng([self.seed, 0x11A7])
        self.like_light = False
        if not self.like_squares and pale.random() < LIKE_LIGHT_SHARE:
            dyed = self.style.like_the_light_squares(pale)
            self.like_light, self.style = dyed != self.style, dyed
        # one hand in `HAND_LIKE_BOARD_SHARE` the colour of the border or the dark squares
        # (its own stream)
        tone = np.random.default_rng([self.seed, 0x4A4D])
        self.skins = None
        if tone.random() < HAND_LIKE_BOARD_SHARE:
            side = (Color.WHITE, Color.BLACK)[int(tone.integers(2))]
            board = (self.style.border, self.style.dark_square)[int(tone.integers(2))]
            self.skins = {side: tuple(int(np.clip(v + tone.normal(0, 6), 0, 255)) for v in board)}
        self.behaviour = self.camera_behaviour()
        if not self.behaviour.is_still:
            # the camera makes its own noise and JPEG (a defocused lens stays: its blur folds in)
            lighting = replace(lighting, noise=0.0, jpeg_quality=None)
        self.lighting = lighting
        self.pace = self.players_pace()
        moves = self.played.moves if self.played else self.game.moves
        self.spectators = len(spectator_passes(self.seed, len(moves), SPECTATOR_SHARE))
        self._frames = game_frames(self.game.start, self.played or self.game, fps=self.fps,
                                   camera=self.camera, style=self.style, lighting=self.lighting,
                                   seed=self.seed, jitter=0.3, touches=0.3,
                                   behaviour=self.behaviour, pace=self.pace, end_s=self.end_s(),
                                   still_before=self.still_before, spectators=SPECTATOR_SHARE,
                                   skins=self.skins)

    def sheen(self) -> float:
        """The largest share of the lamp's colour in a man's top on any dark square
        (`renderer.scene.sheen_weight` times the pieces' gloss, as `draw_piece` blends it)."""
        import numpy as np
        from renderer.scene import SHEEN_MAX, sheen_weight

        centres = (np.arange(10) + 0.5) * 40.0
        xs, ys = np.meshgrid(centres, centres)
        dark = (np.add.outer(np.arange(10), np.arange(10)) % 2) == 1
        w = sheen_weight(self.camera.model(), self.lighting.light, xs[dark], ys[dark],
                         self.style.man_height_mm)
        return float(min(SHEEN_MAX, 1.2 * self.style.piece_gloss * float(w.max())))

    def noise_sigma(self) -> float:
        """The picture's noise (sigma, grey levels) at mid-grey in this scene's light."""
        e = self.lighting.exposure
        sigma = float(self.behaviour.noise_sigma(128.0 * e, e)) if not self.behaviour.is_still else 0.0
        return max(sigma, self.lighting.noise)


def _cut(game, max_plies: int):
    from rules.game import Game

    if len(game.moves) <= max_plies:
        return game
    cut = Game(start=game.start, tags=dict(game.tags))
    for text in game.move_texts()[:max_plies]:
        cut.push_text(text)
    return cut


@dataclass
class _Played:
    """Boards and the hand's moves between them, for `renderer.sequence.game_frames` (as a
    `rules.game.Game` gives them, but any boards: an irregular move and its taking back)."""

    positions: list
    moves: list


#: Seconds the irregular board stands before it is taken back (the announcement is heard), and
#: the board put right before the legal move is played.
_IRREGULAR_S = 2.5
_PUT_RIGHT_S = 1.5


def _irregular_moves(position, next_move) -> list[tuple[str, object, dict]]:
    """Irregular moves the player to move could make in ``position``, each as (the article it
    breaks, the move the hand makes, the board after it): a step while a capture is compulsory
    (Art. 10), a man moved backwards (Art. 27d), an opponent's man moved (Art. 27a); only those
    `rules.irregularities.classify` names as such.  An own piece is moved only when it is the
    piece ``next_move`` moves, or one that cannot move: touched, it must be played (Art. 15)."""
    from rules.irregularities import classify
    from rules.move import Move
    from rules.squares import column, promotion_row, row, square_at

    me = position.turn
    board = position.pieces()
    legal = position.legal_moves()
    capture_due = bool(legal) and legal[0].is_capture

    def steps(sq: int, up: bool) -> list[int]:
        r = row(sq) + (-1 if up else 1)
        return [t for dc in (-1, 1) if 0 <= r < 10 and 0 <= column(sq) + dc < 10
                and (t := square_at(r, column(sq) + dc)) is not None and t not in board]

    movable = {m.from_square for m in legal}
    out = []
    for sq, piece in board.items():
        if piece.king or (piece.color is me and sq in movable and sq != next_move.from_square):
            continue
        white = piece.color.name == "WHITE"
        far = set(promotion_row(white))
        if piece.color is me:
            wanted = [("Art. 27d", t) for t in steps(sq, up=not white)]
            if capture_due:
                wanted += [("Art. 10", t) for t in steps(sq, up=white) if t not in far]
        else:
            wanted = [("Art. 27a", t) for t in steps(sq, up=white) if t not in far]
        for article, t in wanted:
            after = dict(board)
            after[t] = after.pop(sq)
            finding = classify(position, after)
            if finding is not None and finding.kind.article == article:
                out.append((article, Move(sq, t, (sq, t)), after))
    return out


def _inject(game, rng):
    """The game with one irregular move at a random ply, taken back by hand and the legal move
    played: (what the hand plays, the stills before moves, the ply, the article it breaks), or
    None when the game gives no chance."""
    from rules.move import Move
    from rules.position import Position

    plies = [k for k in range(1, len(game.moves))
             if _irregular_moves(game.positions[k], game.moves[k])]
    if not plies:
        return None
    k = int(rng.choice(plies))
    here = game.positions[k]
    candidates = _irregular_moves(here, game.moves[k])
    articles = sorted({a for a, _, _ in candidates})
    article = articles[int(rng.integers(len(articles)))]
    chosen = [c for c in candidates if c[0] == article]
    _, move, after = chosen[int(rng.integers(len(chosen)))]
    irregular = Position.setup(after, here.turn)  # the same player takes it back
    back = Move(move.to_square, move.from_square, (move.to_square, move.from_square))
    played = _Played(positions=[*game.positions[:k + 1], irregular, *game.positions[k:]],
                     moves=[*game.moves[:k], move, back, *game.moves[k:]])
    return played, {k + 1: _IRREGULAR_S, k + 2: _PUT_RIGHT_S}, k, article


def _pace_name(pace) -> str:
    if pace.pause_s[1] <= BLITZ_PAUSE_S:
        return "blitz"
    return "quick" if pace.quick_play else ("slow" if not pace.clear_pauses else "normal")


#: A pace whose pauses are all this short (seconds) is blitz (`renderer.sequence.Pace.blitz`).
BLITZ_PAUSE_S = 0.55


def run_one(name: str, seed: int, fps: float, max_plies: int, auto: bool = False,
            still_camera: bool = False, slow: bool = False, inject: bool = False) -> dict:
    """One game through the companion; what it recorded and announced against the truth."""
    import cv2
    import numpy as np
    from device.service import Companion
    from device.store import GameStore
    from rules.events import GameOver, Irregularity, IrregularityResolved

    cv2.setNumThreads(1)
    game = _cut(_games()[name], max_plies)
    injected = _inject(game, np.random.default_rng([seed, 0x1227])) if inject else None
    played, stills = (injected[0], injected[1]) if injected else (None, None)
    source = _SceneSource(game, seed, fps, still_camera=still_camera, slow=slow, played=played,
                          still_before=stills)
    source.open()
    first = source.read()
    # Square 46's corner is configured, as an installer does (`board.orientation`): the random
    # scenes give white the darker pieces half the time, against the "auto" convention.
    configured = None if auto else source.truth.corner_46
    t0 = time.time()
    events = []
    settled_plies, resting, slid = set(), 0, set()
    with tempfile.TemporaryDirectory() as tmp:
        c = Companion(source=source, store=GameStore(Path(tmp) / "games.sqlite3"),
                      tags={"Event": "bench"}, corner_46=configured,
                      start=game.start)
        c.open_game()
        frame = first
        frames = 0
        while frame is not None:
            truth = source.truth
            settled_plies.update([truth.ply] if truth.settled else [])
            resting += truth.resting
            slid.update([truth.ply] if truth.phase == "slide" else [])
            events.extend((frame.time, e) for e in c.process(frame))
            frames += 1
            frame = source.read()
        got = c.arbiter.game.move_texts()
        over = c.arbiter.over
        c.close()
    want = game.move_texts()
    right, counts = scored(got, want, events)
    outcome = game.position.outcome()
    cam = source.camera
    pace = source.pace
    moves_made = len(played.moves) if played else len(game.moves)
    out = {
        "game": name, "seed": seed, "plies": len(want), "recorded": len(got), "plies_right": right,
        "plies_in_place": in_place(got, want), "exact": got == want, "frames": frames, "seconds": round(time.time() - t0, 1),
        "fps": fps,
        "kings": sum(p.king for pos in game.positions for p in pos.pieces().values()) > 0,
        "tilt": round(cam.tilt_deg, 1), "result_due": outcome is not None,
        "result_right": outcome is not None and over == outcome,
        "gameover_events": sum(isinstance(e, GameOver) for _, e in events), **counts,
        "shake_px": round(source.behaviour.shake_px, 2),
        "exposure": round(source.lighting.exposure, 2),
        "shadow": round(source.lighting.shadow, 2),
        "penumbra_mm": round(source.lighting.penumbra_mm, 1),
        "sheen": round(source.sheen(), 2), "spectators": source.spectators,
        "like_squares": source.like_squares, "like_light": source.like_light,
        "hand_like_board": source.skins is not None,
        "noise_sigma": round(source.noise_sigma(), 1),
        "pace": _pace_name(pace), "pause_s": [round(v, 2) for v in pace.pause_s],
        # what the players did: replies before the board was seen still, frames with a hand
        # resting at the edge, moves slid
        "early_replies": sum(1 for p in range(1, moves_made) if p not in settled_plies),
        "resting_frames": resting, "slides": len(slid),
    }
    if injected:
        _, _, k, article = injected
        named = [e for _, e in events if isinstance(e, Irregularity) and e.article == article]
        out["injected"] = {"ply": k, "article": article, "named": bool(named),
                           "resolved": any(isinstance(e, IrregularityResolved) for _, e in events)}
    false_irregular = counts["irregularities"] - (1 if injected and out["injected"]["named"] else 0)
    out["false_irregularities"] = false_irregular
    if not out["exact"] or any(counts.values()):
        out["first_difference"] = {"ply": right, "want": want[right:right + 3],
                                   "got": got[right:right + 3]}
        out["events"] = [f"{t:.1f}s {e}" for t, e in events
                         if isinstance(e, tuple(announced().values()))][:8]
    return out


#: The summary's breakdown: bucket name -> whether a game's figures fall in it.
BUCKETS = {
    "shake<0.25px": lambda r: r["shake_px"] < 0.25,
    "shake>=0.25px": lambda r: r["shake_px"] >= 0.25,
    "dim": lambda r: r["exposure"] < 0.8,
    "bright": lambda r: r["exposure"] >= 0.8,
    "one lamp": lambda r: r.get("shadow", 0.0) >= 0.6 and r.get("penumbra_mm", 2.5) < 6.0,
    "soft lamps": lambda r: r.get("penumbra_mm", 2.5) >= 6.0,
    "sheen": lambda r: r.get("sheen", 0.0) >= SHEEN_BUCKET,
    "spectators": lambda r: r.get("spectators", 0) > 0,
    "like the squares": lambda r: r.get("like_squares", False),
    "like the light squares": lambda r: r.get("like_light", False),
    "hand like the board": lambda r: r.get("hand_like_board", False),
    "blitz": lambda r: r["pace"] == "blitz",
    "quick": lambda r: r["pace"] == "quick",
    "normal": lambda r: r["pace"] not in ("quick", "blitz"),
    **{f"{fps} fps": (lambda r, fps=fps: r["fps"] == fps) for fps in (6, 10, 15)},
}

#: The camera rates games are drawn at (frames a second): a Pi camera asked for 10 gives
#: 10; a USB one, or a busy Pi, less or more.
FPS_CHOICES = (6.0, 10.0, 15.0)


def pick_games(games: dict, only: list[str] | None, seed: int, count: int,
               kings: bool = False) -> list[str]:
    """The names of the games a bench runs: ``only`` (checked against ``games``), else ``count``
    drawn with ``seed`` (those with kings first when ``kings``).  ValueError names an unknown
    game."""
    import numpy as np

    if only:
        unknown = [n for n in only if n not in games]
        if unknown:
            raise ValueError(f"no game {', '.join(unknown)}: names are lidraughts-1..15, selfplay-1..62")
        return list(only)
    names = list(np.random.default_rng(seed).permutation(sorted(games)))
    if kings:
        has = {n: any(p.king for pos in games[n].positions for p in pos.pieces().values())
               for n in names}
        names = [n for n in names if has[n]] + [n for n in names if not has[n]]
    return names[:count]


def game_fps(seed: int) -> float:
    """The frame rate a game of ``seed`` is drawn at (its own stream: the scene is unchanged)."""
    import numpy as np
    return FPS_CHOICES[int(np.random.default_rng([seed, 0xF95]).integers(len(FPS_CHOICES)))]


def breakdown(results: list[dict]) -> dict:
    """Games, games exact, plies and plies right per bucket of `BUCKETS`."""
    out = {}
    for bucket, inside in BUCKETS.items():
        rs = [r for r in results if inside(r)]
        out[bucket] = {"games": len(rs), "games_exact": sum(r["exact"] for r in rs),
                       "plies": sum(r["plies"] for r in rs),
                       "plies_right": sum(r["plies_right"] for r in rs)}
    return out


def scored(got: list[str], want: list[str], events: list) -> tuple[int, dict[str, int]]:
    """The plies recorded right before the first difference, and how many of each kind of
    announcement (`announced`) the (time, event) pairs hold."""
    right = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return right, {k: sum(isinstance(e, cls) for _, e in events) for k, cls in announced().items()}


def in_place(got: list[str], want: list[str]) -> int:
    """The plies recorded as the game has them at the same place, after a difference too: two
    moves whose order no board showed (the scoresheet says so in a comment) cost those two, not
    the rest of the game (selfplay-13 at seed 707018: 38 of 40 in place, 0 before the first
    difference)."""
    return sum(a == b for a, b in zip(got, want))


def announced() -> dict:
    """The announcements a bench counts, by the name it reports them under."""
    from rules.events import Irregularity, LookAgain, LostTrack, MoveTakenBack, TouchMove

    return {"irregularities": Irregularity, "touch_moves": TouchMove,
            "take_backs": MoveTakenBack, "look_agains": LookAgain, "lost_tracks": LostTrack}


def totals(results: list[dict], by=None) -> dict:
    """What a bench of whole games reports of its games (`run_one`'s results): how many were
    exact, plies right, false announcements, looks again, frames, ``by`` (default `breakdown`)
    of them, and the games with a difference or an announcement."""
    return {
        "games": len(results),
        "games_exact": sum(r["exact"] for r in results),
        "plies": sum(r["plies"] for r in results),
        "plies_right": sum(r["plies_right"] for r in results),
        "plies_in_place": sum(r["plies_in_place"] for r in results),
        "false_irregularities": sum(r["false_irregularities"] for r in results),
        "false_touch_moves": sum(r["touch_moves"] for r in results),
        "false_take_backs": sum(r["take_backs"] for r in results),
        "look_agains": sum(r["look_agains"] for r in results),
        "lost_tracks": sum(r["lost_tracks"] for r in results),
        "frames": sum(r["frames"] for r in results),
        "by": (by or breakdown)(results),
        "problems": [r for r in results if "first_difference" in r],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.system_accuracy")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="+", metavar="NAME")
    ap.add_argument("--kings", action="store_true", help="games with kings first")
    ap.add_argument("--fps", type=float, default=None,
                    help="frames per second of every game (default: 6, 10 or 15 drawn per game)")
    ap.add_argument("--max-plies", type=int, default=60)
    ap.add_argument("--auto-orientation", action="store_true",
                    help="learn square 46's corner from the start position (lighter pieces white's, until "
                         "White's first move shows otherwise)")
    ap.add_argument("--still-camera", action="store_true",
                    help="a camera that neither shakes, drifts nor breathes (the scene's own noise and JPEG)")
    ap.add_argument("--slow-pace", action="store_true",
                    help="the old unhurried players: 1 s pauses, no early replies, no resting hands")
    ap.add_argument("--inject", type=int, default=0, metavar="K",
                    help="in K games, one irregular move at a random ply, taken back and the legal move played")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = ap.parse_args(argv)

    try:
        names = pick_games(_games(), args.only, args.seed, args.games, args.kings)
    except ValueError as e:
        ap.error(str(e))
    seeds = [args.seed * 1000 + i for i in range(len(names))]
    t0 = time.time()
    results = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, n, s, args.fps or game_fps(s), args.max_plies,
                               args.auto_orientation,
                               args.still_camera, args.slow_pace, i < args.inject)
                   for i, (n, s) in enumerate(zip(names, seeds))]
        for fut in futures:
            r = fut.result()
            results.append(r)
            inj = r.get("injected")
            place = "" if r["exact"] else f" ({r['plies_in_place']} in place)"
            note = "" if inj is None else \
                f", injected {inj['article']} at ply {inj['ply']}: {'named' if inj['named'] else 'NOT NAMED'}"
            print(f"{r['game']} (seed {r['seed']}, {r['fps']:g} fps, tilt {r['tilt']}, "
                  f"shake {r['shake_px']} px, "
                  f"exposure {r['exposure']}, sheen {r['sheen']}, {r['spectators']} spectators, "
                  f"{'soft lamps, ' if r.get('penumbra_mm', 2.5) >= 6.0 else ''}"
                  f"{'pieces like the squares, ' if r['like_squares'] else ''}"
                  f"{'pieces like the light squares, ' if r.get('like_light') else ''}"
                  f"{'a hand like the board, ' if r['hand_like_board'] else ''}"
                  f"{r['pace']} pace): {r['plies_right']}/{r['plies']}"
                  f" plies right, {'exact' if r['exact'] else 'DIFFERENT'}{place}, irregularities "
                  f"{r['irregularities']}, touch {r['touch_moves']}, look again {r['look_agains']}"
                  f"{', LOST TRACK ' + str(r['lost_tracks']) if r['lost_tracks'] else ''}{note}, {r['frames']} frames in {r['seconds']} s ({time.time() - t0:.0f} s so far)",
                  file=sys.stderr)
            if not r["exact"] and not (args.auto_orientation or args.still_camera or args.slow_pace):
                print(f"    {command(r['game'], r['seed'], args.max_plies, inj is not None, args.fps)}",
                      file=sys.stderr)
    due = [r for r in results if r["result_due"]]
    out = {
        **totals(results),
        "injected": sum("injected" in r for r in results),
        "injected_named": sum(r["injected"]["named"] for r in results if "injected" in r),
        "injected_exact": sum(r["exact"] for r in results if "injected" in r),
        "results_due": len(due), "results_right": sum(r["result_right"] for r in due),
        "seconds": round(time.time() - t0, 1),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
