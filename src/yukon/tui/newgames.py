"""The terminal game's new games: a random deal (``n``; winnable, of a difficulty or proven lost, as chosen
with ``v``), a deal by its number (``g``), another variant (``v``), and the question before leaving a game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

from ..demo import computer_moves
from ..game import Game
from ..rules import Rules
from ..winnable_deals import FoundDeal, NoSuchDealError, deal_from_data, find_winnable_deal
from .base import TableApp
from .dealscreens import DealNumberScreen, NewGameChoice, NewGameScreen
from .screens import ConfirmScreen
from .session import Session
from .widgets import Cursor, tableau_columns, top_row


class NewGames(TableApp):
    """Leaving the game in play for another: the keys, the screens they open, and the deal."""

    def _confirm_then(self, question: str, then: Callable[[], None]) -> None:
        if not self.session.in_progress or self.session.status == "lost":
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(question), answered)

    def start_game(self, game: Game, *, proved_winnable: bool = False) -> None:
        """Leave the current game (abandoned when in progress) and play ``game``; ``proved_winnable``: it was
        dealt as a winnable deal the solver proved so (its grade may then show; the game's record keeps it)."""
        self.session.abandon()
        old_rules = self.session.game.rules
        session = Session(game, self.store, autoplay=self.session.autoplay, hint_kind=self.session.hint_kind,
                          clock=self._time_source, extra={"deal_winnable": "won"} if proved_winnable else None)
        session.play_opening()
        self._take_up(session)
        self.state.cursor = Cursor("tab", 0, self._free_index(0))
        welcome = self._welcome(game, self._deal_note)
        self._deal_note = ""
        self.set_status(welcome)
        if (game.rules.columns, game.rules.stock, game.rules.foundations) != (
            old_rules.columns, old_rules.stock, old_rules.foundations
        ):
            # (with the same welcome: said anew after the rebuild, it had lost the deal's note, "the solver proved
            # this deal winnable (easy)", for every variant of another layout than the game left)
            self.call_later(self._rebuild, welcome)
        else:
            self._after_change()

    def _take_up(self, session: Session) -> None:
        """Play ``session`` from now on (a new deal, or a finished game played on from its replay: ``l``): the
        old game's jobs, hint, replay, analysis and end are forgotten."""
        for name in list(self._jobs):
            self._cancel(name)
        self.session = session
        self.state.game = session.game
        self.state.pick = None
        self.state.hint = None
        self._announced = False
        self.winnable_text = ""
        self.replay = None
        self.analysis = None
        self.advisor = self._new_advisor()
        self._explained = set()

    async def _rebuild(self, welcome: str) -> None:
        """The table's piles and columns made anew for the game in play (another variant's layout).

        On the table's own screen, not the active one (App.recompose's): a game chosen in a dialog starts
        while the dialog is still up, and recomposing the dialog left the old variant's columns on the table
        (Milligan Yukon's eighth column, drawn for a Yukon game: an IndexError at the next key)."""
        table = self.screen_stack[0]
        async with table.batch():
            for container, widgets in (("#piles", top_row(self.state)), ("#columns", tableau_columns(self.state))):
                box = table.query_one(container)
                await box.remove_children()
                await box.mount_all(widgets)
        self.state.cursor = Cursor("tab", 0, self._free_index(0))
        self.set_status(welcome)
        self._after_change()

    @staticmethod
    def _welcome(game: Game, note: str) -> str:
        """What a new game says first: the deal, and ``note``, what the shipped verdicts or the solver said of it."""
        text = f"Deal {game.seed} of {game.rules.title}"
        if note:
            text += f": {note}"
        # (the one key a stock variant adds to picking and putting cards: the key bar shows it too)
        return text + ". Good luck!" + ("  d: deal." if game.rules.has_stock else "")

    def deal_new(self, rules: Rules) -> None:
        """Start a random deal of ``rules``: one the solver proves winnable when :attr:`winnable_only`."""
        kind = "winnable" if self.winnable_only else self.deal_kind
        try:  # a deal proven lost, or winnable (of a difficulty), from the shipped verdicts at once
            found = deal_from_data(rules, kind, self.deal_difficulty)
        except NoSuchDealError as exc:
            why = (f"No deal of {rules.title} with these rules is known to be lost (the solver has proved none)"
                   if kind == "lost" else str(exc))  # (the data's own words named "the shipped verdicts")
            self.set_status(f"{why}: choose another kind of deal (v)", "error")
            return
        if found is not None:
            self._deal_note = found.note
            self.start_game(Game.deal(rules, seed=found.seed), proved_winnable=found.status == "won")
            return
        if not self.winnable_only:
            self.start_game(Game.deal(rules, seed=self._new_seed()))
            return
        self.set_status(f"Looking for a winnable deal of {rules.title}…")
        new_seed = self._new_seed

        def seeds() -> Iterator[int]:
            while True:
                yield new_seed()

        def work(stop: threading.Event) -> FoundDeal:
            return find_winnable_deal(lambda seed: Game.deal(rules, seed=seed), stop, seeds=seeds())

        def done(found: Any) -> None:
            if isinstance(found, Exception):
                self.set_status(f"Could not look for a deal: {found}", "error")
                return
            self._deal_note = found.note
            self.start_game(Game.deal(rules, seed=found.seed), proved_winnable=found.status == "won")

        self._start_job("deal", work, done)

    def _leaving(self) -> str:
        """What leaving the game in play does to the statistics."""
        if computer_moves(self.session.extra):
            return "it is not counted in the statistics, since the computer played in it"
        return "it counts as not won"

    def action_new_game(self) -> None:
        rules = self.game.rules
        self._confirm_then(
            f"Leave this game ({self._leaving()}) and deal a new one?",
            lambda: self.deal_new(rules),
        )

    def action_deal_number(self) -> None:
        rules = self.game.rules

        def chosen(seed: int | None) -> None:
            if seed is not None:
                self._confirm_then(
                    f"Leave this game ({self._leaving()}) for deal {seed}?",
                    lambda: self.start_game(Game.deal(rules, seed=seed)),
                )

        self.push_screen(DealNumberScreen(), chosen)

    def action_variant(self) -> None:
        def chosen(choice: NewGameChoice | None) -> None:
            if choice is not None:
                self.winnable_only = choice.winnable_only
                self.deal_kind, self.deal_difficulty = choice.kind, choice.difficulty
                self._confirm_then(
                    f"Leave this game ({self._leaving()}) for a new one?",
                    lambda: self.deal_new(choice.rules),  # (with the rule options chosen there)
                )

        self.push_screen(NewGameScreen(self.game.rules.variant, self.winnable_only, kind=self.deal_kind,
                                       difficulty=self.deal_difficulty, rules=self.game.rules), chosen)


__all__ = ["NewGames"]
