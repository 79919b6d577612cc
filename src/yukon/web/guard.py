"""What keeps other web pages and other machines out of the local server (the way Jupyter Server does it).

:class:`LocalGuard` is an ASGI middleware in front of the whole application:

- **Host.** A request is served only when its ``Host`` header names the address
  the server listens on: the loopback names (``127.0.0.1``, ``localhost``,
  ``[::1]``) and the names ``yukon play --host`` adds, with the server's port.
  That defeats DNS rebinding, where a page of ``evil.example`` has its name
  resolve to 127.0.0.1 and then reads the API as if it were the same site.
- **Origin.** A state-changing request (any method but GET, HEAD and OPTIONS)
  whose ``Origin`` is another site is refused; without ``Origin``, one whose
  ``Sec-Fetch-Site`` says it comes from another site. No CORS headers are ever
  sent, so another site's page cannot read an answer either.
- **Token.** When the server listens beyond loopback, every request needs the
  token printed at start: ``?token=...`` once (it is then kept in a cookie
  for this host and port, and the address is shown again without it), or an
  ``Authorization: token ...`` header.
- **Browser.** Every browser gets an unguessable id of its own in a cookie
  (``yukon-browser-<port>``: HttpOnly, SameSite=Strict, set on the first
  answer to a request that came without one, but for a navigation from
  another site, which never brings it). The application reads it from
  the request's scope (:data:`BROWSER`): each game records the browser that
  started it, and a server shared beyond loopback resumes ("latest game") only
  that browser's games, as several players there share one token.
- **Size.** A request body is at most :data:`MAX_BODY` bytes.
- **Headers.** Every answer forbids framing (``X-Frame-Options``, CSP
  ``frame-ancestors``), content sniffing, and any script or style not served
  by this server (a strict ``Content-Security-Policy``).

Refusals are JSON ``{"error": "..."}`` objects, as everywhere in the API.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from functools import lru_cache
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Names of this machine's loopback interface, as a ``Host`` header gives them.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
#: The largest request body accepted, in bytes (a move is a few bytes; a position a few kilobytes).
MAX_BODY = 64 * 1024
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The scope key holding when the request reached the application (``time.perf_counter()``): a time limit
#: counts from there, and so does the ``Server-Timing`` header.
STARTED = "yukon.started"
#: The scope key holding the id of the browser that sent the request (its cookie's, or one new to it).
BROWSER = "yukon.browser"
#: The scope key set when that id is new: the request came without one (a first visit, or a client that
#: keeps no cookie); ``"set"``: its answer sets the cookie, ``"kept"``: it does not (a navigation from
#: another site, which does not bring the cookie a browser may have).
NEW_BROWSER = "yukon.new_browser"
#: A browser id as :func:`new_browser_id` makes them (128 random bits): any other cookie value is replaced.
_BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{22}")
#: How long a browser keeps its id, in seconds (400 days: the longest a browser keeps a cookie).
BROWSER_COOKIE_AGE = 400 * 24 * 3600
_HOST_CHARS = re.compile(r"[a-z0-9._\-:\[\]@/]+")
#: The characters a path keeps as they are in an address (RFC 3986's pchar and "/"); the rest are escaped.
_PATH_CHARS = "/:@!$&'()*+,;=-._~"

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
#: The headers the guard sets: an answer's own value of one of them gives way.
_SET_HERE = frozenset({b"content-security-policy", *(name for name, _ in SECURITY_HEADERS)})
_CSP_HEADERS = (*SECURITY_HEADERS, (b"content-security-policy", CSP.encode()))


def host_name(name: str) -> str:
    """``name`` as it appears in a ``Host`` header: lower case, an IPv6 address in brackets."""
    name = name.strip().lower().rstrip(".")
    if ":" in name and not name.startswith("["):
        return f"[{name}]"
    return name


@lru_cache(maxsize=256)  # a client sends the same Host header with every request
def split_host(header: str) -> tuple[str, int | None] | None:
    """``("name", port)`` of a ``Host`` header value (port None when it gives none); None when malformed."""
    header = header.strip().lower()
    if not header or not _HOST_CHARS.fullmatch(header):
        return None
    try:
        parts = urlsplit("//" + header)
        port = parts.port
    except ValueError:
        return None
    name = parts.hostname
    if not name or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return host_name(name), port


def new_browser_id() -> str:
    return secrets.token_urlsafe(16)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class LocalGuard:
    """The Host / Origin / token / body-size checks and the security headers, around ``app``.

    ``hosts``: the host names served (``Host`` header names); ``port``: the port the server
    listens on (None: any, e.g. under a test client); ``token``: required from every request
    when given.
    """

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str] = LOOPBACK_NAMES, port: int | None = None,
                 token: str | None = None, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = frozenset(host_name(h) for h in hosts)
        self.port = port
        self.token = token
        self.max_body = max_body
        self.cookie = f"yukon-token-{port or 0}"
        self.browser_cookie = f"yukon-browser-{port or 0}"
        # read with a pattern, not a cookie parser: every request of every page carries it
        self._browser_in = re.compile(rf"(?:^|;)\s*{re.escape(self.browser_cookie)}=([^;\s]*)")

    # ------------------------------------------------------------------ checks

    def _host_ok(self, name: str, port: int | None) -> bool:
        if name not in self.hosts:
            return False
        return self.port is None or (port if port is not None else 80) == self.port

    def _foreign_origin(self, scope: Scope) -> str | None:
        """Why a state-changing request comes from another site (None: it does not)."""
        origin = _header(scope, b"origin")
        if origin is not None:
            try:
                parts = urlsplit(origin.strip())
                name, port = parts.hostname, parts.port
            except ValueError:
                return f"a request from another site (origin {origin[:100]!r}) is refused"
            if parts.scheme not in ("http", "https") or not name or not self._host_ok(host_name(name), port):
                return f"a request from another site (origin {origin[:100]!r}) is refused"
            return None
        fetch_site = (_header(scope, b"sec-fetch-site") or "").strip().lower()
        if fetch_site in ("cross-site", "same-site"):
            return f"a request from another site (Sec-Fetch-Site: {fetch_site}) is refused"
        return None

    def _token_given(self, scope: Scope) -> tuple[bool, bool]:
        """(the right token came with the request, it came in the query string)."""
        assert self.token is not None
        query = dict(parse_qsl(bytes(scope.get("query_string", b"")).decode("latin-1")))
        if "token" in query and secrets.compare_digest(query["token"].encode(), self.token.encode()):
            return True, True
        auth = _header(scope, b"authorization") or ""
        scheme, _, value = auth.partition(" ")
        if scheme.lower() in ("token", "bearer") and secrets.compare_digest(value.strip().encode(),
                                                                            self.token.encode()):
            return True, False
        cookies = SimpleCookie()
        try:
            cookies.load(_header(scope, b"cookie") or "")
        except Exception:  # a malformed cookie header is no token
            return False, False
        morsel = cookies.get(self.cookie)
        if morsel is not None and secrets.compare_digest(morsel.value.encode(), self.token.encode()):
            return True, False
        return False, False

    def _identify_browser(self, scope: Scope) -> None:
        """Put the request's browser id in the scope: its cookie's, or a new one that the answer sets."""
        found = self._browser_in.search(_header(scope, b"cookie") or "")
        if found is not None and _BROWSER_ID.fullmatch(found.group(1)):
            scope[BROWSER] = found.group(1)
            return
        scope[BROWSER] = new_browser_id()
        # a navigation from another site comes without the cookie (SameSite=Strict) though the browser has
        # one: the page's own requests then bring it, so it is not replaced here (the player would lose
        # their games to "resume")
        fetch_site = (_header(scope, b"sec-fetch-site") or "").strip().lower()
        scope[NEW_BROWSER] = "set" if fetch_site not in ("cross-site", "same-site") else "kept"

    # ------------------------------------------------------------------ ASGI

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = self._with_headers(scope, send)
        where = split_host(_header(scope, b"host") or "")
        if where is None or not self._host_ok(*where):
            shown = (_header(scope, b"host") or "")[:100]
            await _refuse(send, 403, f"this server does not answer for host {shown!r} (see 'yukon play --host')")
            return
        method = scope.get("method", "GET")
        if method not in SAFE_METHODS:
            why = self._foreign_origin(scope)
            if why is not None:
                await _refuse(send, 403, why)
                return
        in_query = False
        if self.token is not None:
            ok, in_query = self._token_given(scope)
            if not ok:
                await _refuse(send, 403, "this server wants the token printed when it started: "
                                         "open the address shown there (with ?token=...)")
                return
        self._identify_browser(scope)
        if in_query and method in ("GET", "HEAD"):
            await self._keep_token(scope, send)
            return
        if method in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_body
            except ValueError:
                await _refuse(send, 400, "the Content-Length header is not a number")
                return
            if too_big:
                await _refuse(send, 413, f"the request body is larger than {self.max_body} bytes")
                return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await _refuse(send, 413, f"the request body is larger than {self.max_body} bytes")
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _keep_token(self, scope: Scope, send: Send) -> None:
        """Keep the token in a cookie and show the address again without it."""
        query = [(k, v) for k, v in parse_qsl(bytes(scope.get("query_string", b"")).decode("latin-1"))
                 if k != "token"]
        # the path as an address again (a header holds no space or character beyond Latin-1), and one on
        # this server: a browser would take "//evil.example" (or "/\\evil.example") for another site
        path = "/" + quote(scope.get("path", "/"), safe=_PATH_CHARS).lstrip("/")
        location = path + ("?" + urlencode(query) if query else "")
        cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        await send({"type": "http.response.start", "status": 303, "headers": [
            (b"location", location.encode("latin-1")), (b"set-cookie", cookie.encode("latin-1")),
            (b"content-length", b"0"), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b""})

    def _browser_cookie_header(self, browser: str) -> bytes:
        return (f"{self.browser_cookie}={browser}; Path=/; Max-Age={BROWSER_COOKIE_AGE}; HttpOnly; "
                "SameSite=Strict").encode("latin-1")

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        ours = _CSP_HEADERS
        started = scope[STARTED] = time.perf_counter()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in _SET_HERE]
                headers += ours
                if scope.get(NEW_BROWSER) == "set":
                    headers.append((b"set-cookie", self._browser_cookie_header(scope[BROWSER])))
                # the time the server took (shown by a browser's developer tools; read by bench/load.py)
                headers.append((b"server-timing", f"app;dur={(time.perf_counter() - started) * 1000:.1f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        return send_with_headers


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BROWSER", "BROWSER_COOKIE_AGE", "CSP", "LOOPBACK_NAMES", "MAX_BODY", "NEW_BROWSER", "STARTED", "LocalGuard",
           "host_name", "new_browser_id", "split_host"]
