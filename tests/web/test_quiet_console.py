"""What a new player sees in the browser's console: nothing red for what the page expects. A first visit asked
for the game to resume and got the API's 404 (no game yet), and a refused move came back as a 409; the browser
logs both as errors. The page now asks for the latest game with ``missing_ok`` (204: none) and asks
``/check`` about a move the state does not list (a refusal is an answer there).

The set-up: browser_setup.py's server and chromium, the page helpers of test_web_browser.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_setup import Server
from test_web_browser import SETTINGS, drag, settle, state

pytestmark = pytest.mark.browser


def console_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def refused_drop(s: dict[str, Any]) -> tuple[str, str]:
    """(card, column) of a drop the rules refuse: a column's top card onto another column it does not fit."""
    for i, col in enumerate(s["tableau"]):
        if not col["up"]:
            continue
        card = col["up"][-1]
        for j in range(len(s["tableau"])):
            dst = str(j + 1)
            if j != i and not any(m.startswith(f"{i + 1}:{card}") and m.endswith(f">{dst}") for m in s["legal_moves"]):
                return card, f"c{j}"
    raise AssertionError("every drop fits")  # pragma: no cover


def open_quiet(browser: Any, server: Server) -> tuple[Any, list[str]]:
    """A page on ``server`` whose console errors are listed from its first request."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    errors = console_errors(page)
    page.add_init_script(f"localStorage.setItem('yukon.settings', {json.dumps(json.dumps(SETTINGS))})")
    page.goto(server.url)
    page.wait_for_function("window.yukon && window.yukon.state")
    settle(page)
    return page, errors


def test_a_first_visit_logs_no_console_error(browser: Any, tmp_path: Path) -> None:
    with Server(tmp_path / "first.sqlite3", warm_solver=False) as server:  # (no game to resume)
        page, errors = open_quiet(browser, server)
        page.wait_for_timeout(300)
        assert state(page)["move_count"] == 0 and errors == []
        page.context.close()


def test_a_remembered_game_the_server_does_not_know_logs_no_console_error(browser: Any, tmp_path: Path) -> None:
    """The page remembers its game's id; another database (or the game deleted) leaves it unknown, expected."""
    with Server(tmp_path / "other.sqlite3", warm_solver=False) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        errors = console_errors(page)
        asked: list[str] = []
        page.on("response", lambda r: asked.append(f"{r.status} {r.url}") if "/api/games/" in r.url else None)
        page.add_init_script(f"localStorage.setItem('yukon.settings', {json.dumps(json.dumps(SETTINGS))});"
                             "localStorage.setItem('yukon.game', 'gone123')")
        page.goto(server.url)
        page.wait_for_function("window.yukon && window.yukon.state")
        settle(page)
        page.wait_for_timeout(300)
        assert any(a.startswith("204 ") and "/api/games/gone123" in a for a in asked), asked  # it was asked for
        assert state(page)["id"] != "gone123" and state(page)["move_count"] == 0  # and a new game dealt
        assert errors == []
        context.close()


def test_a_refused_drop_logs_no_console_error(browser: Any, server: Server) -> None:
    page, errors = open_quiet(browser, server)
    card, column = refused_drop(state(page))
    drag(page, card, column)
    page.wait_for_function("document.querySelector('#message').classList.contains('error')")
    settle(page)
    assert page.inner_text("#message")  # the page says why, in a player's words
    assert state(page)["move_count"] == 0
    page.wait_for_timeout(300)
    assert errors == []
    page.context.close()
