"""The terminal game's cursor and picking: the cursor keys, picking a card (and those on it) up and putting it
down with the keyboard (``space``/``enter``, digits, ``f``, ``m``, ``w``, ``esc``) or the mouse (a click, a
double click).
"""

from __future__ import annotations

from ..cards import PRETTY
from ..cli_common import plural
from ..notation import FOUNDATION, WASTE, Move
from ..session import card_key
from .base import TableApp
from .session import Pick
from .texts import REPLAYING
from .widgets import ColumnView, Cursor, PileView


class Picking(TableApp):
    """The cursor, and picking cards up and putting them down by key or click."""

    def _free_index(self, column: int) -> int:
        down, up = self.game.columns[column]
        return max(0, len(down) + len(up) - 1)

    def _clamp_cursor(self) -> None:
        cur = self.state.cursor
        if cur.area == "top":
            n = len(self.state.top_piles())
            cur.pile = min(max(cur.pile, 0), n - 1)
            return
        cols = self.game.rules.columns
        cur.pile = min(max(cur.pile, 0), cols - 1)
        down, up = self.game.columns[cur.pile]
        if not up:
            cur.index = 0
        else:
            cur.index = min(max(cur.index, len(down)), len(down) + len(up) - 1)

    def _top_for_column(self, column: int) -> int:
        """The top-row pile above a column (roughly, by position)."""
        tops = self.state.top_piles()
        cols = self.game.rules.columns
        founds = [i for i, (k, _) in enumerate(tops) if k == "found"]
        others = [i for i, (k, _) in enumerate(tops) if k != "found"]
        if others and column < len(others):
            return others[column]
        # foundations are right-aligned: column c sits under the (cols - c)-th pile from the right
        from_right = cols - 1 - column
        return founds[max(0, len(founds) - 1 - from_right)]

    def _column_for_top(self, top: int) -> int:
        tops = self.state.top_piles()
        cols = self.game.rules.columns
        kind = tops[top][0]
        if kind != "found":
            return min(top, cols - 1)
        from_right = len(tops) - 1 - top
        return max(0, cols - 1 - from_right)

    def action_cursor(self, direction: str) -> None:
        cur = self.state.cursor
        if cur.area == "top":
            n = len(self.state.top_piles())
            if direction == "left":
                cur.pile = (cur.pile - 1) % n
            elif direction == "right":
                cur.pile = (cur.pile + 1) % n
            elif direction == "down":
                col = self._column_for_top(cur.pile)
                down, _ = self.game.columns[col]
                self.state.cursor = Cursor("tab", col, len(down))
        else:
            cols = self.game.rules.columns
            down, up = self.game.columns[cur.pile]
            if direction in ("left", "right"):
                cur.pile = (cur.pile + (1 if direction == "right" else -1)) % cols
            elif direction == "up":
                if up and cur.index > len(down):
                    cur.index -= 1
                else:
                    self.state.cursor = Cursor("top", self._top_for_column(cur.pile), 0)
            elif direction == "down" and up and cur.index < len(down) + len(up) - 1:
                cur.index += 1
        self.refresh_table()

    def _pick_here(self) -> None:
        """Pick the card under the cursor (with the cards on it)."""
        cur = self.state.cursor
        down, up = self.game.columns[cur.pile]
        cards = down + up
        if not cards:
            self.set_status(f"Column {cur.pile + 1} is empty: pick a card first, then put it here", "error")
            return
        if cur.index < len(down):
            self.set_status("That card is face down", "error")
            return
        count = len(cards) - cur.index
        self._set_pick(Pick(cur.pile, cards[cur.index], count))

    def _set_pick(self, pick: Pick | None) -> None:
        self.state.pick = pick
        self.state.hint = None
        if pick is not None:
            self.refresh_table()
            what = PRETTY[pick.card]
            if pick.count > 1:
                # as the moves are told ("A♠ and 1 card on it from column 2 ..."): "A♠ with 1 card" was unclear
                what += f" and {pick.count - 1} card{'s' if pick.count > 2 else ''} on it"
            cols = [str(t + 1) for t in sorted(self.state.targets) if t != FOUNDATION]
            where = []
            if cols:
                where.append(f"column{'s' if len(cols) > 1 else ''} {', '.join(cols)}")
            if FOUNDATION in self.state.targets:
                where.append("its foundation")
            tail = f"it fits on {' and '.join(where)}" if where else "it fits nowhere now"
            self.set_status(f"Picked {what}; {tail} (esc: cancel)")
        else:
            self.refresh_table()

    def action_select(self) -> None:
        cur = self.state.cursor
        pick = self.state.pick
        if cur.area == "top":
            kind, pile = self.state.top_piles()[cur.pile]
            self._act_on_pile(kind, pile)
            return
        if pick is None:
            self._pick_here()
            return
        if pick.src == cur.pile:
            down, up = self.game.columns[cur.pile]
            cards = down + up
            if cur.index < len(cards) and len(cards) - cur.index != pick.count and cur.index >= len(down):
                self._pick_here()  # another card of the same column
            else:
                self._set_pick(None)
                self.set_status("Put back")
            return
        self.play(pick.move_to(cur.pile))

    def _act_on_pile(self, kind: str, pile: int) -> None:
        """A key or click on the stock, the waste or a foundation pile."""
        pick = self.state.pick
        if kind == "stock":
            if pick is not None:
                self._set_pick(None)
            self.action_deal()
        elif kind == "waste":
            if pick is not None and pick.src == WASTE:
                self._set_pick(None)
                self.set_status("Put back")
            elif pick is not None:
                self.set_status("Cards do not go onto the waste", "error")
            else:
                self.action_waste()
        else:
            if pick is not None and pick.src == FOUNDATION:
                self._set_pick(None)
                self.set_status("Put back")
            elif pick is not None:
                self.play(pick.move_to(FOUNDATION))
            else:
                found = self.game.foundations[pile]
                if not found:
                    self.set_status("An empty foundation: pick an Ace to put here", "error")
                elif not self.game.rules.foundation_return:
                    self.set_status("Cards do not come back from the foundations in these rules", "error")
                else:
                    self._set_pick(Pick(FOUNDATION, found[-1], 1))

    def action_column(self, column: int) -> None:
        if column >= self.game.rules.columns:
            self.set_status(f"There is no column {column + 1}", "error")
            return
        pick = self.state.pick
        if pick is not None and pick.src != column:
            self.state.cursor = Cursor("tab", column, self._free_index(column))
            self.play(pick.move_to(column))
            return
        if pick is not None:
            self._set_pick(None)
        self.state.cursor = Cursor("tab", column, self._free_index(column))
        self.refresh_table()

    def action_foundation(self) -> None:
        pick = self.state.pick
        if pick is not None:
            self.play(pick.move_to(FOUNDATION))
            return
        cur = self.state.cursor
        if cur.area == "top":
            kind, _ = self.state.top_piles()[cur.pile]
            if kind == "waste" and self.game.waste:
                self.play(Move(WASTE, FOUNDATION, self.game.waste[-1], 1))
            else:
                self.set_status("Put the cursor on a free card (or pick one), then press f", "error")
            return
        down, up = self.game.columns[cur.pile]
        if not up:
            self.set_status(f"Column {cur.pile + 1} is empty", "error")
            return
        cards = down + up
        self.play(Move(cur.pile, FOUNDATION, cards[cur.index], 1))

    def smart_move(self, pick: Pick) -> bool:
        """Play the picked cards where they fit best: the foundation, else a column with cards, else an
        empty column (the leftmost of equals)."""
        best = self.session.best_moves().get(card_key(pick.move_to(FOUNDATION)))
        if best is None:
            self.state.pick = None
            what = PRETTY[pick.card] + (" with the cards on it" if pick.count > 1 else "")
            self.set_status(f"{what} fits nowhere now", "error")
            self.bell()
            self.refresh_table()
            return False
        self.state.pick = None
        return self.play(best)

    def action_smart(self) -> None:
        pick = self.state.pick
        if pick is None:
            cur = self.state.cursor
            if cur.area == "top":
                kind, _ = self.state.top_piles()[cur.pile]
                if kind == "waste" and self.game.waste:
                    pick = Pick(WASTE, self.game.waste[-1], 1)
            else:
                down, up = self.game.columns[cur.pile]
                cards = down + up
                if up and cur.index >= len(down):
                    pick = Pick(cur.pile, cards[cur.index], len(cards) - cur.index)
        if pick is None:
            self.set_status("Put the cursor on a face-up card first", "error")
            return
        self.smart_move(pick)

    def action_waste(self) -> None:
        if not self.game.rules.has_waste:
            self.set_status(f"{self.game.rules.title} has no waste", "error")
            return
        waste = self.game.waste
        if not waste:
            self.set_status("The waste is empty: d deals a card from the stock", "error")
            return
        self._set_pick(Pick(WASTE, waste[-1], 1))

    def action_cancel(self) -> None:
        if "analysis" in self._jobs:
            self._cancel("analysis")
            self.set_status("Analysis stopped")
        elif self.replay is not None:
            self.leave_replay()
            self.set_status(f"Back to the game: {plural(self.session.moves_made, 'move')} played")
        elif self.state.pick is not None:
            self._set_pick(None)
            self.set_status("Put back")
        elif self.state.hint is not None:
            self.state.hint = None
            self.refresh_table()
            self.set_status("")

    def on_column_view_clicked(self, message: ColumnView.Clicked) -> None:
        if self.demo.active:
            self.demo.take_over()
        if self.replay is not None:
            self.set_status(REPLAYING, "error")
            return
        col = message.column
        pick = self.state.pick
        down, up = self.game.columns[col]
        if message.index is not None:
            self.state.cursor = Cursor("tab", col, message.index)
        else:
            self.state.cursor = Cursor("tab", col, self._free_index(col))
        if message.chain >= 2 and message.index is not None and message.index >= len(down):
            # double click: the card (with those on it) goes where it fits best
            cards = down + up
            self.smart_move(Pick(col, cards[message.index], len(cards) - message.index))
            return
        if pick is not None and pick.src != col:
            self.play(pick.move_to(col))
            return
        if message.index is None:
            if pick is not None:
                self._set_pick(None)
                self.set_status("Put back")
            else:
                self.refresh_table()
            return
        if pick is not None and len(down + up) - message.index == pick.count:
            self._set_pick(None)
            self.set_status("Put back")
            return
        self._pick_here()

    def on_pile_view_clicked(self, message: PileView.Clicked) -> None:
        if self.demo.active:
            self.demo.take_over()
        if self.replay is not None:
            self.set_status(REPLAYING, "error")
            return
        tops = self.state.top_piles()
        self.state.cursor = Cursor("top", tops.index((message.kind, message.pile)), 0)
        if message.chain >= 2 and message.kind == "waste" and self.game.waste:
            self.smart_move(Pick(WASTE, self.game.waste[-1], 1))
            return
        self._act_on_pile(message.kind, message.pile)
        self.refresh_table()


__all__ = ["Picking"]
