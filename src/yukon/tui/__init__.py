"""The terminal game (``yukon tui``): Yukon and its family in a Textual app.

The drawing lives in :mod:`yukon.tui.app` and :mod:`yukon.tui.widgets`; the
game being played (turns, undo/redo, saving to the shared store) in
:mod:`yukon.tui.session`, which needs no terminal.
"""

from __future__ import annotations

from .session import Session

__all__ = ["Session"]
