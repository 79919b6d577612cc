"""The key footer, fitted to the terminal: keys that do not fit are left out whole, least needed first.

Textual's footer cuts its row at the terminal's edge, so at 60 columns it ended in "t" with no word
after it, and the keys past it were not there at all. Here a narrow terminal drops whole keys instead, in
the order of :data:`KEPT_LONGEST` from its end: help (which lists every key) and quit stay to the last.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: Actions in the order they are kept when the row is too narrow for all (first kept longest); an action
#: not named here goes first.
KEPT_LONGEST = (
    "help", "quit", "demo_stop", "hint", "undo", "deal", "new_game", "demo", "demo_pause", "demo_speed", "play_hint",
    "stats", "variant", "deal_number",
)


def _rank(action: str) -> int:
    name = action.split("(")[0]
    return KEPT_LONGEST.index(name) if name in KEPT_LONGEST else len(KEPT_LONGEST)


class FittingFooter(Footer):
    """A :class:`~textual.widgets.Footer` that shows the keys that fit, whole."""

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit)

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self.fit)

    def fit(self, tries: int = 3) -> None:
        """Show the keys, most needed first, while they fit in the row; hide the rest."""
        if self.size.width <= 0:
            return
        keys = list(self.query(FooterKey))
        widths: dict[FooterKey, int] = {}
        for key in keys:
            width = getattr(key, "_fitted_width", None)
            if width is None and key.display and key.outer_size.width > 0:
                width = key._fitted_width = key.outer_size.width + key.styles.margin.left  # type: ignore[attr-defined]
            if width is None:  # not laid out yet: show it, measure it next time
                key.display = True
                if tries > 0:
                    self.call_after_refresh(self.fit, tries - 1)
                return
            widths[key] = width
        room = self.size.width
        used = 0
        for key in sorted(keys, key=lambda k: _rank(k.action)):
            key.display = used + widths[key] <= room
            if key.display:
                used += widths[key] + key.styles.margin.right  # (the last key's margin may pass the edge)
