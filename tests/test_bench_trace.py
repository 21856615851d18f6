"""The trace command a bench prints for a game it got wrong (`bench.trace.command`).

A game is traced as the bench ran it, or the trace shows another game: selfplay-13 at seed
6868010 was traced with the bench's irregular move, which the bench had not injected in that
game, and its miss did not reproduce for a whole session.
"""

from __future__ import annotations

import shlex

from bench.trace import command, parser


def _parsed(text: str):
    words = shlex.split(text)
    assert words[:3] == ["python", "-m", "bench.trace"]
    return parser().parse_args(words[3:])


def test_a_game_the_bench_did_not_inject_is_traced_without_the_irregular_move():
    args = _parsed(command("selfplay-13", 6868010, 40))
    assert (args.name, args.seed, args.max_plies) == ("selfplay-13", 6868010, 40)
    assert not args.inject and not args.other_world and args.fps is None


def test_an_injected_game_of_the_other_world_at_a_given_rate_is_traced_so():
    args = _parsed(command("selfplay-18", 47006, 30, inject=True, fps=10.0, other_world=True))
    assert (args.name, args.seed, args.max_plies, args.fps) == ("selfplay-18", 47006, 30, 10.0)
    assert args.inject and args.other_world
