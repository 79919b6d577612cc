"""Post-game analysis (yukon.analysis): the losing move, the winning continuation, and never a guess."""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yukon.analysis
import yukon.errors
import yukon.solver
from bench_scripts import load_bench
from engine_helpers import play_randomly
from yukon import Game
from yukon.analysis import (
    DEFAULT_TIME_LIMIT,
    FIRST_ROUND_LIMIT,
    UNDECIDED_PER_ROUND,
    Analysis,
    analyze,
    range_text,
    round_limits,
)
from yukon.cli import main
from yukon.record import GameRecord
from yukon.solver import SolveResult, solve

#: 5C covers 4C and can only go onto 6H: sending 6H up first loses the game
TRAP = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"


def record_of(text: str, moves: list[str], **meta: Any) -> GameRecord:
    game = Game.from_text(text)
    game.replay(moves)
    return GameRecord.from_game(game, **meta)


def replays_to_a_win(record: GameRecord, losing_move: int, line: list[Any]) -> bool:
    game = record.game(losing_move - 1)
    for move in line:
        game.push(move)
    return game.is_won()


# ---------------------------------------------------------------------- with the solver


@pytest.mark.parametrize("moves, losing", [
    (["2:6H>F"], 1),
    (["4:6C>3", "2:6H>F"], 2),              # a harmless move, then the losing one: a dead end
    (["2:6H>F", "4:6C>3"], 1),              # a move after the loss
])
def test_constructed_losing_move(moves: list[str], losing: int) -> None:
    record = record_of(TRAP, moves)
    result = analyze(record, time_limit=10)
    assert (result.start, result.losing_move, result.unknown_moves) == ("won", losing, [])
    assert result.end == "lost" and result.losing_range is None
    assert result.continuation and replays_to_a_win(record, losing, result.continuation)
    assert result.to_dict() == {
        "start": "won", "losing_move": losing, "unknown_moves": [],
        "continuation": [str(m) for m in result.continuation],
    }


def test_a_won_game_has_no_losing_move() -> None:
    game = Game.from_text(TRAP)
    game.replay(solve(game, time_limit=10).moves)
    assert game.is_won()
    result = analyze(GameRecord.from_game(game, result="won"), time_limit=10)
    assert (result.start, result.losing_move, result.continuation, result.unknown_moves) == ("won", None, [], [])
    assert result.end == "won" and result.solver_calls == 0  # a won end proves every position won


def test_a_game_left_while_winnable() -> None:
    result = analyze(record_of(TRAP, ["1:5C>2"]), time_limit=10)
    assert (result.start, result.losing_move, result.end, result.unknown_moves) == ("won", None, "winnable", [])


def test_a_lost_start_has_no_losing_move() -> None:
    record = record_of(TRAP, ["2:6H>F"])
    lost_start = GameRecord.from_parts(record.game(), [])
    result = analyze(lost_start, time_limit=10)
    assert (result.start, result.losing_move, result.continuation, result.unknown_moves) == ("lost", None, [], [])
    longer = record_of(TRAP.replace("4C.5C/6H/", "4C.5C/-/").replace("KS/5H", "KS/6H"), [])
    assert analyze(longer, time_limit=10).start == "lost"


def test_a_shipped_lost_deal_is_answered_at_once_without_the_solver(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    from yukon import deal_data

    assert deal_data.verdict_for("yukon", 91).status == "lost"  # (one of the hardest deals to decide)
    game = Game.deal("yukon", seed=91)
    play_randomly(game, random.Random(1), 6)
    record = GameRecord.from_game(game)

    def no_solver(position: Game, **_: Any) -> SolveResult:
        raise AssertionError("the solver was asked about a deal the shipped verdicts decide")

    result = analyze(record, time_limit=30, solver=no_solver)
    assert (result.start, result.losing_move, result.continuation, result.unknown_moves) == ("lost", None, [], [])
    assert result.end == "lost" and result.losing_range is None and result.solver_calls == 0
    assert result.moves == 6 and result.positions == len({g.to_text() for g in record.positions()})
    result = analyze(record, time_limit=30)  # the default solver too, and at once
    assert result.start == "lost" and result.solver_calls == 0 and result.seconds < 1
    path = tmp_path / "game.json"
    record.write(path)
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "start: LOST" in out and "no move lost this game" in out
    # the same position without its deal number is the solver's to decide
    asked: list[Game] = []
    unnumbered = GameRecord.from_parts(record.start, record.moves)
    analyze(unnumbered, time_limit=0.01, solver=lambda position, **_: asked.append(position) or SolveResult("unknown"))
    assert asked


def weak_playout(seed: int, length: int = 120) -> GameRecord:
    """Yukon deal ``seed`` played by bench/analyze.py's weak player: cards up whenever it can (70%), else any
    new move."""
    return GameRecord.from_game(load_bench("analyze").weak_game(seed, length))


@pytest.mark.parametrize("seed, losing", [(4, 15), pytest.param(1, 18, marks=pytest.mark.slow)])
def test_real_games_lost_by_a_weak_player(seed: int, losing: int) -> None:
    record = weak_playout(seed)
    result = analyze(record, time_limit=20)
    assert (result.start, result.losing_move, result.end, result.unknown_moves) == ("won", losing, "lost", [])
    assert replays_to_a_win(record, losing, result.continuation)
    assert solve(record.game(losing), time_limit=20).status == "lost"  # checked again, on its own
    assert solve(record.game(losing - 1), time_limit=20).status == "won"


def test_tiny_limits_leave_a_range_never_a_wrong_answer() -> None:
    game = Game.deal("yukon", seed=5)
    play_randomly(game, random.Random(1), 20)
    record = GameRecord.from_game(game)
    result = analyze(record, time_limit=0.001)
    assert result.unknown_moves, "a millisecond decides none of these positions"
    assert result.losing_move is None and result.continuation == []
    assert set(result.unknown_moves) <= set(range(21))
    assert all(result.verdicts[k] == "unknown" for k in result.unknown_moves)
    if result.losing_range is not None:
        first, last = result.losing_range
        assert 1 <= first <= last <= 20


def test_a_stop_event_ends_the_analysis_at_once() -> None:
    game = Game.deal("yukon", seed=5)
    play_randomly(game, random.Random(1), 30)
    stop = threading.Event()
    stop.set()
    result = analyze(GameRecord.from_game(game), time_limit=30, stop=stop)
    assert result.seconds < 5 and result.losing_move is None
    assert result.solver_calls <= 1 and result.unknown_moves


@pytest.mark.parametrize("limits, words", [
    ({"time_limit": 0}, "time_limit"), ({"time_limit": -1}, "time_limit"), ({"time_limit": "x"}, "time_limit"),
    ({"time_limit": None}, "time_limit"), ({"total_limit": -1}, "total_limit"), ({"total_limit": "60"}, "total_limit"),
    ({"stop": 3}, "stop"),
])
def test_bad_limits_are_refused_before_any_work(limits: dict[str, Any], words: str) -> None:
    """As yukon.solve refuses them ('x' raised TypeError in the rounds, 0 and -1 ran, stop=3 AttributeError)."""
    calls: list[Game] = []
    record = record_of(TRAP, [])
    with pytest.raises(yukon.errors.InvalidLimitError, match=words):
        analyze(record, solver=lambda position, **_: calls.append(position) or solve(position), **limits)
    with pytest.raises(yukon.errors.InvalidLimitError, match=words):
        yukon.analyze(record, **limits)
    assert calls == []


# ---------------------------------------------------------------------- the search, with a stand-in solver


def distinct_playout(length: int) -> GameRecord:
    """A Yukon game of ``length`` moves that never returns to a position."""
    game = Game.deal("yukon", seed=17)
    rng = random.Random(4)
    seen = {game.to_text()}
    while len(game.move_stack) < length:
        moves = game.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            game.push(move)
            if game.to_text() not in seen:
                seen.add(game.to_text())
                break
            game.pop()
        else:  # pragma: no cover - the deal has room for the lengths used
            raise AssertionError("playout stuck")
    return GameRecord.from_game(game)


PLAYOUT = distinct_playout(40)
INDEX = {g.to_text(): k for k, g in enumerate(PLAYOUT.positions())}


class Oracle:
    """Positions before ``boundary`` are won, the others lost; ``hidden`` ones come back unknown, and
    ``hard`` ones unknown unless the solver is given at least as many seconds as they name."""

    def __init__(self, boundary: int, hidden: set[int], hard: dict[int, float] | None = None) -> None:
        self.boundary = boundary
        self.hidden = hidden
        self.hard = hard or {}
        self.calls: Counter[int] = Counter()
        self.limits: dict[int, list[float]] = {}

    def __call__(self, game: Game, time_limit: float, stop: threading.Event | None = None) -> SolveResult:
        k = INDEX[game.to_text()]
        self.calls[k] += 1
        self.limits.setdefault(k, []).append(time_limit)
        if k in self.hidden or time_limit < self.hard.get(k, 0.0):
            return SolveResult("unknown", reason="time limit")
        if k < self.boundary:
            return SolveResult("won", [PLAYOUT.moves[k]] if k < len(PLAYOUT.moves) else [])
        return SolveResult("lost")


ROUNDS = len(round_limits(DEFAULT_TIME_LIMIT, None))


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(boundary=st.integers(0, 41), hidden=st.sets(st.integers(0, 40), max_size=12))
def test_the_search_never_guesses(boundary: int, hidden: set[int]) -> None:
    n = 40
    oracle = Oracle(boundary, hidden)
    result = analyze(PLAYOUT, solver=oracle)
    # a position is solved once, or once a round while it stays undecided (each time with more time)
    assert all(oracle.calls[k] == 1 for k in oracle.calls if k not in hidden)
    assert all(limits == sorted(set(limits)) for limits in oracle.limits.values())
    assert len(oracle.calls) <= 8 + 2 * len(hidden)
    assert result.solver_calls == sum(oracle.calls.values()) <= len(oracle.calls) + (ROUNDS - 1) * len(hidden)
    if result.losing_move is not None:
        assert result.losing_move == boundary and 1 <= boundary <= n
        assert result.continuation == [PLAYOUT.moves[boundary - 1]]
    if result.start == "won":
        assert boundary > 0
    if result.start == "lost":
        assert boundary == 0 and result.losing_move is None and not result.unknown_moves
    if not hidden:
        assert result.start == ("lost" if boundary == 0 else "won")
        assert result.losing_move == (boundary if 1 <= boundary <= n else None)
        assert not result.unknown_moves and result.losing_range is None
    assert set(result.unknown_moves) <= hidden
    if result.losing_range is not None:
        first, last = result.losing_range
        assert result.losing_move is None and result.unknown_moves
        possible = first <= boundary <= last or (result.start == "unknown" and boundary == 0) \
            or (result.end == "unknown" and boundary == n + 1)
        assert possible, (boundary, result)
    if result.losing_move is None and result.start == "won" and result.end != "winnable":
        assert result.losing_range is not None  # an open answer says where the losing move may be


def test_the_search_asks_few_positions() -> None:
    oracle = Oracle(23, set())
    result = analyze(PLAYOUT, solver=oracle)
    assert result.losing_move == 23 and result.solver_calls <= 2 + 6  # the end, the start, log2(40) halvings


def test_a_shipped_deal_not_lost_is_still_searched() -> None:
    from yukon import deal_data

    assert deal_data.verdict_for("yukon", 17).status == "won"
    result = analyze(PLAYOUT, solver=Oracle(23, set()))
    assert result.start == "won" and result.losing_move == 23 and result.solver_calls > 0


def test_a_hard_position_away_from_the_losing_move_gets_only_the_first_round() -> None:
    # 30 needs the whole time limit (and is the search's first halving); the losing move (23) is found
    # around it, and then it does not matter
    oracle = Oracle(23, set(), hard={30: DEFAULT_TIME_LIMIT})
    result = analyze(PLAYOUT, solver=oracle)
    assert result.losing_move == 23
    assert oracle.limits[30] == [FIRST_ROUND_LIMIT]


def test_a_round_gives_up_on_a_cluster_of_hard_positions_and_the_next_halves_it_with_more_time() -> None:
    # 15-39 need the whole time limit: the first round does not try them all at its short limit
    oracle = Oracle(23, set(), hard=dict.fromkeys(range(15, 40), DEFAULT_TIME_LIMIT))
    result = analyze(PLAYOUT, solver=oracle)
    assert result.losing_move == 23
    short = [k for k, limits in oracle.limits.items() if FIRST_ROUND_LIMIT in limits and k in oracle.hard]
    assert len(short) == UNDECIDED_PER_ROUND
    assert result.solver_calls <= 2 + 6 + 2 * UNDECIDED_PER_ROUND * (ROUNDS - 1)


def test_with_a_total_limit_the_positions_left_open_get_more_than_the_time_limit() -> None:
    hard = {22: 3 * DEFAULT_TIME_LIMIT, 23: 3 * DEFAULT_TIME_LIMIT}
    without = analyze(PLAYOUT, solver=Oracle(23, set(), hard))
    assert without.losing_move is None and without.losing_range == (22, 24) and without.unknown_moves == [22, 23]
    oracle = Oracle(23, set(), hard)
    result = analyze(PLAYOUT, solver=oracle, total_limit=30)
    assert result.losing_move == 23 and result.unknown_moves == []
    assert max(oracle.limits[22] + oracle.limits[23]) > DEFAULT_TIME_LIMIT


def test_positions_on_the_solvers_winning_line_are_not_solved_again() -> None:
    game = Game.deal("yukon", seed=1)
    at_start = solve(game, time_limit=20)
    assert at_start.status == "won"
    for move in at_start.moves[:4]:  # the player follows the solver's line for four moves...
        game.push(move)
    rng = random.Random(1)
    play_randomly(game, rng, 25)  # ...then plays at random
    record = GameRecord.from_game(game)
    keys = [g.to_text() for g in record.positions()]
    asked: list[str] = []

    def solver(position: Game, **limits: Any) -> SolveResult:
        asked.append(position.to_text())
        return at_start if position.to_text() == keys[0] else solve(position, **limits)

    result = analyze(record, time_limit=20, solver=solver)
    assert result.end == "lost" and result.losing_move is not None and result.losing_move > 4
    assert [result.verdicts[k] for k in range(1, 5)] == ["won"] * 4
    assert not set(keys[1:5]) & set(asked)
    assert replays_to_a_win(record, result.losing_move, result.continuation)


@pytest.mark.parametrize("found_by, shortened", [("greedy probe", False), ("", True)])
def test_the_search_asks_for_verdicts_and_the_answer_for_a_short_line(found_by: str, shortened: bool) -> None:
    # a greedy probe's line is the one the solver would give again; a search's line may shorten
    record = record_of(TRAP, ["4:6C>3", "2:6H>F"])
    asked: list[bool] = []
    real = yukon.solver.solve

    def spy(position: Game, **limits: Any) -> SolveResult:
        asked.append(limits.get("shorten", True))
        result = real(position, **limits)
        if result.status == "won" and not limits.get("shorten", True):
            result.reason = found_by
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yukon.solver, "solve", spy)
        result = analyze(record, time_limit=10)
    assert result.losing_move == 2 and replays_to_a_win(record, 2, result.continuation)
    assert asked.count(True) == shortened and asked[-1] is shortened  # verdicts only, then (maybe) the line


def test_a_position_met_twice_is_solved_once() -> None:
    game = Game.deal("yukon", seed=17)
    there_and_back = None
    for move in game.legal_moves():
        game.push(move)
        for back in game.legal_moves():
            game.push(back)
            if game == Game.deal("yukon", seed=17):
                there_and_back = (move, back)
            game.pop()
        game.pop()
        if there_and_back:
            break
    assert there_and_back, "deal 17 has a move that can be undone by another"
    game.replay(there_and_back)
    calls: Counter[str] = Counter()

    def unknown(g: Game, time_limit: float, stop: threading.Event | None = None) -> SolveResult:
        calls[g.to_text()] += 1
        return SolveResult("unknown")

    result = analyze(GameRecord.from_game(game), solver=unknown)
    assert result.unknown_moves == [0, 1, 2]
    assert sorted(calls.values()) == [ROUNDS, ROUNDS]  # positions 0 and 2 are one position: once a round


def test_total_limit_counts_unreached_positions_as_unknown() -> None:
    oracle = Oracle(23, set())
    result = analyze(PLAYOUT, solver=oracle, total_limit=1e-9)
    assert result.losing_move is None and result.unknown_moves == list(range(41))
    assert result.solver_calls <= 1


# ---------------------------------------------------------------------- the command line


def test_cli_analyze(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    record_of(TRAP, ["4:6C>3", "2:6H>F"], result="lost").write(path)
    assert main(["analyze", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["start", "losing_move", "continuation", "unknown_moves"]
    assert data["start"] == "won" and data["losing_move"] == 2 and data["unknown_moves"] == []
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Move 2, 2:6H>F, lost the game" in out
    assert "The position before move 2" in out and record_of(TRAP, ["4:6C>3"]).game().to_text() in out
    assert " ".join(data["continuation"]) in out
    assert ": 2 moves\n" in out and re.search(r"\(solver: [1-3] of the game's 3 positions, \d+ calls?, ", out), out
    record_of(TRAP, ["2:6H>F"]).write(path)
    assert main(["analyze", str(path)]) == 0
    assert ": 1 move\n" in capsys.readouterr().out


def test_cli_analyze_open_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.deal("yukon", seed=91)  # one of the hardest deals: no verdict in a millisecond
    play_randomly(game, random.Random(1), 6)
    path = tmp_path / "game.json"
    played = GameRecord.from_game(game)
    # (as a position without its deal number: deal 91 is a shipped lost deal, answered without the solver)
    GameRecord.from_parts(played.start, played.moves).write(path)
    assert main(["analyze", str(path), "--time-limit", "0.001", "--total-limit", "0.5", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["losing_move"] is None and data["unknown_moves"]


def test_cli_analyze_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    text = record_of(TRAP, ["2:6H>F"]).to_json()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["analyze", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["losing_move"] == 1


@pytest.mark.parametrize("change, words", [
    (lambda d: d["moves"].__setitem__(0, "3:KH>F"), ("move 1", "'3:KH>F'")),
    (lambda d: d.__setitem__("version", 9), ("version 9",)),
])
def test_cli_analyze_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any,
                                words: tuple[str, ...]) -> None:
    data = record_of(TRAP, ["2:6H>F"]).to_dict()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yukon: error: ") and len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err


@pytest.mark.parametrize("argv", [["--time-limit", "0"], ["-t", "nan"], ["-t", "inf"], ["-t", "none"],
                                  ["--total-limit", "-1"], ["--total-limit", "ten"]])
def test_cli_analyze_bad_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    path = tmp_path / "game.json"
    record_of(TRAP, []).write(path)
    assert main(["analyze", str(path), *argv]) == 2
    option = "--total-limit" if argv[0] == "--total-limit" else "--time-limit"
    assert capsys.readouterr().err == f"yukon: error: {option} must be a positive number, not {argv[1]!r}\n"


def test_cli_time_limit_zero_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same mistake (-t 0) gets the same line from solve, analyze and study run."""
    path = tmp_path / "game.json"
    record_of(TRAP, []).write(path)
    errors = []
    for argv in (["solve", "--seed", "1", "-t", "0"], ["analyze", str(path), "-t", "0"],
                 ["study", "run", "--seeds", "1-2", "--db", str(tmp_path / "s.sqlite3"), "-t", "0"]):
        assert main(argv) == 2
        errors.append(capsys.readouterr().err)
    assert errors == ["yukon: error: --time-limit must be a positive number, not '0'\n"] * 3


def _bad_record_text(kind: str) -> str | bytes:
    good = record_of(TRAP, ["4:6C>3", "2:6H>F"]).to_dict()
    if kind == "bad position":
        good["start"]["tableau"][0]["up"] = ["XX"]
    elif kind == "bad move":
        good["moves"][1] = "2:6H>>F"
    elif kind == "start as text":
        good["start"] = TRAP
    texts: dict[str, str | bytes] = {
        "bad position": json.dumps(good), "bad move": json.dumps(good), "start as text": json.dumps(good),
        "empty": "", "blank": "  \n",
        "truncated": record_of(TRAP, ["4:6C>3"]).to_json()[:80], "nested": "[" * 100_000,
        "one-line position": TRAP + "\n", "not text": b"\x80\x81\xc3(",
    }
    return texts[kind]


@pytest.mark.parametrize("kind, words", [
    ("bad position", ["start position", "not a card: 'XX'"]),
    ("bad move", ["move 2", "'2:6H>>F'"]),
    ("start as text", ["start position is bad: 'start' is a JSON object", "docs/contract.md"]),
    ("empty", ["is empty"]),
    ("blank", ["is empty"]),
    ("truncated", ["ends early", "cut short"]),
    ("nested", ["nested too deeply"]),  # (it was a RecursionError traceback, exit 1)
    ("one-line position", ["one-line form of a position", "not a game record"]),
    ("not text", ["not JSON", "UTF-8"]),
])
def test_cli_analyze_malformed_input_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, words: list[str]
) -> None:
    path = tmp_path / "game.json"
    text = _bad_record_text(kind)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    assert main(["analyze", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.startswith("yukon: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and captured.out == ""
    for word in words:
        assert word in err, err
    if kind not in ("bad position", "bad move", "start as text"):  # (those name the record's part that is bad)
        assert str(path) in err, err


def test_cli_analyze_empty_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["analyze", "-"]) == 2
    assert capsys.readouterr().err == "yukon: error: the game record on standard input is empty (no JSON in it)\n"


def test_cli_analyze_counts_positions_and_solver_calls_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """It said "(solver: N positions)" with N the number of solver calls: a position left undecided is
    asked again in each round, so 3 positions could read "9 positions"."""
    game = Game.from_text(TRAP)
    game.replay(["4:6C>3", "2:6H>F"])
    path = tmp_path / "game.json"
    GameRecord.from_game(game).write(path)

    calls: list[str] = []

    def undecided(position: Game, **limits: Any) -> SolveResult:
        calls.append(position.to_text())
        return SolveResult("unknown")

    real = yukon.analysis.analyze
    monkeypatch.setattr(yukon.analysis, "analyze", lambda record, **kw: real(record, solver=undecided, **kw))
    assert main(["analyze", str(path), "-t", "0.05", "--total-limit", "5"]) == 3
    out = capsys.readouterr().out
    assert len(set(calls)) == 3 and len(calls) > 3  # each position asked once a round
    assert f"(solver: 3 of the game's 3 positions, {len(calls)} calls, " in out, out


def test_cli_analyze_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "/nonexistent/game.json"]) == 2
    assert "cannot read the game record" in capsys.readouterr().err


# ---------------------------------------------------------------------- a range says only what is known
@pytest.mark.parametrize(("start", "end", "says", "never"), [
    ("won", "lost", "The game was lost by one of moves 3 to 5", "If "),
    # the start undecided: it may have been lost already, and then no move lost it
    ("unknown", "lost", "If the start could be won, the game was lost by one of moves 3 to 5", "The game was lost"),
    # the end undecided: the game may never have been lost
    ("won", "unknown", "If the game was lost at all, it was lost by one of moves 3 to 5", "The game was lost"),
    ("unknown", "unknown", "could not tell in time whether the start could be won", "The game was lost"),
])
def test_a_losing_range_is_said_with_what_it_depends_on(start: str, end: str, says: str, never: str) -> None:
    from yukon.analysis import range_text

    result = Analysis(start, None, [], [3, 4], losing_range=(3, 5), end=end, moves=5)
    text = range_text(result)
    assert text is not None and says in text and never not in text


def test_a_range_of_one_move_names_it() -> None:
    from yukon.analysis import range_text

    result = Analysis("unknown", None, [], [0], losing_range=(1, 1), end="lost", moves=3)
    assert range_text(result) == ("If the start could be won, the game was lost by move 1 "
                                  "(the solver could not decide in time whether the deal could be won at all)")
    assert range_text(Analysis("won", 2, [], [], end="lost", moves=3)) is None


def test_cli_analyze_names_the_undecided_start_as_the_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # (it said 'the positions after moves start, 1, 2')
    import yukon.analysis as analysis_module

    open_answer = Analysis("unknown", None, [], [0, 1, 2], losing_range=(1, 2), end="unknown", moves=2)
    monkeypatch.setattr(analysis_module, "analyze", lambda *a, **k: open_answer)
    path = tmp_path / "game.json"
    record_of(TRAP, ["4:6C>3", "2:6H>F"]).write(path)
    assert main(["analyze", str(path)]) == 3
    out = capsys.readouterr().out
    assert "the start and the positions after moves 1, 2" in out and "moves start" not in out
    assert "could not tell in time whether the start could be won" in out


def test_the_web_analysis_says_the_range_in_the_analysis_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the page said 'The game was lost between moves 1 and 2' when the solver could decide neither end)
    import yukon.analysis as analysis_module
    from yukon.web.app import analysis_job

    open_answer = Analysis("unknown", None, [], [0, 1, 2], losing_range=(1, 2), end="unknown", moves=2)
    monkeypatch.setattr(analysis_module, "analyze", lambda *a, **k: open_answer)
    answer = analysis_job(record_of(TRAP, ["4:6C>3", "2:6H>F"]).to_dict(), 0, 1.0, 5.0, None, 5.0)
    assert answer["range_text"] == analysis_module.range_text(open_answer)
    assert "could not tell in time whether the start could be won" in answer["range_text"]
    decided = Analysis("won", 2, [], [], end="lost", moves=2)  # (move 2 of the record's two lost it)
    monkeypatch.setattr(analysis_module, "analyze", lambda *a, **k: decided)
    answer = analysis_job(record_of(TRAP, ["4:6C>3", "2:6H>F"]).to_dict(), 0, 1.0, 5.0, None, 5.0)
    assert answer["range_text"] is None and answer["words"]["2:6H>F"].startswith("six of hearts")


def test_the_range_counts_the_players_moves_after_the_deals_automatic_plays() -> None:
    # an Ace that went up with the deal is no move of the player's: the table's counter, and so the range, skip it
    ranged = Analysis("won", None, [], [3, 4], losing_range=(3, 5), end="lost")
    assert "one of moves 3 to 5 " in (range_text(ranged) or "")
    assert "one of moves 2 to 4 " in (range_text(ranged, dealt=1) or "")
