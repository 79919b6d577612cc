"""Other sites and other machines: Host and Origin checks, the token, body size, security headers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yukon.store import Store
from yukon.web import create_app
from yukon.web.guard import CSP, MAX_BODY, split_host

LOCAL = "http://127.0.0.1:8123"


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, port=8123), base_url=LOCAL) as c:
        yield c


def refused(r: Any, status: int = 403) -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    data = r.json()
    assert set(data) == {"error"} and data["error"]
    return str(data["error"])


def test_split_host() -> None:
    assert split_host("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert split_host("LOCALHOST") == ("localhost", None)
    assert split_host("[::1]:80") == ("[::1]", 80)
    for bad in ("", "a b", "user@127.0.0.1", "127.0.0.1:x", "127.0.0.1/x"):
        assert split_host(bad) is None


@pytest.mark.parametrize("host", ["127.0.0.1:8123", "localhost:8123", "[::1]:8123", "LocalHost:8123"])
def test_loopback_names_with_the_port_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/variants", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8123", "127.0.0.1:9999", "127.0.0.1", "",
                                  "127.0.0.1.evil.example:8123", "localhost.:8124"])
def test_a_foreign_host_is_refused_before_anything_is_read(client: TestClient, store: Store, host: str) -> None:
    # DNS rebinding: evil.example resolves to 127.0.0.1, so the request reaches us with its own Host
    gid = client.post("/api/games", json={"seed": 5}).json()["id"]
    for method, path, body in (("GET", "/api/games/latest", None), ("GET", f"/api/games/{gid}", None),
                               ("GET", "/", None), ("POST", "/api/games", {"seed": 1})):
        r = client.request(method, path, json=body, headers={"host": host})
        assert "host" in refused(r)
    assert [r.id for r in store.unfinished("web")] == [gid]  # no game was dealt


def test_the_hosts_given_are_served() -> None:
    with TestClient(create_app(Store(":memory:"), hosts=["127.0.0.1", "yukon.lan"], port=80),
                    base_url="http://yukon.lan") as c:
        assert c.get("/api/variants").status_code == 200
        assert c.get("/api/variants", headers={"host": "other.lan"}).status_code == 403


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "http://127.0.0.1:9999"},  # another local server is another site too
        {"origin": "null"},
        {"origin": "file://"},
        {"origin": "http://127.0.0.1:8123.evil.example"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_a_state_change_from_another_site_is_refused(client: TestClient, store: Store,
                                                     headers: dict[str, str]) -> None:
    s = client.post("/api/games", json={"seed": 5}).json()
    gid, move = s["id"], s["legal_moves"][0]
    assert "another site" in refused(client.post(f"/api/games/{gid}/moves", json={"move": move}, headers=headers))
    assert "another site" in refused(client.post("/api/games", json={"abandon": gid}, headers=headers))
    assert "another site" in refused(client.post(f"/api/games/{gid}/hint", headers=headers))
    record = store.load_game(gid)
    assert record is not None and record.moves == [] and record.result is None
    assert [r.id for r in store.unfinished("web")] == [gid]


@pytest.mark.parametrize("headers", [{}, {"origin": LOCAL}, {"origin": "http://localhost:8123"},
                                     {"sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"}])
def test_a_state_change_from_this_site_is_served(client: TestClient, headers: dict[str, str]) -> None:
    s = client.post("/api/games", json={"seed": 5}, headers=headers)
    assert s.status_code == 201
    r = client.post(f"/api/games/{s.json()['id']}/moves", json={"move": s.json()["legal_moves"][0]}, headers=headers)
    assert r.status_code == 200 and len(r.json()["moves"]) >= 1


def test_every_answer_forbids_framing_sniffing_and_foreign_scripts(client: TestClient) -> None:
    answers = [client.get("/"), client.get("/static/main.js"), client.get("/api/variants"),
               client.get("/api/games/nope"), client.post("/api/games", json={"seed": -1}),
               client.get("/api/variants", headers={"host": "evil.example"})]
    for r in answers:
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        csp = r.headers["content-security-policy"]
        assert csp == CSP
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp and "unsafe-inline" not in csp
        assert "access-control-allow-origin" not in r.headers


def test_the_page_needs_no_inline_script(client: TestClient) -> None:
    # the CSP forbids inline script: every script of the page is a file of this server
    import re

    page = client.get("/").text
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="/static/' in attrs and not body.strip() for attrs, body in scripts)
    assert not re.search(r"\son[a-z]+=", page)  # no inline event handlers either


def test_nothing_served_loads_from_another_site(client: TestClient) -> None:
    """No page of this server fetches a script, style, font or image from elsewhere: there is no API explorer
    (FastAPI's loads Swagger UI from a CDN), the OpenAPI document is served, and every CSP allows only 'self'."""
    import re

    assert client.get("/api/docs").status_code == 404 and client.get("/api/redoc").status_code == 404
    assert client.get("/api/openapi.json").json()["info"]["title"] == "Yukon"
    page = client.get("/").text
    files = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert files
    for path in ["/", *files]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert not re.search(r"(?:src|href|url\()\s*=?\s*[\"']?(?:https?:)?//", answer.text), path
        assert "http" not in answer.headers["content-security-policy"]


def test_request_bodies_are_limited(client: TestClient, store: Store) -> None:
    s = client.post("/api/games", json={"seed": 5}).json()
    big = {"move": "x" * (MAX_BODY + 1)}
    assert str(MAX_BODY) in refused(client.post(f"/api/games/{s['id']}/moves", json=big), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"move": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    r = client.post(f"/api/games/{s['id']}/moves", content=chunks(), headers={"content-type": "application/json"})
    refused(r, 413)
    assert store.load_game(s["id"]).moves == []  # type: ignore[union-attr]
    ok = client.post(f"/api/games/{s['id']}/moves", json={"move": s["legal_moves"][0], "autoplay": False})
    assert ok.status_code == 200


def test_a_bad_move_is_not_echoed_in_full(client: TestClient) -> None:
    gid = client.post("/api/games", json={"seed": 5}).json()["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": "z" * 60_000})
    message = refused(r, 400)
    assert "not a move" in message and len(r.content) < 1000  # (the engine or the server cuts it short)


# ---------------------------------------------------------------------- the token (beyond loopback)

TOKEN = "s3cret-token"


@pytest.fixture
def remote(store: Store) -> Iterator[TestClient]:
    app = create_app(store, hosts=["127.0.0.1", "192.168.7.2"], port=8123, token=TOKEN)
    with TestClient(app, base_url="http://192.168.7.2:8123", follow_redirects=False) as c:
        yield c


def test_without_the_token_nothing_is_served(remote: TestClient, store: Store) -> None:
    for method, path in (("GET", "/"), ("GET", "/api/variants"), ("GET", "/api/games/latest"),
                         ("POST", "/api/games"), ("GET", "/static/main.js")):
        assert "token" in refused(remote.request(method, path, json={} if method == "POST" else None))
    assert "token" in refused(remote.get("/api/variants", params={"token": "wrong"}))
    assert "token" in refused(remote.get("/api/variants", headers={"authorization": "token wrong"}))
    assert list(store.unfinished()) == []


def test_the_token_once_in_the_address_sets_a_cookie(remote: TestClient) -> None:
    r = remote.get("/", params={"token": TOKEN})
    assert r.status_code == 303 and r.headers["location"] == "/"  # shown again without the token
    cookie = r.headers["set-cookie"]
    assert TOKEN in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert remote.get("/").status_code == 200  # the client keeps the cookie
    assert remote.post("/api/games", json={"seed": 1}).status_code == 201
    remote.cookies.clear()
    refused(remote.get("/api/variants"))


@pytest.mark.parametrize(("path", "shown"), [("/%E2%82%AC", "/%E2%82%AC"), ("/a%20b", "/a%20b"),
                                           ("/%2F%2Fevil.example", "/evil.example"),
                                           ("/%5Cevil.example", "/%5Cevil.example")])
def test_the_address_shown_again_is_this_servers_and_well_formed(remote: TestClient, path: str, shown: str) -> None:
    """Whatever path comes with the token, the address shown again is a path on this server: not a 500
    for a character beyond Latin-1, not ``//evil.example`` or ``/\\evil.example`` (another site, to a browser)."""
    r = remote.get(path, params={"token": TOKEN})
    assert r.status_code == 303 and r.headers["location"] == shown


def test_the_token_in_a_header(remote: TestClient) -> None:
    r = remote.get("/api/variants", headers={"authorization": f"token {TOKEN}"})
    assert r.status_code == 200
    r = remote.post("/api/games", json={"seed": 1}, headers={"authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 201


def test_the_token_does_not_replace_the_origin_check(remote: TestClient) -> None:
    r = remote.post("/api/games", json={"seed": 1},
                    headers={"authorization": f"token {TOKEN}", "origin": "http://evil.example"})
    refused(r)


def test_every_answer_says_the_servers_own_time(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Server-Timing: app;dur=...`` (milliseconds) from the request reaching the application to its answer,
    refusals too: bench/load.py reads it to tell the server's time from the client's round trip."""
    import re
    import time

    app = create_app(store, port=8123)
    with TestClient(app, base_url=LOCAL) as c:
        gid = c.post("/api/games", json={"seed": 5}).json()["id"]
        registry = app.state.registry
        real_get = registry.get

        def slow_get(game_id: str) -> Any:
            time.sleep(0.2)
            return real_get(game_id)

        monkeypatch.setattr(registry, "get", slow_get)
        slow = c.get(f"/api/games/{gid}")
        fast = c.get("/api/variants", headers={"host": "evil.example"})
    durations = []
    for r in (slow, fast):
        match = re.fullmatch(r"app;dur=(\d+\.\d)", r.headers["server-timing"])
        assert match, r.headers.get("server-timing")
        durations.append(float(match.group(1)))
    assert fast.status_code == 403 and durations[1] < 100
    assert slow.status_code == 200 and durations[0] >= 200
