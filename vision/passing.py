"""What the camera saw in passing while a hand was over the board, between two still boards.

The watcher reads the board only when it is still; while a hand moves over it the squares
beside the hand are still seen.  Two things seen there matter to the arbiter:

- *lifted*: a square of the still board seen clearly empty on a few frames (a piece lifted, maybe
  put back: touch-move, Art. 15);
- *placed*: a square the still board had empty seen clearly holding a piece on a few frames (a
  piece put down on the way, maybe taken again before the board was still: which of two moves
  that end on the same board was played, a man's 12-7 or 12-8 before a king took it).

The order in which squares were first seen lifted or placed says which move came first only
where the camera could have seen the other square change: a square under the hand is seen late.
So each square's last clear sighting as the still board has it is kept too (*open*: an empty
square seen clearly empty; *stood*: a piece seen clearly standing).

`Passing` counts such sightings, frame by frame, for one hand's visit (an episode).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Passing:
    """Sightings of one episode: square -> the frames it was seen empty on (a very sure frame
    twice), how many frames (a very sure frame counts twice) it was seen so clearly; and the
    frame a square was first seen placed, and on how many frames; and the last frame each
    square was seen clearly as the still board has it (empty, or holding its piece)."""

    empty_seen: dict[int, list[int]] = field(default_factory=dict)
    empty_frames: dict[int, int] = field(default_factory=dict)
    first_placed: dict[int, int] = field(default_factory=dict)
    placed_frames: dict[int, int] = field(default_factory=dict)
    last_open: dict[int, int] = field(default_factory=dict)
    last_stood: dict[int, int] = field(default_factory=dict)

    def seen_empty(self, square: int, frame: int, clear: bool, weight: int = 1) -> None:
        """A square of the still board read empty on ``frame``; ``clear``: seen clearly (not
        beside a hand that may hide it), then counted ``weight`` times."""
        self.empty_seen.setdefault(square, []).extend([frame] * weight)
        if clear:
            self.empty_frames[square] = self.empty_frames.get(square, 0) + weight

    def seen_placed(self, square: int, frame: int) -> None:
        """A square the still board had empty read clearly holding a piece on ``frame``."""
        self.first_placed.setdefault(square, frame)
        self.placed_frames[square] = self.placed_frames.get(square, 0) + 1

    def seen_unchanged(self, square: int, frame: int, occupied: bool) -> None:
        """A square read clearly as the still board has it on ``frame``: ``occupied``, its piece
        standing; else empty."""
        (self.last_stood if occupied else self.last_open)[square] = frame

    def lifted(self, gone: list[int], need: int) -> tuple[int, ...]:
        """The squares whose pieces are ``gone`` from the still board, and those seen clearly
        empty on ``need`` frames (lifted and put back), in the order they were seen empty: by
        the frame that made ``need`` sightings (a very sure frame counting twice), so that one
        frame's misreading under the hand does not put a square before one seen surely."""
        put_back = [sq for sq, n in self.empty_frames.items() if n >= need and sq not in gone]
        return tuple(sorted(gone + put_back, key=lambda sq: (self.lifted_at(sq, need), sq)))

    def lifted_at(self, square: int, need: int) -> int:
        """The frame by which ``square`` was seen empty ``need`` times (`lifted`'s order; a very
        large number when it never was)."""
        frames = self.empty_seen.get(square)
        return frames[min(need, len(frames)) - 1] if frames else 1 << 30

    def placed_at(self, square: int) -> int:
        """The frame ``square`` was first seen holding a piece (a very large number: never)."""
        return self.first_placed.get(square, 1 << 30)

    def placed(self, need: int) -> tuple[int, ...]:
        """The squares seen clearly holding a piece on ``need`` frames, in the order first seen."""
        return tuple(sorted((sq for sq, n in self.placed_frames.items() if n >= need),
                            key=lambda sq: (self.first_placed[sq], sq)))

    def turned(self) -> "Passing":
        """The same sightings with the board turned half round (square n is 51 - n)."""
        def turn(d: dict[int, int]) -> dict[int, int]:
            return {51 - sq: n for sq, n in d.items()}
        return Passing({51 - sq: f for sq, f in self.empty_seen.items()}, turn(self.empty_frames),
                       turn(self.first_placed), turn(self.placed_frames), turn(self.last_open),
                       turn(self.last_stood))
