"""Matching an uncertain observation against the boards the game allows.

A camera's reading of a square is a probability over the five contents (`SquareReading`).  The
arbiter never trusts one square alone: it compares whole candidate boards (the position as it
stands, the result of each legal move, ...) by how likely the readings make them, and accepts a
candidate only when it is *far better* than every other:

- A candidate *contradicts* a square when the reading there names another content and is sure
  of its kind (empty, or a piece of that colour) with a probability of at least `CONFIDENT`
  (0.9); between a man and a king of the same colour, which a camera tells apart less surely,
  only from `KING_CONFIDENT` (0.99).  A candidate that contradicts
  no square *explains* the observation.
- A candidate that contradicts a square is out.  The best explaining candidate is accepted when it
  is the only one, or at least `ACCEPT_RATIO` (100) times more likely than the next explaining
  one, i.e. its log-likelihood is higher by ln 100 ~ 4.6.  So one square
  decides alone between two boards that differ only there when it is read at 0.97 or better
  (0.97 against 0.03/4: a ratio of 129; at 0.99 it is 396); a square read at 0.6 with an
  alternative gives 1.5, not enough: the arbiter looks again.
- Otherwise the reading is *unclear*: the arbiter asks for another observation.

Kings only appear by promotion: the candidates carry kings only where the rules put them, so a man
read as a king at 0.7 still matches the move that left a man there (it costs ln(0.3/0.7)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, Hashable, Mapping, Sequence, TypeVar

from rules.observation import CONTENTS, Observation, SquareReading
from rules.piece import Piece
from rules.position import Position

#: A reading at least this sure cannot be overruled by the game.
CONFIDENT = 0.9
#: Telling a king from a man is harder for a camera than seeing a piece and its colour: between
#: the two, only a reading this sure overrules the game (which knows where its kings are).
KING_CONFIDENT = 0.99
#: A reading at least this sure of a square's kind (empty, or a piece of a colour) shows what
#: likely stands there, though it overrules nothing.
LIKELY_KIND = 0.7
#: How many times likelier than the runner-up the accepted candidate must be.
ACCEPT_RATIO = 100.0
ACCEPT_MARGIN = math.log(ACCEPT_RATIO)

_INDEX = {c: i for i, c in enumerate(CONTENTS)}
K = TypeVar("K", bound=Hashable)


def sure_of_kind(reading: SquareReading) -> bool:
    """Whether ``reading`` is sure of its square's kind (empty, or a piece of a colour; man or
    king aside): not covered, and at least `CONFIDENT`.  Only such a reading can contradict a
    board the game allows."""
    return not reading.occluded and reading.kind_confidence >= CONFIDENT


@dataclass(frozen=True, slots=True)
class Candidate(Generic[K]):
    """A board the game allows, as its ``changes`` from the base board (square -> content)."""

    key: K
    changes: Mapping[int, Piece | None]


@dataclass(frozen=True, slots=True)
class Decision(Generic[K]):
    """``accepted`` is the key of the accepted candidate, or None.  ``explained`` is False when no
    candidate explains the reading (then the board is irregular or misread); ``doubt`` lists the
    squares where the best two candidates differ when the reading is unclear (``best`` and
    ``runner_up`` are their keys)."""

    accepted: K | None
    explained: bool
    margin: float
    doubt: tuple[int, ...] = ()
    best: K | None = None  # when unclear: the likeliest candidate and its runner-up
    runner_up: K | None = None
    # when unclear: the keys of every candidate not far less likely than the best (within
    # `ACCEPT_MARGIN` of it), the best first
    close: tuple = ()


class Scorer:
    """Log-likelihoods of candidate boards under one observation, relative to a base board."""

    def __init__(self, observation: Observation, base: Mapping[int, Piece | None]):
        self.observation = observation
        self.base = base
        # An occluded square tells nothing: every content is as likely.
        self._logp = [[0.0] * len(CONTENTS) if r.occluded else [r.log_probability(c) for c in CONTENTS]
                      for r in observation.squares]
        # sure of the kind (empty, or a piece of a colour); man or king needs `KING_CONFIDENT`
        self._confident = [sure_of_kind(r) for r in observation.squares]
        self._king_sure = [r.confidence >= KING_CONFIDENT for r in observation.squares]
        self._read = [r.content for r in observation.squares]
        self.base_score = sum(self._logp[sq - 1][_INDEX[base.get(sq)]] for sq in range(1, 51))
        self._base_contra = frozenset(sq for sq in range(1, 51) if self._contradicts(sq, base.get(sq)))

    def _contradicts(self, sq: int, content: Piece | None) -> bool:
        read = self._read[sq - 1]
        if not self._confident[sq - 1] or read == content:
            return False
        if read is not None and content is not None and read.color is content.color:
            return self._king_sure[sq - 1]  # man against king of the same colour
        return True

    def score(self, changes: Mapping[int, Piece | None]) -> float:
        s = self.base_score
        for sq, content in changes.items():
            lp = self._logp[sq - 1]
            s += lp[_INDEX[content]] - lp[_INDEX[self.base.get(sq)]]
        return s

    def contradictions(self, changes: Mapping[int, Piece | None]) -> set[int]:
        out = {sq for sq in self._base_contra if sq not in changes}
        out.update(sq for sq, c in changes.items() if self._contradicts(sq, c))
        return out

    def decide(self, candidates: Sequence[Candidate[K]]) -> Decision[K]:
        """The accepted candidate, or why none is (see the module docstring)."""
        if not candidates:
            return Decision(None, False, 0.0)
        scored = sorted(((self.score(c.changes), i) for i, c in enumerate(candidates)), reverse=True)
        explaining = [(s, i) for s, i in scored if not self.contradictions(candidates[i].changes)]
        if not explaining:
            return Decision(None, False, 0.0)
        best_score, best = explaining[0]
        if len(explaining) == 1:
            return Decision(candidates[best].key, True, math.inf)
        runner_score, runner = explaining[1]
        margin = best_score - runner_score
        if margin >= ACCEPT_MARGIN:
            return Decision(candidates[best].key, True, margin)
        a, b = candidates[best].changes, candidates[runner].changes
        doubt = tuple(sorted(sq for sq in set(a) | set(b)
                             if a.get(sq, self.base.get(sq)) != b.get(sq, self.base.get(sq))))
        close = tuple(candidates[i].key for s, i in explaining if best_score - s < ACCEPT_MARGIN)
        return Decision(None, True, margin, doubt, candidates[best].key, candidates[runner].key,
                        close)


def changes_between(before: Mapping[int, Piece | None], after: Mapping[int, Piece | None]) -> dict[int, Piece | None]:
    """The squares whose content differs, with the content in ``after``."""
    return {sq: after.get(sq) for sq in range(1, 51) if before.get(sq) != after.get(sq)}


def fits_a_move(observation: Observation, position: Position) -> bool:
    """Whether the board after some legal move of ``position`` explains ``observation``: the
    arbiter's candidates for a move, of which at least one contradicts no square the reading is
    sure of (`Scorer.decide`; whether one is far better than the others does not matter here)."""
    return _a_move(observation, position).explained


def _a_move(observation: Observation, position: Position) -> Decision[int]:
    """The `Scorer`'s decision between the boards after each legal move of ``position``
    (keys: the successors' indices)."""
    base = position.pieces()
    candidates = [Candidate(i, changes_between(base, after.pieces()))
                  for i, (_, after) in enumerate(position.successors())]
    return Scorer(observation, base).decide(candidates)


def shows_half_turn(observation: Observation, position: Position, clearly: bool = False,
                    earlier: Sequence[Observation] = ()) -> bool:
    """Whether the board as read is a move of ``position`` seen a half turn round: no legal move
    explains ``observation``, one does once it is turned half round with the sides swapped
    (`Observation.turned`; White's first move read as Black's when the lighter pieces were taken
    for White's wrongly).  ``clearly``, the bar a configured corner sets before a reading
    overrules it: besides, that move is the one far better than any other, and every square
    where the reading differs from ``position`` is read surely.  (A first move of a set whose
    pieces look like the squares, misread, turned a configured corner that was right, and the
    whole game was recorded mirrored: found on the independent renderer's games.)  Nor does a
    board overrule it when one of the ``earlier`` still readings (since the position was shown)
    had a piece of the side to move likely (`LIKELY_KIND`) where one of its legal moves lands:
    that side was seen moving first as configured.  (White's 31-26 unseen, 31 under a glare still
    read as its man, then Black's 20-25 read: the mirror of White's 31-26 alone, and the game was
    followed turned, though the board before had shown White's man on 26 at 0.87; the system
    bench's lidraughts-9 at seed 909004.)  Nor while a square that a legal move of the side to
    move starts from or lands on is read unsurely (`_may_have_moved`): its move may be there,
    misread.  (White's 32-27 read unsurely, 27 empty at 0.64 and 32 a man at 0.59, then Black's
    18-22 read surely: the mirror of White's 33-29 alone, and the whole game was followed turned
    and named irregular; the system bench's selfplay-23 at seed 1515018.)"""
    if fits_a_move(observation, position):
        return False
    decision = _a_move(observation.turned(), position)
    if not decision.explained:
        return False
    if not clearly:
        return True
    if any(_moved_first(o, position) for o in earlier) or _may_have_moved(observation, position):
        return False
    return decision.accepted is not None and changes_read_surely(observation, position)


def changes_read_surely(observation: Observation, position: Position) -> bool:
    """Whether every square where ``observation`` reads another kind than ``position`` has
    (empty, or a piece of a colour) is read surely (`sure_of_kind`)."""
    base = position.pieces()
    return all(sure_of_kind(r) for sq, r in enumerate(observation.squares, start=1)
               if (r.content is None) != (base.get(sq) is None)
               or (r.content is not None and r.content.color is not base[sq].color))


def _may_have_moved(observation: Observation, position: Position) -> bool:
    """Whether ``observation`` reads a square that a legal move of the side to move in
    ``position`` starts from or lands on unsurely (`sure_of_kind`), or covered."""
    squares = {sq for m in position.legal_moves() for sq in (m.from_square, m.to_square)}
    return any(not sure_of_kind(observation.reading(sq)) for sq in squares)


def _moved_first(observation: Observation, position: Position) -> bool:
    """Whether ``observation`` reads a piece of the side to move in ``position`` likely on a
    square one of its legal moves lands on and ``position`` has empty."""
    base = position.pieces()
    lands = {m.to_square for m in position.legal_moves() if m.to_square not in base}
    for sq in lands:
        r = observation.reading(sq)
        if r.content is not None and r.content.color is position.turn and not r.occluded \
                and r.kind_confidence >= LIKELY_KIND:
            return True
    return False
