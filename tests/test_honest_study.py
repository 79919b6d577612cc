"""The honest player in the study (yukon.study.players) and as the environment's baseline policy."""

from __future__ import annotations

import pytest

from yukon.honest import STUDY_BUDGET, WEB_BUDGET
from yukon.study.db import DealRow, StudyDB, StudyParams
from yukon.study.players import (
    HONEST_VERSION,
    comparison_table,
    honest_label,
    honest_study,
    is_honest,
    parse_budget,
    player_budget,
)
from yukon.study.report import collect
from yukon.study.worker import DealTask, solve_deal


def test_labels_and_budgets_round_trip() -> None:
    budget = parse_budget("5x3000")
    assert (budget.samples, budget.nodes) == (5, 3000)
    label = honest_label(budget)
    assert label.startswith("honest-") and label.endswith(" 5x3000")
    assert player_budget(label) == budget
    assert player_budget("13") is None
    # the study's and the web's budgets are themselves, their pure-Python parts included
    assert parse_budget("12x10000") == STUDY_BUDGET and parse_budget("24x20000") == WEB_BUDGET
    for bad in ("5", "x300", "5x", "0x100", "five x 10"):
        with pytest.raises(ValueError):
            parse_budget(bad)


def test_honest_study_params_differ_from_the_solvers() -> None:
    solver = StudyParams("yukon", "kings", False, 30.0, None, 10**9, "13")
    honest = honest_study(solver, "honest", "4x1000")
    assert is_honest(honest) and not is_honest(solver)
    assert honest.time_limit is None and honest.node_limit is None
    with pytest.raises(ValueError, match="--player honest"):
        honest_study(solver, "solver", "4x1000")
    with pytest.raises(ValueError, match="--budget"):
        honest_study(StudyParams("yukon", "kings", False, None, 5000, 10**9, "13"), "honest", None)


def test_a_worker_plays_an_honest_deal() -> None:
    label = honest_label(parse_budget("2x1000"))
    task = DealTask("yukon", "kings", False, 3, None, None, None, player=label)
    row = solve_deal(task)  # the worker's one entry point dispatches on the player
    assert row.solver_version == label and row.seed == 3
    assert row.status in ("won", "lost") and row.line_length > 0
    assert row.reason.split(",")[0] in ("won", "no move", "repeats", "move limit")
    assert (row.status == "won") == row.reason.startswith("won")


def test_report_puts_the_honest_rate_beside_the_solvers_on_the_same_deals() -> None:
    db = StudyDB(":memory:")
    solver = StudyParams("yukon", "kings", False, 30.0, None, 10**9, "13")
    honest = honest_study(solver, "honest", None)
    sid, hid = db.study_id(solver), db.study_id(honest)
    for seed in range(1, 11):
        db.add(sid, DealRow(seed, "won" if seed != 4 else "lost", 0.1, 10, 90, 0, "", "13", "h"))
    for seed in range(1, 6):  # the honest study covers deals 1-5 only
        status = "won" if seed in (1, 2, 3) else "lost"
        db.add(hid, DealRow(seed, status, 5.0, 1000, 120, 0, "won", honest.solver_version, "h"))
    table = comparison_table(collect(db))
    row = next(line for line in table.splitlines() if line.startswith("| yukon"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[4:7] == ["5", "3", "60.0%"]  # honest: 3 of 5
    assert cells[9:11] == ["4 / 5", "80.0%"]  # the solver on the same five deals
    assert cells[12] == "39.5%"  # the greedy baseline (docs/agents.md)
    assert comparison_table(collect(StudyDB(":memory:"))) == ""



def test_report_takes_the_solver_study_that_decides_most_then_the_newest() -> None:
    db = StudyDB(":memory:")
    honest = honest_study(StudyParams("yukon", "kings", False, 30.0, None, 10**9, "13"), "honest", None)
    hid = db.study_id(honest)
    for seed in range(1, 5):
        db.add(hid, DealRow(seed, "won", 5.0, 1000, 120, 0, "won", honest.solver_version, "h"))
    # three solver studies of the same four deals: one leaves a deal undecided, two decide all four
    for version, limit, statuses in (("15", 20.0, "wuww"), ("14", 10.0, "wwww"), ("16", 30.0, "wlww"),
                                     ("13", 40.0, "wlll")):
        sid = db.study_id(StudyParams("yukon", "kings", False, limit, None, 10**9, version))
        for seed, status in enumerate(statuses, 1):
            db.add(sid, DealRow(seed, {"w": "won", "l": "lost", "u": "unknown"}[status], 0.1, 10, 90, 0, "",
                                version, "h"))
    row = next(line for line in comparison_table(collect(db)).splitlines() if line.startswith("| yukon"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[8].startswith("16 ") and cells[9] == "3 / 4"  # 16 and 14 decide all four: the newer

def test_env_offers_the_honest_player_as_a_baseline() -> None:
    gym = pytest.importorskip("gymnasium")
    import yukon.env

    env = gym.make("yukon/Australian-v0")
    _, info = env.reset(seed=6)
    inner = env.unwrapped
    steps = 0
    while steps < 5:
        action = yukon.env.honest_action(inner, seed=steps)
        if action is None:
            break
        assert info["action_mask"][action] == 1
        _, _, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"]
        steps += 1
        if terminated or truncated:
            break
    assert steps > 0


def test_the_baseline_plays_the_studys_game_through_gym_make(monkeypatch: pytest.MonkeyPatch) -> None:
    """honest_action takes what gym.make returns (it raised AttributeError on the TimeLimit wrapper), and
    bench/agents.py's honest agent, seeded as play_honest seeds its decisions, plays the study's game of the
    deal move for move (seeded from decision 1, it won 8 of Yukon deals 1-20 against the study's 14)."""
    gym = pytest.importorskip("gymnasium")
    import yukon.env
    from bench_scripts import load_bench
    from yukon import Game
    from yukon.honest import Budget, play_honest

    budget = Budget(samples=3, nodes=2_000)
    study = Game.deal("yukon", seed=4)
    played = play_honest(study, budget, seed=4, max_moves=12)
    env = gym.make("yukon/Yukon-v0")
    env.reset(seed=4)
    for ply in range(played.moves):
        action = yukon.env.honest_action(env, seed=4 * 1009 + ply, budget=budget)
        assert action is not None
        env.step(action)
    assert env.unwrapped.game.move_stack == study.move_stack
    with pytest.raises(TypeError, match="yukon environment"):
        yukon.env.honest_action(gym.make("CartPole-v1"))

    agents = load_bench("agents")
    agent = agents.HonestAgent()
    seeds: list[int] = []
    monkeypatch.setattr(yukon.env, "honest_action", lambda env, *, seed: seeds.append(seed) or 0)
    agent.reset(env.unwrapped, 4)
    for _ in range(3):
        agent.act({}, {})
    assert seeds == [4 * 1009, 4 * 1009 + 1, 4 * 1009 + 2]  # play_honest's decision seeds for deal 4


@pytest.mark.parametrize("extra, named", [
    (["--time-limit", "0.001"], "--time-limit is the solver's"),
    (["-t", "none"], "--time-limit is the solver's"),
    (["--threads", "2"], "--threads is the solver's"),
    (["-t", "5", "--threads", "1"], "--time-limit and --threads are the solver's"),
])
def test_an_honest_study_refuses_the_solvers_limits(tmp_path, capsys, extra: list[str], named: str) -> None:
    """They were ignored without a word (an honest game has its budget, no time limit and one thread)."""
    from yukon.cli import main

    db = tmp_path / "s.sqlite3"
    assert main(["study", "--player", "honest", "--seeds", "1-2", "--db", str(db), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("yukon: error:") and "\n" not in err and named in err and "--budget" in err, err
    assert not db.exists()


def test_cli_runs_an_honest_study_resumes_it_and_reports_it(tmp_path, capsys) -> None:
    from yukon.cli import main

    db = tmp_path / "s.sqlite3"
    args = ["study", "--player", "honest", "--budget", "2x500", "--variant", "yukon", "--seeds", "1-2",
            "--workers", "1", "--db", str(db)]
    assert main(args) == 0
    rows = StudyDB(db).rows(next(sid for sid, _ in StudyDB(db).studies()))
    assert [r.seed for r in rows] == [1, 2] and all(r.solver_version.endswith(" 2x500") for r in rows)
    assert main(args) == 0  # resumed: nothing left to play
    said = capsys.readouterr()
    assert "2 were already done" in " ".join((said.out + said.err).split())  # (Rich wraps lines)
    assert main(["study", "--variant", "yukon", "--seeds", "1-2", "--time-limit", "none", "--node-limit",
                 "2000", "--workers", "1", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["study", "report", "--db", str(db), "--plots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "The honest player beside the solver" in out and f"honest-{HONEST_VERSION} 2x500" in out
    assert main(["study", "--player", "honest", "--budget", "bad", "--seeds", "1", "--db", str(db)]) == 2
