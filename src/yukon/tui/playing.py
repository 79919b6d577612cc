"""The terminal game's moves: playing one (and saying what it did, and why auto-play left a card), dealing,
undo, redo, restart, auto-play and auto-finish.
"""

from __future__ import annotations

from ..autoplay import held_back, is_certain_win, left_in_sentences, left_to_the_player
from ..cards import PRETTY
from ..cli_common import plural
from ..errors import IllegalMoveError, YukonError
from ..notation import STOCK_MOVE, Move
from ..session import NothingToDoError
from .base import TableApp
from .session import describe_move
from .texts import REPLAYING
from .widgets import Cursor


class Playing(TableApp):
    """Playing the moves, and the keys that change the game's line (deal, undo, redo, restart, auto)."""

    def play(self, move: Move, prefix: str = "") -> bool:
        """Play the player's move; an illegal one is explained in the status bar. True if played."""
        if self.replay is not None:
            self.set_status(REPLAYING, "error")
            return False
        before = self.game.copy()
        try:
            played = self.session.play(move)
        except YukonError as exc:
            self.set_status(self._reason(exc), "error")
            self.bell()
            self.refresh_table()
            return False
        self.state.pick = None
        self.state.hint = None
        text = prefix + describe_move(before, move)
        extra = len(played) - 1
        if extra:
            text += f"; {extra} card{'s' if extra > 1 else ''} played up automatically"
        self.held_note, self.held_short = self._held_back_news()
        short = text + f"; {self.held_short}" if self.held_short else ""
        if self.held_note:
            text += f"; {self.held_note}"
        self.set_status(text[:1].upper() + text[1:], shorter=(short[:1].upper() + short[1:],) if short else ())
        self._after_change()
        return True

    def _reason(self, exc: YukonError) -> str:
        """Why the move was refused, in the session's words (the same as the web table's)."""
        text = self.session.explain(exc) if isinstance(exc, IllegalMoveError) else str(exc)
        return text[:1].upper() + text[1:]

    def _held_back_news(self) -> tuple[str, str]:
        """Why auto-play leaves a card that could go up (said once per card and game), or ``""``: while a
        Milligan stock lasts, or because the tableau may still need it (an Ace in Alaska, where a 2 may go
        on it), in the web table's words too (:func:`~yukon.autoplay.left_to_the_player`; the cards left for the
        same reason in one sentence, :func:`~yukon.autoplay.left_in_sentences`); and its short form,
        the cards alone, for a status line too small for every card's why (a Milligan deal leaving two Aces
        took 320 characters: at 80x24 it ended mid-sentence)."""
        if not self.session.autoplay:
            return "", ""
        said: list[tuple[Move, str]] = []
        for move, why in left_to_the_player(self.game):
            if move.card not in self._explained:
                self._explained.add(move.card)
                said.append((move, why))
        if not said:
            return "", ""
        key = "; f plays it up" if len(said) == 1 else "; f plays one up"
        stock = {m.card for m in held_back(self.game)}
        short = []
        for for_stock in (True, False):
            cards = [PRETTY[m.card] for m, _ in said if (m.card in stock) == for_stock]
            if cards:
                named = ", ".join(cards[:-1]) + " and " + cards[-1] if len(cards) > 1 else cards[0]
                why = " while the stock lasts" if for_stock else \
                    f" (the tableau may still need {'them' if len(cards) > 1 else 'it'})"
                short.append(f"auto-play leaves {named}{why}")
        # (cards left for the same reason share one sentence: "A♠ and A♥ are not played up ... on each")
        whole = left_in_sentences(self.game, {m.card for m, _ in said})
        return "; ".join(whole) + key, "; ".join(short) + key

    def _after_change(self) -> None:
        self.analysis = None  # it was of the game before this change
        if self.session.store_error:
            self.set_status(f"Warning: {self.session.store_error}", "error")
        self.state.hint = None
        self._cancel("hint")
        self.refresh_table()
        self._start_winnable()
        self._check_over()

    def action_deal(self) -> None:
        if not self.game.rules.has_stock:
            self.set_status(f"{self.game.rules.title} has no stock", "error")
            return
        stock_before = len(self.game.stock)
        if self.play(STOCK_MOVE):
            rules, left = self.game.rules, len(self.game.stock)
            dealt = stock_before - left
            if rules.has_waste:
                text = "Dealt one card to the waste"
            elif dealt < rules.columns:  # Milligan's ninth deal: its last 4 cards, onto the first columns
                text = f"Dealt the last {plural(dealt, 'card')} onto column{'s 1 to' if dealt > 1 else ''} {dealt}"
            else:
                text = "Dealt a card onto every column"
            text += f"; {left} left in the stock" if left else "; the stock is empty"
            self.set_status(text + (f"; {self.held_note}" if self.held_note else ""),
                            shorter=(f"{text}; {self.held_short}",) if self.held_short else ())

    def action_undo(self) -> None:
        self.state.pick = None
        try:
            undone = self.session.undo()
        except NothingToDoError:
            self.set_status("Nothing to undo", "error")
            return
        self._cursor_on_brought_back(undone[-1] if undone else None)
        # (the turn's first move only: its card is in sight again, the automatic plays after it may have shown
        # cards that now lie face down again)
        what = f": {describe_move(self.game, undone[-1])}" if undone else ""
        more = f" and {plural(len(undone) - 1, 'automatic move')}" if len(undone) > 1 else ""
        # (the terminal lets a won game be undone: the statistics still count it won, and the player is told)
        kept = "; the win stays counted" if self.session.result == "won" else ""
        self.set_status(f"Undone{what}{more}; {plural(self.session.moves_made, 'move')} played{kept}")
        self._after_change()

    def _cursor_on_brought_back(self, move: Move | None) -> None:
        """The cursor on the lead card an undone move brought back to its column (it stayed where it was: on
        the card under it, which ⏎ or f then took for the player's)."""
        if move is None or not 0 <= move.src < self.game.rules.columns:
            return
        down, up = self.game.columns[move.src]
        self.state.cursor = Cursor("tab", move.src, max(len(down), len(down) + len(up) - move.count))

    def action_redo(self) -> None:
        self.state.pick = None
        before = self.game.copy()
        try:
            redone = self.session.redo()
        except NothingToDoError:
            self.set_status("Nothing to redo", "error")
            return
        what = f": {describe_move(before, redone[0])}" if redone else ""
        self.set_status(f"Redone{what}; {plural(self.session.moves_made, 'move')} played")
        self._after_change()

    def action_restart(self) -> None:
        self.state.pick = None
        try:
            self.session.restart()
        except NothingToDoError:
            self.set_status("Already at the start of the deal")
            return
        self.set_status("Back to the deal (r redoes the moves one turn at a time)")
        self._after_change()

    def action_toggle_autoplay(self) -> None:
        on = not self.session.autoplay
        played = self.session.set_autoplay(on)
        msg = "Auto-play on: safe cards go up by themselves" if on else "Auto-play off"
        if played:
            msg += f"; {len(played)} played up"
        shorter: tuple[str, ...] = ()
        if on:
            self._explained.clear()
            held, short = self._held_back_news()
            if held:
                shorter = (f"{msg}; {short}",)
                msg += f"; {held}"
        self.set_status(msg, shorter=shorter)
        self._after_change()

    def action_finish(self) -> None:
        if self.game.is_won():
            self.set_status("The game is already won")
            return
        if not is_certain_win(self.game):
            self.set_status("Auto-finish needs every card face up, each column in descending order", "error")
            return
        played = self.session.finish()
        self.set_status(f"Finished: {len(played)} cards played up", "good")
        self._after_change()


__all__ = ["Playing"]
