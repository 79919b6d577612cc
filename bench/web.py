"""Web table speed: the round trip of a move on the server and in the browser, and the hint time.

The move round trip is measured on the ASGI application itself (request in,
reply out: routing, validation, the engine, the SQLite commit with fsync,
the JSON reply), with ``--uvicorn`` also over a real uvicorn on loopback.
Plain moves are played on fixed Yukon deals along a random line (a move,
then its undo, alternately, so every request changes the game and is
committed). Hints are asked on mid-game Yukon positions (20 to 40 moves into
a solver's winning line, or into a random line when the solver cannot find one).
With ``--browser`` the page itself is timed in Debian's chromium (Playwright):
from the move's request to the table updated (the answer applied and every
card placed), over a real uvicorn on loopback, along random lines.

    python bench/web.py [--moves 300] [--hints 10] [--kind honest|solver|both] [--uvicorn] [--browser]

Targets (issues 4 and 19): move median < 5 ms on the server, < 30 ms in the browser; hint < 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from yukon import Game
from yukon.cli_common import run_script
from yukon.store import Store
from yukon.web import create_app


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


async def _moves(client: httpx.AsyncClient, n: int, rng: random.Random) -> list[float]:
    times: list[float] = []
    seed = 1
    while len(times) < n:
        r = await client.post("/api/games", json={"seed": seed})
        seed += 1
        state = r.json()
        gid = state["id"]
        for _ in range(60):
            legal = [m for m in state["legal_moves"]]
            if not legal or len(times) >= n:
                break
            move = rng.choice(legal)
            t0 = time.perf_counter()
            r = await client.post(f"/api/games/{gid}/moves", json={"move": move})
            times.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
            state = r.json()
    return times


async def _hints(client: httpx.AsyncClient, n: int, rng: random.Random, kind: str) -> list[tuple[float, str]]:
    import yukon

    out: list[tuple[float, str]] = []
    seed = 100
    while len(out) < n:
        game = Game.deal("yukon", seed=seed)
        seed += 1
        line = yukon.solve(game, time_limit=2.0).moves
        if len(line) < 45:
            line = []
            g = game.copy()
            for _ in range(40):
                legal = g.legal_moves()
                if not legal:
                    break
                m = rng.choice(legal)
                g.push(m)
                line.append(m)
        depth = rng.randint(20, min(40, len(line)))
        r = await client.post("/api/games", json={"position": game.to_dict()})
        gid = r.json()["id"]
        for m in line[:depth]:
            await client.post(f"/api/games/{gid}/moves", json={"move": str(m)})
        t0 = time.perf_counter()
        r = await client.post(f"/api/games/{gid}/hint", json={"kind": kind})
        out.append((time.perf_counter() - t0, r.json()["source"]))
    return out


async def _run_asgi(db: Path, moves: int, hints: int, kinds: list[str]) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(Store(":memory:"))),
                                 base_url="http://127.0.0.1") as client:
        times = await _moves(client, moves, random.Random(7))
        print(f"move round trip without the disk (ASGI app, in-memory store, {len(times)} moves): "
              f"median {statistics.median(times) * 1000:.2f} ms, p90 {_pct(times, 0.9) * 1000:.2f} ms")
    app = create_app(Store(db))
    rng = random.Random(7)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
        times = await _moves(client, moves, rng)
        print(f"move round trip (ASGI app, SQLite file committed with fsync, {len(times)} moves): "
              f"median {statistics.median(times) * 1000:.2f} ms, "
              f"p90 {_pct(times, 0.9) * 1000:.2f} ms   (target: median < 5 ms)")
        for kind in kinds if hints else []:
            hs = await _hints(client, hints, random.Random(7), kind)
            ts = [t for t, _ in hs]
            sources = ", ".join(f"{s}: {sum(1 for _, x in hs if x == s)}" for s in sorted({x for _, x in hs}))
            print(f"{kind} hint (mid-game Yukon, {len(ts)} positions): median {statistics.median(ts):.3f} s, "
                  f"p90 {_pct(ts, 0.9):.3f} s, max {max(ts):.3f} s   (target: < 1 s; {sources})")


def _run_uvicorn(db: Path, moves: int) -> None:
    import socket
    import threading

    import uvicorn

    app = create_app(Store(db))
    from yukon.web.cli import free_port

    port = free_port("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)

    async def go() -> list[float]:
        nodelay = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]  # as browsers do; else Nagle adds 40 ms
        transport = httpx.AsyncHTTPTransport(socket_options=nodelay)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport) as client:
            return await _moves(client, moves, random.Random(7))

    try:
        times = asyncio.run(go())
    finally:
        server.should_exit = True
        thread.join()
    print(f"move round trip (uvicorn on loopback, client side, {len(times)} moves): "
          f"median {statistics.median(times) * 1000:.2f} ms, p90 {_pct(times, 0.9) * 1000:.2f} ms")


def _run_browser(db: Path, moves: int) -> None:
    import json
    import threading

    import uvicorn
    from playwright.sync_api import sync_playwright

    from yukon.web.cli import free_port

    port = free_port("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(Store(db)), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    settings = {"autoplay": False, "autofinish": False, "winnable": False, "animate": False}
    rng = random.Random(7)
    times: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script(f"localStorage.setItem('yukon.settings', {json.dumps(json.dumps(settings))})")
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("window.yukon && window.yukon.state")
            seed = 1
            page.evaluate(f"window.yukon.newGame({{variant: 'yukon', seed: {seed}}})")
            page.evaluate("window.yukon.queue()")
            while len(times) < moves:
                legal = page.evaluate("window.yukon.state.legal_moves")
                if not legal or page.evaluate("window.yukon.state.move_count") >= 60:
                    seed += 1
                    page.evaluate(f"window.yukon.newGame({{variant: 'yukon', seed: {seed}}})")
                    page.evaluate("window.yukon.queue()")
                    continue
                # request sent to table updated, timed in the page (sendMove resolves once the table is drawn)
                ms = page.evaluate("async (m) => { const t0 = performance.now(); await window.yukon.sendMove(m);"
                                   " return performance.now() - t0; }", rng.choice(legal))
                times.append(ms / 1000)
            browser.close()
    finally:
        server.should_exit = True
        thread.join()
    print(f"move round trip in the browser (chromium, request to table updated, uvicorn on loopback, "
          f"{len(times)} moves): median {statistics.median(times) * 1000:.2f} ms, "
          f"p90 {_pct(times, 0.9) * 1000:.2f} ms   (target: median < 30 ms)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--hints", type=int, default=10)
    ap.add_argument("--kind", choices=["honest", "solver", "both"], default="both",
                    help="which hint to time: the honest one (the default hint) or the solver's")
    ap.add_argument("--uvicorn", action="store_true", help="also measure over a real uvicorn on loopback")
    ap.add_argument("--browser", action="store_true", help="also measure the page in chromium (Playwright)")
    args = ap.parse_args()
    if args.moves < 1 or args.hints < 0:
        ap.error(f"--moves must be at least 1 and --hints at least 0, not {args.moves} and {args.hints}")
    with tempfile.TemporaryDirectory() as tmp:
        kinds = ["honest", "solver"] if args.kind == "both" else [args.kind]
        asyncio.run(_run_asgi(Path(tmp) / "bench.sqlite3", args.moves, args.hints, kinds))
        if args.uvicorn:
            _run_uvicorn(Path(tmp) / "bench2.sqlite3", args.moves)
        if args.browser:
            _run_browser(Path(tmp) / "bench3.sqlite3", args.moves)
    return 0


if __name__ == "__main__":
    run_script(main)
