"""``yukon analyze`` benchmark: lost 120-move Yukon games, the command's wall time, median over 20.

    python bench/analyze.py                       # 20 games of 120 moves, the command's default limits
    python bench/analyze.py --games 5 --time-limit 5 --keep /tmp/games

The games are made reproducibly: Yukon deal ``s`` (s = 1, 2, ...) played by a
weak player (``random.Random(s)``: a card up whenever it can, 70% of the time,
else any move to a position not seen before in the game) for 120 moves. A game
counts when it reaches 120 moves, its start is won and its end is lost (the
solver decides both, 30 s each); other deals are skipped, and the count of
skipped deals is printed. Each game is written as a record and analysed by the
real command, ``yukon analyze FILE --json``, in a fresh process: the time is
that process's wall time, start-up included.

Prints one line per game (deal, losing move, undecided positions, seconds)
and the median / p90 / max. Exit status 0.

``--baseline DIR`` also times another version of the package on the same
games in the same run (``DIR`` holds its ``yukon`` package, e.g. an older
commit's ``src`` with the compiled solver copied in), each game analysed by
the two in turn, so that both meet the same load::

    git archive COMMIT src | tar -x -C /tmp/old && cp src/yukon/solver/_core*.so /tmp/old/src/yukon/solver/
    python bench/analyze.py --baseline /tmp/old/src
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from yukon import FOUNDATION, Game
from yukon.cli_common import run_script
from yukon.record import GameRecord
from yukon.solver import solve

#: seconds the solver gets to check that a game's start is won and its end lost
CHECK_LIMIT = 30.0


def weak_game(seed: int, length: int) -> Game:
    """Deal ``seed`` played by the weak player for up to ``length`` moves."""
    game = Game.deal("yukon", seed=seed)
    rng = random.Random(seed)
    seen = {game.to_text()}
    while len(game.move_stack) < length:
        moves = game.legal_moves()
        ups = [m for m in moves if m.dst == FOUNDATION]
        order = (rng.sample(ups, len(ups)) if ups and rng.random() < 0.7 else []) + rng.sample(moves, len(moves))
        for move in order:
            game.push(move)
            if game.to_text() not in seen:
                break
            game.pop()
        else:
            break  # a dead end, or nothing new to do
        seen.add(game.to_text())
    return game


def lost_games(count: int, length: int) -> tuple[list[GameRecord], int]:
    """The first ``count`` weak games of ``length`` moves that start won and end lost; and the deals skipped."""
    games: list[GameRecord] = []
    skipped = 0
    seed = 0
    while len(games) < count:
        seed += 1
        game = weak_game(seed, length)
        record = GameRecord.from_game(game)
        if len(game.move_stack) < length or game.is_won() \
                or solve(game, time_limit=CHECK_LIMIT).status != "lost" \
                or solve(record.game(0), time_limit=CHECK_LIMIT).status != "won":
            skipped += 1
            continue
        games.append(record)
    return games, skipped


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def run_analyze(path: Path, extra: list[str], source: Path | None = None) -> tuple[float, dict[str, object]]:
    """``yukon analyze PATH --json`` in a fresh process (of the package in ``source``, if given)."""
    command = [sys.executable, "-c", "import sys; from yukon.cli import main; sys.exit(main())",
               "analyze", str(path), "--json", *extra]
    env = None if source is None else {**os.environ, "PYTHONPATH": str(source)}
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 3):
        raise RuntimeError(f"yukon analyze failed on {path}: {done.stderr.strip()}")
    return seconds, json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="how many lost games (default 20)")
    parser.add_argument("--length", type=int, default=120, help="moves per game (default 120)")
    parser.add_argument("--time-limit", type=float, default=None, help="yukon analyze --time-limit (default: its own)")
    parser.add_argument("--keep", type=Path, default=None, help="write the game records to this folder")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="also time the yukon package in this folder on the same games (old vs new)")
    args = parser.parse_args()

    started = time.perf_counter()
    games, skipped = lost_games(args.games, args.length)
    print(f"{len(games)} lost {args.length}-move games from deals 1-{games[-1].deal.number if games else 0} "
          f"({skipped} deals skipped), made in {time.perf_counter() - started:.1f} s")
    extra = [] if args.time_limit is None else ["--time-limit", str(args.time_limit)]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="yukon-analyze-"))
    folder.mkdir(parents=True, exist_ok=True)
    versions: dict[str, Path | None] = {"this": None}
    if args.baseline is not None:
        versions = {"baseline": args.baseline.resolve(), "this": None}
    times: dict[str, list[float]] = {name: [] for name in versions}
    found = dict.fromkeys(versions, 0)
    print(f"{'deal':>6} " + " ".join(f"{name + ': losing move':>22} {'undecided':>9} {'seconds':>8}"
                                      for name in versions))
    for i, record in enumerate(games):
        assert record.deal is not None
        path = folder / f"yukon-{record.deal.number}.json"
        record.write(path)
        order = list(versions) if i % 2 == 0 else list(reversed(versions))  # neither always goes first
        answers = {}
        for name in order:
            seconds, answer = run_analyze(path, extra, versions[name])
            unknown = answer["unknown_moves"]
            assert isinstance(unknown, list)
            times[name].append(seconds)
            found[name] += answer["losing_move"] is not None
            answers[name] = f"{answer['losing_move']!s:>22} {len(unknown):>9} {seconds:>8.2f}"
        print(f"{record.deal.number:>6} " + " ".join(answers[name] for name in versions), flush=True)
    for name, spent in times.items():
        if spent:
            label = "yukon analyze" if len(versions) == 1 else f"yukon analyze ({name})"
            print(f"{label}: median {statistics.median(spent):.2f} s, p90 {percentile(spent, 90):.2f} s, "
                  f"max {max(spent):.2f} s, total {sum(spent):.1f} s over {len(spent)} games; losing move "
                  f"found in {found[name]}, a range in {len(spent) - found[name]} (target: median under 5 s)")
    if args.keep is None:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return 0


if __name__ == "__main__":
    run_script(main)
