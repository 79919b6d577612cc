"""The page works under the server's strict Content-Security-Policy, in a real browser."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
if shutil.which(CHROMIUM) is None:  # pragma: no cover
    pytest.skip("Debian chromium is not installed at /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def url() -> Iterator[str]:
    import uvicorn

    from yukon.store import Store
    from yukon.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = Store(":memory:")
    server = uvicorn.Server(uvicorn.Config(create_app(store, port=port), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)
    store.close()


def test_the_page_deals_and_plays_under_the_csp(url: str) -> None:
    console: list[tuple[str, str]] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: console.append((m.type, m.text)))
            page.on("pageerror", lambda e: errors.append(str(e)))
            response: Any = page.goto(url)
            assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
            page.wait_for_selector(".card", timeout=20_000)
            assert page.locator(".card").count() == 52
            page.locator("#btn-new").click()  # a request the page's own script makes
            page.wait_for_selector(".card", timeout=20_000)
        finally:
            browser.close()
    violations = [text for kind, text in console if "Content Security Policy" in text]
    assert errors == []
    # Scripts and connections all come from this server. (index.html's one inline style attribute, on the
    # hidden SVG sprite, is refused by style-src and changes nothing visible.)
    assert [v for v in violations if "script-src" in v or "connect-src" in v or "eval" in v] == []
