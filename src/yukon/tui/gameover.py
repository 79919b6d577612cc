"""The terminal game's end: the won or lost box when the game ends, and what its keys do."""

from __future__ import annotations

import sqlite3

from ..cli_common import plural
from ..demo import computer_moves
from .base import TableApp
from .screens import GameOverScreen, clock_text
from .texts import win_stats_line


class GameOver(TableApp):
    """The end of a game: the box that announces it, and what its keys do."""

    def _check_over(self) -> None:
        s = self.session
        status = s.status
        if status not in ("won", "lost"):
            self._announced = False
            return
        if self._announced:
            return
        self._announced = True
        if status == "lost" and s.result == "won":
            # A won game undone and played on into a dead end: it stays won (the statistics keep the win, the top
            # line says "won (undone)"), so no lost box; the web table takes no move after a win at all.
            self.set_status("No legal move left on this line: a dead end, but the game was won and stays won.  "
                            "u: undo  n: new game")
            return
        won = status == "won"
        deal = f"Deal {self.game.seed}" if self.game.seed is not None else "This position"
        details = f"{deal} of {self.game.rules.title}: {plural(s.moves_made, 'move')}, {clock_text(s.elapsed)}."
        computer = computer_moves(s.extra)
        if computer:
            details += f" The computer chose {plural(computer, 'move')}: the game is not counted in the statistics."
        if won and computer:
            self.set_status("The computer won!  n: new game  s: statistics", "good")
        elif won:
            self.set_status("You won!  n: new game  s: statistics", "good")
        else:
            self.set_status("No legal move left: the game is lost.  u: undo  n: new game", "error")
        # (the streak and best time belong under the player's win, not the computer's: it counts for nothing)
        stats = self._win_stats() if won and not computer else ""
        self.push_screen(GameOverScreen(won, details, winner="The computer" if computer else "You", stats=stats),
                         self._after_game_over)

    def _win_stats(self) -> str:
        """The statistics line of the rules and deal numbering in play, from the store (as the web's won box)."""
        if self.store is None:
            return ""
        rules = self.game.rules
        try:
            rows = self.store.stats(rules.variant)
        except (sqlite3.Error, OSError):  # (a store that cannot be read never stops the game)
            return ""
        row = next((r for r in rows if r.options == rules.options() and r.numbering == self.game.numbering), None)
        return win_stats_line(row, self.session.elapsed)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "undo":
            self.action_undo()
        elif choice == "restart":
            self.action_restart()
        elif choice == "stats":
            self.action_stats()
        elif choice == "export":
            self.action_export()
        elif choice == "analyze":
            self.action_analyze()


__all__ = ["GameOver"]
