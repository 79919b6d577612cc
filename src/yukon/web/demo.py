"""Watch the computer play, on the server: each of its moves decided in the solver's queue, then played.

``POST /api/games/{id}/demo-move`` computes the honest player's next move (it sees only what the player
sees: :mod:`yukon.demo`) in a solver worker, then plays it as one turn through the game's session, so the
move is applied only once it is saved, as a player's move is; the answer is the game's state (what the
player may see) with ``played`` to animate, and ``demo``: the move and why it was (or was not) played.
``POST /api/games/{id}/demo-stop`` stops it. Both pass the same guard (host, origin, token) as every request.

A newer demo request for a game supersedes an older one (the queue stops the older search, and only the
newest request may play); a stop request stops the search at once and lets no request in flight play; a
position that changed while the computer thought (the player moved) is left alone. A game the computer
played in is marked (``extra["computer_moves"]``) and left out of the statistics.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

from fastapi import Body, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.concurrency import run_in_threadpool

from .. import demo
from ..honest import WEB_BUDGET, Budget
from ..session import GameOverError
from . import solving
from .session import Registry, Session

#: Seconds a decision may wait for a solver worker beyond its thinking time (a worker process starting).
STARTUP_TIME = 3.0

#: Why no move was played, besides the decision's own reasons (``won``, ``no move``, ``repeats``):
#: a newer request or a stop came first; the position changed while the computer thought; the solver's
#: queue is full; the worker did not answer in time. The page tries again after the last three.
STOPPED, CHANGED, BUSY, TIMEOUT = "stopped", "changed", "busy", "timeout"


class DemoBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    autoplay: bool = False
    autofinish: bool = False


class DemoSettings:
    """The demo's thinking on this server: the honest player's ``budget`` and ``think_time`` seconds per
    move (None: the budget alone, so a move depends on the view and its seed only: for tests)."""

    def __init__(self, budget: Budget = WEB_BUDGET, think_time: float | None = demo.THINK_TIME) -> None:
        self.budget = budget
        self.think_time = think_time


class _Turns:
    """Which demo request of each game may play: the newest; a stop lets none."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = itertools.count(1)
        self._live: dict[str, int] = {}

    def begin(self, game_id: str) -> int:
        with self._lock:
            token = next(self._count)
            self._live[game_id] = token
            return token

    def end(self, game_id: str, token: int) -> bool:
        """True when ``token`` is still the game's newest request (and is now done)."""
        with self._lock:
            if self._live.get(game_id) != token:
                return False
            del self._live[game_id]
            return True

    def stop(self, game_id: str) -> None:
        with self._lock:
            self._live.pop(game_id, None)


def install(app: FastAPI, registry: Registry, queue: solving.SolverQueue,
            found: Callable[[Session | None, str], Session], responses: dict[int | str, dict[str, Any]]) -> None:
    """Add the demo's routes to ``app`` (``found`` answers 404 for an unknown game; ``responses``: the
    documented errors). ``app.state.demo`` holds the :class:`DemoSettings`."""
    app.state.demo = DemoSettings()
    turns = _Turns()

    @app.post("/api/games/{game_id}/demo-move", responses=responses)
    async def demo_move(game_id: str, request: Request,
                        body: Annotated[DemoBody | None, Body()] = None) -> JSONResponse:
        """Watch the computer play: the honest player (it sees only what the player sees) decides the
        next move in the solver's queue and plays it as one turn; then the automatic plays asked for.
        The answer is the game's state with ``played``, and ``demo``: ``{"move", "reason", "source",
        "win_share", "samples", "odds", "seconds"}``; ``reason`` is ``move`` when it played, else why not
        (``won``, ``no move``, ``repeats``: it would only go round in circles; ``stopped``, ``changed``,
        ``busy``, ``timeout``: try again). The game no longer counts in the statistics."""
        b = body or DemoBody()
        settings: DemoSettings = app.state.demo

        def begin() -> tuple[int, str, int, Any]:
            with registry.use(game_id) as session:
                session = found(session, game_id)
                with session.lock:
                    if session.locked:
                        raise GameOverError(f"this game is over ({session.result}); start a new one")
                    token = turns.begin(game_id)
                    game = session.game.copy(history=True)
                    return token, game.to_text(), len(game.move_stack), demo.situation(game)

        token, key, count, (view, seen, seed) = await run_in_threadpool(begin)
        decision: demo.Decision | None = None
        reason = TIMEOUT
        left = False  # the page went away while the computer thought: nobody watches, no move is played
        if not view.legal_moves() or view.is_won():
            decision = demo.decide(view, seen, seed, settings.budget, settings.think_time)  # no search needed
        else:
            think = settings.think_time
            limit = (demo.THINK_TIME * 10 if think is None else think) + STARTUP_TIME
            try:
                async with solving.watch_client(request.receive) as gone:
                    decision = await queue.run((game_id, "demo"), partial(
                        demo.decision_job, view, seen, seed, settings.budget, think), limit, gone=gone)
                left = gone.is_set()
            except solving.SolverBusyError:
                reason = BUSY

        def finish() -> JSONResponse:
            with registry.use(game_id) as session:
                session = found(session, game_id)
                with session.lock:
                    newest = turns.end(game_id, token)
                    played: list[Any] = []
                    out: dict[str, object] = {"move": None, "reason": reason}
                    if decision is not None:
                        out = decision.to_dict()
                    if not newest or left:
                        out |= {"move": None, "reason": STOPPED}
                    elif session.game.to_text() != key or len(session.moves) != count:
                        out |= {"move": None, "reason": CHANGED}
                    elif decision is not None and decision.move is not None:
                        played = demo.play_computer_move(session, decision.move, autoplay=b.autoplay,
                                                         autofinish=b.autofinish)
                    return JSONResponse(session.to_state(played) | {"demo": out})

        return await run_in_threadpool(finish)

    @app.post("/api/games/{game_id}/demo-stop", responses=responses)
    def demo_stop(game_id: str) -> JSONResponse:
        """Stop watching the computer play: its search stops at once and no demo move in flight is played.
        Answers ``{"stopped": true}`` when a search was running, else ``false``."""
        with registry.use(game_id) as session:
            found(session, game_id)
        turns.stop(game_id)
        return JSONResponse({"stopped": queue.stop((game_id, "demo"))})


__all__ = ["BUSY", "CHANGED", "STOPPED", "TIMEOUT", "DemoBody", "DemoSettings", "install"]
