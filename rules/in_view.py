"""What each square last looked like in view, for the squares a hand covers now.

At blitz a player's arm may rest over a third of the board for half a minute while both sides
play beside it: every still board then has squares under the arm, and the moves played there
plies before were seen only on boards read in passing.  `InView` keeps each square's last
reading with no hand over it, and the watcher's frame it came from (`rules.observation.Settled`
carries both); `InView.joined` reads a board's covered squares as last seen, where the camera
saw no piece lifted from them or put down on them since.  The arbiter takes a board joined so
only as legal play (`rules.arbiter.Arbiter.observe`): a square read so is not read now.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rules.matching import sure_of_kind
from rules.observation import Settled, SquareReading


@dataclass
class InView:
    """Each square's last reading in view, with the watcher's frame: square -> (reading, frame)."""

    last: dict[int, tuple[SquareReading, int]] = field(default_factory=dict)

    def remember(self, settled: Settled) -> None:
        """Keep each square of ``settled`` read in view (no hand over it); a board without the
        watcher's frame teaches nothing."""
        if settled.frame is None:
            return
        for sq, reading in enumerate(settled.observation.squares, start=1):
            if not reading.occluded:
                self.last[sq] = (reading, settled.frame)

    def forget(self) -> None:
        """Forget every square (the board is read otherwise from now on: turned half round)."""
        self.last = {}

    def copy(self) -> "InView":
        return InView(dict(self.last))

    def joined(self, settled: Settled, sighted: Mapping[tuple[str, int], int]) -> Settled | None:
        """``settled`` with each square under a hand read as it was last seen in view, where
        that reading was sure of its kind and no piece was seen lifted from it or put down on
        it since: neither in ``sighted`` (the arbiter's sightings since the last board taken,
        ``("lifted" | "placed", square) -> frame``) nor on ``settled``'s way after that frame.
        A sighting of unknown frame counts as later (a hand over the square may have moved
        it).  None when no covered square is read so, or ``settled`` has no frame."""
        obs = settled.observation
        if settled.frame is None or not obs.occluded:
            return None
        changed: dict[int, float] = {}
        for (kind, sq), frame in sighted.items():
            if kind in ("lifted", "placed"):
                changed[sq] = max(changed.get(sq, -1), frame)
        for squares, frames in ((settled.lifted, settled.lifted_at),
                                (settled.placed, settled.placed_at)):
            known = len(frames) == len(squares)
            for i, sq in enumerate(squares):
                changed[sq] = max(changed.get(sq, -1), frames[i] if known else math.inf)
        fills = {}
        for sq in obs.occluded:
            kept = self.last.get(sq)
            if kept is not None and sure_of_kind(kept[0]) and changed.get(sq, -1) < kept[1]:
                fills[sq] = kept[0]
        if not fills:
            return None
        return replace(settled, observation=obs.with_readings(fills))
