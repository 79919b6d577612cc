"""The web server: a JSON API over the contract's position format, and the card table page.

``create_app(store)`` builds the FastAPI application; ``yukon play`` serves it
with uvicorn. Every endpoint is described in ``docs/web.md``. Errors are JSON
objects ``{"error": "..."}`` that name the problem: 400 for a malformed
request or value, 403 for a request from another site or host (or without the
token, see :mod:`yukon.web.guard`), 404 for an unknown game, 409 for a move
that is not legal now (or undo with nothing to undo, a finished game), 410 for
a saved game that is damaged (it is set aside), 413 for a body over 64 KB, 422
for a request body of the wrong shape, 503 when the saved games cannot be
written just now. A failed request changes nothing.

The store is used from worker threads, never from the event loop, so a slow or
locked database delays only the requests that need it; the solver has its own
threads and a bounded queue (:class:`~yukon.web.solving.SolverQueue`), so moves
never wait for it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from .. import __version__
from ..advisor import HINT_TIME, HONEST, WINNABLE_TIME, Advisor, Deadline, HintKind, best_guess
from ..deal import MAX_SEED
from ..errors import IllegalMoveError, YukonError
from ..game import Game
from ..pysolfc import NUMBERINGS, PYSOLFC_GAME_IDS
from ..record import GameRecord as GameFile
from ..rules import OPTIONS, VARIANTS, rules_for
from ..store import DamagedGameError, Store
from . import deals, solving
from . import demo as watch
from .guard import LOOPBACK_NAMES, MAX_BODY, STARTED, LocalGuard
from .session import IDLE_SECONDS, MAX_SESSIONS, GameOverError, NothingToDoError, Registry, Session

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)
#: seconds one analysis may take in all, and the solver on each of its positions
ANALYSIS_TIME = 20.0
ANALYSIS_POSITION_TIME = 2.0
#: Seconds kept back from a hint's limit for its answer to leave the server, and before that for the
#: advisor's own work after its searches.
HINT_REPLY_TIME = 0.03
HINT_WRAP_UP = 0.07
#: An error message never echoes more of the request than this many characters.
MAX_MESSAGE = 300


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ErrorBody(BaseModel):
    """What every refusal answers."""

    error: str


_WHY = {
    400: "A malformed request or value (the message names it).",
    403: "A request from another site or for another host name, or without the server's token.",
    404: "No game with this id.",
    405: "This method is not allowed here (see the Allow header).",
    409: "Not possible now: an illegal move, nothing to undo or redo, a finished game.",
    410: "The saved game is damaged and set aside.",
    413: f"The request body is larger than {MAX_BODY} bytes.",
    422: "The request body does not have the documented shape.",
    503: "The saved games cannot be written just now (e.g. another program locks the file): nothing changed.",
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` for these error statuses (403 applies to every request)."""
    return {s: {"model": ErrorBody, "description": _WHY[s]} for s in sorted({403, *statuses})}


_BODY_ERRORS = (400, 413, 422)


def _short(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:MAX_MESSAGE]}... ({len(message) - MAX_MESSAGE} more characters left out)"


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": _short(message)}, status_code=status, headers=headers)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _whole_number(value: Any) -> Any:
    """JSON has one number type: ``7.0`` is the integer 7 (as JSON Schema says); ``7.5`` stays refused."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


#: A count, in the JSON sense (an integral float such as ``7.0`` counts; a string or bool does not).
Count = Annotated[int, Field(ge=0), BeforeValidator(_whole_number)]
#: A deal number: the engine checks the upper bound (400), the schema says it too.
Seed = Annotated[int, Field(ge=0, json_schema_extra={"maximum": MAX_SEED}), BeforeValidator(_whole_number)]


class NewGameBody(_Body):
    variant: str = Field(default="yukon", json_schema_extra={"enum": list(VARIANTS)})
    options: dict[str, Any] = Field(
        default_factory=dict,
        json_schema_extra={"properties": {k: {"enum": list(v)} for k, v in OPTIONS.items()},
                           "additionalProperties": False},
    )
    seed: Seed | None = None
    #: what the deal number means: this program's deals, or PySolFC's game numbers (docs/records.md)
    numbering: str = Field(default="yukon", json_schema_extra={"enum": list(NUMBERINGS)})
    position: dict[str, Any] | None = None
    winnable_only: bool = False
    #: which deal (docs/difficulty.md): any, a winnable one (of a ``difficulty``), or one proven lost
    deal: str | None = Field(default=None, json_schema_extra={"enum": list(deals.KINDS)})
    difficulty: str | None = Field(default=None, json_schema_extra={"enum": list(deals.GRADES)})
    autoplay: bool = False
    autofinish: bool = False
    abandon: str | None = None


class ImportBody(_Body):
    record: dict[str, Any]
    abandon: str | None = None


class MoveBody(_Body):
    move: str
    autoplay: bool = False
    autofinish: bool = False


class AutoBody(_Body):
    autoplay: bool = True
    autofinish: bool = True


class UndoBody(_Body):
    to: Count | None = None


class ClockBody(_Body):
    running: bool


class HintBody(_Body):
    #: ``honest``: it sees what the player sees (the default); ``solver``: it sees the face-down cards
    kind: HintKind = HONEST


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


def _forget(work: asyncio.Future[Any]) -> None:
    """A hint's work that was answered without: its outcome is not needed (an error is not lost silently)."""
    if not work.cancelled() and work.exception() is not None:
        log.warning("a hint answered without its search failed: %r", work.exception())


def analysis_job(record: dict[str, Any], position_time: float, total_time: float, stop: Any,
                 left: float) -> dict[str, Any]:
    """The analysis of a game record (in a solver worker): ``analyze``'s answer as JSON."""
    from ..analysis import analyze

    result = analyze(GameFile.from_dict(record), time_limit=position_time, total_limit=min(total_time, left),
                     stop=stop)
    return result.to_dict() | {"losing_range": result.losing_range, "end": result.end,
                               "winning_line": [str(m) for m in result.winning_line]}


def create_app(
    store: Store | None = None, *, hint_time: float = HINT_TIME,
    winnable_time: float = WINNABLE_TIME, analysis_time: float = ANALYSIS_TIME,
    hosts: Iterable[str] = LOOPBACK_NAMES, port: int | None = None,
    token: str | None = None, close_store: bool = False, max_sessions: int = MAX_SESSIONS,
    idle_seconds: float = IDLE_SECONDS, solver: solving.SolverQueue | None = None, warm_solver: bool = False,
) -> FastAPI:
    """The application, over ``store`` (default: the user's store file).

    ``hosts`` and ``port``: the ``Host`` names (and port, None: any) it answers; ``token``: asked of
    every request when given (a server reachable beyond loopback); ``close_store``: close the store
    when the server stops; ``warm_solver``: start the solver's worker processes with the server.
    """
    queue = solver or solving.SolverQueue()

    def advisor(game_id: str) -> Advisor:  # a game's searches run in the solver's queue
        return Advisor(solving.QueueRunner(queue, game_id), hint_time=hint_time, winnable_time=winnable_time)

    registry = Registry(store if store is not None else Store(), max_sessions=max_sessions,
                        idle_seconds=idle_seconds, advisor=advisor)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_solver:
            queue.start()
        yield
        await run_in_threadpool(_stop)

    def _stop() -> None:
        queue.shutdown()
        for session in registry.sessions():  # keep the clocks honest across a restart
            with session.lock:
                if session.result is None and session.clock_running:
                    try:
                        with session.atomic():
                            session.stop_clock()
                            registry.save(session)
                    except sqlite3.Error:  # pragma: no cover - the clock keeps its last saved value
                        pass
        if close_store:
            registry.store.close()

    app = FastAPI(title="Yukon", version=__version__, lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.registry = registry
    app.state.solver = queue
    app.add_middleware(LocalGuard, hosts=hosts, port=port, token=token)

    # ------------------------------------------------------------------ errors

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail), exc.headers)  # keeps Allow on a 405

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(*_describe_validation(exc))

    @app.exception_handler(GameOverError)
    @app.exception_handler(NothingToDoError)
    @app.exception_handler(IllegalMoveError)
    async def _not_now(request: Request, exc: Exception) -> JSONResponse:
        return _error(409, str(exc))

    @app.exception_handler(YukonError)
    async def _engine_error(request: Request, exc: YukonError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(ValueError)
    async def _bad_value(request: Request, exc: ValueError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(RecursionError)
    async def _too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return _error(400, "the request is nested too deeply")

    @app.exception_handler(DamagedGameError)
    async def _damaged(request: Request, exc: DamagedGameError) -> JSONResponse:
        return _error(410, str(exc))

    @app.exception_handler(sqlite3.Error)
    async def _store_unavailable(request: Request, exc: sqlite3.Error) -> JSONResponse:
        return _error(503, f"the saved games cannot be written just now ({exc}): nothing was changed; try again")

    def found(session: Session | None, game_id: str) -> Session:
        if session is None:
            raise ApiError(404, f"no game with id {game_id!r}")
        return session

    def change(game_id: str, do: Callable[[Session], dict[str, Any]]) -> JSONResponse:
        """Run ``do`` on the game, one change at a time; ``do`` saves before it returns (else nothing changed)."""
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                return JSONResponse(do(session))

    # ------------------------------------------------------------------ the page

    app.include_router(deals.router, responses=_errors(400, 422))

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ reference

    @app.get("/api/variants", responses=_errors())
    async def variants() -> dict[str, Any]:
        """The variants, their layout and default options, and the options a player may set."""
        return {
            "variants": [
                {
                    "name": r.variant, "title": r.title, "columns": r.columns, "foundations": r.foundations,
                    "decks": r.decks, "build": r.build, "stock": r.stock, "has_stock": r.has_stock,
                    "has_waste": r.has_waste, "defaults": r.options(), "about": r.about,
                    "numberings": ["yukon", "pysolfc"] if r.variant in PYSOLFC_GAME_IDS else ["yukon"],
                }
                for r in VARIANTS.values()
            ],
            "options": {k: list(v) for k, v in OPTIONS.items()},
        }

    @app.get("/api/stats", responses=_errors(400, 503))
    def stats(variant: Annotated[str | None, Query(json_schema_extra={"enum": list(VARIANTS)})] = None,
              ) -> dict[str, Any]:
        """Statistics per variant and options, from the finished games (every client)."""
        if variant is not None:
            variant = rules_for(variant).variant
        rows = registry.store.stats(variant)
        return {"stats": [row.to_dict() | {"title": VARIANTS[row.variant].title} for row in rows]}

    # ------------------------------------------------------------------ games

    def check_new_game(body: NewGameBody) -> Any:
        """The rules of the new game; raises, changing nothing, for a bad request."""
        if "variant" in body.options:
            raise ApiError(422, "invalid request: options.variant: the variant is given as 'variant', "
                                "not among the options")
        rules = rules_for(body.variant, **body.options)
        if body.numbering != "yukon":
            from ..pysolfc import check_game_number, check_numbering

            check_numbering(body.numbering)
            if body.seed is not None:
                check_game_number(rules, body.seed)
            elif rules.variant not in PYSOLFC_GAME_IDS:
                check_game_number(rules, 1)  # says which variants it is offered for
            if body.winnable_only:
                raise ApiError(400, "winnable_only searches this program's deals: give numbering 'yukon' "
                                    "or a PySolFC game number")
        deals.check_choice(body.deal, body.difficulty, body.seed, body.numbering, body.position)
        if body.position is not None:
            if body.seed is not None or body.winnable_only or body.numbering != "yukon":
                raise ApiError(400, "give either a position or a deal (seed, numbering, winnable_only), not both")
            try:
                Game.from_dict(body.position)
            except TypeError as exc:  # the engine should say YukonError; never a 500 here
                raise ApiError(422, f"invalid position: {exc}") from None
        elif body.seed is not None:
            Game.deal(rules, seed=body.seed, numbering=body.numbering)
        return rules

    def start_game(body: NewGameBody, rules: Any, seed: int | None, extra: dict[str, Any]) -> dict[str, Any]:
        if body.abandon is not None:
            with registry.use(body.abandon) as old:
                old = found(old, body.abandon)
                with old.lock:
                    registry.abandon(old)
        session = registry.new_game(rules.variant, rules.options(), seed, body.position, extra,
                                    numbering=body.numbering)
        with session.lock:
            played = session.play_auto(autoplay=body.autoplay, autofinish=body.autofinish)
            if not played:
                registry.save(session)  # records a position dealt already won
            return session.to_state(played)

    @app.post("/api/games", status_code=201, responses=_errors(*_BODY_ERRORS, 404, 410, 503))
    async def new_game(body: NewGameBody) -> JSONResponse:
        """Deal a new game (a given or random deal number, or a given position; a winnable deal of a
        difficulty or a deal proven lost from the shipped verdicts, else found by the solver)."""
        extra: dict[str, Any] = {}
        seed = body.seed
        winnable = (body.winnable_only or body.deal == "winnable") and body.position is None
        from_data = body.deal == "lost" or body.difficulty is not None
        if not from_data and (not winnable or seed is not None):
            if winnable:
                extra["deal_note"] = "you chose this deal number: it is not checked"
            # no search: checked and dealt in one worker thread (dealing is engine work, kept off the event loop)
            state = await run_in_threadpool(lambda: start_game(body, check_new_game(body), seed, extra))
            return JSONResponse(state, status_code=201)

        def check_first() -> Any:  # a bad request or abandon id is refused before any search
            rules = check_new_game(body)
            if body.abandon is not None:
                found(registry.get(body.abandon), body.abandon)
            return rules

        rules = await run_in_threadpool(check_first)
        if from_data or (seed is None and deals.has_data(rules)):  # from the shipped verdicts, at once
            seed, extra = await run_in_threadpool(deals.pick, rules, body.deal or "winnable", body.difficulty)
        else:
            try:
                searched = await queue.run(
                    ("deal", secrets.token_hex(8)),
                    partial(solving.winnable_deal_job, rules.variant, rules.options()),
                    solving.DEAL_BUDGET + solving.DEAL_TIME, long=True,
                )
            except solving.SolverBusyError:
                searched = None
            if searched is None:
                seed = secrets.randbelow(1 << 32)
                extra["deal_note"] = "the solver is busy: this deal is not checked"
            else:
                seed, verdict = searched
                extra["deal_note"] = verdict.note
                extra["deal_winnable"] = verdict.status
        state = await run_in_threadpool(start_game, body, rules, seed, extra)
        return JSONResponse(state, status_code=201)

    @app.post("/api/games/import", status_code=201, responses=_errors(*_BODY_ERRORS, 404, 410, 503))
    def import_game(body: ImportBody) -> JSONResponse:
        """A new game that continues a game record (docs/records.md): its moves played, each undoable."""
        try:
            record = GameFile.from_dict(body.record)
        except YukonError as exc:
            raise ApiError(400, f"not a game record to import: {exc}") from None
        if body.abandon is not None:
            with registry.use(body.abandon) as old:
                old = found(old, body.abandon)
                with old.lock:
                    registry.abandon(old)
        session = registry.import_record(record)
        with session.lock:
            return JSONResponse(session.to_state(), status_code=201)

    @app.get("/api/games/{game_id}/record", responses=_errors(404, 409, 410, 503))
    def export_game(game_id: str) -> JSONResponse:
        """The game as a game record, to download; only once it is over, as a record shows every card."""
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                if session.result is None:
                    raise ApiError(409, "a game is exported once it is over: its record shows the face-down cards")
                record = session.to_record().to_dict()
        return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="yukon-{game_id}.json"'})

    @app.post("/api/games/{game_id}/analysis", responses=_errors(404, 409, 410, 413, 503))
    async def analysis(game_id: str) -> JSONResponse:
        """Where did it go wrong (docs/records.md): the losing move and a winning continuation, once the
        game is over (the continuation plays face-down cards). Bounded by ``analysis_time`` seconds."""

        def record_of() -> GameFile:
            with registry.use(game_id) as session:
                session = found(session, game_id)
                with session.lock:
                    if session.result is None:
                        raise ApiError(409, "a game is analysed once it is over: the winning line shows "
                                            "face-down cards")
                    return session.to_record()

        record = await run_in_threadpool(record_of)
        try:
            out = await queue.run((game_id, "analysis"),
                                  partial(analysis_job, record.to_dict(), ANALYSIS_POSITION_TIME, analysis_time),
                                  analysis_time + ANALYSIS_POSITION_TIME, long=True)
        except solving.SolverBusyError:
            raise ApiError(503, "the solver is busy with other requests: try the analysis again soon") from None
        if out is None:
            raise ApiError(503, "the analysis ran out of time")
        return JSONResponse(out | {"move_count": len(record.moves)})

    @app.get("/api/games/{game_id}/replay", responses=_errors(400, 404, 410, 503))
    def replay(game_id: str, at: Annotated[int, Query(ge=0)],
               then: Annotated[str, Query(max_length=10_000)] = "") -> JSONResponse:
        """The position after the first ``at`` moves, as the player saw it (no face-down card); changes
        nothing. ``then``: moves (notation, space-separated) played on from there, once the game is over."""
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                return JSONResponse(session.replay_state(at, then.split()))

    @app.post("/api/games/{game_id}/resign", responses=_errors(404, 409, 410, 413, 503))
    def resign(game_id: str) -> JSONResponse:
        """End the game now: it counts as not won (lost at a dead end); then it can be exported and analysed."""
        return change(game_id, lambda s: (s.resign(), s.to_state())[1])

    @app.get("/api/games/latest", responses=_errors(404, 503))
    def latest_game() -> JSONResponse:
        """The most recently played unfinished game of this client, to resume (damaged ones are skipped)."""
        session = registry.latest()
        if session is None:
            raise ApiError(404, "no unfinished game to resume")
        with session.lock:
            return JSONResponse(session.to_state())

    @app.get("/api/games/{game_id}", responses=_errors(404, 410, 503))
    def get_game(game_id: str) -> JSONResponse:
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                return JSONResponse(session.to_state())

    @app.post("/api/games/{game_id}/moves", responses=_errors(*_BODY_ERRORS, 404, 409, 410, 503))
    def play(game_id: str, body: MoveBody) -> JSONResponse:
        """Play one move (notation), then the automatic plays asked for."""
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                try:
                    played = session.play(body.move, autoplay=body.autoplay, autofinish=body.autofinish)
                except IllegalMoveError as exc:  # the rule it breaks, and why in a player's words
                    return JSONResponse({"error": _short(str(exc)), "reason": exc.reason,
                                         "explanation": session.explain(exc)}, status_code=409)
                return JSONResponse(session.to_state(played))

    @app.post("/api/games/{game_id}/auto", responses=_errors(*_BODY_ERRORS, 404, 409, 410, 503))
    def auto(game_id: str, body: Annotated[AutoBody | None, Body()] = None) -> JSONResponse:
        """Play only the automatic moves (safe cards up, and the finish when it is certain)."""
        b = body or AutoBody()
        return change(game_id, lambda s: s.to_state(s.play_auto(autoplay=b.autoplay, autofinish=b.autofinish)))

    @app.post("/api/games/{game_id}/undo", responses=_errors(*_BODY_ERRORS, 404, 409, 410, 503))
    def undo(game_id: str, body: Annotated[UndoBody | None, Body()] = None) -> JSONResponse:
        """Undo the last turn (a move with the automatic plays after it), or back to ``to`` moves."""
        return change(game_id, lambda s: s.to_state(undone=s.undo(None if body is None else body.to)))

    @app.post("/api/games/{game_id}/redo", responses=_errors(404, 409, 410, 413, 503))
    def redo(game_id: str) -> JSONResponse:
        return change(game_id, lambda s: s.to_state(s.redo()))

    @app.post("/api/games/{game_id}/restart", responses=_errors(404, 409, 410, 413, 503))
    def restart(game_id: str) -> JSONResponse:
        """Back to the start of the deal; every move stays available to redo."""
        return change(game_id, lambda s: s.to_state(undone=s.restart()))

    @app.post("/api/games/{game_id}/clock", responses=_errors(*_BODY_ERRORS, 404, 410, 503))
    def clock(game_id: str, body: ClockBody) -> JSONResponse:
        """Pause the clock (page hidden) or let it run again (page shown, once a move was played)."""

        def do(session: Session) -> dict[str, Any]:
            with session.atomic():
                if body.running:
                    if session.player_moved:  # the clock starts at the player's first own move
                        session.start_clock()
                else:
                    session.stop_clock()
                registry.save(session)
            return {"elapsed": round(session.elapsed, 3), "clock_running": session.clock_running}

        return change(game_id, do)

    def for_solver(game_id: str, history: bool) -> tuple[Session, Game, int]:
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                return session, session.game.copy(history=history), len(session.moves)

    @app.post("/api/games/{game_id}/hint", responses=_errors(*_BODY_ERRORS, 404, 410, 503))
    async def hint(game_id: str, request: Request,
                   body: Annotated[HintBody | None, Body()] = None) -> JSONResponse:
        """The next move, of the kind asked for: ``honest`` (the default; it sees only what the player
        sees) or ``solver`` (it sees the face-down cards). The answer names its ``kind`` and says it in
        words (``label``).

        The advisor (yukon.advisor, shared with the terminal game) runs the search in the solver's
        queue. It answers within the hint's time limit, counted from the request's arrival (time spent
        waiting for a thread, for the game to load or in the solver's queue counts against it): when
        the solver is busy or out of time, with a best guess marked ``source: "heuristic"``. The solver
        kind follows the line it found (a hint along it is instant) and never hints a move back; the
        honest kind never hints a move back to a position already seen."""
        kind = (body or HintBody()).kind
        started = request.scope.get(STARTED, time.perf_counter())
        answer_by = started + hint_time - HINT_REPLY_TIME
        deadline = Deadline(answer_by - HINT_WRAP_UP)
        loaded: dict[str, Any] = {}
        work = asyncio.ensure_future(run_in_threadpool(advise, game_id, kind, deadline, loaded))
        try:
            return JSONResponse(await asyncio.wait_for(asyncio.shield(work), max(0.0, answer_by - time.perf_counter())))
        except TimeoutError:
            pass
        if "game" not in loaded:  # the game itself has not come yet: there is nothing to hint from without it
            return JSONResponse(await work)
        # the advisor's work after its searches outlasted the limit (a machine short of CPU): a best guess now
        deadline.set()
        work.add_done_callback(_forget)
        advice = best_guess(loaded["game"], kind, time.perf_counter() - started, "the solver ran out of time")
        return JSONResponse(advice.to_dict() | {"move_count": loaded["count"]})

    def advise(game_id: str, kind: HintKind, deadline: Deadline, loaded: dict[str, Any]) -> dict[str, Any]:
        """The hint (in a worker thread: the advisor's own work stays off the event loop), by ``deadline``;
        ``loaded`` gets the game (a copy) and its move count as soon as they are known."""
        session, game, count = for_solver(game_id, True)
        loaded.update(game=game, count=count)
        advice = session.advisor.next_on_line(game, kind)  # the next move of the line found: no search
        if advice is None:
            advice = session.advisor.hint(game, kind=kind, stop=deadline)
        return advice.to_dict() | {"move_count": count}

    @app.post("/api/games/{game_id}/winnable", responses=_errors(404, 410, 413, 503))
    async def winnable(game_id: str) -> JSONResponse:
        """Can this position still be won? A perfect-information verdict (the solver sees the face-down
        cards: ``perfect_information`` and ``label`` say so). When lost: the last winnable move count."""
        session, game, count = await run_in_threadpool(for_solver, game_id, True)
        verdict = await run_in_threadpool(session.advisor.winnable, game)
        return JSONResponse(verdict.to_dict() | {"move_count": count})

    watch.install(app, registry, queue, found, _errors(*_BODY_ERRORS, 404, 409, 410, 503))  # watch the computer play
    return app
