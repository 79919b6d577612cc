"""Studies played by the honest player (``yukon study --player honest``), and their report beside the solver.

An honest study is an ordinary study whose ``solver_version`` names the player
and its budget, ``honest-1 12x10000`` (player version, samples x nodes per
search): its rows never mix with the solver's, and a run resumes like any
other. The version is the name of the advice the rules choose
(:func:`yukon.honest.heuristic.advice_for`): ``1`` where it is the first
player's (Yukon, Milligan Yukon), ``2s`` for the same-suit advice of round three
(Russian, Alaska, Australian Patience), so rows of a changed variant never mix
with the first player's. A row records how the honest player's game of that deal ended:
``won`` or ``lost`` (it is a game played, not a proof: ``lost`` means the
player got stuck or would only repeat itself), the seconds the game took, the
search nodes spent, ``line_length`` the moves played and ``reason`` how it
ended with the cards it got up.
"""

from __future__ import annotations

import dataclasses
import re
import socket
import threading

from ..deal import MAX_SEED
from ..honest import STUDY_BUDGET, WEB_BUDGET, Budget
from ..honest.heuristic import advice_for
from ..rules import Rules, rules_for
from .db import DealRow, StudyParams
from .stats import pct, pct_range, wilson
from .worker import CODE, DealStopped, DealTask

#: the first player's version (its advice's name): bump an advice's name whenever its decisions change
HONEST_VERSION = "1"
PLAYERS = ("solver", "honest")

_LABEL = re.compile(r"^honest-(\w+) (\d+)x(\d+)$")

#: the greedy agent of bench/agents.py on deals 1-1000 (docs/agents.md), default rules, measured on 3 December
#: 2026. It breaks ties between moves it scores alike by the order of the engine's legal moves, so a change of
#: that order moves these figures (Yukon: 38.8% before the order changed on 29 November): measure them again then.
GREEDY_BASELINE = {"yukon": 0.395, "russian": 0.027, "alaska": 0.062, "australian": 0.086,
                   "milligan-yukon": 0.965}


def player_version(rules: Rules | None = None) -> str:
    """The honest player's version on these rules (None: Yukon's): the name of the advice they choose."""
    return HONEST_VERSION if rules is None else advice_for(rules).name


def honest_label(budget: Budget = STUDY_BUDGET, rules: Rules | None = None) -> str:
    """The ``solver_version`` of an honest study: ``'honest-1 12x10000'`` (Yukon), ``'honest-2s 12x10000'``
    (Alaska)."""
    return f"honest-{player_version(rules)} {budget.samples}x{budget.nodes}"


def parse_budget(text: str) -> Budget:
    """``'12x10000'`` (samples x nodes) as a :class:`Budget`; ValueError naming the fault otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text or "")
    if not m:
        raise ValueError(f"a budget is SAMPLESxNODES (e.g. 12x10000), not {text!r}")
    samples, nodes = int(m.group(1)), int(m.group(2))
    for named in (STUDY_BUDGET, WEB_BUDGET):  # the label of a named budget is that budget, whatever the search
        if (named.samples, named.nodes) == (samples, nodes):
            return named
    # where the compiled search is missing, the pure-Python one keeps the study budget's ratio to the compiled
    return Budget(samples, nodes, max(1, samples * STUDY_BUDGET.python_samples // STUDY_BUDGET.samples),
                  max(1, nodes * STUDY_BUDGET.python_nodes // STUDY_BUDGET.nodes))


def player_budget(label: str) -> Budget | None:
    """The budget named by an honest study's ``solver_version``; None for the solver's studies."""
    m = _LABEL.match(label)
    return parse_budget(f"{m.group(2)}x{m.group(3)}") if m else None


def is_honest(params: StudyParams) -> bool:
    return player_budget(params.solver_version) is not None


def honest_study(params: StudyParams, player: str, budget: str | None) -> StudyParams:
    """The honest player's study of the same rules: no time limit (its budget counts samples and nodes, so
    a row is the same on any machine), the player and budget in ``solver_version``."""
    if player != "honest":
        raise ValueError("--budget is for --player honest")
    if params.node_limit is not None:
        raise ValueError("--node-limit is the solver's: the honest player's budget is --budget SAMPLESxNODES")
    chosen = STUDY_BUDGET if budget is None else parse_budget(budget)
    rules = rules_for(params.variant, empty_column=params.empty_column, foundation_return=params.foundation_return)
    return dataclasses.replace(params, time_limit=None, node_limit=None, threads=1,
                               solver_version=honest_label(chosen, rules))


def play_deal(task: DealTask, stop: threading.Event | None = None) -> DealRow:
    """Deal ``task.seed`` and play it out by honest hints (``task.player`` names the budget); a set ``stop``
    ends the game within milliseconds and raises :class:`DealStopped`."""
    from .. import Game
    from ..honest import play_honest

    budget = player_budget(task.player)
    if budget is None:
        raise ValueError(f"not an honest player: {task.player!r}")
    game = Game.deal(task.variant, seed=task.seed, numbering=task.numbering, empty_column=task.empty_column,
                     foundation_return=task.foundation_return)
    label = _LABEL.match(task.player)
    version = label.group(1) if label else ""
    if version != player_version(game.rules):
        raise ValueError(f"the study's player is honest-{version}, but this program's player on "
                         f"{game.rules.variant} is honest-{player_version(game.rules)}: start a new study")
    # the samples' seed is a deal number; PySolFC's game numbers run past them, and are folded in (the
    # seeds below 2**64, every row so far, stay as they were: a row is the same on any machine)
    played = play_honest(game, budget, seed=task.seed % (MAX_SEED + 1), stop=stop)
    if played.reason == "stopped":
        raise DealStopped(f"seed {task.seed}")
    reason = f"{played.reason}, {played.cards_on_foundations} cards up"
    return DealRow(task.seed, "won" if played.won else "lost", float(played.seconds), int(played.nodes),
                   int(played.moves), 0, reason, task.player, socket.gethostname(), CODE)


def _rival_rank(study, seeds: dict) -> tuple[int, int, int]:  # a StudyReport, as in comparison_table
    """How well a solver study serves as the verdicts of an honest study's deals: the most of its seeds, then
    the most of them decided, then the newest solver version."""
    shared = [r for r in study.rows if r.seed in seeds]
    version = study.params.solver_version
    return len(shared), sum(r.status != "unknown" for r in shared), int(version) if version.isdigit() else -1


def comparison_table(reports: list) -> str:  # list[StudyReport]; untyped to keep report.py's import one-way
    """Each honest study beside the solver's verdicts on the same deals (the solver study of the same rules
    that shares the most seeds with it, then decides the most of them, then is the newest) and the greedy
    baseline; '' when there is no honest study."""
    honest = [r for r in reports if is_honest(r.params)]
    if not honest:
        return ""
    head = ("| variant | empty column | foundation return | honest player | deals | honest won | honest win "
            "rate | 95% CI | solver (same deals) | solver won / decided | solver win rate | 95% CI "
            "| greedy (deals 1-1000) | median game time |")
    lines = ["## The honest player beside the solver", "", head, "|" + "---|" * (head.count("|") - 1)]
    for rep in honest:
        p = rep.params
        seeds = {r.seed: r for r in rep.rows}
        rivals = [s for s in reports if not is_honest(s.params) and (s.params.variant, s.params.empty_column,
                  s.params.foundation_return) == (p.variant, p.empty_column, p.foundation_return)]
        best = max(rivals, key=lambda s: _rival_rank(s, seeds), default=None)
        shared = {r.seed: r for r in best.rows if r.seed in seeds} if best is not None else {}
        rows = [seeds[s] for s in shared] if shared else list(seeds.values())
        won = sum(r.status == "won" for r in rows)
        n = len(rows)
        times = sorted(r.seconds for r in rows)
        median = f"{times[len(times) // 2]:.1f} s" if times else "–"
        if shared:
            assert best is not None
            s_won = sum(r.status == "won" for r in shared.values())
            s_dec = sum(r.status != "unknown" for r in shared.values())
            solver = (f"{best.params.solver_version} ({best.params.limits()})", f"{s_won} / {s_dec}",
                      pct(s_won / s_dec) if s_dec else "–", pct_range(wilson(s_won, s_dec)) if s_dec else "–")
        else:
            solver = ("none on these deals", "–", "–", "–")
        default = (p.empty_column, p.foundation_return) == _defaults(p.variant)
        greedy = pct(GREEDY_BASELINE[p.variant]) if default and p.variant in GREEDY_BASELINE else "–"
        lines.append(
            f"| {p.variant} | {p.empty_column} | {'on' if p.foundation_return else 'off'} | {p.solver_version} "
            f"| {n:,} | {won:,} | {pct(won / n) if n else '–'} | {pct_range(wilson(won, n)) if n else '–'} "
            f"| {solver[0]} | {solver[1]} | {solver[2]} | {solver[3]} | {greedy} | {median} |")
    lines.append("")
    lines.append("Honest rows are games played from what a player sees (docs/honest.md); the solver's are "
                 "perfect-information verdicts of the same deals. Intervals: Wilson, 95%.")
    return "\n".join(lines) + "\n"


def _defaults(variant: str) -> tuple[str, bool]:
    from ..rules import VARIANTS

    base = VARIANTS[variant]
    return base.empty_column, base.foundation_return


__all__ = ["HONEST_VERSION", "PLAYERS", "comparison_table", "honest_label", "honest_study", "is_honest",
           "parse_budget", "play_deal", "player_budget", "player_version"]
