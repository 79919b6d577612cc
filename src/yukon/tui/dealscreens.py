"""The boxes that choose the next game: a deal by its number (``g``), and the new-game box (``v``: the variant,
its rule options and which deal: any, winnable, of a difficulty, proven lost).

Each is a :class:`~yukon.tui.screens.Dialog`: ``q`` and ``ctrl+c`` quit from it as from the table.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..deal import MAX_SEED
from ..rules import VARIANTS, Rules
from .screens import Dialog, modal_css


class DealNumberInput(Input):
    """The deal number's field: it takes the digits and leaves every other key (``q``) to the screen."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdigit()


class DealNumberScreen(Dialog[int | None]):
    """Ask for a deal number."""

    DEFAULT_CSS = modal_css("DealNumberScreen", 44) + """
    DealNumberScreen Input { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Deal number", classes="title")
            yield DealNumberInput(placeholder="e.g. 42", type="integer", id="deal-number")
            yield Static("enter: deal   esc: cancel   q: quit", classes="note", id="deal-note")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            seed = int(text)
        except ValueError:
            seed = -1
        if not 0 <= seed <= MAX_SEED:
            self.query_one("#deal-note", Static).update(f"a deal number is a whole number from 0 to {MAX_SEED}")
            return
        self.dismiss(seed)

    def action_cancel(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class NewGameChoice:
    """What the new-game screen returns: the variant and its rule options, and which deal (``kind``: any,
    winnable, lost; for a winnable one, a ``difficulty`` or None for any; docs/difficulty.md)."""

    variant: str
    kind: str = "any"
    difficulty: str | None = None
    empty_column: str | None = None  # None: the variant's default
    foundation_return: bool | None = None

    @property
    def winnable_only(self) -> bool:
        return self.kind == "winnable"

    @property
    def rules(self) -> Rules:
        """The rules of the game chosen: the variant with the options chosen."""
        base = VARIANTS[self.variant]
        return base.with_options(
            empty_column=base.empty_column if self.empty_column is None else self.empty_column,
            foundation_return=base.foundation_return if self.foundation_return is None else self.foundation_return,
        )


def describe_choice(kind: str, difficulty: str | None) -> str:
    """The deal chosen in words ("an easy winnable deal", "a deal proven lost"), for the box and the status line."""
    if kind == "winnable":
        if difficulty:
            return f"{'an' if difficulty[0] in 'aeiou' else 'a'} {difficulty} winnable deal"  # an easy, an expert
        return "a winnable deal (proved by the solver)"
    return "a deal proven lost" if kind == "lost" else "any deal"


def _lost_deals_known(rules: Rules) -> bool:
    """Do the shipped verdicts hold a deal of ``rules`` proven lost (the only source of one)?"""
    from ..winnable_deals import NoSuchDealError, pick_deal

    try:
        pick_deal(rules, "lost")
    except NoSuchDealError:
        return False
    return True


class NewGameScreen(Dialog[NewGameChoice | None]):
    """Choose the next game: the variant and its rule options (as the web table's New dialog: they start as the
    game's in play, and as the variant's defaults when another variant is highlighted; what e and f chose for a
    variant is kept while the list moves), and which deal: any,
    winnable (of a difficulty), proven lost."""

    DEFAULT_CSS = modal_css("NewGameScreen", 60) + """
    NewGameScreen OptionList { width: 100%; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        # (each key chooses its kind of deal, whatever was chosen before: w toggled, and after an easy winnable deal
        # the choice remembered, w Enter dealt "any deal" to a player who read "w: winnable" as "choose winnable")
        Binding("w", "choose_kind('winnable')", "A winnable deal"),
        Binding("a", "choose_kind('any')", "Any deal"),
        Binding("d", "next_difficulty", "Difficulty"),
        Binding("l", "choose_kind('lost')", "A deal proven lost"),
        Binding("e", "toggle_empty_column", "Empty column: kings or any card"),
        Binding("f", "toggle_foundation_return", "Foundation return on or off"),
    ]

    def __init__(self, current: str, winnable_only: bool = False, *, kind: str | None = None,
                 difficulty: str | None = None, rules: Rules | None = None) -> None:
        super().__init__()
        self._current = current
        self.kind = kind or ("winnable" if winnable_only else "any")
        self.difficulty = difficulty if self.kind == "winnable" else None
        #: the rules chosen for each variant visited: the game's in play (``rules``) for its own variant, and
        #: what e and f made of them. Kept per variant because the list highlights its first entry (Yukon)
        #: before the game's own variant, and moving past a variant must not lose the options chosen for it.
        self._chosen: dict[str, Rules] = {}
        if rules is not None:
            self._chosen[rules.variant] = rules
        #: the rules of the highlighted variant: as chosen, else the variant's defaults
        self.rules = self._rules_of(current if current in VARIANTS else "yukon")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New game of…", classes="title")
            options = [Option(rules.title, id=name) for name, rules in VARIANTS.items()]
            yield OptionList(*options, id="variants")
            yield Static(self._rules_text(), id="rule-options")
            yield Static(self._deal_text(), id="deal-kind")
            # (a line each, whole: on one line the keys were cut to a bare "esc")
            yield Static("enter: deal  esc: cancel  q: quit\nw: winnable  d: difficulty  l: lost  a: any deal\n"
                         "e: empty column  f: foundation return", classes="note")

    def _rules_text(self) -> str:
        r = self.rules
        empty = "kings only" if r.kings_only else "any card"
        return f"Rules: empty column {empty}, foundation return {'on' if r.foundation_return else 'off'}"

    def _deal_text(self) -> str:
        text = f"Deal: {describe_choice(self.kind, self.difficulty)}"
        if self.kind == "lost" and not _lost_deals_known(self.rules):
            text += f" (none known of {self.rules.title} with these rules)"
        elif self.kind == "winnable" and not self._grades():  # (else d seemed to do nothing)
            text += f"; {self.rules.title} has no difficulty grades with these rules"
        return text

    def _show(self) -> None:
        with contextlib.suppress(Exception):  # (not composed yet)
            self.query_one("#rule-options", Static).update(self._rules_text())
            self.query_one("#deal-kind", Static).update(self._deal_text())

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        names = list(VARIANTS)
        ol.highlighted = names.index(self._current) if self._current in names else 0
        ol.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        name = event.option.id
        if name is not None and name != self.rules.variant:  # another variant: its rules as chosen, or defaults
            self.rules = self._rules_of(name)
            self._keep_difficulty_offered()
            self._show()

    def _rules_of(self, variant: str) -> Rules:
        return self._chosen.get(variant, VARIANTS[variant])

    def _choose(self, rules: Rules) -> None:
        self.rules = self._chosen[rules.variant] = rules
        self._keep_difficulty_offered()
        self._show()

    @property
    def winnable_only(self) -> bool:
        return self.kind == "winnable"

    def _grades(self) -> tuple[str, ...]:
        from ..difficulty import scale

        r = self.rules
        return scale(r.variant, r.empty_column, r.foundation_return)

    def _keep_difficulty_offered(self) -> None:
        """A grade the rules now chosen do not offer falls back to any winnable deal."""
        if self.difficulty is not None and self.difficulty not in self._grades():
            self.difficulty = None

    def action_choose_kind(self, kind: str) -> None:
        """Any deal, a winnable one (of any difficulty: ``d`` chooses one), or one proven lost."""
        self.kind, self.difficulty = kind, None
        self._show()

    def action_next_difficulty(self) -> None:
        """Any winnable deal, then each grade the rules chosen offer (easy, medium, hard, expert for Yukon;
        fewer or none elsewhere: docs/difficulty.md), and round again."""
        order: list[str | None] = [None, *self._grades()]
        current = self.difficulty if self.kind == "winnable" and self.difficulty in order else order[-1]
        self.kind, self.difficulty = "winnable", order[(order.index(current) + 1) % len(order)]
        self._show()

    def action_toggle_empty_column(self) -> None:
        self._choose(self.rules.with_options(empty_column="any" if self.rules.kings_only else "kings"))

    def action_toggle_foundation_return(self) -> None:
        self._choose(self.rules.with_options(foundation_return=not self.rules.foundation_return))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        r = self._rules_of(event.option.id)
        self.dismiss(NewGameChoice(event.option.id, self.kind, self.difficulty, r.empty_column, r.foundation_return))

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["DealNumberInput", "DealNumberScreen", "NewGameChoice", "NewGameScreen", "describe_choice"]
