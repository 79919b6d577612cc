"""The server's CPU time per request: the figure that other work on the machine changes least.

Starts ``yukon play`` on a free loopback port (a fresh store file in a temporary folder) for each
source tree given (``--src``, default this one; e.g. ``--src /tmp/before/src --src src`` for before
and after, with ``git worktree add /tmp/before <commit>``), and measures the server process's CPU time
(user + system, every thread: ``/proc/PID/stat``) over ``--moves`` moves played by ``--clients``
concurrent keep-alive connections, each on its own games (random legal moves from the last answer, as
the page plays them; a game is left after ``--game-moves`` moves, about a whole game's worth, as random
play can shuffle cards to and fro for hundreds of moves). Games are dealt beforehand and, when they run
out, between two measured stretches, so only the moves are counted; then the same for
``GET /api/games/{id}`` (what the page asks on a reload or a return to the tab) and
``GET /api/variants``. The trees take turns ``--rounds`` times, so a change in the machine's load
falls on both alike; the CPU time of a request is what the event loop and the request threads spend on
it, and the solver is never asked.

    python bench/server_cpu.py [--src DIR ...] [--moves 3000] [--clients 50] [--game-moves 100] [--rounds 3]

The CPU clock ticks at 100 Hz: each figure is over seconds of CPU, so a tick is well under 1%.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import THIS_SRC, Connection, Server, cpu_seconds, uptime_line  # bench/ is not a package

from yukon.cli_common import run_script


async def _deal(conn: Connection, rng: random.Random) -> dict[str, Any]:
    r = await conn.request("POST", "/api/games", {"seed": rng.randrange(1 << 32)})
    if r.status != 201:
        raise SystemExit(f"new game: {r.status} {r.text}")
    return dict(r.json())


class Meter:
    """The server's CPU seconds over the stretches between ``start`` and ``stop``."""

    def __init__(self, pid: int) -> None:
        self.pid, self.total, self._t0 = pid, 0.0, 0.0

    def start(self) -> None:
        self._t0 = cpu_seconds(self.pid)

    def stop(self) -> None:
        self.total += cpu_seconds(self.pid) - self._t0


async def measure(address: tuple[str, int], pid: int, moves: int, clients: int, seed: int,
                  game_moves: int = 100) -> dict[str, float]:
    """CPU ms per move, per game read and per variants read."""
    rng = random.Random(seed)
    conns = [Connection(*address) for _ in range(clients)]
    meter = Meter(pid)
    pool: list[list[dict[str, Any]]] = [[] for _ in conns]
    played = 0

    async def client(k: int, quota: int) -> int:
        done = 0
        while done < quota and pool[k]:
            state = pool[k][-1]
            if state["status"] != "playing" or not state["legal_moves"] or state["move_count"] >= game_moves:
                pool[k].pop()
                continue
            r = await conns[k].request("POST", f"/api/games/{state['id']}/moves",
                                       {"move": rng.choice(state["legal_moves"])})
            if r.status != 200:
                raise SystemExit(f"move: {r.status} {r.text}")
            pool[k][-1] = r.json()
            done += 1
        return done

    while played < moves:
        for k, conn in enumerate(conns):  # deal outside the measured stretches
            while len(pool[k]) < 2:
                pool[k].append(await _deal(conn, rng))
        quota = min(200, (moves - played + clients - 1) // clients)
        meter.start()
        played += sum(await asyncio.gather(*(client(k, quota) for k in range(clients))))
        meter.stop()
    per_move = meter.total / played * 1000

    games = [p[-1]["id"] for p in pool if p]
    reads = 0
    meter.total = 0.0
    meter.start()

    async def reader(k: int, n: int, path: str) -> None:
        for _ in range(n):
            r = await conns[k].request("GET", path if "{" not in path else path.format(games[k % len(games)]))
            if r.status != 200:
                raise SystemExit(f"GET {path}: {r.status}")

    n = max(1, moves // clients)
    await asyncio.gather(*(reader(k, n, "/api/games/{}") for k in range(clients)))
    reads = n * clients
    meter.stop()
    per_get = meter.total / reads * 1000
    meter.total = 0.0
    meter.start()
    await asyncio.gather(*(reader(k, n, "/api/variants") for k in range(clients)))
    meter.stop()
    per_variants = meter.total / reads * 1000
    for conn in conns:
        await conn.close()
    return {"move": per_move, "get game": per_get, "get variants": per_variants}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", action="append", type=Path, help="a source tree (repeat to compare; default: this one)")
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--game-moves", type=int, default=100, help="moves played in a game before the next")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    trees = [p.resolve() for p in (args.src or [THIS_SRC])]
    results: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    print(f"{args.moves} moves, {args.clients} clients, {args.game_moves} moves a game; {uptime_line()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for t in trees:
                server = Server(Path(tmp) / f"cpu-{r}-{len(results[t])}-{abs(hash(t))}.sqlite3", t, settle=0.5)
                try:
                    figures = asyncio.run(measure(server.address, server.proc.pid, args.moves, args.clients,
                                                  args.seed + r, args.game_moves))
                finally:
                    server.stop()
                results[t].append(figures)
                print(f"  round {r + 1}  {t}: " + ", ".join(f"{k} {v:.3f} ms" for k, v in figures.items()), flush=True)
    print(f"server CPU per request, median of {args.rounds} rounds ({uptime_line()}):")
    for t, rows in results.items():
        print(f"  {t}: " + ", ".join(f"{k} {statistics.median(row[k] for row in rows):.3f} ms" for k in rows[0]))
    return 0


if __name__ == "__main__":
    run_script(main)
