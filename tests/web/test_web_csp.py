"""The page works under the server's strict Content-Security-Policy, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest
from browser_setup import require_browser, strict_page

pytestmark = pytest.mark.browser
require_browser()


def test_the_page_deals_and_plays_under_the_csp(strict_url: str) -> None:
    with strict_page() as page:
        response: Any = page.goto(strict_url)
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_selector(".card", timeout=20_000)
        assert page.locator(".card").count() == 52
        page.locator("#btn-new").click()  # a request the page's own script makes
        page.wait_for_selector(".card", timeout=20_000)
