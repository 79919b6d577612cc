"""The terminal game's keys: every binding, declared once (:attr:`KeyActions.BINDINGS`, which feeds the key bar
and the help), which of them work now (:meth:`KeyActions.check_action`), the keys bound to nothing that still answer
(:meth:`KeyActions.on_key`), and the keys that open a box or drive the computer's game.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType

from ..notation import STOCK_MOVE
from .base import TableApp
from .screens import HelpScreen, StatsScreen
from .texts import REPLAYING


class KeyActions(TableApp):
    """The keys: which work now, the words for those that do nothing here, help, statistics and the demo's."""

    #: Every key, once: the footer shows the keys a player needs (``show=True``), the help (``?``) all of them.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New", tooltip="New game (a random deal; winnable only if chosen with v)"),
        Binding("g,number_sign", "deal_number", "Deal #", tooltip="Play a deal by its number"),
        Binding("v", "variant", "Variant", tooltip="New game: choose the variant, its rule options and the deal "
                "(winnable, of a difficulty, lost)"),
        Binding("s", "stats", "Stats", tooltip="Statistics (shared with the web game)"),
        Binding("h", "hint", "Hint", tooltip="Show a good move: the honest player's (it sees what you see), "
                "or the solver's (it sees the face-down cards) when chosen with k"),
        Binding("p", "play_hint", "Play hint", tooltip="Play the hint shown (or the next one)"),
        Binding("u,backspace", "undo", "Undo", tooltip="Take back the last move"),
        # (in the key bar while the stock has cards: Australian Patience and Milligan Yukon)
        Binding("d", "deal", "Deal", tooltip="Deal from the stock"),
        Binding("t", "demo", "Watch", tooltip="Watch the computer play (it sees only what you see); t or esc "
                "stops it, space pauses, . then plays one move, + and - set the speed, any move of yours takes over"),
        Binding("t", "demo_stop", "Stop", tooltip="While the computer plays: stop it (or esc) and play on from there"),
        Binding("space", "demo_pause", "Pause", tooltip="While the computer plays: pause"),
        Binding("space", "demo_resume", "Play on", tooltip="While the computer's game is paused: play on"),
        Binding("full_stop", "demo_step", "Step", key_display=".",
                tooltip="While the computer's game is paused: it plays one move, and stays paused"),
        Binding("plus,equals_sign", "demo_speed(1)", "Faster", key_display="+",
                tooltip="While the computer plays: faster"),
        Binding("minus", "demo_speed(-1)", "Slower", key_display="-", tooltip="While the computer plays: slower"),
        Binding("q,ctrl+c", "quit", "Quit", key_display="q", tooltip="Quit (the game is saved and resumes next time)"),
        Binding("question_mark,f1", "help", "Help", key_display="?", tooltip="This help: every key"),
        Binding("left", "cursor('left')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("right", "cursor('right')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("up", "cursor('up')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("down", "cursor('down')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("space,enter", "select", "Pick/put", show=False,
                tooltip="Pick up the card under the cursor (the cards on it travel along), or put it down here"),
        *[
            Binding(str(n), f"column({n - 1})", f"Column {n}", show=False,
                    tooltip="Put the picked card on column N (or go to column N)")
            for n in range(1, 10)
        ],
        Binding("f", "foundation", "Up", show=False, tooltip="Send the picked card (or the one under the cursor) up"),
        Binding("m", "smart", "Move", show=False,
                tooltip="Move the card (and those on it) where it fits best: up, else onto a column"),
        Binding("w", "waste", "Waste", show=False, tooltip="Pick the waste's top card"),
        Binding("escape", "cancel", "Cancel", show=False, tooltip="Cancel: put the picked card back, hide the hint"),
        Binding("r", "redo", "Redo", show=False, tooltip="Play the move taken back again"),
        Binding("a", "toggle_autoplay", "Auto", show=False,
                tooltip="Auto-play on/off: cards that cannot be needed go up by themselves"),
        Binding("e", "finish", "Finish", show=False, tooltip="Auto-finish, once every card is face up and in order"),
        Binding("c", "toggle_winnable", "Winnable?", show=False,
                tooltip="Still winnable? indicator on/off (perfect information: the solver sees the face-down cards)"),
        Binding("k", "toggle_hint_kind", "Hint kind", show=False,
                tooltip="Hints: no peeking (the default) or the solver hint, which sees the face-down cards"),
        Binding("R", "restart", "Restart", show=False, tooltip="Restart this deal (r then redoes the moves)"),
        Binding("comma", "replay(-1)", "Back", show=False, key_display=",",
                tooltip="Replay: one move back (the saved game does not change)"),
        Binding("full_stop", "replay(1)", "Forward", show=False, key_display=".",
                tooltip="Replay: one move forward"),
        Binding("l", "play_from_here", "Play from here", show=False,
                tooltip="Replay: play on from the position shown (the later moves go to the redo list)"),
        Binding("x", "export", "Export", show=False,
                tooltip="Export the game as a record (a JSON file in the current directory), once it is over"),
        Binding("W", "analyze", "Where?", show=False,
                tooltip="Where did it go wrong? The move that lost the game (a game in play is given up first)"),
        Binding("b", "better_line", "Better line", show=False,
                tooltip="After the analysis: step through a winning line from before the losing move"),
    ]

    #: The keys that work while replaying (the others would change the game).
    REPLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({
        "replay", "play_from_here", "cancel", "quit", "help", "stats", "cursor", "export", "analyze", "better_line",
    })

    def action_stats(self) -> None:
        self.push_screen(StatsScreen(self.store, self.game.rules, self.game.numbering))

    def action_help(self) -> None:
        rules = self.game.rules
        bindings = [
            b for b in self.BINDINGS
            if isinstance(b, Binding) and (self.check_action(b.action.split("(")[0], ()) is not False
                                           or (b.action == "deal" and rules.has_stock and self.replay is None))
            and not (b.action.startswith("column(") and int(b.key) > rules.columns)
        ]
        self.push_screen(HelpScreen(bindings, self.game.rules))

    def on_key(self, event: events.Key) -> None:
        """d and w where the variant has no stock or waste, and d once the stock is empty: their bindings are
        left out (the key bar and the help do not offer them), so the key reaches here; say why nothing happens
        rather than nothing. So too for the keys a player may try that are bound to nothing: 0 beside the column
        digits, z (and ctrl+z, the web table's undo) for undo; and while replaying, for the keys that would
        change the game (a click there says the same)."""
        rules = self.game.rules
        if self.screen is not self.screen_stack[0]:
            return
        if self.replay is not None:
            actions = {b.action.split("(")[0] for b in self.BINDINGS
                       if isinstance(b, Binding) and event.key in b.key.split(",")}
            if actions and not actions & self.REPLAY_ACTIONS:
                self.set_status(REPLAYING, "error")
                event.stop()
            return
        if event.key == "0":
            self.set_status(f"There is no column 0: the columns are 1 to {rules.columns}", "error")
            event.stop()
            return
        if event.key in ("z", "ctrl+z"):
            self.set_status(f"{event.key} is no key here: u (or backspace) takes back the last move, "
                            "r plays it again", "error")
            event.stop()
            return
        if event.key == "d" and rules.has_stock and not self._can_deal():
            self.demo.intercept("deal")  # (as run_action does: a key that plays stops the computer's game)
            self.action_deal()  # (its own word on an empty stock)
            event.stop()
        elif (event.key == "d" and not rules.has_stock) or (event.key == "w" and not rules.has_waste):
            what = "stock" if event.key == "d" or not rules.has_stock else "waste"
            dealt = " (every card is dealt at the start)" if not rules.has_stock else ""
            self.set_status(f"{rules.title} has no {what}{dealt}", "error")
            event.stop()

    def _can_deal(self) -> bool:
        return self.game.is_legal(STOCK_MOVE)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the stock and waste keys where the variant has none, and while replaying the keys that
        would change the game."""
        if self.replay is not None and action not in self.REPLAY_ACTIONS:
            return False
        if action in ("demo_speed", "demo_stop"):  # shown (and bound) only while the computer plays
            return self.demo.active
        if action == "demo_pause":  # space: Pause while it plays, Play on while paused
            return self.demo.active and not self.demo.paused
        if action in ("demo_resume", "demo_step"):  # (else . is the replay's step, as without the computer)
            return self.demo.active and self.demo.paused
        if action == "demo":  # while it plays, t is "Stop" (the binding above)
            return not self.demo.active
        if action == "deal":  # (with an empty stock d still answers, in on_key: the key bar leaves it out)
            return self._can_deal()
        if action == "waste":
            return self.game.rules.has_waste
        return True

    async def run_action(self, action: Any, default_namespace: Any = None, namespaces: Any = None) -> bool:
        """Every key's action: while the computer plays, one that plays stops it first (the player takes over)."""
        if default_namespace in (None, self) and isinstance(action, str) and self.demo.intercept(action.split("(")[0]):
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def action_demo(self) -> None:
        if self.demo.active:
            self.demo.stop("Stopped: play on from here")
        else:
            self.demo.start()

    def action_demo_stop(self) -> None:
        if self.demo.active:
            self.demo.stop("Stopped: play on from here")

    def action_demo_pause(self) -> None:
        self.demo.toggle_pause()

    def action_demo_resume(self) -> None:
        self.demo.toggle_pause()

    def action_demo_step(self) -> None:
        self.demo.step()

    def action_demo_speed(self, step: int) -> None:
        self.demo.change_speed(step)


__all__ = ["KeyActions"]
