"""Legal move generation and move making on raw bitboard states (internal to `rules`).

A raw state is the tuple ``(wm, wk, bm, bk, white_to_move, wc, bc, seven)``: the bitboards of white
men, white kings, black men and black kings (layout in `rules.bitboard`), the side to move, each
side's three-move counter packed as ``bit_index << 2 | count`` (0 = no count), and the seven-move
count (-1 when the seven-move rule is not running).  A raw move is ``(from_index, to_index,
captured_bits, path)`` where path is the tuple of bit indices of the landing squares, ending with
the destination.  `rules.position.Position` wraps these in a public API; the perft counter uses
them directly because it is the hot path.

The rules implemented here are RULES.md "Moves", "Which capture is legal" and the move-making half
of the three-move and seven-move rules.  Game ends are decided in `rules.position`.
"""

from __future__ import annotations

import gc

from rules import capture_sets
from rules.errors import CaptureSearchError
from rules.bitboard import (
    BLACK_PROMOTION,
    BOARD,
    DIAGONAL_RAY_BITS,
    JUMP_MASK,
    MAN_JUMPS,
    RAY_BITS,
    SHIFT,
    WHITE_PROMOTION,
)

RawState = tuple[int, int, int, int, bool, int, int, int]
RawMove = tuple[int, int, int, tuple[int, ...]]

#: Partial routes (square, pieces taken) a piece's route search holds at first.  Ordinary games
#: need a few hundred; past this the piece's captures are worked out as `_crowded_entries` says.
FIRST_ROUTE_STATES = 5_000
#: The most partial routes one piece's route search may hold: about 130 MB and 1.5-4 s.  A man
#: on 50 facing 28 pieces would need 3.9 million (1.7 GB); a lone king among 19 pieces, 130,000.
ROUTE_STATES = 300_000
#: At most this many average steps per enemy piece, the step graph counts as crowded:
#: `rules.capture_sets` is tried before the long route search (it is quick when each piece can
#: be jumped few ways; a king on an open board has many landing squares per piece).
CROWDED_STEPS = 1.5
#: After this many pieces of one side needed the long route search, the rest are worked out by
#: `rules.capture_sets` only, so that one move generation stays within about ten seconds.
ROUTE_OVERFLOWS = 2


class _TooManyRoutes(Exception):
    """The route search of one piece outgrew its limit."""


class _Memo(dict):
    """The route search's memo, with the number of entries it may hold."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit


#: The pieces whose route search outgrew FIRST_ROUTE_STATES lately, as (square index, king, board
#: without the piece, enemy pieces, enemy kings) -> their best captures, oldest first.  The one
#: cache of this pure function: judging one board of a crowded position asks for its moves and
#: capture routes several times, and each time the route search would spend its whole budget
#: before handing over (about a second).  CROWDED_KEPT entries of a few moves each.
_crowded: dict[tuple, list] = {}
CROWDED_KEPT = 32


def _remember_crowded(key: tuple, entries: list) -> list:
    if len(_crowded) >= CROWDED_KEPT:
        del _crowded[next(iter(_crowded))]
    _crowded[key] = entries
    return entries

#: Signed shifts of a man's two forward diagonal steps.
_WHITE_FORWARD = (-6, -5)
_BLACK_FORWARD = (5, 6)
_JUMPS = tuple((SHIFT[d], JUMP_MASK[d]) for d in range(8))


def sides(state: RawState) -> tuple[int, int, int, int, int]:
    """(own men, own kings, opponent men, opponent kings, bit of own king blocked by Art. 17)."""
    wm, wk, bm, bk, white, wc, bc, _ = state
    if white:
        own_c, men, kings, omen, okings = wc, wm, wk, bm, bk
    else:
        own_c, men, kings, omen, okings = bc, bm, bk, wm, wk
    blocked = 1 << (own_c >> 2) if own_c & 3 == 3 and men else 0
    return men, kings, omen, okings, blocked


# ---------------------------------------------------------------------------------------------
# Captures (Art. 7, 9-14)

def _man_capturers(men: int, opp: int, empty: int) -> int:
    """The men that can jump an adjacent enemy piece now (the start of any man capture)."""
    found = 0
    for s, mask in _JUMPS:
        if s > 0:
            found |= men & mask & ((((empty >> s) & opp) >> s))
        else:
            found |= men & mask & ((((empty << -s) & opp) << -s))
    return found


def _king_has_capture(kings: int, opp: int, occ: int) -> bool:
    while kings:
        low = kings & -kings
        kings ^= low
        for ray in RAY_BITS[low.bit_length() - 1]:
            n = len(ray)
            k = 0
            while k < n and not ray[k][1] & occ:
                k += 1
            if k + 1 < n and ray[k][1] & opp and not ray[k + 1][1] & occ:
                return True
    return False


# A route entry is (value, final captured bits, destination index, rest) where rest is None at
# the end of the capture or (next landing index, entry from there): a linked path, so that no
# path tuple is copied while searching.

def _man_routes(idx: int, captured: int, occ: int, opp: int, okings: int, memo: dict) -> list:
    """The best continuations of a man's capture standing on `idx` having taken `captured`.

    Returns route entries of the highest value only, one per (destination, captured set).  The
    continuations depend only on (idx, captured) for one capturing piece, and their values only on
    the final captured set, so both memoising on that pair and dropping lower values at every step
    are exact: the search stays small even where a piece has millions of routes (Art. 9, 13).
    """
    key = captured << 6 | idx
    found = memo.get(key)
    if found is not None:
        return found
    best = -1
    out: dict = {}
    for jumped, land_idx, land in MAN_JUMPS[idx]:
        if jumped & opp and not jumped & captured and not land & occ:
            for entry in _man_routes(land_idx, captured | jumped, occ, opp, okings, memo):
                value = entry[0]
                if value >= best:
                    if value > best:
                        best = value
                        out = {}
                    k = entry[1] << 6 | entry[2]
                    if k not in out:
                        out[k] = (value, entry[1], entry[2], (land_idx, entry))
    result = list(out.values()) if out else [(capture_value(captured, okings), captured, idx, None)]
    memo[key] = result
    if len(memo) > memo.limit:
        raise _TooManyRoutes
    return result


def _king_routes(idx: int, captured: int, occ: int, opp: int, okings: int, memo: dict) -> list:
    """As `_man_routes`, for a king: any distance, eight directions (Art. 9).

    The loop is the same as `_man_routes`' on purpose: sharing it through a helper costs 7% of
    perft (measured: perft 7 from the start 0.67 s -> 0.73 s)."""
    key = captured << 6 | idx
    found = memo.get(key)
    if found is not None:
        return found
    best = -1
    out: dict = {}
    for land_idx, caught in _king_steps(idx, captured, occ, opp):
        for entry in _king_routes(land_idx, caught, occ, opp, okings, memo):
            value = entry[0]
            if value >= best:
                if value > best:
                    best = value
                    out = {}
                k = entry[1] << 6 | entry[2]
                if k not in out:
                    out[k] = (value, entry[1], entry[2], (land_idx, entry))
    result = list(out.values()) if out else [(capture_value(captured, okings), captured, idx, None)]
    memo[key] = result
    if len(memo) > memo.limit:
        raise _TooManyRoutes
    return result


def _path(entry: tuple) -> tuple[int, ...]:
    """The landing squares (bit indices) of a route entry."""
    path = []
    rest = entry[3]
    while rest is not None:
        path.append(rest[0])
        rest = rest[1][3]
    return tuple(path)


def _man_steps(idx: int, captured: int, occ: int, opp: int):
    """A man's single jumps from idx: over an adjacent enemy piece onto the empty square beyond."""
    for jumped, land_idx, land in MAN_JUMPS[idx]:
        if jumped & opp and not jumped & captured and not land & occ:
            yield land_idx, captured | jumped


def _king_steps(idx: int, captured: int, occ: int, opp: int):
    """A king's single captures from idx: free squares, one enemy piece, any free square beyond."""
    for ray in RAY_BITS[idx]:
        n = len(ray)
        k = 0
        while k < n and not ray[k][1] & occ:
            k += 1
        if k >= n:
            continue
        hit = ray[k][1]
        if not hit & opp or hit & captured:
            continue  # own piece, or a piece already taken: it blocks (Art. 13, 14)
        caught = captured | hit
        k += 1
        while k < n:
            land_idx, land = ray[k]
            if land & occ:
                break
            yield land_idx, caught
            k += 1


def capture_value(captured: int, opp_kings: int) -> int:
    """Shot value as one integer (Art. 11): men + 2 * kings first; on a tie, fewer kings is more."""
    n = captured.bit_count()
    k = (captured & opp_kings).bit_count()
    return (n + k) * 32 - k


def captures(men: int, kings: int, omen: int, okings: int) -> list[RawMove]:
    """The legal captures: highest value only, king captures first at equal value, no duplicates."""
    opp = omen | okings
    occ = men | kings | opp
    empty = BOARD & ~occ
    capturers = _man_capturers(men, opp, empty) if men else 0
    if not capturers and not (kings and _king_has_capture(kings, opp, occ)):
        return []
    # The route search allocates only acyclic tuples; in extreme positions it makes millions, and
    # the cyclic garbage collector would rescan them all (94 s instead of 14 s for a man facing
    # 28 pieces).  Pause it for the search; it is restored even on error.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _best_captures(capturers, kings, opp, occ, okings)
    finally:
        if paused:
            gc.enable()


def _best_captures(capturers: int, kings: int, opp: int, occ: int, okings: int) -> list[RawMove]:
    best = 0
    by_king = False
    found: list[RawMove] = []
    overflows = 0
    budget = [capture_sets.STEP_BUDGET]
    for pieces, is_king, routes in ((kings, True, _king_routes), (capturers, False, _man_routes)):
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            idx = low.bit_length() - 1
            key = (idx, is_king, occ ^ low, opp, okings)
            entries = _crowded.get(key)
            if entries is None:
                try:
                    entries = routes(idx, 0, occ ^ low, opp, okings, _Memo(FIRST_ROUTE_STATES))
                except _TooManyRoutes:
                    entries = _remember_crowded(key, _crowded_entries(
                        idx, is_king, occ ^ low, opp, okings, routes, budget, overflows < ROUTE_OVERFLOWS))
                    overflows += 1
            for entry in entries:
                value, captured = entry[0], entry[1]
                if not captured or value < best or (value == best and by_king and not is_king):
                    continue
                if value > best:
                    best = value
                    by_king = is_king
                    found = []
                found.append((idx, entry[2], captured, _path(entry)))
    return found


def _crowded_entries(idx: int, is_king: bool, occ: int, opp: int, okings: int, routes,
                     budget: list[int], long_routes: bool) -> list:
    """The route entries of the best captures of a piece with more than FIRST_ROUTE_STATES
    partial routes: by `rules.capture_sets` and by the route search up to ROUTE_STATES (unless
    not `long_routes`), the one likelier to be quick first (CROWDED_STEPS).  Both give the same
    captures; CaptureSearchError when neither fits its limit."""
    edges = step_graph(idx, is_king, occ, opp)
    by_sets = lambda: _entries_by_sets(idx, edges, okings, budget)  # noqa: E731
    by_routes = lambda: routes(idx, 0, occ, opp, okings, _Memo(ROUTE_STATES))  # noqa: E731
    crowded = sum(map(len, edges.values())) <= CROWDED_STEPS * len(edges)
    ways = [by_sets] if not long_routes else [by_sets, by_routes] if crowded else [by_routes, by_sets]
    for way in ways:
        try:
            return way()
        except (_TooManyRoutes, CaptureSearchError):
            continue
    raise CaptureSearchError("this position's captures are too many to work out within the "
                             "companion's time and memory limits")


def _entries_by_sets(idx: int, edges: dict, okings: int, budget: list[int]) -> list:
    """The route entries of the best captures of the piece on idx worked out from the pieces
    taken (`rules.capture_sets`), one route each."""
    weights = {label: capture_value(label, okings) for label in edges}
    value, found = capture_sets.best_captures(idx, edges, weights, budget=budget)
    entries = []
    for end, captured, path in found:
        entry = (value, captured, end, None)
        for land in reversed(path):
            entry = (value, captured, end, (land, entry))
        entries.append(entry)
    return entries


def step_graph(idx: int, is_king: bool, occ: int, opp: int) -> dict[int, list[tuple[int, int]]]:
    """The single capture steps the piece starting on idx can ever make in this capture, by the
    enemy piece they jump: {piece bit: [(square index a, square index b), ...]}, each step once
    (a step can be made either way).  Taken pieces stay on the board (Art. 14), so these do not
    change during the capture; `occ` is the board without the capturing piece."""
    edges: dict[int, list[tuple[int, int]]] = {}
    seen = {idx}
    todo = [idx]
    while todo:
        a = todo.pop()
        for b, label in (_king_steps(a, 0, occ, opp) if is_king else _man_steps(a, 0, occ, opp)):
            if a < b:
                edges.setdefault(label, []).append((a, b))
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return edges


# ---------------------------------------------------------------------------------------------
# Simple moves (Art. 7, 9, 17)

def simple_moves(men: int, kings: int, empty: int, white: bool, blocked: int) -> list[RawMove]:
    out: list[RawMove] = []
    for s in _WHITE_FORWARD if white else _BLACK_FORWARD:
        t = (men >> -s if s < 0 else men << s) & empty
        while t:
            low = t & -t
            t ^= low
            ti = low.bit_length() - 1
            out.append((ti - s, ti, 0, (ti,)))
    kings &= ~blocked
    occ = BOARD & ~empty
    while kings:
        low = kings & -kings
        kings ^= low
        fi = low.bit_length() - 1
        for ray in DIAGONAL_RAY_BITS[fi]:
            for ti, b in ray:
                if b & occ:
                    break
                out.append((fi, ti, 0, (ti,)))
    return out


def all_captures(men: int, kings: int, omen: int, okings: int) -> list[tuple[RawMove, bool]]:
    """One capture route per (piece, destination, captured set), whatever its value, with whether
    a king makes it.  Not the legal moves: used to explain why a capture is illegal (Art. 11, 12)."""
    opp = omen | okings
    occ = men | kings | opp
    result: list[tuple[RawMove, bool]] = []
    for pieces, is_king in ((kings, True), (men, False)):
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            idx = low.bit_length() - 1
            seen: dict = {}
            _all_routes(idx, 0, (), occ ^ low, opp, is_king, seen, set())
            result.extend(((idx, end, captured, path), is_king) for (end, captured), path in seen.items())
    return result


def _all_routes(idx: int, captured: int, path: tuple, occ: int, opp: int, king: bool,
                out: dict, visited: set) -> None:
    """Every (destination, captured set) reachable, each with one route (no value pruning)."""
    if (idx, captured) in visited:
        return
    visited.add((idx, captured))
    if len(visited) > ROUTE_STATES:
        raise CaptureSearchError("this position's captures are too many to list every route")
    if captured:
        out.setdefault((idx, captured), path)
    for land_idx, caught in (_king_steps(idx, captured, occ, opp) if king
                             else _man_steps(idx, captured, occ, opp)):
        _all_routes(land_idx, caught, path + (land_idx,), occ, opp, king, out, visited)


def capture_route(men: int, kings: int, omen: int, okings: int, fi: int, ti: int,
                  captured: int | None = None) -> tuple[RawMove, bool] | None:
    """A capture route of the own piece on fi ending on ti, whatever its value, with whether a
    king makes it: the one taking exactly `captured` when given, else one of the highest value
    (a capture may stop short here: this explains irregular captures, Art. 11, 12, 27b).  None
    when there is no such route.  Raises CaptureSearchError where neither search fits."""
    low = 1 << fi
    is_king = bool(kings & low)
    if not (men | kings) & low:
        return None
    opp = omen | okings
    occ = (men | kings | opp) ^ low
    try:
        if (fi, is_king, occ, opp, okings) in _crowded:
            raise _TooManyRoutes  # known: straight to the search by pieces taken
        found = _route_between(fi, ti, captured, occ, opp, okings, is_king)
    except _TooManyRoutes:
        edges = step_graph(fi, is_king, occ, opp)
        max_loss = None
        if captured is not None:
            if captured & ~sum(edges):
                return None
            edges = {label: steps for label, steps in edges.items() if label & captured}
            max_loss = 0
        weights = {label: capture_value(label, okings) for label in edges}
        _, routes = capture_sets.best_captures(fi, edges, weights, end=ti, max_loss=max_loss)
        found = routes[0][1:] if routes else None
    if found is None:
        return None
    return (fi, ti, found[0], found[1]), is_king


def _route_between(fi: int, ti: int, wanted: int | None, occ: int, opp: int, okings: int,
                   king: bool) -> tuple[int, tuple[int, ...]] | None:
    """(captured bits, path) for `capture_route` by following routes; _TooManyRoutes when they
    are more than ROUTE_STATES."""
    visited: set = set()
    best: list = [-1, None]

    def walk(idx: int, captured: int, path: tuple) -> bool:
        key = captured << 6 | idx
        if key in visited:
            return False
        visited.add(key)
        if len(visited) > ROUTE_STATES:
            raise _TooManyRoutes
        if captured and idx == ti:
            if wanted is None:
                value = capture_value(captured, okings)
                if value > best[0]:
                    best[0], best[1] = value, (captured, path)
            elif captured == wanted:
                best[1] = (captured, path)
                return True
        for land_idx, caught in (_king_steps(idx, captured, occ, opp) if king
                                 else _man_steps(idx, captured, occ, opp)):
            if wanted is not None and caught & ~wanted:
                continue
            if walk(land_idx, caught, path + (land_idx,)):
                return True
        return False

    walk(fi, 0, ())
    return best[1]


def legal_moves(state: RawState) -> list[RawMove]:
    """All legal moves of the side to move, by RULES.md."""
    men, kings, omen, okings, blocked = sides(state)
    caps = captures(men, kings, omen, okings)
    if caps:
        return caps
    empty = BOARD & ~(men | kings | omen | okings)
    return simple_moves(men, kings, empty, state[4], blocked)


def count_moves(state: RawState) -> int:
    """len(legal_moves(state)), without building the simple moves."""
    men, kings, omen, okings, blocked = sides(state)
    caps = captures(men, kings, omen, okings)
    if caps:
        return len(caps)
    occ = men | kings | omen | okings
    empty = BOARD & ~occ
    if state[4]:
        n = ((men >> 6) & empty).bit_count() + ((men >> 5) & empty).bit_count()
    else:
        n = ((men << 5) & empty).bit_count() + ((men << 6) & empty).bit_count()
    kings &= ~blocked
    while kings:
        low = kings & -kings
        kings ^= low
        for ray in DIAGONAL_RAY_BITS[low.bit_length() - 1]:
            for _, b in ray:
                if b & occ:
                    break
                n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Making a move: pieces, promotion (Art. 8), three-move counters (Art. 17), seven-move count (Art. 18)

def seven_move_side(wm: int, wk: int, bm: int, bk: int) -> int:
    """1 if white has two kings against black's lone king (no men anywhere), -1 for black, else 0."""
    if wm or bm:
        return 0
    nw, nb = wk.bit_count(), bk.bit_count()
    if nw == 2 and nb == 1:
        return 1
    if nw == 1 and nb == 2:
        return -1
    return 0


def apply(state: RawState, move: RawMove) -> RawState:
    """The state after a legal move."""
    wm, wk, bm, bk, white, wc, bc, seven = state
    fi, ti, cap, _ = move
    fb = 1 << fi
    tb = 1 << ti
    if white:
        men, kings, omen, okings, own_c, opp_c = wm, wk, bm, bk, wc, bc
    else:
        men, kings, omen, okings, own_c, opp_c = bm, bk, wm, wk, bc, wc
    if kings & fb:
        kings = (kings ^ fb) | tb  # a capture may end on its own start square (46x46)
        if not cap and men:
            if own_c and own_c >> 2 == fi:
                own_c = (ti << 2) | ((own_c & 3) + 1)
            else:
                own_c = (ti << 2) | 1
        else:
            own_c = 0
    else:
        men ^= fb
        if tb & (WHITE_PROMOTION if white else BLACK_PROMOTION):
            kings |= tb
        else:
            men |= tb
        own_c = 0
    if cap:
        omen &= ~cap
        okings &= ~cap
        if opp_c and (cap >> (opp_c >> 2) & 1 or not omen):
            opp_c = 0
    if white:
        wm, wk, bm, bk, wc, bc = men, kings, omen, okings, own_c, opp_c
    else:
        wm, wk, bm, bk, wc, bc = omen, okings, men, kings, opp_c, own_c
    strong = seven_move_side(wm, wk, bm, bk)
    if not strong:
        seven = -1
    elif seven < 0:
        seven = 0
    elif (strong > 0) == white:
        seven += 1
    return (wm, wk, bm, bk, not white, wc, bc, seven)


def perft(state: RawState, depth: int) -> int:
    """Leaves of the legal move tree, counting the last ply without making its moves."""
    if depth <= 1:
        return count_moves(state) if depth == 1 else 1
    total = 0
    for mv in legal_moves(state):
        total += perft(apply(state, mv), depth - 1)
    return total
