"""The highest-value captures of one piece, worked out from which pieces it takes (internal).

`rules.movegen` finds captures by following routes square by square, memoising (square, pieces
taken).  On a crowded board a piece can have millions of such partial routes (a man on 50 facing
28 pieces: 3.9 million, 1.7 GB), and nearly all the work goes into proving that no route takes
more than the best.  This module answers the same question from the other side.

During a capture the board does not change: taken pieces stay on it until the end (Art. 14), so
the squares a piece may land on and the pieces it may jump between them are fixed.  That makes a
graph: the nodes are the squares the piece can stand on, and each *step* (jumping one enemy piece
from one square to another, Art. 7, 9) is an edge labelled with the piece it jumps; steps are
reversible.  A capture is a walk from the start square that uses no label twice (Art. 13), and by
Euler's theorem a set of edges T, one per piece taken, is the set of steps of some capture from
`start` to `end` exactly when

* T is connected and touches `start`, and
* the squares where T has an odd number of edges are {start, end} (or none, when end == start).

So the search chooses, piece by piece, one of its edges or none, keeping the best total value
found and dropping choices that already lose more than the best; a square all of whose pieces
are decided must have the right parity.  The work then grows with how many pieces the best
capture leaves standing, not with the number of routes: on a crowded board, where routes are
many, few pieces are left.  One route per (end, pieces taken) is then read off with Hierholzer's
walk.  Sparse boards are the other way round; `rules.movegen` tries its route search first and
comes here only when that grows too large.
"""

from __future__ import annotations

from rules.errors import CaptureSearchError

#: How many partial choices one move generation may make here before giving up: about three
#: seconds; the extreme positions in tests/data need under 10,000.
STEP_BUDGET = 200_000


def best_captures(start: int, edges: dict[int, list[tuple[int, int]]], weights: dict[int, int],
                  end: int | None = None, max_loss: int | None = None,
                  budget: list[int] | None = None) -> tuple[int, list[tuple[int, int, tuple[int, ...]]]]:
    """(best value, [(end, captured bits, landing path)]) of the piece on `start`.

    ``edges[label]`` lists the steps (square a, square b) over the enemy piece with bit `label`,
    each once; ``weights[label]`` is its value.  Only the captures of the highest value are given,
    one route each per (end, captured set): of those ending on `end` if given, and of those
    leaving at most `max_loss` of the pieces' value untaken if given.  Raises CaptureSearchError
    past `budget` choices: a one-element list, shared by the searches of one move generation
    and counted down (STEP_BUDGET when not given)."""
    labels = sorted(edges, key=_order_key(start, edges))
    total = sum(weights[lab] for lab in labels)
    # squares and, per square, how many undecided pieces still have a step touching it
    pending: dict[int, int] = {}
    for lab in labels:
        for sq in {s for e in edges[lab] for s in e}:
            pending[sq] = pending.get(sq, 0) + 1
    if end is not None and end != start and end not in pending:
        return 0, []  # no step lands there
    search = _Search(start, labels, edges, weights, pending, [STEP_BUDGET] if budget is None else budget, end)
    if max_loss is not None:
        search.best_loss = max_loss
    search.run(total)
    if not search.found:
        return 0, []
    loss = search.best_loss
    out = []
    for (end, taken), chosen in search.found.items():
        out.append((end, taken, _route(start, end, chosen)))
    return total - loss, out


def _order_key(start: int, edges: dict[int, list[tuple[int, int]]]):
    """Decide the pieces nearest the start first, so that squares are settled early."""
    dist = {start: 0}
    frontier = [start]
    adjacent: dict[int, set[int]] = {}
    for es in edges.values():
        for a, b in es:
            adjacent.setdefault(a, set()).add(b)
            adjacent.setdefault(b, set()).add(a)
    while frontier:
        nxt = []
        for a in frontier:
            for b in adjacent.get(a, ()):
                if b not in dist:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    far = len(dist) + 1
    return lambda lab: (min(min(dist.get(a, far), dist.get(b, far)) for a, b in edges[lab]), lab)


class _Search:
    """Branch and bound over the pieces: each is left standing or taken by one of its steps."""

    def __init__(self, start, labels, edges, weights, pending, budget, end):
        self.start = start
        self.end = end
        self.labels = labels
        self.edges = edges
        self.weights = weights
        self.pending = pending
        self.budget = budget
        self.squares = {lab: tuple({s for e in edges[lab] for s in e}) for lab in labels}
        self.parity: dict[int, int] = {sq: 0 for sq in pending}
        self.parity.setdefault(start, 0)
        self.best_loss = sum(weights.values()) + 1
        self.found: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.chosen: list[tuple[int, int]] = []
        self.odd_done = 0  # settled squares other than the start with an odd number of steps
        # with the end given: the parity each square must end with (odd: the start and the end,
        # unless they are one square), and how many settled squares have the other
        self.wanted = {sq: int((sq == start) != (sq == end)) for sq in self.parity} if end is not None else None
        self.wrong_done = 0

    def run(self, total: int) -> None:
        self._decide(0, 0, 0)

    def _settle(self, squares, delta: int) -> bool:
        """Count a decided piece at its squares; False if a settled square breaks parity."""
        if self.wanted is not None:
            return self._settle_towards_end(squares, delta)
        ok = True
        for sq in squares:
            self.pending[sq] += delta
            if delta < 0 and self.pending[sq] == 0 and sq != self.start and self.parity[sq]:
                self.odd_done += 1
            elif delta > 0 and self.pending[sq] == 1 and sq != self.start and self.parity[sq]:
                self.odd_done -= 1
        if self.odd_done > 1:
            ok = False
        elif self.pending.get(self.start, 0) == 0 and not self.parity[self.start] and self.odd_done:
            ok = False
        return ok

    def _settle_towards_end(self, squares, delta: int) -> bool:
        """`_settle` when the end is given: every settled square must have its wanted parity."""
        for sq in squares:
            self.pending[sq] += delta
            if self.parity[sq] != self.wanted[sq]:
                if delta < 0 and self.pending[sq] == 0:
                    self.wrong_done += 1
                elif delta > 0 and self.pending[sq] == 1:
                    self.wrong_done -= 1
        return not self.wrong_done

    def _decide(self, i: int, loss: int, taken: int) -> None:
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise CaptureSearchError(
                "this position's captures are too many to work out within the companion's time "
                "and memory limits")
        if loss > self.best_loss:
            return
        if i == len(self.labels):
            self._leaf(loss, taken)
            return
        lab = self.labels[i]
        squares = self.squares[lab]
        for a, b in self.edges[lab]:
            self.parity[a] ^= 1
            self.parity[b] ^= 1
            self.chosen.append((a, b))
            if self._settle(squares, -1):
                self._decide(i + 1, loss, taken | lab)
            self._settle(squares, +1)
            self.chosen.pop()
            self.parity[a] ^= 1
            self.parity[b] ^= 1
        if self._settle(squares, -1):
            self._decide(i + 1, loss + self.weights[lab], taken)
        self._settle(squares, +1)

    def _leaf(self, loss: int, taken: int) -> None:
        if not self.chosen:
            return
        odd = [sq for sq, p in self.parity.items() if p]
        start = self.start
        if not odd:
            end = start
        elif len(odd) == 2 and start in odd:
            end = odd[0] if odd[1] == start else odd[1]
        else:
            return
        if self.end is not None and end != self.end:
            return
        if not _connected(start, self.chosen):
            return
        if loss < self.best_loss:
            self.best_loss = loss
            self.found = {}
        self.found.setdefault((end, taken), tuple(self.chosen))


def _connected(start: int, steps: list[tuple[int, int]]) -> bool:
    """Whether the steps form one connected piece touching `start`."""
    adjacent: dict[int, list[int]] = {}
    for a, b in steps:
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
    if start not in adjacent:
        return False
    seen = {start}
    todo = [start]
    while todo:
        for b in adjacent[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return len(seen) == len(adjacent)


def _route(start: int, end: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The landing squares of a walk from start to end using every step once (Hierholzer)."""
    adjacent: dict[int, list[tuple[int, int]]] = {}
    for n, (a, b) in enumerate(steps):
        adjacent.setdefault(a, []).append((b, n))
        adjacent.setdefault(b, []).append((a, n))
    used = [False] * len(steps)
    stack = [start]
    walk = []
    while stack:
        here = stack[-1]
        rest = adjacent[here]
        while rest and used[rest[-1][1]]:
            rest.pop()
        if rest:
            there, n = rest.pop()
            used[n] = True
            stack.append(there)
        else:
            walk.append(stack.pop())
    walk.reverse()
    assert walk[0] == start and walk[-1] == end and len(walk) == len(steps) + 1
    return tuple(walk[1:])
