"""Load test of ``yukon play`` on loopback: fair under solver load, and memory flat over many games.

The script starts the server itself (``yukon play`` on a free port of 127.0.0.1, a fresh store file in a
temporary folder) and stops it at the end; nothing else is touched.

1. **Fairness.** ``--clients`` clients play ``--moves`` moves each, concurrently, each on its own game
   (random legal moves, a new deal when one ends). Before about ``--solver-share`` of the moves a client
   asks for a hint or "winnable?" first (alternately), and every tenth move it reads ``/api/variants``.
2. **Memory.** ``--games`` more games are dealt and played two moves each (a hint on every 50th), and
   the server's resident memory is sampled along the way.

It prints the move latency (p50/p99), ``/api/variants`` latency, hint latency against the hint's limit
(and where the hints came from), "winnable?" latency, every error, and the server's RSS before and after.

    python bench/load.py [--clients 50] [--moves 50] [--solver-share 0.09] [--games 5000]

Targets (issue 23): move p99 < 100 ms, no error, hints within their limit, memory flat over 5,000 games.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from yukon.advisor import HINT_TIME, WINNABLE_TIME


def _pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def _ms(xs: list[float]) -> str:
    if not xs:
        return "none"
    return (f"p50 {_pct(xs, 0.5) * 1000:.1f} ms, p99 {_pct(xs, 0.99) * 1000:.1f} ms, "
            f"max {max(xs) * 1000:.1f} ms ({len(xs)})")


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover - not Linux


def cpu_seconds(pid: int) -> float:
    """User + system CPU time used so far by process ``pid`` (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_seconds(r: httpx.Response) -> float:
    """The server's own time for the request (its Server-Timing header)."""
    match = re.search(r"dur=([\d.]+)", r.headers.get("server-timing", ""))
    return float(match.group(1)) / 1000 if match else float("nan")


@dataclass
class Results:
    moves: list[float] = field(default_factory=list)
    moves_in_server: list[float] = field(default_factory=list)
    variants: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)
    hint_sources: Counter[str] = field(default_factory=Counter)
    winnable: list[float] = field(default_factory=list)
    winnable_notes: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


class Server:
    """``yukon play`` in a child process, on a free loopback port."""

    def __init__(self, db: Path) -> None:
        env = dict(os.environ)
        src = Path(__file__).resolve().parent.parent / "src"
        env["PYTHONPATH"] = f"{src}{os.pathsep}{env['PYTHONPATH']}" if env.get("PYTHONPATH") else str(src)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yukon.cli", "play", "--no-browser", "--host", "127.0.0.1", "--port", "0",
             "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not match:
            self.proc.kill()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise SystemExit(f"the server did not start: {line!r} {err}")
        self.url = match.group(0)
        for _ in range(200):
            try:
                httpx.get(self.url + "api/variants", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.05)

    @property
    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    @property
    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()


async def _new_game(client: httpx.AsyncClient, rng: random.Random, abandon: str | None, res: Results) -> dict[str, Any]:
    body: dict[str, Any] = {"seed": rng.randrange(1 << 32)}
    if abandon:
        body["abandon"] = abandon
    r = await client.post("/api/games", json=body)
    if r.status_code != 201:
        res.errors.append(f"new game: {r.status_code} {r.text[:200]}")
        raise RuntimeError(r.text)
    return dict(r.json())


async def _player(client: httpx.AsyncClient, n: int, share: float, rng: random.Random, res: Results) -> None:
    state = await _new_game(client, rng, None, res)
    solver_turn = 0
    for i in range(n):
        if state["status"] != "playing" or not state["legal_moves"]:
            state = await _new_game(client, rng, state["id"] if state["status"] == "playing" else None, res)
        gid = state["id"]
        if rng.random() < share:
            kind = ("hint", "winnable")[solver_turn % 2]
            solver_turn += 1
            t0 = time.perf_counter()
            r = await client.post(f"/api/games/{gid}/{kind}")
            seconds = time.perf_counter() - t0
            if r.status_code != 200:
                res.errors.append(f"{kind}: {r.status_code} {r.text[:200]}")
            elif kind == "hint":
                res.hints.append(seconds)
                h = r.json()
                res.hint_sources[f"{h['source']}: {h['note'] or h['status']}"] += 1
            else:
                res.winnable.append(seconds)
                w = r.json()
                res.winnable_notes[w["note"] or w["status"]] += 1
        if i % 10 == 5:
            t0 = time.perf_counter()
            r = await client.get("/api/variants")
            res.variants.append(time.perf_counter() - t0)
            if r.status_code != 200:
                res.errors.append(f"variants: {r.status_code}")
        move = rng.choice(state["legal_moves"])
        t0 = time.perf_counter()
        r = await client.post(f"/api/games/{gid}/moves", json={"move": move})
        res.moves.append(time.perf_counter() - t0)
        res.moves_in_server.append(server_seconds(r))
        if r.status_code != 200:
            res.errors.append(f"move {move}: {r.status_code} {r.text[:200]}")
            continue
        state = r.json()


async def fairness(url: str, clients: int, moves: int, share: float, seed: int) -> tuple[Results, float]:
    res = Results()
    # idle connections are dropped before the server's keep-alive timeout (5 s) closes them under a request
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        t0 = time.perf_counter()
        outcomes = await asyncio.gather(
            *(_player(client, moves, share, random.Random(seed * 1000 + c), res) for c in range(clients)),
            return_exceptions=True)
        wall = time.perf_counter() - t0
    res.errors += [f"client failed: {o!r}" for o in outcomes if isinstance(o, BaseException)]
    return res, wall


async def _games(client: httpx.AsyncClient, todo: list[int], rng: random.Random, res: Results) -> None:
    while todo:
        n = todo.pop()
        try:
            state = await _new_game(client, rng, None, res)
        except RuntimeError:
            continue
        for _ in range(2):
            if not state["legal_moves"]:
                break
            r = await client.post(f"/api/games/{state['id']}/moves", json={"move": rng.choice(state["legal_moves"])})
            if r.status_code != 200:
                res.errors.append(f"memory phase move: {r.status_code} {r.text[:200]}")
                break
            state = r.json()
        if n % 50 == 0:
            r = await client.post(f"/api/games/{state['id']}/hint")
            if r.status_code != 200:
                res.errors.append(f"memory phase hint: {r.status_code}")


async def memory(server: Server, games: int, seed: int, samples: int = 5) -> tuple[list[tuple[int, float]], Results]:
    res = Results()
    rng = random.Random(seed)
    points = [(0, server.rss)]
    limits = httpx.Limits(keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as client:
        done = 0
        step = max(1, games // samples)
        while done < games:
            batch = list(range(done + 1, min(games, done + step) + 1))
            todo = list(reversed(batch))
            await asyncio.gather(*(_games(client, todo, rng, res) for _ in range(8)))
            done += len(batch)
            points.append((done, server.rss))
    return points, res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--moves", type=int, default=50, help="moves per client")
    ap.add_argument("--solver-share", type=float, default=0.09, help="share of moves preceded by a solver call")
    ap.add_argument("--games", type=int, default=5000, help="games dealt for the memory check (0: skip it)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "load.sqlite3")
        try:
            start_rss = server.rss
            print(f"server {server.url} (pid {server.proc.pid}), RSS at start {start_rss:.1f} MB", flush=True)
            cpu0, load0, client0 = server.cpu, os.getloadavg()[0], time.process_time()
            res, wall = asyncio.run(fairness(server.url, args.clients, args.moves, args.solver_share, args.seed))
            cpu, client_cpu = server.cpu - cpu0, time.process_time() - client0
            requests = len(res.moves) + len(res.variants) + len(res.hints) + len(res.winnable)
            print(f"\nfairness: {args.clients} clients x {args.moves} moves, {args.solver_share:.0%} with a solver "
                  f"call, {wall:.1f} s")
            print(f"  machine load    {load0:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores); "
                  f"server CPU {cpu:.1f} s in {wall:.1f} s ({cpu / max(wall, 1e-9):.0%} of one core), "
                  f"{cpu / max(1, requests) * 1000:.1f} ms per request; the clients' CPU {client_cpu:.1f} s")
            print(f"  moves           {_ms(res.moves)}")
            print(f"    in the server {_ms(res.moves_in_server)}")
            print(f"  GET variants    {_ms(res.variants)}")
            print(f"  hints           {_ms(res.hints)}  limit {HINT_TIME * 1000:.0f} ms, "
                  f"{sum(t > HINT_TIME for t in res.hints)} over it")
            for what, n in res.hint_sources.most_common():
                print(f"      {n:4d}  {what}")
            print(f"  winnable?       {_ms(res.winnable)}  (limit {WINNABLE_TIME:g} s, plus the look-back when lost)")
            for what, n in res.winnable_notes.most_common():
                print(f"      {n:4d}  {what}")
            print(f"  errors          {len(res.errors)}")
            for e in res.errors[:10]:
                print(f"      {e}")
            print(f"  RSS after       {server.rss:.1f} MB")
            verdict = "PASS" if _pct(res.moves, 0.99) < 0.1 and not res.errors else "FAIL"
            print(f"  target (move p99 < 100 ms, no error): {verdict}")
            if args.games:
                points, mres = asyncio.run(memory(server, args.games, args.seed))
                print(f"\nmemory: {args.games} games dealt and played (2 moves each, a hint every 50th)")
                print("  RSS " + ", ".join(f"{n} games: {mb:.1f} MB" for n, mb in points))
                first, last = points[1][1], points[-1][1]
                growth = last - first
                print(f"  growth from {points[1][0]} to {points[-1][0]} games: {growth:+.1f} MB "
                      f"({growth / max(1, points[-1][0] - points[1][0]) * 1024:.2f} KB per game)")
                print(f"  errors {len(mres.errors)}")
                for e in mres.errors[:10]:
                    print(f"      {e}")
                print(f"  RSS before {start_rss:.1f} MB, after {last:.1f} MB")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
