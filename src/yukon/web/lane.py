"""The short way for the two most frequent requests: a move, and a game's state.

A request through FastAPI costs CPU time on the one event loop: the routes tried
in turn, the request object, the dependencies solved, the body read and
validated by pydantic, the exception middleware. For the two requests a page
sends all the time (``POST /api/games/{id}/moves`` and ``GET /api/games/{id}``)
that is more than the game's own work, and with fifty players who never pause
(``bench/load.py``) it sets their latency.

:class:`FastLane` is an ASGI middleware inside the guard (every check of
:mod:`yukon.web.guard` still comes first). It answers these two requests itself
when they are well formed, with the same work and the same answers as their
FastAPI routes, errors included (the app gives it both). Anything else, another
path or method, a body that is not exactly a move request (:func:`move_request`),
another content type, goes on to FastAPI unchanged, so every refusal keeps the
words and status it had. The routes stay in FastAPI's OpenAPI document.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import orjson
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: A game id as the server makes them (``secrets.token_urlsafe``) and as the terminal game did (hex).
_GAME = r"(?P<game>[A-Za-z0-9_-]{1,64})"
MOVE_PATH = re.compile(rf"/api/games/{_GAME}/moves")
STATE_PATH = re.compile(rf"/api/games/{_GAME}")
#: ``GET /api/games/latest`` is an endpoint of its own.
NOT_A_GAME = frozenset({"latest"})
_MOVE_FIELDS = frozenset({"move", "autoplay", "autofinish", "at"})

Play = Callable[[str, str, bool, bool, int | None], Awaitable[Response]]
State = Callable[[str], Awaitable[Response]]
Answer = Callable[[BaseException], Response | None]


def move_request(content_type: str | None, body: bytes) -> tuple[str, bool, bool, int | None] | None:
    """``(move, autoplay, autofinish, at)`` of a move request's body when it is one the move route takes
    as it is: JSON (and said so) holding an object of a text ``move`` and, optionally, the booleans
    ``autoplay`` and ``autofinish`` and the count ``at``, nothing else. None for anything else (FastAPI
    answers it).

    >>> move_request("application/json", b'{"move": "2:7H>5", "autoplay": true, "at": 3}')
    ('2:7H>5', True, False, 3)
    >>> move_request("application/json", b'{"move": "2:7H>5", "undo": 1}') is None
    True
    """
    if content_type is None or content_type.partition(";")[0].strip().lower() != "application/json":
        return None
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or "move" not in data or not _MOVE_FIELDS.issuperset(data):
        return None
    move = data["move"]
    autoplay = data.get("autoplay", False)
    autofinish = data.get("autofinish", False)
    if type(move) is not str or type(autoplay) is not bool or type(autofinish) is not bool:
        return None  # the route's body is strict: no number for a flag, no number for a move
    at = data.get("at")
    if type(at) is float and at.is_integer() and abs(at) < 2**53:
        at = int(at)  # JSON's 3.0 is 3, as the route reads it
    if at is not None and (type(at) is not int or at < 0):
        return None
    return move, autoplay, autofinish, at


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class FastLane:
    """Answers a well-formed move or state request with ``play`` / ``state`` (the app's own work);
    passes everything else to ``app``. An error of that work is answered by ``answer`` (the app's
    exception handlers' table); one it does not know is raised, as FastAPI raises it."""

    def __init__(self, app: ASGIApp, *, play: Play, state: State, answer: Answer) -> None:
        self.app = app
        self.play = play
        self.state = state
        self.answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        if method == "GET":
            match = STATE_PATH.fullmatch(scope["path"])
            # (a query, as ``missing_ok``, is the route's to read)
            if match is not None and match["game"] not in NOT_A_GAME and not scope.get("query_string"):
                await self._answer(self.state(match["game"]), scope, receive, send)
                return
        elif method == "POST":
            match = MOVE_PATH.fullmatch(scope["path"])
            if match is not None:
                await self._move(match["game"], scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _move(self, game_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its request was whole
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        request = move_request(_header(scope, b"content-type"), bytes(body))
        if request is None:  # FastAPI answers it, from the same body
            await self.app(scope, _replay(bytes(body), receive), send)
            return
        await self._answer(self.play(game_id, *request), scope, receive, send)

    async def _answer(self, work: Awaitable[Response], scope: Scope, receive: Receive, send: Send) -> None:
        try:
            response = await work
        except Exception as exc:
            answer = self.answer(exc)
            if answer is None:
                raise
            response = answer
        await response(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` giving ``body`` first, as one message."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


__all__ = ["MOVE_PATH", "STATE_PATH", "FastLane", "move_request"]
