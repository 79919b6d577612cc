"""A hostile client: every API route of the app gets malformed input (wrong types, huge and negative numbers,
unicode, very long strings, bad JSON, an empty body, the wrong content type, unknown game ids, ids with path
tricks), from a fixed table of cases, so the run is fast and the same every time. None may be a server
error; every refusal is a JSON ``{"error": ...}`` that names the problem."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_client import LOCAL, new_game, solver_threads

from yukon.store import Store
from yukon.web import create_app

#: Game ids a client may make up: unknown, with path tricks, unicode, control characters, very long.
GAME_IDS = (
    "nope", "latest", "..", "%2E%2E", "..%2F..%2Fetc%2Fpasswd", "%2F%2Fevil.example", "a%00b", "%0D%0Aset-cookie:x",
    "%E3%82%B2%E3%83%BC%E3%83%A0", "%F0%9F%82%A1", "%FF%FE", "x" * 5000, "'%3B DROP TABLE games%3B--", "%25",
    "%20", "0", "-1", "1e400",
)
#: Values of a wrong kind for any field (the fields' own kinds are tried too: an empty or unknown text).
WRONG = (
    None, True, -1, 0, 10**30, -(10**30), 1e308, -0.0, 7.5, "", "\u0000", "é\u202e\ud7ff🂡", "x" * 20_000,
    [], [1, "a"], {}, {"nested": {"deep": [1]}},
)
#: Whole bodies that are not what any route takes.
BODIES: tuple[tuple[bytes, str | None], ...] = (
    (b"", "application/json"), (b"{", "application/json"), (b"[1,", "application/json"),
    (b"null", "application/json"), (b"[]", "application/json"), (b'"text"', "application/json"),
    (b"123", "application/json"), (b"NaN", "application/json"), (b'{"a": NaN}', "application/json"),
    (b"1" * 5000, "application/json"), (b'{"move": "1:KS>F"}', "text/plain"), (b"move=1", None),
    (b"move=1:KS>F", "application/x-www-form-urlencoded"), (b"\xff\xfe\x00", "application/json"),
    (b'{"\xc3\xa9": 1}', "application/json"), (b"[" * 3000 + b"]" * 3000, "application/json"),
    (b'{"move": "' + b"\\ud800" + b'"}', "application/json"), (b'{"move": 1, "move": "x"}', "application/json"),
)
#: The query parameters of the GET routes.
QUERIES = {
    "/api/stats": ("variant",),
    "/api/games/latest": ("missing_ok",),
    "/api/games/{game_id}": ("missing_ok",),
    "/api/games/{game_id}/replay": ("at", "then"),
}
QUERY_VALUES = ("", "-1", "1e400", "99999999999999999999999999999", "abc", "é🂡", "x" * 20_000, "\u0000", "true")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    store = Store(":memory:")
    app = create_app(store, hint_time=0.05, winnable_time=0.05, analysis_time=0.05, solver=solver_threads())
    app.state.demo.think_time = 0.02  # a demo move that is played thinks briefly
    with TestClient(app, base_url=LOCAL) as c:
        yield c
    store.close()


def api_routes(client: TestClient) -> list[tuple[str, str]]:
    return sorted((method, r.path) for r in client.app.routes  # type: ignore[attr-defined]
                  if isinstance(r, APIRoute) and r.path.startswith("/api/") for method in r.methods
                  if method != "HEAD")


def body_fields(client: TestClient, method: str, path: str) -> list[str]:
    """The top-level fields of the route's JSON body (from its request model), if it takes one."""
    for r in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(r, APIRoute) and r.path == path and method in r.methods and r.body_field is not None:
            model = r.body_field.field_info.annotation
            model = next((a for a in getattr(model, "__args__", (model,)) if hasattr(a, "model_fields")), model)
            return list(getattr(model, "model_fields", {}))
    return []


def check(r: Any, what: str) -> None:
    """No server error; a refusal is a JSON object with a non-empty ``error``."""
    assert r.status_code < 500, (what, r.status_code, r.text[:500])
    if r.status_code >= 400:
        assert r.headers["content-type"].startswith("application/json"), (what, r.headers)
        data = r.json()
        assert isinstance(data, dict) and isinstance(data.get("error"), str) and data["error"], (what, r.text)
        assert len(data["error"]) < 1000, what  # it never echoes a whole request back


def on(path: str, game_id: str) -> str:
    return path.replace("{game_id}", game_id)


def test_every_route_is_covered(client: TestClient) -> None:
    """A new route gets these cases too (its body fields are read from its model); this names them all."""
    routes = api_routes(client)
    assert ("POST", "/api/games/{game_id}/moves") in routes and ("GET", "/api/games/latest") in routes
    assert len(routes) >= 20, routes
    for method, path in routes:
        if method == "POST" and "{game_id}" in path and path.rsplit("/", 1)[1] not in (
                "resign", "redo", "restart", "winnable", "analysis", "demo-stop"):
            assert body_fields(client, method, path), (method, path)  # these take a body


def test_unknown_and_tricky_game_ids_are_refused_by_name(client: TestClient) -> None:
    for method, path in api_routes(client):
        if "{game_id}" not in path:
            continue
        for game_id in GAME_IDS:
            url = on(path, game_id)
            r = client.request(method, url, params={"at": 0} if path.endswith("/replay") else None,
                               json={"move": "1:KS>F", "running": True} if method == "POST" and (
                                   path.endswith(("/moves", "/check", "/clock"))) else None)
            check(r, f"{method} {url[:80]}")
            if r.status_code == 404 and game_id == "nope":
                assert "nope" in r.json()["error"], r.text  # the message names the id it does not know
            assert r.status_code in (400, 404, 405, 422), (method, url[:80], r.status_code, r.text[:200])


def test_bodies_that_are_no_request_are_refused_with_a_json_error(client: TestClient) -> None:
    for method, path in api_routes(client):
        if method != "POST":
            continue
        url = on(path, new_game(client, seed=3)["id"])  # a game in play for each route (resign ends one)
        for body, content_type in BODIES:
            headers = {} if content_type is None else {"content-type": content_type}
            r = client.post(url, content=body, headers=headers)
            check(r, f"POST {path} {body[:40]!r} {content_type}")
            if r.status_code == 400 and body in (b"{", b"[1,") and body_fields(client, method, path):
                assert "not valid JSON" in r.json()["error"], r.text


def test_wrong_values_in_every_field_are_refused_by_name(client: TestClient) -> None:
    for method, path in api_routes(client):
        if method != "POST":
            continue
        gid = new_game(client, seed=4)["id"]
        fields = body_fields(client, method, path)
        for field in fields:
            for value in WRONG:
                url = on(path, gid)
                r = client.post(url, content=json.dumps({field: value}), headers={"content-type": "application/json"})
                check(r, f"POST {path} {field}={str(value)[:40]!r}")
                if r.status_code == 422:  # it names the field (or another one the body lacks)
                    assert any(f in r.json()["error"] for f in (*fields, "body")), (path, field, r.text)
        # the same fields in an object of other things, and unknown fields
        r = client.post(on(path, gid), json={"unknown": 1, "\u202e": "x" * 1000})
        check(r, f"POST {path} unknown fields")


def test_wrong_query_values_are_refused_by_name(client: TestClient) -> None:
    gid = new_game(client, seed=5)["id"]
    for path, names in QUERIES.items():
        for name in names:
            for value in QUERY_VALUES:
                params = {name: value}
                if path.endswith("/replay") and name == "then":
                    params["at"] = "0"
                r = client.get(on(path, gid), params=params)
                check(r, f"GET {path}?{name}={value[:40]!r}")
                if r.status_code == 422:
                    assert name in r.json()["error"], (path, name, r.text)


def test_new_games_with_huge_negative_and_strange_numbers(client: TestClient) -> None:
    """The new-game body's numbers and texts one at a time: a huge or negative deal number, unicode
    variants and options, a position of the wrong shape."""
    cases: list[dict[str, Any]] = [
        {"seed": -1}, {"seed": 10**30}, {"seed": 2**64}, {"seed": 1e300}, {"seed": 7.5}, {"seed": "7"},
        {"variant": "é🂡" * 1000}, {"variant": "yukon\u0000"}, {"options": {"empty_column": "\u202e"}},
        {"options": {"x" * 5000: 1}}, {"options": {"empty_column": ["kings"]}}, {"numbering": "pysolfc", "seed": -5},
        {"numbering": "pysolfc", "seed": 10**30}, {"position": {}}, {"position": {"tableau": "x"}},
        {"position": {"tableau": [[{"x": 1}]] * 7}}, {"position": {"foundations": [[None]] * 4}},
        {"deal": "winnable", "difficulty": "é"}, {"deal": "lost", "seed": 3}, {"abandon": "../x"},
        {"abandon": "x" * 5000}, {"winnable_only": True, "seed": -1}, {"position": {"variant": 5}},
    ]
    for body in cases:
        check(client.post("/api/games", json=body), f"POST /api/games {str(body)[:80]}")
    for record in ({}, {"format": "yukon-game"}, {"moves": "x" * 5000}, {"seed": -1}, {"variant": 5},
                   {"format": "yukon-game", "version": 10**30}):
        check(client.post("/api/games/import", json={"record": record}), f"import {str(record)[:80]}")


def test_moves_and_counts_of_every_kind_on_a_game(client: TestClient) -> None:
    gid = new_game(client, seed=6)["id"]
    for move in ("", " ", "1:KS>F" * 2000, "9:KS>F", "0:KS>F", "-1:KS>F", "1:ZZ>F", "1:KS>99999999999999999999",
                 "🂡", "\u0000", "1:KS+999999999999999>2", "deal" * 3, "%2e%2e"):
        for path in ("moves", "check"):
            check(client.post(f"/api/games/{gid}/{path}", json={"move": move}), f"{path} {move[:40]!r}")
    for at in (-1, 10**30, 1e300, "1", 2**63):
        check(client.post(f"/api/games/{gid}/moves", json={"move": "s", "at": at}), f"at={at!r}")
        check(client.post(f"/api/games/{gid}/undo", json={"to": at}), f"undo to={at!r}")
        check(client.get(f"/api/games/{gid}/replay", params={"at": str(at)}), f"replay at={at!r}")
    check(client.get(f"/api/games/{gid}/replay", params={"at": "0", "then": "1:KS>F " * 1000}), "then")


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
def test_a_body_not_sent_as_json_is_refused_as_such(client: TestClient, content_type: str | None) -> None:
    """Before: 422 "body: Input should be a valid dictionary", which does not say that the body was fine but
    not sent as JSON."""
    gid = new_game(client, seed=7)["id"]
    headers = {} if content_type is None else {"content-type": content_type}
    for path in ("/api/games", f"/api/games/{gid}/moves", f"/api/games/{gid}/hint", f"/api/games/{gid}/undo",
                 f"/api/games/{gid}/check", "/api/games/import"):
        r = client.post(path, content=b'{"move": "deal"}', headers=headers)
        assert r.status_code == 415, (path, r.text)
        message = r.json()["error"]
        assert "Content-Type: application/json" in message and (content_type or "none").split(";")[0] in message
    assert client.post(f"/api/games/{gid}/moves", json={"move": "deal"}).status_code in (200, 409)  # JSON is fine
    r = client.post(f"/api/games/{gid}/moves", content=b'{"move": "deal"}',
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code in (200, 409)


def test_a_number_too_long_to_read_is_named(client: TestClient) -> None:
    """Before: 400 "There was an error parsing the body"."""
    r = client.post("/api/games", content=b'{"seed": ' + b"7" * 5000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "digits" in r.json()["error"], r.text


def test_an_unknown_address_is_named(client: TestClient) -> None:
    """Before: 404 "Not Found", which says neither what was not found nor where."""
    for path in ("/api/nothing", "/api/games/x/nothing", "/api/%E2%82%AC"):
        r = client.get(path)
        assert r.status_code == 404 and "no such address" in r.json()["error"], r.text
        assert path.rsplit("/", 1)[1].replace("%E2%82%AC", "€") in r.json()["error"]


def test_other_methods_and_strange_headers_on_every_route(client: TestClient) -> None:
    gid = new_game(client, seed=8)["id"]
    for method, path in api_routes(client):
        url = on(path, gid)
        for other in ("PUT", "DELETE", "PATCH", "OPTIONS", "FOO"):
            if other != method:
                r = client.request(other, url)
                check(r, f"{other} {path}")
                assert r.status_code == 405 and "allow" in r.headers, (other, path, r.status_code)
        for headers in ({"cookie": "=;;==; yukon-browser-0=\u00e9; \"x".encode("latin-1")},
                        {"content-length": b"abc"}, {"content-type": b"application/json; charset=latin-1"},
                        {"accept": b"text/html"}, {"cookie": b"yukon-browser-0=" + b"a" * 5000},
                        {"content-type": "\u00e9/\u00e9".encode("latin-1")}):
            r = client.request(method, url, headers=headers,
                               content=b'{"move": "deal"}' if method == "POST" and "content-length" not in headers
                               else None)
            check(r, f"{method} {path} {str(headers)[:60]}")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


def post_routes() -> list[str]:
    app = create_app(Store(":memory:"))
    return sorted(r.path for r in app.routes if isinstance(r, APIRoute) and "POST" in r.methods)


@pytest.mark.parametrize("path", post_routes())
def test_any_json_in_a_body_or_its_fields_is_answered_without_a_server_error(client: TestClient, path: str) -> None:
    """Hypothesis, derandomized (the same examples every run): any JSON value as the body, and as the value of
    each of the route's fields."""
    gid = new_game(client, seed=9)["id"]
    fields = body_fields(client, "POST", path) or ["x"]

    @settings(max_examples=15, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(body=JSON_VALUES, field=st.sampled_from(fields), value=JSON_VALUES)
    def send(body: Any, field: str, value: Any) -> None:
        check(client.post(on(path, gid), json=body), f"POST {path} {str(body)[:60]}")
        check(client.post(on(path, gid), json={field: value}), f"POST {path} {field}={str(value)[:60]}")

    send()
