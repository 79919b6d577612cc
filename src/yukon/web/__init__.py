"""Play in the browser: ``yukon play`` serves a card table and a JSON API (see docs/web.md).

>>> from yukon.store import Store
>>> from yukon.web import create_app
>>> app = create_app(Store(":memory:"))
>>> app.title
'Yukon'
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # FastAPI is imported only when the app is wanted, not by every ``yukon`` command.
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
