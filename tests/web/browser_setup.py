"""What the browser tests share: Debian's chromium driven by Playwright, and the real server it loads.

``conftest.py`` makes the fixtures of them (``browser``, ``server``, ``strict_url``); a browser test module
starts with ``sync_api = require_browser()``, which skips it where chromium or Playwright is missing.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: The hint's time limit for these servers: the solver's worker processes run at a low priority, which on a busy
#: machine may leave a search less than the server's default 0.8 s (a hint ends as soon as the search decides).
HINT_TIME = 10.0


def require_browser() -> ModuleType:
    """``playwright.sync_api``; skips the calling test module where chromium or Playwright is missing."""
    if shutil.which(CHROMIUM) is None:  # pragma: no cover - CI installs it
        pytest.skip(f"Debian chromium is not installed at {CHROMIUM}", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A running chromium (a Playwright ``Browser``), closed on leaving."""
    sync_api = require_browser()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Server:
    """The web table on a free loopback port, in a thread of this process, on the store at ``db``;
    ``warm_solver``: the solver's worker processes start with it (the hints and the winnable indicator)."""

    def __init__(self, db: Path | str, *, warm_solver: bool = True) -> None:
        import uvicorn

        from yukon.store import Store
        from yukon.web import create_app
        from yukon.web.cli import free_port

        self.db = db
        self.store = Store(db)
        self.port = free_port("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.port}/"
        self.app = create_app(self.store, hint_time=HINT_TIME, port=self.port, warm_solver=warm_solver)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():  # pragma: no cover
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.store.close()


@contextlib.contextmanager
def strict_page() -> Iterator[Any]:
    """A page in a chromium of its own, under the server's real Content-Security-Policy (the other browser
    tests bypass it to evaluate their own predicates). On leaving: no page error, and no violation of
    script-src, connect-src or eval (index.html's one inline style attribute, on the hidden SVG sprite, is
    refused by style-src and changes nothing visible)."""
    console: list[tuple[str, str]] = []
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page()
        page.on("console", lambda m: console.append((m.type, m.text)))
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
    assert errors == []
    violations = [text for kind, text in console if "Content Security Policy" in text]
    assert [v for v in violations if "script-src" in v or "connect-src" in v or "eval" in v] == []
