"""Baseline agents on the Gymnasium environment, and the environment's speed.

Three agents play deals 1..1000 (``--seeds``) of every variant through
``gymnasium.make("yukon/<Variant>-v0")`` with the default rules and step limit:

* ``random``: a uniformly random legal action (from ``info["action_mask"]``),
  seeded by the deal number.
* ``greedy``: a one-move-lookahead heuristic that sees only what the
  observation shows (see :class:`GreedyAgent`), following the strategy advice
  of docs/rules.md. When it finds nothing useful to do it resigns (the episode ends
  where it stands).
* ``honest``: the honest player of docs/honest.md (``yukon.env.honest_action``), which
  samples deals of the unseen cards and searches them; seconds per game, so it
  plays only ``--honest-seeds`` (default 1-20).

For each variant and agent it prints games won, mean cards on the foundations at
the end, mean steps, and the environment's speed: steps per second spent inside
``env.step`` (the ``gym.make`` wrappers, the engine and the mask included; the
agent's thinking excluded), measured on the random agent's games.

    python bench/agents.py                       # seeds 1-1000, every variant (several minutes)
    python bench/agents.py --seeds 1-100 --variant yukon --agent random
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

import yukon.deal
import yukon.env
import yukon.errors
from yukon import FOUNDATION, STOCK, Game, Move
from yukon.autoplay import is_safe_to_play_up
from yukon.cards import RANK
from yukon.cli_common import run_script
from yukon.solver.probe import player_score

KING = 13


class Agent(Protocol):
    name: str

    def reset(self, env: yukon.env.YukonEnv, seed: int) -> None: ...

    def act(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> int | None:
        """An action, or None to resign."""
        ...


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, env: yukon.env.YukonEnv, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> int | None:
        legal = np.flatnonzero(info["action_mask"])
        return int(self.rng.choice(legal)) if len(legal) else None


class GreedyAgent:
    """Scores each legal move with the advice of docs/rules.md and plays the best; never repeats a position.

    It reads the engine's game only for what a player sees: the face-up cards,
    the number of face-down cards per column, the foundations, the waste and the
    size of the stock. Its lookahead plays only moves that turn up no card and
    deal nothing, so it never sees a hidden card before the player would.

    Scores, highest first: a card that is safe to play up (Aces always;
    :func:`yukon.autoplay.is_safe_to_play_up`) 1000; a move that turns a face-down
    card 300, plus 10 per card still face down in that column; emptying a column
    100 if a King lies on other cards somewhere (it can move in), else 20;
    waste to a column 50; another card up 5; minus 40 per King that travels
    inside a group onto another card (it would bury the column). A move with no
    score of its own (a rearrangement) scores half the best new score it makes
    possible at once (freeing a needed card). Cards never come back from the
    foundations. A deal from the stock scores 1, so the agent deals only when
    nothing better is left; with nothing scoring above zero, it resigns.
    """

    name = "greedy"

    def __init__(self, unsafe_up: float = 5.0) -> None:
        self.env: yukon.env.YukonEnv | None = None
        self.seen: set[str] = set()
        self.rng = np.random.default_rng(0)
        self.unsafe_up = unsafe_up

    def reset(self, env: yukon.env.YukonEnv, seed: int) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)
        self.seen = {_visible_key(env.game)}

    # -- scoring: only visible information

    def _score(self, game: Game, move: Move, kings_waiting: bool) -> float:
        """:func:`yukon.solver.probe.player_score`, with the player's safe rule and what the player sees."""
        return player_score(game, move, safe_up=is_safe_to_play_up, kings_waiting=lambda _game, _column: kings_waiting,
                            unsafe_up=self.unsafe_up)

    def act(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> int | None:
        env = self.env
        assert env is not None
        game = env.game
        moves = game.legal_moves()
        if not moves:
            return None
        cols = game.columns
        kings_waiting = _kings_waiting(cols)
        best: tuple[float, Move] | None = None
        probe: Game | None = None
        current = set(moves)
        wander: list[tuple[float, Move, str]] = []
        chosen_key = ""
        for move in moves:
            score = self._score(game, move, kings_waiting)
            key = ""
            if move.src < FOUNDATION and move.dst < FOUNDATION and not (
                move.count == len(cols[move.src][1]) and cols[move.src][0]
            ):  # a tableau move that turns up no card: look one move ahead, never repeat a position
                if probe is None:
                    probe = game.copy()
                probe.push(move)
                key = _visible_key(probe)
                if key in self.seen:
                    probe.pop()
                    continue
                after = probe.legal_moves()
                kw = _kings_waiting(probe.columns)
                gain = [
                    self._score(probe, m, kw) for m in after
                    if m not in current and m.src != STOCK and m.src != FOUNDATION
                ]
                probe.pop()
                wander.append((score, move, key))
                score += 0.5 * max(0.0, max(gain, default=0.0))
            if score > 0 and (best is None or score > best[0]):
                best = (score, move)
                chosen_key = key
        if best is not None:
            move = best[1]
        elif wander:  # nothing useful: rearrange at random, preferring what buries no King
            top = max(w[0] for w in wander)
            options = [w for w in wander if w[0] == top]
            _, move, chosen_key = options[int(self.rng.integers(len(options)))]
        else:
            return None
        if chosen_key:
            self.seen.add(chosen_key)
        return env.move_to_action(move)


class HonestAgent:
    """The honest player (yukon.env.honest_action, the study's budget): samples deals of the unseen cards
    and searches them (docs/honest.md); it resigns rather than go back to a position it has seen."""

    name = "honest"

    def __init__(self) -> None:
        self.env: yukon.env.YukonEnv | None = None
        self.seed = 0
        self.ply = 0

    def reset(self, env: yukon.env.YukonEnv, seed: int) -> None:
        self.env, self.seed, self.ply = env, seed, 0

    def act(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> int | None:
        assert self.env is not None
        # decision i (from 0) takes seed * 1009 + i, as play_honest does: the honest study's own game of each
        # deal (the verdicts' `honest` column), not another draw of the samples (from 1: 8 of deals 1-20, not 14)
        action = yukon.env.honest_action(self.env, seed=self.seed * 1009 + self.ply)
        self.ply += 1
        return action


def _visible_key(game: Game) -> str:
    """The position as a player sees it (face-down cards as counts)."""
    cols = "/".join(f"{len(d)}.{','.join(map(str, u))}" for d, u in game.columns)
    found = ",".join(str(p[-1]) if p else "-" for p in game.foundations)
    waste = game.waste
    return f"{cols} {found} {len(game.stock)} {waste[-1] if waste else '-'}"


def _kings_waiting(cols: list[tuple[list[int], list[int]]]) -> bool:
    """Is there a face-up King with other cards under it (one that an empty column would help)?"""
    return any(RANK[c] == KING and (down or i > 0) for down, up in cols for i, c in enumerate(up))


@dataclass
class Result:
    games: int = 0
    wins: int = 0
    foundation_cards: int = 0
    steps: int = 0
    step_time: float = 0.0
    elapsed: float = 0.0
    per_deal: list[tuple[int, bool, int]] = field(default_factory=list)


def play(env_id: str, agent: Agent, seeds: range) -> Result:
    env = gym.make(env_id)
    inner = env.unwrapped
    assert isinstance(inner, yukon.env.YukonEnv)
    res = Result()
    start = time.perf_counter()
    clock = time.perf_counter
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        agent.reset(inner, seed)
        while True:
            action = agent.act(obs, info)
            if action is None:
                break
            t0 = clock()
            obs, _, terminated, truncated, info = env.step(action)
            res.step_time += clock() - t0
            res.steps += 1
            if terminated or truncated:
                break
        won = info["won"]
        res.games += 1
        res.wins += won
        res.foundation_cards += info["cards_on_foundations"]
        res.per_deal.append((seed, won, info["cards_on_foundations"]))
    res.elapsed = time.perf_counter() - start
    env.close()
    return res


def parse_seeds(text: str) -> range:
    """``1-1000`` or ``100`` (meaning 1-100), read by :func:`yukon.deal.parse_seeds` as every command reads them."""
    seeds = yukon.deal.parse_seeds(text if "-" in text else f"1-{text.strip()}")
    if seeds[-1] - seeds[0] + 1 != len(seeds):
        raise yukon.errors.InvalidSeedError(f"give one range of deals, FIRST-LAST, not {text!r}")
    return range(seeds[0], seeds[-1] + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", help="deal numbers of the random and greedy agents: 'A-B', or 'N' for 1-N "
                        "(default 1-1000)")
    parser.add_argument("--variant", action="append", choices=list(yukon.env.ENV_IDS.values()),
                        help="only these variants (repeatable)")
    parser.add_argument("--agent", action="append", choices=["random", "greedy", "honest"],
                        help="only these agents")
    parser.add_argument("--honest-seeds", default="1-20",
                        help="the honest agent's deals (default 1-20: it thinks seconds per game)")
    args = parser.parse_args()
    if args.seeds is not None and args.agent and set(args.agent) == {"honest"}:
        # (it played deals 1-20 without a word: the honest agent plays its own, fewer, deals)
        parser.error(f"--seeds {args.seeds}: the honest agent plays --honest-seeds (default 1-20), not --seeds")
    try:
        seeds, honest_seeds = parse_seeds(args.seeds or "1-1000"), parse_seeds(args.honest_seeds)
    except yukon.errors.InvalidSeedError as exc:  # one line naming it, not a traceback
        parser.error(str(exc))
    ids = {v: k for k, v in yukon.env.ENV_IDS.items()}
    variants = args.variant or list(ids)
    agents: list[Agent] = [
        a for a in (RandomAgent(), GreedyAgent(), HonestAgent()) if not args.agent or a.name in args.agent
    ]
    # (each agent's deals: the honest agent plays its own, fewer, ones)
    dealt = [f"deals {seeds.start}-{seeds.stop - 1}"] if any(a.name != "honest" for a in agents) else []
    if any(a.name == "honest" for a in agents):
        honest_deals = f"deals {honest_seeds.start}-{honest_seeds.stop - 1}"
        dealt.append(f"(the honest agent: {honest_deals})" if dealt else f"{honest_deals} (the honest agent)")
    print(f"{' '.join(dealt)}, default rules, max_episode_steps {yukon.env.MAX_EPISODE_STEPS}")
    print()
    print("| variant | agent | won | win rate | mean foundation cards | mean steps | env steps/s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for variant in variants:
        for agent in agents:
            honest = agent.name == "honest"
            r = play(ids[variant], agent, honest_seeds if honest else seeds)
            rate = r.steps / r.step_time if r.step_time else 0.0
            speed = f"{rate:,.0f}" if agent.name == "random" else "-"
            name = f"honest (deals {honest_seeds.start}-{honest_seeds.stop - 1})" if honest else agent.name
            print(
                f"| {variant} | {name} | {r.wins}/{r.games} | {100 * r.wins / r.games:.1f}% "
                f"| {r.foundation_cards / r.games:.1f} | {r.steps / r.games:.0f} | {speed} |",
                flush=True,
            )


if __name__ == "__main__":
    run_script(main)
