"""The API's error answers: every error a JSON body ``{"error": ...}`` with its HTTP status, the same
whether the route, FastAPI's validation or the fast lane met it; the statuses each route documents."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from ..errors import IllegalMoveError, YukonError
from ..store import DamagedGameError
from .guard import MAX_BODY
from .session import GameOverError, NothingToDoError

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
    415: "The request body is not sent as JSON (Content-Type: application/json).",
    422: "The request body does not have the documented shape.",
    503: "The saved games cannot be written just now (e.g. another program locks the file): nothing changed.",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` for these error statuses (403 applies to every request)."""
    return {s: {"model": ErrorBody, "description": _WHY[s]} for s in sorted({403, *statuses})}


BODY_ERRORS = (400, 413, 415, 422)


def short_message(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:MAX_MESSAGE]}... ({len(message) - MAX_MESSAGE} more characters left out)"


class JSONBody(Response):
    """A JSON answer encoded by ``orjson``: the same JSON as Starlette's ``JSONResponse`` (compact, UTF-8),
    in a tenth of the time; a value ``orjson`` cannot encode (an integer beyond 64 bits) goes to ``json``."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        try:
            return orjson.dumps(content)
        except TypeError:
            return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONBody:
    return JSONBody({"error": short_message(message)}, status_code=status, headers=headers)


#: How each kind of error is answered; the class nearest the error's own along its MRO decides, as
#: Starlette chooses among exception handlers. The app's handlers and the fast lane both answer by it.
ANSWERED: dict[type[Exception], Callable[[Any], JSONBody]] = {
    ApiError: lambda e: _error(e.status, e.message),
    HTTPException: lambda e: _error(e.status_code, str(e.detail), e.headers),  # keeps Allow on a 405
    RequestValidationError: lambda e: _error(*_describe_validation(e)),
    GameOverError: lambda e: _error(409, str(e)),
    NothingToDoError: lambda e: _error(409, str(e)),
    IllegalMoveError: lambda e: _error(409, str(e)),
    YukonError: lambda e: _error(400, str(e)),
    ValueError: lambda e: _error(400, str(e)),
    RecursionError: lambda e: _error(400, "the request is nested too deeply"),
    DamagedGameError: lambda e: _error(410, str(e)),
    sqlite3.Error: lambda e: _error(
        503, f"the saved games cannot be written just now ({e}): nothing was changed; try again"),
}


def error_answer(exc: BaseException) -> JSONBody | None:
    """The answer to ``exc`` (None: an error no request should cause, left to be a 500)."""
    for kind in type(exc).__mro__:
        answer = ANSWERED.get(kind)
        if answer is not None:
            return answer(exc)
    return None


#: FastAPI's words for a body it could not read for a reason other than bad JSON (its cause says which).
_UNREAD_BODY = "There was an error parsing the body"


def _is_json_type(content_type: str) -> bool:
    """Does this ``Content-Type`` say JSON, as FastAPI reads it (``application/json``, ``application/...+json``)?"""
    kind = content_type.partition(";")[0].strip().lower()
    main, _, sub = kind.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


def _answer_in_context(request: Request, exc: Exception) -> JSONBody | None:
    """The answers that need the request to name the problem (None: the error's own answer says it)."""
    if isinstance(exc, RequestValidationError):
        content_type = request.headers.get("content-type")
        sent_body = request.headers.get("content-length", "0") != "0" or "transfer-encoding" in request.headers
        if (sent_body and not (content_type and _is_json_type(content_type))
                and any(tuple(e.get("loc", ()))[:1] == ("body",) for e in exc.errors())):
            # a body of another type is never read as JSON: "body: Input should be a valid dictionary" named
            # the symptom, not that the body was sent as something else
            shown = content_type.partition(";")[0].strip()[:100] if content_type else "none"
            return _error(415, f"the request body is JSON, sent with Content-Type: application/json "
                               f"(this request's Content-Type: {shown})")
    if isinstance(exc, HTTPException):
        if exc.status_code == 400 and exc.detail == _UNREAD_BODY and exc.__cause__ is not None:
            why = str(exc.__cause__).partition("; use sys.")[0]  # (a number of over 4300 digits: no advice to us)
            return _error(400, f"the request body cannot be read: {why}")
        if exc.status_code == 404 and exc.detail == "Not Found":  # no route: say which address
            return _error(404, f"no such address: {request.url.path} (the API: GET /api/openapi.json)")
    return None


async def answer_error(request: Request, exc: Exception) -> Response:
    answer = _answer_in_context(request, exc) or error_answer(exc)
    if answer is None:  # pragma: no cover - only the classes of ANSWERED are handled here
        raise exc
    return answer


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


