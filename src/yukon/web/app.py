"""The web server: a JSON API over the contract's position format, and the card table page.

``create_app(store)`` builds the FastAPI application; ``yukon play`` serves it
with uvicorn. Every endpoint is described in ``docs/web.md``. Errors are JSON
objects ``{"error": "..."}`` that name the problem: 400 for a malformed
request or value, 404 for an unknown game, 409 for a move that is not legal
now (or undo with nothing to undo, a finished game), 422 for a request body
of the wrong shape. A failed request changes nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from .. import __version__
from ..errors import IllegalMoveError, YukonError
from ..game import Game
from ..rules import OPTIONS, VARIANTS, rules_for
from ..store import Store
from . import solving
from .session import GameOverError, NothingToDoError, Registry, Session

STATIC = Path(__file__).parent / "static"


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewGameBody(_Body):
    variant: str = "yukon"
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0)
    position: dict[str, Any] | None = None
    winnable_only: bool = False
    autoplay: bool = False
    autofinish: bool = False
    abandon: str | None = None


class MoveBody(_Body):
    move: str
    autoplay: bool = False
    autofinish: bool = False


class AutoBody(_Body):
    autoplay: bool = True
    autofinish: bool = True


class UndoBody(_Body):
    to: int | None = Field(default=None, ge=0)


class ClockBody(_Body):
    running: bool


def _describe_validation(exc: RequestValidationError) -> tuple[int, str]:
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            return 400, f"the request body is not valid JSON: {e.get('msg', '')}".rstrip(": ")
    parts = []
    for e in errors[:3]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        parts.append(f"{loc}: {e.get('msg', 'invalid')}")
    return 422, "invalid request: " + "; ".join(parts)


def create_app(store: Store | None = None, *, hint_time: float = solving.HINT_TIME,
               winnable_time: float = solving.WINNABLE_TIME) -> FastAPI:
    """The application, over ``store`` (default: the user's store file)."""
    registry = Registry(store if store is not None else Store())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        for session in list(registry._sessions.values()):  # keep the clocks honest across a restart
            if session.result is None and session.clock_running:
                session.stop_clock()
                registry.save(session)

    app = FastAPI(title="Yukon", version=__version__, lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.registry = registry

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = _describe_validation(exc)
        return JSONResponse({"error": message}, status_code=status)

    def session_or_404(game_id: str) -> Session:
        try:
            session = registry.get(game_id)
        except YukonError as exc:  # pragma: no cover - a stored game that no longer replays
            raise ApiError(500, f"game {game_id!r} cannot be restored: {exc}") from None
        if session is None:
            raise ApiError(404, f"no game with id {game_id!r}")
        return session

    def changed(session: Session, played: list[Any] | None = None, undone: list[Any] | None = None,
                status: int = 200) -> JSONResponse:
        # the session saved the change itself before returning it
        return JSONResponse(session.to_state(played or (), undone or ()), status_code=status)

    # ------------------------------------------------------------------ the page

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ reference

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        """The variants, their layout and default options, and the options a player may set."""
        return {
            "variants": [
                {
                    "name": r.variant, "title": r.title, "columns": r.columns, "foundations": r.foundations,
                    "decks": r.decks, "build": r.build, "stock": r.stock, "has_stock": r.has_stock,
                    "has_waste": r.has_waste, "defaults": r.options(),
                }
                for r in VARIANTS.values()
            ],
            "options": {k: list(v) for k, v in OPTIONS.items()},
            "solver": solving.solver_available(),
        }

    @app.get("/api/stats")
    async def stats(variant: str | None = None) -> dict[str, Any]:
        """Statistics per variant and options, from the finished games (every client)."""
        if variant is not None:
            try:
                variant = rules_for(variant).variant
            except YukonError as exc:
                raise ApiError(400, str(exc)) from None
        rows = registry.store.stats(variant)
        return {"stats": [row.to_dict() | {"title": VARIANTS[row.variant].title} for row in rows]}

    # ------------------------------------------------------------------ games

    @app.post("/api/games", status_code=201)
    async def new_game(body: NewGameBody) -> JSONResponse:
        """Deal a new game (a given or random deal number, or a given position)."""
        if body.abandon is not None:
            old = session_or_404(body.abandon)
        try:
            rules = rules_for(body.variant, **body.options)
            if body.position is not None:
                if body.seed is not None or body.winnable_only:
                    raise ApiError(400, "give either a position or a deal (seed, winnable_only), not both")
                Game.from_dict(body.position)
            elif body.seed is not None:
                Game.deal(rules, seed=body.seed)
        except YukonError as exc:
            raise ApiError(400, str(exc)) from None
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        extra: dict[str, Any] = {}
        seed = body.seed
        if body.winnable_only and body.position is None:
            if seed is None:
                found = await solving.run_stoppable(
                    lambda stop: solving.find_winnable_deal(lambda s: Game.deal(rules, seed=s), stop),
                    solving.DEAL_BUDGET + solving.DEAL_TIME,
                )
                if found is None:  # pragma: no cover - the search honours its budget
                    extra["deal_note"] = "no deal proven winnable in time: this one is not proven winnable"
                else:
                    seed, verdict = found
                    extra["deal_note"] = verdict.note
                    extra["deal_winnable"] = verdict.status
            else:
                extra["deal_note"] = "you chose this deal number: it is not checked"
        if body.abandon is not None:
            registry.abandon(old)
        session = registry.new_game(rules.variant, rules.options(), seed, body.position, extra)
        played = session.play_auto(autoplay=body.autoplay, autofinish=body.autofinish)
        if not played:
            registry.save(session)  # records a position dealt already won
        return changed(session, played, status=201)

    @app.get("/api/games/latest")
    async def latest_game() -> JSONResponse:
        """The most recently played unfinished game of this client, to resume."""
        session = registry.latest()
        if session is None:
            raise ApiError(404, "no unfinished game to resume")
        return JSONResponse(session.to_state())

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> JSONResponse:
        return JSONResponse(session_or_404(game_id).to_state())

    @app.post("/api/games/{game_id}/moves")
    async def play(game_id: str, body: MoveBody) -> JSONResponse:
        """Play one move (notation), then the automatic plays asked for."""
        session = session_or_404(game_id)
        try:
            played = session.play(body.move, autoplay=body.autoplay, autofinish=body.autofinish)
        except GameOverError as exc:
            raise ApiError(409, str(exc)) from None
        except IllegalMoveError as exc:
            raise ApiError(409, str(exc)) from None
        except YukonError as exc:
            raise ApiError(400, str(exc)) from None
        return changed(session, played)

    @app.post("/api/games/{game_id}/auto")
    async def auto(game_id: str, body: Annotated[AutoBody | None, Body()] = None) -> JSONResponse:
        """Play only the automatic moves (safe cards up, and the finish when it is certain)."""
        session = session_or_404(game_id)
        body = body or AutoBody()
        try:
            played = session.play_auto(autoplay=body.autoplay, autofinish=body.autofinish)
        except GameOverError as exc:
            raise ApiError(409, str(exc)) from None
        return changed(session, played)

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, body: Annotated[UndoBody | None, Body()] = None) -> JSONResponse:
        """Undo the last turn (a move with the automatic plays after it), or back to ``to`` moves."""
        session = session_or_404(game_id)
        try:
            undone = session.undo(None if body is None else body.to)
        except (GameOverError, NothingToDoError) as exc:
            raise ApiError(409, str(exc)) from None
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        return changed(session, undone=undone)

    @app.post("/api/games/{game_id}/redo")
    async def redo(game_id: str) -> JSONResponse:
        session = session_or_404(game_id)
        try:
            played = session.redo()
        except (GameOverError, NothingToDoError) as exc:
            raise ApiError(409, str(exc)) from None
        return changed(session, played)

    @app.post("/api/games/{game_id}/restart")
    async def restart(game_id: str) -> JSONResponse:
        """Back to the start of the deal; every move stays available to redo."""
        session = session_or_404(game_id)
        try:
            undone = session.restart()
        except (GameOverError, NothingToDoError) as exc:
            raise ApiError(409, str(exc)) from None
        return changed(session, undone=undone)

    @app.post("/api/games/{game_id}/clock")
    async def clock(game_id: str, body: ClockBody) -> JSONResponse:
        """Pause the clock (page hidden) or let it run again (page shown, once a move was played)."""
        session = session_or_404(game_id)
        if body.running:
            if session.moves or session.redo_moves:
                session.start_clock()
        else:
            session.stop_clock()
        registry.save(session)
        return JSONResponse({"elapsed": round(session.elapsed_now(), 3),
                             "clock_running": session.clock_running})

    @app.post("/api/games/{game_id}/hint")
    async def hint(game_id: str) -> JSONResponse:
        """The best next move (the solver sees the face-down cards), with where it came from."""
        session = session_or_404(game_id)
        game = session.game.copy(history=True)  # the policy avoids the positions already seen
        count = len(session.moves)
        lines = session.lines
        policy = session.hints
        known = policy.next_on_line(game)  # the next move of the line found: instant
        if known is not None and known.move is not None:
            return JSONResponse(solving.Hint(str(known.move), known.source, known.status, 0.0).to_dict()
                                | {"move_count": count})

        def work(stop: Any) -> solving.Hint:
            advice = policy.advise(game, stop=stop, time_limit=hint_time)
            if advice.line:
                lines.remember(game, [str(m) for m in advice.line])
            move = None if advice.move is None else str(advice.move)
            return solving.Hint(move, advice.source, advice.status, advice.seconds, advice.note)

        result = await solving.run_stoppable(work, 1.5 * hint_time, session.supersede("hint"))
        if result is None:  # pragma: no cover - the solver honours its limit
            move = solving.heuristic_move(game)
            result = solving.Hint(None if move is None else str(move), "heuristic", "unknown", hint_time,
                                  "a best guess: the solver ran out of time")
        if result.status in ("won", "lost") and result.source == "solver":
            session.proven[game.to_text()] = result.status
        return JSONResponse(result.to_dict() | {"move_count": count})

    @app.post("/api/games/{game_id}/winnable")
    async def winnable(game_id: str) -> JSONResponse:
        """Can this position still be won (perfect information)? When lost: the last winnable move count."""
        session = session_or_404(game_id)
        game = session.game.copy(history=True)
        count = len(session.moves)
        key = game.to_text()
        proven = session.proven
        lines = session.lines

        def work(stop: Any) -> tuple[solving.Verdict, int | None]:
            cached = "won" if lines.get(key) else proven.get(key)
            verdict = solving.Verdict(cached, "solver") if cached else solving.decide(game, stop, winnable_time)
            if verdict.status != "unknown":
                proven[key] = verdict.status
            if verdict.line:
                lines.remember(game, verdict.line)
            back = None
            if verdict.status == "lost":
                back = solving.last_winnable(game, proven, stop)
            return verdict, back

        out = await solving.run_stoppable(work, winnable_time + solving.LOOKBACK_BUDGET, session.supersede("winnable"))
        if out is None:  # pragma: no cover - the solver honours its limit
            out = solving.Verdict("unknown", "solver", note="the solver ran out of time"), None
        verdict, back = out
        return JSONResponse(verdict.to_dict() | {"move_count": count, "last_winnable": back})

    return app
