"""The web server: a JSON API over the contract's position format, and the card table page.

``create_app(store)`` builds the FastAPI application; ``yukon play`` serves it
with uvicorn. Every endpoint is described in ``docs/web.md``. Errors are JSON
objects ``{"error": "..."}`` that name the problem: 400 for a malformed
request or value, 403 for a request from another site or host (or without the
token, see :mod:`yukon.web.guard`), 404 for an unknown game, 409 for a move
that is not legal now (or undo with nothing to undo, a finished game), 410 for
a saved game that is damaged (it is set aside), 413 for a body over 64 KB, 415
for a body not sent as JSON, 422 for a request body of the wrong shape, 503
when the saved games cannot be written just now. A failed request changes nothing.

**Whose game.** No one reaches another player's game without its id (ids are
unguessable). The guard gives every browser an unguessable id in an HttpOnly,
SameSite=Strict cookie (:data:`~yukon.web.guard.BROWSER`), and each game records
the browser that started it. ``GET /api/games/latest`` (resume where you left
off) answers on loopback, one player's machine, with the local player's latest
game whatever the browser; on a server shared beyond loopback (``yukon play
--host``, where every player has the same token) only with a game that the
asking browser started, and ``GET /api/stats`` counts only that browser's games.

The store is used from worker threads, never from the event loop, so a slow or
locked database delays only the requests that need it; the solver has its own
threads and a bounded queue (:class:`~yukon.web.solving.SolverQueue`), so moves
never wait for it.

A request costs CPU time on the one event loop and under the one GIL, so the
frequent ones (a move, a game's state, the variants) take the short way: an
``async`` endpoint that hands the game's work to a few request threads of its
own (:data:`REQUEST_THREADS`; Starlette's sync endpoints go through AnyIO's
forty-thread pool, three to five times the CPU per hop), the answer encoded once
with ``orjson``, the variants' answer built once. ``bench/server_cpu.py``
measures the server's CPU time per request.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import Body, FastAPI, Query, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..advisor import HINT_TIME, WINNABLE_TIME, Advisor, Deadline, HintKind, best_guess
from ..errors import IllegalMoveError, YukonError
from ..game import Game
from ..pysolfc import PYSOLFC_GAME_IDS
from ..record import GameRecord as GameFile
from ..rules import OPTIONS, VARIANTS, rules_for
from ..store import Store
from ..visible import hidden_in
from . import deals, solving
from . import demo as watch
from .answers import (
    ANSWERED,
    BODY_ERRORS,
    ApiError,
    JSONBody,
    answer_error,
    error_answer,
    error_responses,
    short_message,
)
from .bodies import AutoBody, CheckBody, ClockBody, HintBody, ImportBody, MoveBody, NewGameBody, UndoBody
from .guard import BROWSER, LOOPBACK_NAMES, NEW_BROWSER, STARTED, LocalGuard
from .lane import FastLane
from .session import IDLE_SECONDS, MAX_SESSIONS, Registry, Session, move_words
from .threads import RequestThreads

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)
#: seconds one analysis may take in all, and the solver on each of its positions
ANALYSIS_TIME = 20.0
ANALYSIS_POSITION_TIME = 2.0
#: Seconds kept back from a hint's limit for its answer to leave the server, and before that for the
#: advisor's own work after its searches.
HINT_REPLY_TIME = 0.03
HINT_WRAP_UP = 0.07
#: Threads for the work of a request on a game (the engine, its state, SQLite). Few, so that they
#: seldom contend for the GIL; enough that writes waiting for one commit go into the next together.
REQUEST_THREADS = 8
#: FastAPI 0.16x asks at every request whether OpenTelemetry is set up (three provider look-ups);
#: this server exports no telemetry. Older FastAPI has neither the look-ups nor the setting.
_NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters else {})
T = TypeVar("T")


def _forget(work: asyncio.Future[Any]) -> None:
    """A hint's work that was answered without: its outcome is not needed (an error is not lost silently)."""
    if not work.cancelled() and work.exception() is not None:
        log.warning("a hint answered without its search failed: %r", work.exception())


def deal_search_key(scope: Mapping[str, Any]) -> tuple[str, str]:
    """The solver queue's key of a winnable-deal search (its first item is whose share it is in): a browser's
    searches are in that browser's share, as a game's are in the game's, and its newest replaces its older
    one, so a browser asking again and again holds one place and stops no one else's search. A client that
    keeps no cookie (its id is new with each request) could be any number of browsers: such searches all
    share one share instead, each with a key of its own."""
    browser = scope.get(BROWSER)
    if browser is None or scope.get(NEW_BROWSER):
        return "deal", secrets.token_hex(8)
    return f"browser:{browser}", "deal"


def hint_answer(advice: Any, game: Game, count: int) -> dict[str, Any]:
    """A hint's answer: the advice, the move count it is for, and its move in words (the page words none)."""
    return advice.to_dict(hidden_in(game)) | {"move_count": count,
                                              "words": move_words(game.rules, [advice.move] if advice.move else [])}


def analysis_job(record: dict[str, Any], dealt: int, position_time: float, total_time: float, stop: Any,
                 left: float) -> dict[str, Any]:
    """The analysis of a game record (in a solver worker): ``analyze``'s answer as JSON. ``dealt``: the
    deal's automatic plays at the start of its moves (the range's words count the player's moves after them)."""
    from .. import analysis

    game_file = GameFile.from_dict(record)
    result = analysis.analyze(game_file, time_limit=position_time, total_limit=min(total_time, left), stop=stop)
    # the moves the page names, in words: the lines it replays, and the move that lost the game
    game = game_file.game()
    named = [*result.continuation, *result.winning_line]
    if result.losing_move:
        named.append(game.move_stack[result.losing_move - 1])
    # (the range's wording is the analysis's, so that the page and the terminal say the same)
    return result.to_dict() | {"losing_range": result.losing_range, "end": result.end,
                               "range_text": analysis.range_text(result, dealt),
                               "winning_line": [str(m) for m in result.winning_line],
                               "words": move_words(game.rules, named)}


def create_app(
    store: Store | None = None, *, hint_time: float = HINT_TIME,
    winnable_time: float = WINNABLE_TIME, analysis_time: float = ANALYSIS_TIME,
    hosts: Iterable[str] = LOOPBACK_NAMES, port: int | None = None,
    token: str | None = None, close_store: bool = False, max_sessions: int = MAX_SESSIONS,
    idle_seconds: float = IDLE_SECONDS, solver: solving.SolverQueue | None = None, warm_solver: bool = False,
    request_threads: int = REQUEST_THREADS, fast_lane: bool = True, shared: bool | None = None,
    game_clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The application, over ``store`` (default: the user's store file).

    ``hosts`` and ``port``: the ``Host`` names (and port, None: any) it answers; ``token``: asked of
    every request when given (a server reachable beyond loopback); ``close_store``: close the store
    when the server stops; ``warm_solver``: start the solver's worker processes with the server;
    ``request_threads``: the threads doing the requests' work on games; ``fast_lane``: answer a
    well-formed move or state request without FastAPI's routing (:mod:`yukon.web.lane`; the same answers);
    ``shared``: several players may use this server (default: when it asks for a token, i.e. it is served
    beyond loopback), so ``GET /api/games/latest`` answers only with a game the asking browser started;
    ``game_clock``: the games' clock and the sessions' idle time (a test's fake clock).
    """
    if shared is None:
        shared = token is not None
    queue = solver or solving.SolverQueue()
    threads = RequestThreads(request_threads)

    def advisor(game_id: str) -> Advisor:  # a game's searches run in the solver's queue
        return Advisor(solving.QueueRunner(queue, game_id), hint_time=hint_time, winnable_time=winnable_time)

    registry = Registry(store if store is not None else Store(), max_sessions=max_sessions,
                        idle_seconds=idle_seconds, advisor=advisor, clock=game_clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_solver:
            queue.start()
        yield
        await run_in_threadpool(_stop)

    def _stop() -> None:
        queue.shutdown()
        threads.close()  # the changes under way are saved first
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

    # no API explorer page: FastAPI's loads Swagger UI from a CDN, and nothing here may come from elsewhere
    app = FastAPI(title="Yukon", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json", **_NO_TELEMETRY)
    app.state.registry = registry
    app.state.solver = queue

    # ------------------------------------------------------------------ errors

    for kind in ANSWERED:
        app.add_exception_handler(kind, answer_error)

    def found(session: Session | None, game_id: str) -> Session:
        if session is None:
            raise ApiError(404, f"no game with id {game_id!r}")
        return session

    def on_game(game_id: str, do: Callable[[Session], Response]) -> Callable[[], Response]:
        """The work of ``do`` on the game (in a request thread), one request at a time per game."""

        def work() -> Response:
            with registry.use(game_id) as session:
                session = found(session, game_id)
                with session.lock:
                    if session.seen():  # a page back after a silence: the time without one is not counted
                        registry.save(session)
                    return do(session)

        return work

    async def change(game_id: str, do: Callable[[Session], dict[str, Any]]) -> Response:
        """Run ``do`` on the game; ``do`` saves before it returns (else nothing changed)."""
        return await threads.run(on_game(game_id, lambda session: JSONBody(do(session))))

    # ------------------------------------------------------------------ the most frequent request, first
    # (a request is matched against the routes in order: each one before it costs a little)

    def with_held_back_note(session: Session, state: dict[str, Any], autoplay: bool) -> dict[str, Any]:
        """A move's or a new game's answer with why automatic play left cards it could have played up, the
        ones not told yet, the cards left for one reason in one sentence (as the terminal says it)."""
        told = session.held_back_note() if autoplay and state["held_back"] else {"sentences": [], "cards": 0}
        return state | {"held_back_note": told}

    async def play_move(game_id: str, move: str, autoplay: bool, autofinish: bool, at: int | None = None) -> Response:
        def do(session: Session) -> Response:
            if at is not None and at != len(session.moves):
                count = len(session.moves)
                raise ApiError(409, f"the game has moved on: {count} move{'' if count == 1 else 's'} "
                                    f"{'is' if count == 1 else 'are'} played, not {at} (a request sent again, "
                                    "another tab?); nothing changed")
            try:
                played = session.play(move, autoplay=autoplay, autofinish=autofinish)
            except IllegalMoveError as exc:  # the rule it breaks, and why in a player's words
                return JSONBody({"error": short_message(str(exc)), "reason": exc.reason,
                                 "explanation": session.explain(exc)}, 409)
            return JSONBody(with_held_back_note(session, session.to_state(played), autoplay))

        return await threads.run(on_game(game_id, do))

    async def game_state(game_id: str) -> Response:
        return await threads.run(on_game(game_id, lambda session: JSONBody(session.to_state())))

    # the two most frequent requests take the short way when well formed (yukon.web.lane); the guard
    # comes first (the middleware added last is the outermost)
    if fast_lane:
        app.add_middleware(FastLane, play=play_move, state=game_state, answer=error_answer)
    app.add_middleware(LocalGuard, hosts=hosts, port=port, token=token)

    @app.post("/api/games/{game_id}/moves", responses=error_responses(*BODY_ERRORS, 404, 409, 410, 503))
    async def play(game_id: str, body: MoveBody) -> Response:
        """Play one move (notation), then the automatic plays asked for."""
        return await play_move(game_id, body.move, body.autoplay, body.autofinish, body.at)

    # ------------------------------------------------------------------ the page

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ reference

    variants_answer = orjson.dumps({
        "variants": [
            {
                "name": r.variant, "title": r.title, "columns": r.columns, "foundations": r.foundations,
                "decks": r.decks, "build": r.build, "stock": r.stock, "has_stock": r.has_stock,
                "has_waste": r.has_waste, "defaults": r.options(), "about": r.about,
                "numberings": ["yukon", "pysolfc"] if r.variant in PYSOLFC_GAME_IDS else ["yukon"],
                "grades": deals.grades_offered(r.variant),  # the difficulties offered, per options
                "lost": deals.lost_offered(r.variant),  # the options that have a deal proven lost
            }
            for r in VARIANTS.values()
        ],
        "options": {k: list(v) for k, v in OPTIONS.items()},
    })

    @app.get("/api/variants", response_model=dict[str, Any], responses=error_responses())
    async def variants() -> Response:
        """The variants, their layout and default options, and the options a player may set."""
        return Response(variants_answer, media_type="application/json")  # the same for every request

    @app.get("/api/stats", responses=error_responses(400, 503))
    def stats(request: Request,
              variant: Annotated[str | None, Query(json_schema_extra={"enum": list(VARIANTS)})] = None,
              ) -> dict[str, Any]:
        """Statistics per variant and options, from the finished games: on loopback the local player's (the
        terminal game's too); on a shared server those of the games this browser started, as players there
        share one token and each keeps their own record."""
        if variant is not None:
            variant = rules_for(variant).variant
        browser = request.scope.get(BROWSER, "") if shared else None
        rows = registry.store.stats(variant, browser=browser)
        return {"stats": [row.to_dict() | {"title": VARIANTS[row.variant].title} for row in rows]}

    # ------------------------------------------------------------------ games

    def check_new_game(body: NewGameBody) -> Any:
        """The rules of the new game; raises, changing nothing, for a bad request."""
        if "variant" in body.options:
            raise ApiError(422, "invalid request: options.variant: the variant is given as 'variant', "
                                "not among the options")
        rules = rules_for(body.variant, **body.options)
        if body.numbering != "yukon":
            from ..cli_common import saved_seed_problem
            from ..pysolfc import check_game_number, check_numbering

            check_numbering(body.numbering)
            if body.seed is not None:
                check_game_number(rules, body.seed)
                if saved_seed_problem(body.seed):
                    raise ApiError(400, saved_seed_problem(body.seed))
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

    def start_game(body: NewGameBody, rules: Any, seed: int | None, extra: dict[str, Any],
                   browser: str | None) -> dict[str, Any]:
        if body.abandon is not None:
            with registry.use(body.abandon) as old:
                old = found(old, body.abandon)
                with old.lock:
                    registry.abandon(old)
        session = registry.new_game(rules.variant, rules.options(), seed, body.position, extra,
                                    numbering=body.numbering, browser=browser)
        with session.lock:
            played = session.play_opening(autoplay=body.autoplay, autofinish=body.autofinish)
            if not played:
                registry.save(session)  # records a position dealt already won
            return with_held_back_note(session, session.to_state(played), body.autoplay)

    @app.post("/api/games", status_code=201, responses=error_responses(*BODY_ERRORS, 404, 410, 503))
    async def new_game(body: NewGameBody, request: Request) -> Response:
        """Deal a new game (a given or random deal number, or a given position; a winnable deal of a
        difficulty or a deal proven lost from the shipped verdicts, else found by the solver)."""
        extra: dict[str, Any] = {}
        seed = body.seed
        browser = request.scope.get(BROWSER)
        winnable = (body.winnable_only or body.deal == "winnable") and body.position is None
        from_data = body.deal == "lost" or body.difficulty is not None
        if not from_data and (not winnable or seed is not None):
            if winnable:
                extra["deal_note"] = "you chose this deal number: it is not checked"
            # no search: checked and dealt in one worker thread (dealing is engine work, kept off the event loop)
            return await threads.run(
                lambda: JSONBody(start_game(body, check_new_game(body), seed, extra, browser), 201))

        def check_first() -> Any:  # a bad request or abandon id is refused before any search
            rules = check_new_game(body)
            if body.abandon is not None:
                found(registry.get(body.abandon), body.abandon)
            return rules

        rules = await threads.run(check_first)
        if from_data or (seed is None and deals.has_data(rules)):  # from the shipped verdicts, at once
            seed, extra = await run_in_threadpool(deals.pick, rules, body.deal or "winnable", body.difficulty)
        else:
            try:
                async with solving.watch_client(request.receive) as gone:
                    searched = await queue.run(
                        deal_search_key(request.scope),
                        partial(solving.winnable_deal_job, rules.variant, rules.options()),
                        solving.DEAL_BUDGET + solving.DEAL_TIME, long=True, gone=gone,
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
        return await threads.run(lambda: JSONBody(start_game(body, rules, seed, extra, browser), 201))

    @app.post("/api/games/import", status_code=201, responses=error_responses(*BODY_ERRORS, 404, 410, 503))
    def import_game(body: ImportBody, request: Request) -> Response:
        """A new game that continues a game record (docs/records.md): its moves played, each undoable but the
        deal's automatic plays it opens with."""
        try:
            record = GameFile.from_dict(body.record)
        except YukonError as exc:
            raise ApiError(400, f"not a game record to import: {exc}") from None
        if body.abandon is not None:
            with registry.use(body.abandon) as old:
                old = found(old, body.abandon)
                with old.lock:
                    registry.abandon(old)
        session = registry.import_record(record, browser=request.scope.get(BROWSER))
        with session.lock:
            return JSONBody(session.to_state(), 201)

    @app.get("/api/games/{game_id}/record", responses=error_responses(404, 409, 410, 503))
    def export_game(game_id: str) -> Response:
        """The game as a game record, to download; only once it is over, as a record shows every card."""
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                if session.result is None:
                    raise ApiError(409, "a game is exported once it is over: its record shows the face-down cards")
                record = session.to_record().to_dict()
        return JSONBody(record, headers={"Content-Disposition": f'attachment; filename="yukon-{game_id}.json"'})

    @app.post("/api/games/{game_id}/analysis", responses=error_responses(404, 409, 410, 413, 503))
    async def analysis(game_id: str, request: Request) -> Response:
        """Where did it go wrong (docs/records.md): the losing move and a winning continuation, once the
        game is over (the continuation plays face-down cards). Bounded by ``analysis_time`` seconds."""

        def record_of() -> tuple[GameFile, int]:
            with registry.use(game_id) as session:
                session = found(session, game_id)
                with session.lock:
                    if session.result is None:
                        raise ApiError(409, "a game is analysed once it is over: the winning line shows "
                                            "face-down cards")
                    return session.to_record(), session.dealt

        record, dealt = await threads.run(record_of)
        try:
            async with solving.watch_client(request.receive) as gone:
                job = partial(analysis_job, record.to_dict(), dealt, ANALYSIS_POSITION_TIME, analysis_time)
                out = await queue.run((game_id, "analysis"), job, analysis_time + ANALYSIS_POSITION_TIME,
                                      long=True, gone=gone)
        except solving.SolverBusyError:
            raise ApiError(503, "the solver is busy with other requests: try the analysis again soon") from None
        if out is None:
            raise ApiError(503, "the analysis ran out of time")
        return JSONBody(out | {"move_count": len(record.moves)})

    @app.get("/api/games/{game_id}/replay", responses=error_responses(400, 404, 410, 503))
    def replay(game_id: str, at: Annotated[int, Query(ge=0)],
               then: Annotated[str, Query(max_length=10_000)] = "") -> Response:
        """The position after the first ``at`` moves, as the player saw it (no face-down card); changes
        nothing. ``then``: moves (notation, space-separated) played on from there, once the game is over."""
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                return JSONBody(session.replay_state(at, then.split()))

    @app.post("/api/games/{game_id}/resign", responses=error_responses(404, 409, 410, 413, 503))
    async def resign(game_id: str) -> Response:
        """End the game now, not won ("lost" at a dead end, else "abandoned"); then it can be exported and analysed."""
        return await change(game_id, lambda s: (s.resign(), s.to_state())[1])

    @app.get("/api/games/latest", responses={204: {"description": "No unfinished game (with missing_ok)"},
                                              **error_responses(400, 404, 503)})
    async def latest_game(request: Request, missing_ok: bool = False) -> Response:
        """The most recently played unfinished game of this player, to resume (damaged ones are skipped): on
        loopback the local player's, whatever the browser; on a shared server one this browser started (its
        cookie), so no one gets another player's game without its id. None: 404, or with ``missing_ok`` 204
        and no body (a first visit expects none: no error in its console)."""
        browser = request.scope.get(BROWSER, "") if shared else None  # (the guard names every browser)

        def work() -> Response:
            session = registry.latest(browser)
            if session is None:
                if missing_ok:
                    return Response(status_code=204)
                raise ApiError(404, "no unfinished game to resume")
            with session.lock:
                return JSONBody(session.to_state())

        return await threads.run(work)

    @app.get("/api/games/{game_id}", responses={204: {"description": "No game with this id (with missing_ok)"},
                                                 **error_responses(404, 410, 503)})
    async def get_game(game_id: str, missing_ok: bool = False) -> Response:
        """The game's state. None with this id: 404, or with ``missing_ok`` 204 and no body (the page asks so
        for the game it remembers, which another database or a deleted game leaves unknown: no console error)."""
        if not missing_ok:
            return await game_state(game_id)

        def work() -> Response:
            with registry.use(game_id) as session:
                if session is None:
                    return Response(status_code=204)
                with session.lock:
                    return JSONBody(session.to_state())

        return await threads.run(work)

    @app.post("/api/games/{game_id}/check", responses=error_responses(*BODY_ERRORS, 404, 409, 410, 503))
    async def check(game_id: str, body: CheckBody) -> Response:
        """Whether a move may be played now, and if not the rule it breaks and why in a player's words;
        plays nothing. A refusal is an answer here, not an error: the page asks before it plays a move it
        has not seen among the legal moves (a drop elsewhere, a key), and its console shows no error."""

        def do(session: Session) -> Response:
            exc = session.refusal(body.move)
            if exc is None:
                return JSONBody({"move": body.move, "legal": True})
            return JSONBody({"move": body.move, "legal": False, "error": short_message(str(exc)), "reason": exc.reason,
                             "explanation": session.explain(exc)})

        return await threads.run(on_game(game_id, do))

    @app.post("/api/games/{game_id}/auto", responses=error_responses(*BODY_ERRORS, 404, 409, 410, 503))
    async def auto(game_id: str, body: Annotated[AutoBody | None, Body()] = None) -> Response:
        """Play only the automatic moves (safe cards up, and the finish when it is certain)."""
        b = body or AutoBody()
        return await change(game_id, lambda s: s.to_state(s.play_auto(autoplay=b.autoplay, autofinish=b.autofinish)))

    @app.post("/api/games/{game_id}/undo", responses=error_responses(*BODY_ERRORS, 404, 409, 410, 503))
    async def undo(game_id: str, body: Annotated[UndoBody | None, Body()] = None) -> Response:
        """Undo the last turn (a move with the automatic plays after it), or back to ``to`` moves."""
        return await change(game_id, lambda s: s.to_state(undone=s.undo(None if body is None else body.to)))

    @app.post("/api/games/{game_id}/redo", responses=error_responses(404, 409, 410, 413, 503))
    async def redo(game_id: str) -> Response:
        return await change(game_id, lambda s: s.to_state(s.redo()))

    @app.post("/api/games/{game_id}/restart", responses=error_responses(404, 409, 410, 413, 503))
    async def restart(game_id: str) -> Response:
        """Back to the start of the deal; every move stays available to redo."""
        return await change(game_id, lambda s: s.to_state(undone=s.restart()))

    @app.post("/api/games/{game_id}/clock", responses=error_responses(*BODY_ERRORS, 404, 410, 503))
    async def clock(game_id: str, body: ClockBody) -> Response:
        """Pause the clock (page hidden) or let it run again (page shown, once a move was played); while it runs,
        the page's heartbeat (a game's clock counts no time after the page's last sign of life)."""

        def do(session: Session) -> dict[str, Any]:
            if body.running and session.clock_running:  # a page's heartbeat (on_game took it): nothing to save
                return {"elapsed": round(session.elapsed, 3), "clock_running": True}
            with session.atomic():
                if body.running:
                    if session.player_moved:  # the clock starts at the player's first own move
                        session.start_clock()
                else:
                    session.stop_clock()
                registry.save(session)
            return {"elapsed": round(session.elapsed, 3), "clock_running": session.clock_running}

        return await change(game_id, do)

    def for_solver(game_id: str, history: bool) -> tuple[Session, Game, int]:
        with registry.use(game_id) as session:
            session = found(session, game_id)
            with session.lock:
                return session, session.game.copy(history=history), len(session.moves)

    @app.post("/api/games/{game_id}/hint", responses=error_responses(*BODY_ERRORS, 404, 410, 503))
    async def hint(game_id: str, request: Request,
                   body: Annotated[HintBody | None, Body()] = None) -> Response:
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
            return JSONBody(await asyncio.wait_for(asyncio.shield(work), max(0.0, answer_by - time.perf_counter())))
        except TimeoutError:
            pass
        if "game" not in loaded:  # the game itself has not come yet: there is nothing to hint from without it
            return JSONBody(await work)
        # the advisor's work after its searches outlasted the limit (a machine short of CPU): a best guess now
        deadline.set()
        work.add_done_callback(_forget)
        advice = best_guess(loaded["game"], kind, time.perf_counter() - started, "the solver ran out of time")
        return JSONBody(hint_answer(advice, loaded["game"], loaded["count"]))

    def advise(game_id: str, kind: HintKind, deadline: Deadline, loaded: dict[str, Any]) -> dict[str, Any]:
        """The hint (in a worker thread: the advisor's own work stays off the event loop), by ``deadline``;
        ``loaded`` gets the game (a copy) and its move count as soon as they are known."""
        session, game, count = for_solver(game_id, True)
        loaded.update(game=game, count=count)
        advice = session.advisor.next_on_line(game, kind)  # the next move of the line found: no search
        if advice is None:
            advice = session.advisor.hint(game, kind=kind, stop=deadline)
        return hint_answer(advice, game, count)

    @app.post("/api/games/{game_id}/winnable", responses=error_responses(404, 410, 413, 503))
    async def winnable(game_id: str, request: Request) -> Response:
        """Can this position still be won? A perfect-information verdict (the solver sees the face-down
        cards: ``perfect_information`` and ``label`` say so). When lost: the last winnable move count."""
        session, game, count = await threads.run(lambda: for_solver(game_id, True))
        async with solving.watch_client(request.receive) as gone:
            verdict = await run_in_threadpool(partial(session.advisor.winnable, game, stop=gone))
        return JSONBody(verdict.to_dict(hidden_in(game)) | {"move_count": count})

    # watch the computer play
    watch.install(app, registry, queue, found, error_responses(*BODY_ERRORS, 404, 409, 410, 503))
    return app
