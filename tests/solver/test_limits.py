"""Every limit is kept: the time limit and the stop event end solve(), hint() and each part under them
(greedy probes, best-first, the Python and the compiled search, the heuristic) within milliseconds.

Each limit is timed from where it starts, each stop from the moment it is set, with a margin that holds
on a loaded machine (tests/wall_clock.py); the positions take far longer than that unstopped, so every
test can fail.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import threading

import pytest

import yukon
from engine_helpers import play_randomly
from wall_clock import LOADED, stop_after, timed
from yukon import Game
from yukon.errors import InvalidLimitError, YukonError
from yukon.solver import hint, search, solve
from yukon.solver.heuristic import best_heuristic_move
from yukon.solver.probe import SCORERS, greedy_probe
from yukon.solver.search import Limits, Searcher, best_first

#: Yukon with foundation returns and any card into an empty column: the greedy probes scored about 60 moves
#: (with a look ahead) at each of 600 steps, 18-20 s, with no look at the clock
SLOW_PROBE = ("yukon,any,return TC/5H4C8S/4D3S2DASTS/2C9H.8H7C6D/9C9S9D7D.6S2HKD3H7S6H5S4H3C7H/8C6CQHQDQC."
              "JSKCAC5DTH/4SJCADKH5CJD.TD8DQSJH3DKS2S AH/-/-/-")
#: Milligan Yukon: 6.4 s at time_limit=0.2 before (the Python searches; the compiled one wins it in 0.01 s)
SLOW_MILLIGAN = (
    "milligan-yukon,any,return JHTSQHJC9C8D2D9D8C5DQCJDTC8S7D6S5H4CKH7H6C5D4S3D2C2SAD/ACJC4D3S2H4H3C2H5C4H3CKHQS"
    "4C3D3H2C/8H7S6D5SQDAC/TC.JSTD9S8D7C6D5C4D3S7H6S5H3H2S8H7C6HKCQHKSQD9H8S/5S9CJS.TDKDQSJHTS9D/TH4S.KDQC/"
    "7SAH.KSTH/9S9HAS6H.6C 2D/AS/-/AH/-/-/-/- 7D8CJDKC/-")
#: deals the solver does not decide within 30 s: Yukon deal 595 (docs/solver.md) and a Milligan Yukon deal
#: (any card into an empty column) the study left undecided at 30 s; Yukon deal 20 with foundation return
#: (undecided at 30 s; without returns lost after 98 million positions: both phases of its search are long)
HARD = {"yukon 595": ("yukon", 595, "kings", False), "milligan 450": ("milligan-yukon", 450, "any", True),
        "yukon return 20": ("yukon", 20, "kings", True)}


def hard(name: str) -> Game:
    variant, seed, empty, returns = HARD[name]
    return Game.deal(variant, seed=seed, empty_column=empty, foundation_return=returns)


@pytest.mark.parametrize("name", HARD)
def test_solve_keeps_a_short_time_limit(name: str) -> None:
    result, seconds = timed(yukon.solve, hard(name), time_limit=0.2)
    assert seconds < 0.2 + LOADED, f"solve(time_limit=0.2) took {seconds:.2f} s"
    assert (result.status, result.reason) == ("unknown", "time limit")


@pytest.mark.parametrize("name", HARD)
def test_solve_keeps_a_stop_event(name: str) -> None:
    stop = stop_after(0.1)
    result = solve(hard(name), time_limit=None, stop=stop)
    seconds = stop.since()
    assert seconds < LOADED, f"solve() ended {seconds:.2f} s after the stop"
    assert (result.status, result.reason) == ("unknown", "stopped")


def test_a_stop_set_before_the_call_returns_at_once() -> None:
    event = threading.Event()
    event.set()
    result, seconds = timed(solve, Game.from_text(SLOW_MILLIGAN), time_limit=None, stop=event)
    assert (result.status, result.reason) == ("unknown", "stopped")
    assert seconds < LOADED


@pytest.mark.parametrize("name", HARD)
def test_hint_keeps_its_time_limit_and_stop(name: str) -> None:
    game = hard(name)
    result, seconds = timed(hint, game, time_limit=0.2)
    assert seconds < 0.2 + LOADED
    assert result.move is not None and game.is_legal(result.move)
    stop = stop_after(0.1)
    result = hint(game, time_limit=None, stop=stop)
    assert stop.since() < LOADED
    assert result.move is not None and game.is_legal(result.move)


def test_the_probe_keeps_the_limits() -> None:
    game = Game.from_text(SLOW_PROBE)
    (line, looked), seconds = timed(greedy_probe, game, SCORERS[1], Limits(0.1))
    assert line is None and looked > 0
    assert seconds < 0.1 + LOADED, f"the probe ran {seconds:.2f} s past a 0.1 s limit"


def test_best_first_and_the_python_search_keep_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "COMPILED_TWO_DECK", False)  # (the compiled one wins this in milliseconds)
    game = Game.from_text(SLOW_MILLIGAN)
    stop = stop_after(0.05)
    outcome = best_first(game, Limits(None, stop=stop), 10**9)
    assert (outcome.status, outcome.reason) == ("unknown", "stopped") and stop.since() < LOADED
    outcome, seconds = timed(Searcher(game, Limits(0.1)).run_python)
    assert (outcome.status, outcome.reason) == ("unknown", "time limit") and seconds < 0.1 + LOADED


def test_the_compiled_search_is_not_entered_after_the_limit() -> None:
    from yukon.solver import search

    if search._core is None:
        pytest.skip("the compiled search is not built")
    game = Game.deal("yukon", seed=3)
    event = threading.Event()
    event.set()
    outcome = Searcher(game, Limits(None, stop=event)).run_compiled()
    assert (outcome.status, outcome.reason, outcome.stats.nodes) == ("unknown", "stopped", 0)


def test_the_heuristic_answers_when_the_time_is_up() -> None:
    game = Game.from_text(SLOW_PROBE)
    event = threading.Event()
    event.set()
    move = best_heuristic_move(game, Limits(None, stop=event))
    assert move is not None and game.is_legal(move)


def test_the_heuristic_is_unchanged_without_limits() -> None:
    """Scores first, then the mobility tie-break among the best scores only: the move of the full ranking."""
    from yukon.solver.heuristic import score_move

    rng = random.Random(5)
    for _ in range(40):
        game = play_randomly(Game.deal(rng.choice(sorted(yukon.VARIANTS)), seed=rng.randrange(10**6)), rng,
                             rng.randrange(40))
        moves = game.legal_moves()
        if not moves:
            continue

        def full_key(m: yukon.Move, g: Game = game) -> tuple[int, int]:
            g.push_unchecked(m)
            mobility = len(g.legal_moves())
            g.pop()
            return score_move(g, m), mobility

        best = max(moves, key=full_key)  # max keeps the first of equal keys, like the heuristic
        assert best_heuristic_move(game) == best


def test_a_fuzz_of_positions_keeps_the_limit() -> None:
    """Random play-outs of every variant and option: none may overrun a 0.1 s limit by much."""
    rng = random.Random(2323)
    worst = 0.0
    for _ in range(25):
        variant = rng.choice(sorted(yukon.VARIANTS))
        game = Game.deal(variant, seed=rng.randrange(1 << 64), empty_column=rng.choice(("kings", "any")),
                         foundation_return=rng.random() < 0.5)
        play_randomly(game, rng, rng.randrange(120))
        _, seconds = timed(solve, game, time_limit=0.1)
        worst = max(worst, seconds)
    assert worst < 0.1 + LOADED


@pytest.mark.parametrize("limits", [
    {"time_limit": math.nan}, {"time_limit": -1.0}, {"time_limit": 0}, {"time_limit": "1"},
    {"time_limit": True}, {"node_limit": -5}, {"node_limit": 0}, {"node_limit": 2.5}, {"node_limit": True},
    {"memory_limit": -1}, {"memory_limit": 0}, {"memory_limit": 1e9}, {"stop": "now"},
])
def test_bad_limits_are_refused_by_name(limits: dict[str, object]) -> None:
    game = Game.deal("yukon", seed=1)
    name = next(iter(limits))
    with pytest.raises(InvalidLimitError, match=name) as info:
        solve(game, **limits)  # type: ignore[arg-type]
    assert isinstance(info.value, YukonError) and isinstance(info.value, ValueError)
    if name in ("time_limit", "stop"):
        with pytest.raises(InvalidLimitError, match=name):
            hint(game, **limits)  # type: ignore[arg-type]


def test_an_infinite_time_limit_is_no_limit() -> None:
    assert solve(Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC"), time_limit=math.inf).status \
        == "won"


def test_limits_too_large_for_a_float_or_a_c_integer_are_no_limit() -> None:
    game = Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC")
    assert solve(game, time_limit=10**400, node_limit=10**30, memory_limit=10**40).status == "won"
    deal = Game.deal("yukon", seed=2)
    result, seconds = timed(solve, deal, time_limit=0.2, node_limit=10**30, memory_limit=10**40)
    assert result.status in ("won", "unknown") and seconds < 0.2 + LOADED
    assert hint(game, time_limit=10**400).source == "solver"


@pytest.mark.parametrize("name", ["time_limit", "node_limit", "memory_limit"])
@pytest.mark.parametrize("value", [-(10**5000), "9" * 1_000_000, [0] * 100_000],
                         ids=["huge-int", "huge-text", "long-list"])
def test_a_bad_limit_is_named_in_a_line(name: str, value: object) -> None:
    """An int of 5,000 digits has no repr (Python refuses, with a plain ValueError), and a megabyte of text
    was echoed whole: the message quotes either in a line."""
    with pytest.raises(InvalidLimitError, match=name) as info:
        solve(Game.deal("yukon", seed=1), **{name: value})  # type: ignore[arg-type]
    assert len(str(info.value)) < 300 and "\n" not in str(info.value)


def test_huge_limits_are_no_limit_for_the_honest_player_and_the_analysis() -> None:
    from yukon.analysis import analyze
    from yukon.honest import Budget, play_honest
    from yukon.record import GameRecord

    won_in_one = Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC")
    assert yukon.hint(won_in_one, time_limit=10**400, peek=False, seed=1).move is not None
    assert play_honest(won_in_one.copy(), Budget(), time_limit=10**400).reason == "won"
    record = GameRecord.from_game(won_in_one)
    assert analyze(record, time_limit=10**400, total_limit=10**500).start == "won"
    with pytest.raises(InvalidLimitError, match="time_limit"):
        play_honest(won_in_one.copy(), Budget(), time_limit=-(10**5000))
    with pytest.raises(InvalidLimitError, match="total_limit"):
        analyze(record, time_limit=1, total_limit="x" * 100_000)


_INTERRUPT_AFTER = """
import os, signal, sys, threading, time
sent = []
def interrupt():
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)
def interrupt_soon():  # (after the imports: a Ctrl-C in the middle of one is a traceback, as for any program)
    threading.Timer(float(sys.argv[1]), interrupt).start()
"""


def _interrupted(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in a process of its own that gets a Ctrl-C (SIGINT) ``argv[0]`` seconds in."""
    return subprocess.run([sys.executable, "-c", _INTERRUPT_AFTER + code, *argv], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


@pytest.mark.parametrize("call", ["solve", "hint"])
@pytest.mark.parametrize("name", ["yukon 595", "milligan 450"])
def test_a_ctrl_c_ends_a_compiled_search_at_once(call: str, name: str) -> None:
    """The compiled search runs without the GIL: a Ctrl-C in a notebook or a script was seen only at the time
    limit (30 s here; never with none), and ``yukon solve -t none`` could not be interrupted at all."""
    if search._core is None:
        pytest.skip("the compiled core was not built")
    variant, seed, empty, back = HARD[name]
    code = f"""
from yukon import Game, {call}
game = Game.deal({variant!r}, seed={seed}, empty_column={empty!r}, foundation_return={back})
interrupt_soon()
try:
    {call}(game, time_limit=30)
    print("returned")
except KeyboardInterrupt:
    restored = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    print(f"interrupted {{time.perf_counter() - sent[0]:.3f}}", restored)
"""
    done = _interrupted(code, "1.0")
    words = done.stdout.split()
    assert words[:1] == ["interrupted"] and words[2:] == ["True"], done.stdout + done.stderr
    assert float(words[1]) < LOADED, f"{call} took {words[1]} s after the Ctrl-C"


def test_yukon_solve_without_a_time_limit_ends_at_a_ctrl_c() -> None:
    if search._core is None:
        pytest.skip("the compiled core was not built")
    code = "from yukon.cli import main; interrupt_soon(); sys.exit(main(['solve', '-s', '595', '-t', 'none']))"
    done = _interrupted(code, "1.0")
    assert done.returncode == 130 and done.stderr == "" and done.stdout == "", done
