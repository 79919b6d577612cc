"""Load test of ``yukon play`` on loopback: fair under solver load, and memory flat over many games.

The script starts the server itself (``yukon play`` on a free port of 127.0.0.1, a fresh store file in a
temporary folder) and stops it at the end; nothing else is touched.

1. **Fairness.** ``--clients`` clients play ``--moves`` moves each, concurrently, each on its own game
   (random legal moves, a new deal when one ends). Before about ``--solver-share`` of the moves a client
   asks for a hint or "winnable?" first (alternately), and every tenth move it reads ``/api/variants``.
   A probe meanwhile sends, every 20 ms, a request the server's guard refuses at once (a foreign
   ``Host``: no work in the application), whose round trip is the cost of the path itself (the event
   loop, uvicorn, loopback, the load generator) under this load.
2. **Memory.** ``--games`` more games are dealt and played two moves each (a hint on every 50th), and
   the server's resident memory is sampled along the way.

The load generator is credible rather than a bottleneck: the clients are spread over ``--procs``
processes, each with its own asyncio loop, speaking HTTP/1.1 over plain sockets (keep-alive, one
connection per client; no HTTP library), and the script prints their CPU time per request next to the
server's. Every request's time is given twice: the client's round trip, and the server's own time (its
``Server-Timing`` header: from the request reaching the application to the answer leaving it).
The machine's load (``/proc/loadavg``, as ``uptime`` shows it, and the CPU that other processes took
meanwhile) is printed with each phase: other work on the machine shows in every figure.

    python bench/load.py [--clients 50] [--moves 50] [--solver-share 0.09] [--games 5000] [--procs 2] [--pause 0]

By default the clients never pause (each sends its next request as soon as the last is answered): a
saturation test, whose latency is at least the number of clients times the server's CPU per request (the
script prints both). ``--pause S`` lets each client wait S seconds on average before a move, as a player
does.

Targets (issue 23): move p99 < 100 ms, no error, hints within their limit, memory flat over 5,000 games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
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

from yukon.advisor import HINT_TIME, WINNABLE_TIME
from yukon.cli_common import run_script

TICK = os.sysconf("SC_CLK_TCK")
THIS_SRC = Path(__file__).resolve().parent.parent / "src"
PROBE_EVERY = 0.02


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


# ---------------------------------------------------------------------- the machine


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover - not Linux


def cpu_seconds(pid: int) -> float:
    """User + system CPU time used so far by process ``pid`` (Linux /proc), in seconds (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def run_queue_seconds(pid: int) -> float:
    """Seconds the threads of process ``pid`` have spent runnable but waiting for a core (/proc schedstat).

    Threads that have ended are not counted; the server's threads live as long as it does."""
    total = 0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (the solver's workers under the server)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            kids = [int(k) for k in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def machine_busy_seconds() -> float:
    """CPU seconds every process on the machine has used since boot (/proc/stat: all but idle and iowait)."""
    parts = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(x) for x in parts[:8]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK


def uptime_line() -> str:
    """The load averages over 1, 5 and 15 minutes, as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} cores)"


class CpuMeter:
    """CPU used between ``start`` and ``stop``: by the server, its solver workers, this generator, and the rest."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.workers: dict[int, float] = {}

    def _sample(self) -> tuple[float, float, float, float, float]:
        for p in descendants(self.server_pid):
            self.workers[p] = max(self.workers.get(p, 0.0), cpu_seconds(p))
        own = os.times()
        return (time.perf_counter(), machine_busy_seconds(), cpu_seconds(self.server_pid),
                own.user + own.system + own.children_user + own.children_system, run_queue_seconds(self.server_pid))

    def start(self) -> None:
        self.workers = {}
        self._sample()
        self.workers_before = dict(self.workers)
        self.t0, self.busy0, self.server0, self.own0, self.queued0 = self._sample()
        self.own_queued0 = run_queue_seconds(os.getpid())
        self.load0 = uptime_line()

    def stop(self, generator_cpu: float, generator_queued: float) -> str:
        """Lines: the load, the wall time, who used the CPU meanwhile, and how long the server and the
        load generator waited for a core (``generator_*``: the client processes' CPU and wait)."""
        t1, busy1, server1, own1, queued1 = self._sample()
        wall = t1 - self.t0
        server = self.server_cpu = server1 - self.server0
        workers = sum(v - self.workers_before.get(p, 0.0) for p, v in self.workers.items())
        generator = generator_cpu + (own1 - self.own0)
        generator_queued += run_queue_seconds(os.getpid()) - self.own_queued0
        others = max(0.0, (busy1 - self.busy0) - server - workers - generator)
        return (f"  machine         before: {self.load0}; after: {uptime_line()}\n"
                f"  CPU in {wall:.1f} s  server {server:.1f} s, solver workers {workers:.1f} s, "
                f"load generator {generator:.1f} s, other processes {others:.1f} s "
                f"(of {wall * (os.cpu_count() or 1):.1f} s on {os.cpu_count()} cores)\n"
                f"  waiting for a core (runnable, not running): the server's threads {queued1 - self.queued0:.1f} s, "
                f"the load generator's {generator_queued:.1f} s")


# ---------------------------------------------------------------------- a small HTTP/1.1 client


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float  # the round trip, as the client sees it

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def server_seconds(self) -> float:
        """The server's own time for the request (its Server-Timing header)."""
        match = re.search(r"dur=([\d.]+)", self.headers.get("server-timing", ""))
        return float(match.group(1)) / 1000 if match else float("nan")

    @property
    def text(self) -> str:
        return self.body[:200].decode("utf-8", "replace")


class Connection:
    """One keep-alive HTTP/1.1 connection to the server (what a browser tab holds); a request at a time."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None, *, host: str | None = None) -> Reply:
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {host or f'{self.host}:{self.port}'}\r\n"
                f"Content-Length: {len(data)}\r\n")
        if body is not None:
            head += "Content-Type: application/json\r\n"
        message = (head + "\r\n").encode() + data
        if self.reader is None or self.reader.at_eof():
            await self.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.writer is not None and self.reader is not None
        t0 = time.perf_counter()
        self.writer.write(message)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if line:
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        payload = await self.reader.readexactly(length) if length else b""
        seconds = time.perf_counter() - t0
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return Reply(status, headers, payload, seconds)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


# ---------------------------------------------------------------------- the clients


@dataclass
class Timing:
    client: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)

    def add(self, r: Reply) -> None:
        self.client.append(r.seconds)
        self.server.append(r.server_seconds)

    def merge(self, other: Timing) -> None:
        self.client += other.client
        self.server += other.server


@dataclass
class Results:
    moves: Timing = field(default_factory=Timing)
    variants: Timing = field(default_factory=Timing)
    hints: Timing = field(default_factory=Timing)
    hint_sources: Counter[str] = field(default_factory=Counter)
    winnable: Timing = field(default_factory=Timing)
    winnable_notes: Counter[str] = field(default_factory=Counter)
    probe: Timing = field(default_factory=Timing)
    new_games: Timing = field(default_factory=Timing)
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    cpu: float = 0.0  # the client processes' CPU time
    queued: float = 0.0  # and the time they waited for a core

    def merge(self, other: Results) -> None:
        for name in ("moves", "variants", "hints", "winnable", "probe", "new_games"):
            getattr(self, name).merge(getattr(other, name))
        self.hint_sources += other.hint_sources
        self.winnable_notes += other.winnable_notes
        self.errors += other.errors
        self.requests += other.requests
        self.cpu += other.cpu
        self.queued += other.queued


async def _send(conn: Connection, res: Results, method: str, path: str, body: Any = None) -> Reply:
    res.requests += 1
    return await conn.request(method, path, body)


async def _new_game(conn: Connection, rng: random.Random, abandon: str | None, res: Results) -> dict[str, Any]:
    body: dict[str, Any] = {"seed": rng.randrange(1 << 32)}
    if abandon:
        body["abandon"] = abandon
    r = await _send(conn, res, "POST", "/api/games", body)
    res.new_games.add(r)
    if r.status != 201:
        res.errors.append(f"new game: {r.status} {r.text}")
        raise RuntimeError(r.text)
    return dict(r.json())


async def _player(conn: Connection, n: int, share: float, pause: float, rng: random.Random, res: Results) -> None:
    state = await _new_game(conn, rng, None, res)
    solver_turn = 0
    for i in range(n):
        if state["status"] != "playing" or not state["legal_moves"]:
            state = await _new_game(conn, rng, state["id"] if state["status"] == "playing" else None, res)
        gid = state["id"]
        if rng.random() < share:
            kind = ("hint", "winnable")[solver_turn % 2]
            solver_turn += 1
            r = await _send(conn, res, "POST", f"/api/games/{gid}/{kind}")
            if r.status != 200:
                res.errors.append(f"{kind}: {r.status} {r.text}")
            elif kind == "hint":
                res.hints.add(r)
                h = r.json()
                res.hint_sources[f"{h['source']}: {h['note'] or h['status']}"] += 1
            else:
                res.winnable.add(r)
                w = r.json()
                res.winnable_notes[w["note"] or w["status"]] += 1
        if i % 10 == 5:
            r = await _send(conn, res, "GET", "/api/variants")
            res.variants.add(r)
            if r.status != 200:
                res.errors.append(f"variants: {r.status}")
        if pause:
            await asyncio.sleep(rng.expovariate(1 / pause))  # a player looks at the table before moving
        move = rng.choice(state["legal_moves"])
        r = await _send(conn, res, "POST", f"/api/games/{gid}/moves", {"move": move})
        res.moves.add(r)
        if r.status != 200:
            res.errors.append(f"move {move}: {r.status} {r.text}")
            continue
        state = r.json()


async def _probe(conn: Connection, res: Results, done: asyncio.Event) -> None:
    """A request the guard refuses at once, every ``PROBE_EVERY`` seconds, until ``done``."""
    while not done.is_set():
        r = await conn.request("GET", "/api/variants", host="probe.invalid")
        res.probe.add(r)
        if r.status != 403:
            res.errors.append(f"probe: {r.status} {r.text}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), PROBE_EVERY)


async def _clients(url: tuple[str, int], ids: list[int], moves: int, share: float, pause: float, seed: int, probe: bool,
                   start: Any) -> Results:
    res = Results()
    conns = [Connection(*url) for _ in ids]
    for conn in conns:  # connected before the start, as open tabs are
        conn.reader, conn.writer = await asyncio.open_connection(*url)
    await asyncio.get_running_loop().run_in_executor(None, start.wait)
    done = asyncio.Event()
    prober = asyncio.create_task(_probe(Connection(*url), res, done)) if probe else None
    outcomes = await asyncio.gather(
        *(_player(conn, moves, share, pause, random.Random(seed * 1000 + c), res)
          for conn, c in zip(conns, ids, strict=True)),
        return_exceptions=True)
    done.set()
    if prober is not None:
        await prober
    res.errors += [f"client failed: {o!r}" for o in outcomes if isinstance(o, BaseException)]
    for conn in conns:
        await conn.close()
    return res


def _client_process(url: tuple[str, int], ids: list[int], moves: int, share: float, pause: float, seed: int,
                    probe: bool, start: Any, out: Any) -> None:
    cpu0, queued0 = time.process_time(), run_queue_seconds(os.getpid())
    res = asyncio.run(_clients(url, ids, moves, share, pause, seed, probe, start))
    res.cpu = time.process_time() - cpu0
    res.queued = run_queue_seconds(os.getpid()) - queued0
    out.put(res)


def fairness(url: tuple[str, int], clients: int, moves: int, share: float, pause: float, seed: int, procs: int,
             meter: CpuMeter) -> tuple[Results, str]:
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    out = context.Queue()
    groups = [list(range(clients))[k::procs] for k in range(procs)]
    workers = [context.Process(target=_client_process, args=(url, ids, moves, share, pause, seed, k == 0, start, out))
               for k, ids in enumerate(groups) if ids]
    for w in workers:
        w.start()
    time.sleep(1.0)  # the client processes import and connect
    meter.start()
    start.set()
    res = Results()
    for _ in workers:
        res.merge(out.get())
    for w in workers:
        w.join()
    return res, meter.stop(res.cpu, res.queued)


async def _games(conn: Connection, todo: list[int], rng: random.Random, res: Results) -> None:
    while todo:
        n = todo.pop()
        try:
            state = await _new_game(conn, rng, None, res)
        except RuntimeError:
            continue
        for _ in range(2):
            if not state["legal_moves"]:
                break
            r = await _send(conn, res, "POST", f"/api/games/{state['id']}/moves",
                            {"move": rng.choice(state["legal_moves"])})
            res.moves.add(r)
            if r.status != 200:
                res.errors.append(f"memory phase move: {r.status} {r.text}")
                break
            state = r.json()
        if n % 50 == 0:
            r = await _send(conn, res, "POST", f"/api/games/{state['id']}/hint")
            if r.status != 200:
                res.errors.append(f"memory phase hint: {r.status}")


async def memory(url: tuple[str, int], pid: int, games: int, seed: int,
                 samples: int = 5) -> tuple[list[tuple[int, float]], Results]:
    res = Results()
    rng = random.Random(seed)
    points = [(0, rss_mb(pid))]
    conns = [Connection(*url) for _ in range(8)]
    done = 0
    step = max(1, games // samples)
    while done < games:
        batch = list(range(done + 1, min(games, done + step) + 1))
        todo = list(reversed(batch))
        await asyncio.gather(*(_games(conn, todo, rng, res) for conn in conns))
        done += len(batch)
        points.append((done, rss_mb(pid)))
    for conn in conns:
        await conn.close()
    return points, res


# ---------------------------------------------------------------------- the server


class Server:
    """``yukon play`` of the source tree ``src`` (default: this one) in a child process, on a free loopback
    port, answering by the time the constructor returns; ``settle`` seconds more let its start-up work (the
    solver's workers) finish. bench/server_cpu.py starts its servers here too."""

    def __init__(self, db: Path, src: Path = THIS_SRC, settle: float = 1.0) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = f"{src}{os.pathsep}{env['PYTHONPATH']}" if env.get("PYTHONPATH") else str(src)
        # the working directory too, as ``python -m`` puts it first on the child's path
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yukon.cli", "play", "--no-browser", "--host", "127.0.0.1", "--port", "0",
             "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=src)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"http://(127\.0\.0\.1):(\d+)/", line)
        if not match:
            self.proc.kill()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise SystemExit(f"the server of {src} did not start: {line!r} {err}")
        self.address = (match.group(1), int(match.group(2)))
        self.url = match.group(0)
        try:
            asyncio.run(self._wait_ready())
        except BaseException:
            self.stop()
            raise
        time.sleep(settle)

    async def _wait_ready(self) -> None:
        for _ in range(400):
            try:
                conn = Connection(*self.address)
                r = await conn.request("GET", "/api/variants")
                await conn.close()
                if r.status == 200:
                    return
            except OSError:
                await asyncio.sleep(0.05)
        raise SystemExit(f"the server at {self.url} did not answer")

    @property
    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()


def _both(name: str, t: Timing) -> str:
    return (f"  {name:<15} client {_ms(t.client)}\n"
            f"  {'':<15} server {_ms(t.server)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--moves", type=int, default=50, help="moves per client")
    ap.add_argument("--solver-share", type=float, default=0.09, help="share of moves preceded by a solver call")
    ap.add_argument("--games", type=int, default=5000, help="games dealt for the memory check (0: skip it)")
    ap.add_argument("--procs", type=int, default=2, help="client processes (each with its own event loop)")
    ap.add_argument("--pause", type=float, default=0.0,
                    help="mean seconds a client waits before each move (random, exponential; default 0: the clients "
                         "never pause, a saturation test)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "load.sqlite3")
        try:
            start_rss = server.rss
            print(f"server {server.url} (pid {server.proc.pid}), RSS at start {start_rss:.1f} MB", flush=True)
            meter = CpuMeter(server.proc.pid)
            res, cpu = fairness(server.address, args.clients, args.moves, args.solver_share, args.pause, args.seed,
                                args.procs, meter)
            print(f"\nfairness: {args.clients} clients x {args.moves} moves in {args.procs} client processes, "
                  f"{args.solver_share:.0%} of the moves after a solver call, "
                  f"{f'a pause of {args.pause:g} s on average before each move' if args.pause else 'no pause'}; "
                  f"{res.requests} requests")
            print(cpu)
            per_request = meter.server_cpu / max(1, res.requests)
            floor = args.clients * per_request * 1000
            print(f"  CPU per request server {per_request * 1000:.2f} ms, load generator "
                  f"{res.cpu / max(1, res.requests) * 1000:.2f} ms")
            if not args.pause:
                print(f"  the clients never pause: with all {args.clients} waiting, a request waits for the others' "
                      f"work, ~{floor:.0f} ms (clients x server CPU per request) even with a core to the server alone")
            print(_both("moves", res.moves))
            print(_both("GET variants", res.variants))
            print(_both("new game", res.new_games))
            print(_both("guard's refusal", res.probe)
                  + "  (the path alone: event loop, uvicorn, loopback, generator)")
            print(_both("hints", res.hints))
            over = sum(t > HINT_TIME for t in res.hints.client)
            over_server = sum(t > HINT_TIME for t in res.hints.server)
            print(f"  {'':<15} limit {HINT_TIME * 1000:.0f} ms: {over} over it as the client sees it, "
                  f"{over_server} in the server")
            for what, n in res.hint_sources.most_common():
                print(f"      {n:4d}  {what}")
            print(_both("winnable?", res.winnable)
                  + f"  (limit {WINNABLE_TIME:g} s, plus the look-back when lost)")
            for what, n in res.winnable_notes.most_common():
                print(f"      {n:4d}  {what}")
            print(f"  errors          {len(res.errors)}")
            for e in res.errors[:10]:
                print(f"      {e}")
            print(f"  RSS after       {server.rss:.1f} MB")
            ok = _pct(res.moves.client, 0.99) < 0.1 and not res.errors and not over
            print(f"  target (move p99 < 100 ms, no error, every hint within {HINT_TIME:g} s): "
                  f"{'PASS' if ok else 'FAIL'}", flush=True)
            if args.games:
                meter.start()
                points, mres = asyncio.run(memory(server.address, server.proc.pid, args.games, args.seed))
                print(f"\nmemory: {args.games} games dealt and played (2 moves each, a hint every 50th)")
                print(meter.stop(0.0, 0.0))
                print(_both("moves", mres.moves))
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
    run_script(main)
