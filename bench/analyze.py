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
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from yukon import FOUNDATION, Game
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


def run_analyze(path: Path, extra: list[str]) -> tuple[float, dict[str, object]]:
    command = [sys.executable, "-c", "import sys; from yukon.cli import main; sys.exit(main())",
               "analyze", str(path), "--json", *extra]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
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
    args = parser.parse_args()

    started = time.perf_counter()
    games, skipped = lost_games(args.games, args.length)
    print(f"{len(games)} lost {args.length}-move games from deals 1-{games[-1].deal.number if games else 0} "
          f"({skipped} deals skipped), made in {time.perf_counter() - started:.1f} s")
    extra = [] if args.time_limit is None else ["--time-limit", str(args.time_limit)]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="yukon-analyze-"))
    folder.mkdir(parents=True, exist_ok=True)
    times: list[float] = []
    found = 0
    print(f"{'deal':>6} {'losing move':>12} {'undecided':>10} {'seconds':>8}")
    for record in games:
        assert record.deal is not None
        path = folder / f"yukon-{record.deal.number}.json"
        record.write(path)
        seconds, answer = run_analyze(path, extra)
        times.append(seconds)
        unknown = answer["unknown_moves"]
        assert isinstance(unknown, list)
        found += answer["losing_move"] is not None
        print(f"{record.deal.number:>6} {answer['losing_move']!s:>12} {len(unknown):>10} {seconds:>8.2f}", flush=True)
    if times:
        print(f"yukon analyze: median {statistics.median(times):.2f} s, p90 {percentile(times, 90):.2f} s, "
              f"max {max(times):.2f} s over {len(times)} games; losing move found in {found}, "
              f"a range in {len(times) - found} (target: median under 5 s)")
    if args.keep is None:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
