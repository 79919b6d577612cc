"""yukon.solve / yukon.hint / ``yukon solve``: the contract around the search.

Limits, the stop event, hints, the command line, and real deals of every variant
(every "won" line replays to a win through the engine).
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import threading
import time
from functools import cache
from pathlib import Path

import pytest

import yukon
from engine_helpers import play_randomly
from wall_clock import LOADED, timed
from yukon import Game
from yukon.cards import NAME
from yukon.cli import main
from yukon.solver import HintResult, SolveResult, hint, search, solve

from .positions import VARIANTS, small_position
from .reference import reference_solve, replays_to_win

TINY_WON = "yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC"
#: lost (the 5S lies on the 6S and the 4S it needs), with a few moves left
STUCK = "russian,kings,noreturn 4S6S.5S/KS/QS/JS/TS/9S/8S7S 3S/KH/KD/KC"


@cache
def undecided_deal() -> Game:
    """A Yukon deal the solver does not decide within 100,000 positions (found, not assumed): a search of it
    runs far longer than the 0.05 s these tests give it."""
    for seed in range(1, 200):
        game = Game.deal("yukon", seed=seed)
        if solve(game, time_limit=None, node_limit=100_000).status == "unknown":
            return game
    raise AssertionError("every deal decided within 100,000 nodes: pick a harder budget for these tests")


# ------------------------------------------------------------------ solve()


def test_solve_result_shape() -> None:
    result = solve(Game.from_text(TINY_WON))
    assert isinstance(result, SolveResult)
    assert result.status == "won" and [str(m) for m in result.moves] == ["2:QS>F", "1:KS>F"]
    data = result.to_dict()
    assert data["status"] == "won" and data["moves"] == ["2:QS>F", "1:KS>F"]
    assert json.loads(json.dumps(data)) == data
    assert result.nodes >= 1 and result.seconds >= 0 and result.decided


def test_solve_of_a_won_position() -> None:
    won = Game.from_text("yukon,kings,noreturn -/-/-/-/-/-/- KS/KH/KD/KC")
    result = solve(won)
    assert result.status == "won" and result.moves == []


def test_solve_rejects_what_is_not_a_game() -> None:
    with pytest.raises(TypeError):
        solve(Game.deal("yukon", seed=1).to_dict())  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
def test_solve_never_modifies_the_game(variant: str) -> None:
    game = Game.deal(variant, seed=11)
    play_randomly(game, random.Random(variant), 5)  # with some history, which solve() must keep as it is
    before, stack = game.to_dict(), game.move_stack
    for limits in ({"node_limit": 3000, "time_limit": None}, {"time_limit": 0.05}):
        solve(game, **limits)  # type: ignore[arg-type]
        assert game.to_dict() == before and game.move_stack == stack
    hint(game, time_limit=0.05)
    assert game.to_dict() == before and game.move_stack == stack


def test_time_limit_gives_unknown() -> None:
    game = undecided_deal()
    result, seconds = timed(solve, game, time_limit=0.05)
    assert result.status == "unknown" and result.reason == "time limit"
    assert result.moves == []
    assert seconds < 0.05 + LOADED


def test_node_limit_gives_unknown() -> None:
    game = undecided_deal()
    result = solve(game, time_limit=None, node_limit=50_000)
    assert result.status == "unknown" and result.reason == "node limit"
    assert result.nodes <= 50_000 + 4096 + 1000  # the compiled search checks its limits every 4,096 nodes


def test_node_limit_bounds_the_work() -> None:
    """The node limit holds in the best-first phase too (it once ran its whole position budget)."""
    game = undecided_deal()
    result = solve(game, time_limit=None, node_limit=100)
    assert result.status == "unknown" and result.reason == "node limit"
    assert result.nodes <= 100 + 1000, result.nodes  # checks every few hundred nodes are fine


class WatchedStop(threading.Event):
    """A stop event that counts how often the search looks at it, and says when it has looked ``enough`` times."""

    def __init__(self, enough: int) -> None:
        super().__init__()
        self.looks = 0
        #: the looks that found it set (counted once read: a look begun before ``set`` may return True)
        self.saw_set = 0
        self.enough = enough
        self.searching = threading.Event()

    def is_set(self) -> bool:
        self.looks += 1
        if self.looks >= self.enough:
            self.searching.set()
        flag = super().is_set()
        self.saw_set += flag
        return flag


def test_stop_event_from_another_thread() -> None:
    game = undecided_deal()
    stop = WatchedStop(enough=200)  # the search looks at it every few nodes: 200 looks are well under way
    out: list[SolveResult] = []
    worker = threading.Thread(target=lambda: out.append(solve(game, time_limit=None, stop=stop)))
    worker.start()
    # set only once the search is under way (a stop set before it starts is test_stop_event_already_set)
    assert stop.searching.wait(timeout=60), f"the search looked at the stop event {stop.looks} times in 60 s"
    assert worker.is_alive(), "the search ended by itself (see undecided_deal)"
    stop.set()
    stopped_at = time.perf_counter()
    worker.join(timeout=20)
    assert not worker.is_alive(), "solve() did not stop"
    assert time.perf_counter() - stopped_at < LOADED
    assert out[0].status == "unknown" and out[0].reason == "stopped"
    # it had searched, and it saw the stop (a count of looks before and after raced: the look that saw it may
    # have begun, and been counted, before the stop was set)
    assert out[0].nodes > 0 and stop.saw_set > 0


def test_stop_event_already_set() -> None:
    stop = threading.Event()
    stop.set()
    result = solve(undecided_deal(), time_limit=None, stop=stop)
    assert result.status == "unknown" and result.reason == "stopped"


# ------------------------------------------------------------------ hint()


def winnable_positions_with_losing_moves(count: int) -> list[Game]:
    """Small positions that can be won but where some legal move throws the win away."""
    rng = random.Random("hint")
    found = []
    for _ in range(200):
        game = small_position(rng, rng.choice(VARIANTS), remaining=(6, 10))
        ref = reference_solve(game, max_states=800)
        if ref is None or ref.status != "won":
            continue
        bad = 0
        for m in game.legal_moves():
            after = game.copy()
            after.push(m)
            r = reference_solve(after, max_states=800)
            bad += r is not None and r.status == "lost"
        if bad:
            found.append(game)
            if len(found) == count:
                break
    return found


@pytest.mark.slow  # solves to check each hint
def test_hint_gives_the_first_move_of_a_winning_line() -> None:
    games = winnable_positions_with_losing_moves(4)
    assert len(games) >= 3
    for game in games:
        h = hint(game, time_limit=5.0)
        assert isinstance(h, HintResult)
        assert h.source == "solver" and h.status == "won", (game.to_text(), h)
        assert h.move in game.legal_moves()
        assert h.line and h.line[0] == h.move and replays_to_win(game, h.line)
        after = game.copy()
        after.push(h.move)
        ref = reference_solve(after, max_states=1500)
        assert ref is None or ref.status == "won", (game.to_text(), str(h.move))
        assert h.to_dict()["move"] == str(h.move) and h.to_dict()["source"] == "solver"


def test_hint_falls_back_to_the_heuristic_when_the_limit_is_tiny() -> None:
    game = undecided_deal()
    h = hint(game, time_limit=1e-6)
    assert h.source == "heuristic" and h.status == "unknown"
    assert h.move in game.legal_moves()


def test_hint_on_a_lost_position_with_moves() -> None:
    game = Game.from_text(STUCK)
    assert game.legal_moves()
    h = hint(game, time_limit=2.0)
    assert h.source == "heuristic" and h.status == "lost" and h.move in game.legal_moves()


def test_hint_with_no_move() -> None:
    lost = Game.from_text(STUCK)
    lost.push(lost.parse_move("3:QS>2"))
    for text in ("4:JS>2", "5:TS>2", "6:9S>2", "7:8S+1>2"):
        lost.push(lost.parse_move(text))
    assert not lost.legal_moves() and lost.is_lost()
    h = hint(lost)
    assert h.move is None and h.source == "none" and h.status == "lost"
    won = Game.from_text("yukon,kings,noreturn -/-/-/-/-/-/- KS/KH/KD/KC")
    h = hint(won)
    assert h.move is None and h.source == "none" and h.status == "won"


# ------------------------------------------------------------------ real deals


@pytest.mark.parametrize("seed", range(1, 31))
def test_yukon_deals_1_to_30(seed: int) -> None:
    """Standard Yukon, 2 s each at most (and a node budget, so that the run is the same on any machine):
    every "won" line replays to a win."""
    game = Game.deal("yukon", seed=seed)
    result = solve(game, time_limit=2.0, node_limit=60_000)
    if result.status == "won":
        assert replays_to_win(game, result.moves)
    elif result.status == "unknown":
        assert result.reason in ("node limit", "time limit")


@pytest.mark.parametrize(
    "variant", [pytest.param(v, marks=[pytest.mark.slow] if v == "milligan-yukon" else []) for v in VARIANTS]
)  # two decks: the long deals
def test_deals_of_every_variant_replay(variant: str) -> None:
    won = 0
    for seed in range(1, 4):
        for options in ({}, {"empty_column": "any"}, {"foundation_return": True}):
            game = Game.deal(variant, seed=seed, **options)  # type: ignore[arg-type]
            result = solve(game, time_limit=2.0, node_limit=15_000)
            if result.status == "won":
                won += 1
                assert replays_to_win(game, result.moves), (variant, seed, options)
    if variant != "russian":  # Russian Solitaire deals are mostly lost
        assert won >= 1


# ------------------------------------------------------------------ the command line


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
            monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["--variant", "yukon", "--seed", "3", "--time-limit", "5"], capsys)
    game = Game.deal("yukon", seed=3)
    result = solve(game, time_limit=5)
    assert code == {"won": 0, "lost": 1, "unknown": 3}[result.status]
    if result.status == "won":
        line = out.strip().splitlines()[-1].split()
        assert replays_to_win(game, [yukon.Move.from_text(t) for t in line])
        assert out.startswith("WON")
        # the second line says what decided it: the table's peak, or the phase that used none
        assert re.fullmatch(r"[\d.]+ s, [\d,]+ positions examined \([\d,]+/s\), "
                            r"(table peak [1-9][\d,]*|by the [a-z ]+)", out.splitlines()[1]), out
    assert err == ""


def test_cli_one_line_form_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli([TINY_WON, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "won" and data["moves"] == ["2:QS>F", "1:KS>F"]
    assert data["position"] == TINY_WON and data["nodes"] >= 1


def test_cli_position_file_lost(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(Game.from_text(STUCK).to_dict()))
    code, out, _ = run_cli([str(path)], capsys)
    assert code == 1 and out.startswith("LOST")
    stuck = " ".join(NAME[c] for c in search.stuck_cards(Game.from_text(STUCK)))
    assert stuck and f"these cards can never leave their places: {stuck}" in out  # the proof, named
    assert out.splitlines()[2].endswith(" positions examined (0/s), before any search"), out  # (was 'by the stuck: ..')


def test_cli_of_a_won_position_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["yukon,kings,noreturn -/-/-/-/-/-/- KS/KH/KD/KC"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("WON"), out
    assert lines[-1] == "the position is already won: every card is on the foundations", out  # (was an empty line)
    assert "winning line" not in out


def test_cli_names_the_cards_that_never_go_up(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule 4's proof before any search: its own line, as rule 3's ('by the never up: AS AC ...' before)."""
    code, out, _ = run_cli(["--variant", "russian", "--seed", "12"], capsys)
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("LOST") and len(lines) == 3, out
    assert lines[1].startswith("these cards can never reach their foundations: AS AC 2S "), out
    assert lines[2].endswith(", before any search") and "never up" not in out, out


def test_cli_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(Game.from_text(TINY_WON).to_dict())
    code, out, _ = run_cli(["-", "--json"], capsys, stdin=text, monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["status"] == "won"
    code, out, _ = run_cli(["-"], capsys, stdin=TINY_WON + "\n", monkeypatch=monkeypatch)
    assert code == 0 and "2:QS>F 1:KS>F" in out


def test_cli_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    game = undecided_deal()
    code, out, _ = run_cli([game.to_text(), "--time-limit", "0.05", "--json"], capsys)
    assert code == 3 and json.loads(out)["status"] == "unknown"


def test_cli_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli([TINY_WON, "--show"], capsys)
    assert code == 0
    assert "2:QS>F" in out and "1. 2:QS>F" in out and "2. 1:KS>F" in out


@pytest.mark.parametrize("args", [
    ["--variant", "nope", "--seed", "1"],
    ["/nonexistent/position.json"],
    ["yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD"],  # a foundation missing
    ["--seed", "1", TINY_WON],  # both a deal and a position
    [],  # neither
    ["--seed", "1", "--time-limit", "0"],
])
def test_cli_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(args, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("yukon: error:"), err


def test_cli_as_a_program() -> None:
    """The installed entry point: exit statuses as the shell sees them."""
    won = subprocess.run([sys.executable, "-m", "yukon.cli", "solve", TINY_WON], capture_output=True, text=True,
                         timeout=60)
    assert won.returncode == 0 and "WON" in won.stdout
    bad = subprocess.run([sys.executable, "-m", "yukon.cli", "solve", "not a position at all"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_cli_one_move_and_one_position_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    """It said "1 positions examined" and "winning line (1 moves):"."""
    code, out, _ = run_cli(["yukon,kings,noreturn KC/-/-/-/-/-/- KS/KH/KD/QC"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[2:] == ["winning line (1 move):", "1:KC>F"], out
    examined = re.search(r", ([\d,]+) (positions?) examined ", lines[1])
    assert examined, out
    assert examined[2] == ("position" if examined[1] == "1" else "positions"), out
