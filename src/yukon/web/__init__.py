"""Play in the browser: ``yukon play`` serves a card table and a JSON API (see docs/web.md).

>>> from yukon.store import Store
>>> app = create_app(Store(":memory:"))
>>> app.title
'Yukon'
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
