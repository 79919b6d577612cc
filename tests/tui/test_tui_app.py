"""The terminal game driven through Textual's Pilot: keys, clicks, undo/redo, a win, statistics."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static
from tui_helpers import NEARLY_WON, ONE_FROM_LOST, FakeClock

from yukon import Game
from yukon.store import Store
from yukon.tui.app import YukonApp
from yukon.tui.screens import ConfirmScreen, GameOverScreen, HelpScreen, StatsScreen
from yukon.tui.session import CLIENT
from yukon.tui.widgets import ColumnView, PileView

Scenario = Callable[[Pilot[None], YukonApp], Awaitable[None]]


def run(app: YukonApp, scenario: Scenario, size: tuple[int, int] = (80, 24)) -> None:
    """Run ``scenario`` against ``app`` in a headless terminal."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(main())


def make_app(store: Store | None, game: Game | None = None, **kwargs: object) -> YukonApp:
    return YukonApp(store, game, clock=FakeClock(), tick=False, new_seed=lambda: 99, **kwargs)  # type: ignore[arg-type]


def moves(app: YukonApp) -> list[str]:
    return [str(m) for m in app.game.move_stack]


async def click_card(pilot: Pilot[None], app: YukonApp, column: int, index: int | None = None) -> None:
    """Click card ``index`` of ``column`` (both from 0; None: the free card)."""
    widget = app.query_one(f"#col-{column + 1}", ColumnView)
    down, up = app.game.columns[column]
    if index is None:
        index = max(0, len(down) + len(up) - 1)
    await pilot.click(widget, offset=(widget.size.width // 2, widget.row_of(index)))
    await pilot.pause()


def test_keyboard_moves_undo_redo(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        # 8♦ (free card of column 6) onto 9♣ in column 5: go to column 6, pick, put on 5
        await pilot.press("6", "enter", "5")
        assert moves(app) == ["6:8D>5"]
        # A♠ with 7♦ on it, from column 2 onto 2♦ in column 1, with the cursor keys
        await pilot.press("2", "up", "enter", "left", "space")
        assert moves(app) == ["6:8D>5", "2:AS+1>1"]
        # the free card under the cursor to its foundation
        await pilot.press("4", "f")
        assert moves(app) == ["6:8D>5", "2:AS+1>1", "4:AH>F"]
        await pilot.press("u", "u")
        assert moves(app) == ["6:8D>5"]
        # each says which move (it said "Undone; 1 move played")
        assert app.status_text == "Undone: A♠ and 1 card on it from column 2 to column 1; 1 move played"
        await pilot.press("r")
        assert moves(app) == ["6:8D>5", "2:AS+1>1"]
        assert app.status_text == "Redone: A♠ and 1 card on it from column 2 to column 1; 2 moves played"
        assert "2 moves" in str(app.query_one("#info").render())
        await pilot.press("R")  # restart: back to the deal, and r redoes
        assert moves(app) == [] and app.game == Game.deal("yukon", seed=42)
        await pilot.press("r", "r")
        assert moves(app) == ["6:8D>5", "2:AS+1>1"]

    run(make_app(store, Game.deal("yukon", seed=42), autoplay=False), scenario)


def test_undo_names_the_move_and_counts_the_automatic_plays_after_it(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("3", "enter", "1")  # 4♦ onto the 5♣: the A♦ it frees goes up by itself
        played = moves(app)
        assert played[0] == "3:4D>1" and len(played) > 1
        await pilot.press("u")
        assert moves(app) == []
        autos = len(played) - 1
        assert app.status_text == (f"Undone: 4♦ from column 3 to column 1 and {autos} automatic "
                                    f"move{'s' if autos > 1 else ''}; 0 moves played")

    run(make_app(store, Game.deal("yukon", seed=1), autoplay=True), scenario)


def test_mouse_moves(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await click_card(pilot, app, 1, 4)  # A♠ of column 2 (the 7♦ on it travels along)
        assert app.state.pick is not None and app.state.pick.count == 2
        assert 0 in app.state.targets
        await click_card(pilot, app, 0)  # onto 2♦
        assert moves(app) == ["2:AS+1>1"]
        await click_card(pilot, app, 3)  # A♥, then its foundation pile
        await pilot.click("#found-1")
        await pilot.pause()
        assert moves(app)[-1] == "4:AH>F"
        await click_card(pilot, app, 5)  # 8♦: clicking it again puts it back
        await click_card(pilot, app, 5)
        assert app.state.pick is None
        await click_card(pilot, app, 5)
        await pilot.click("#col-5", offset=(5, 17))  # below column 5's cards: still column 5
        await pilot.pause()
        assert moves(app)[-1] == "6:8D>5"

    run(make_app(store, Game.deal("yukon", seed=42), autoplay=False), scenario)


def test_illegal_moves_explain_and_change_nothing(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        before = app.game.to_dict()
        await pilot.press("4", "up", "up", "up", "enter", "6")  # 5♦ with 3 cards onto 8♦: no
        assert "5♦ needs a black 6 (6♠ or 6♣); 8♦ is not one" in app.status_text  # the session's words (as the web's)
        await pilot.press("escape")
        await click_card(pilot, app, 6, 0)  # a face-down card
        assert "face down" in app.status_text
        await pilot.press("3", "f")  # a free card that does not go up
        assert "cannot go up yet" in app.status_text
        await pilot.press("2", "up", "f")  # a covered card
        assert "Only a free card goes to a foundation" in app.status_text
        await pilot.press("d", "w", "9")  # no stock, no waste, no column 9
        assert "no column 9" in app.status_text
        await pilot.press("u", "r", "e")
        assert "Auto-finish needs" in app.status_text
        assert app.game.to_dict() == before and moves(app) == []
        assert app.query_one("#status").has_class("error")

    run(make_app(store, Game.deal("yukon", seed=42), autoplay=False), scenario)


def test_keys_bound_to_nothing_that_a_player_tries_say_so(store: Store) -> None:
    # 0 (beside the column digits) and z (the undo of many games; ctrl+z the web table's) did nothing, silently
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        before = app.game.to_dict()
        await pilot.press("0")
        assert app.status_text == "There is no column 0: the columns are 1 to 7"
        assert app.query_one("#status").has_class("error")
        await pilot.press("6", "enter", "0")  # a picked card stays picked, as after 9
        assert app.status_text == "There is no column 0: the columns are 1 to 7" and app.state.pick is not None
        await pilot.press("5")
        assert moves(app) == ["6:8D>5"]
        for key in ("z", "ctrl+z"):
            await pilot.press(key)
            assert app.status_text == (f"{key} is no key here: u (or backspace) takes back the last move, "
                                       "r plays it again")
            assert moves(app) == ["6:8D>5"]
        await pilot.press("question_mark", "0")  # (over a box, the box has the keys)
        assert isinstance(app.screen, HelpScreen) and app.status_text.startswith("ctrl+z is no key here")
        assert app.game.to_dict() != before

    run(make_app(store, Game.deal("yukon", seed=42), autoplay=False), scenario)


def test_win_announcement_and_statistics(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("1", "f")  # K♥ up; auto-play sends Q♣, K♣ and K♦ after it
        await pilot.pause()
        assert app.game.is_won()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("s")  # statistics, from the announcement
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        table = app.screen.query_one(DataTable)
        row = [str(c) for c in table.get_row_at(0)]
        assert row[:5] == ["Yukon", "kings", "1", "1", "100%"]  # (the win rate said "100", the narrow form "100%")
        assert row[5:] == ["1", "1", "0:00", "4"]
        await pilot.press("escape")
        assert not isinstance(app.screen, StatsScreen)

    run(make_app(store, Game.from_text(NEARLY_WON)), scenario)
    [stats] = store.stats()
    assert (stats.played, stats.won, stats.fewest_moves) == (1, 1, 4)


def test_the_win_box_says_the_streak_best_time_and_games_won(store: Store) -> None:
    # The web's won box has a statistics line; the terminal's had none.
    lines = []

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("1", "f")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        lines.append(str(app.screen.query_one("#stats-line", Static).render()))

    run(make_app(store, Game.from_text(NEARLY_WON)), scenario)
    run(make_app(store, Game.from_text(NEARLY_WON)), scenario)
    assert lines == ["Streak 1 · best streak 1 · best time 0:00 · won 1 of 1",
                     "Streak 2 · best streak 2 · best time 0:00 (a new best!) · won 2 of 2"]

    async def without_store(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("1", "f")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and not app.screen.query("#stats-line")

    run(make_app(None, Game.from_text(NEARLY_WON)), without_store)


def test_a_won_game_undone_still_says_it_was_won(store: Store) -> None:
    # A new player undid a won game from the win box: the top line read "3 moves · 49/52 up" as if the game went
    # on, while the statistics counted it won. The terminal keeps letting a win be undone, and says it stays won.
    def top(app: YukonApp) -> str:
        return str(app.query_one("#info").render())

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert "won" not in top(app)
        await pilot.press("1", "f")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and top(app).endswith("· won")
        await pilot.press("u")  # the win box's undo
        await pilot.pause()
        assert not app.game.is_won() and app.session.result == "won"
        assert top(app).endswith("· won (undone)"), top(app)
        assert app.status_text.endswith("; 0 moves played; the win stays counted"), app.status_text
        await pilot.press("c")  # with the still-winnable indicator too, both are said
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert top(app).endswith("· won (undone) · winnable ✓"), top(app)
        await pilot.press("r")
        await pilot.pause()
        assert app.game.is_won() and "won (undone)" not in top(app)

    run(make_app(store, Game.from_text(NEARLY_WON)), scenario)
    assert [(r.played, r.won) for r in store.stats()] == [(1, 1)]


#: Two moves: Q♠ onto K♥ shows J♠, and every card follows it up (a win); K♥ up instead leaves Q♠ on the face-down
#: J♠ with nowhere to go (a dead end).
WON_OR_DEAD = "yukon,kings,noreturn -/KS/-/-/KH/JS.QS/- TS/QH/KD/KC"


def test_a_won_game_undone_and_played_into_a_dead_end_stays_won(store: Store) -> None:
    # A won game, undone and played on into a dead end, opened the lost box ("the game is lost") while the
    # statistics kept it won. The web table takes no move after a win ("It was won"); here the win stays too.
    def top(app: YukonApp) -> str:
        return str(app.query_one("#info").render())

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("6", "enter", "5")  # Q♠ onto K♥: J♠ shows, and every card goes up by itself
        await pilot.pause()
        assert app.game.is_won() and isinstance(app.screen, GameOverScreen)
        await pilot.press("u")  # the win box's undo
        await pilot.pause()
        assert app.session.result == "won" and not app.game.is_won()
        await pilot.press("5", "f")  # K♥ up instead: Q♠ stays on the face-down J♠, and no move is left
        await pilot.pause()
        assert app.game.is_lost() and app.session.result == "won"
        assert not isinstance(app.screen, GameOverScreen), "a won game opened the lost box"
        assert top(app).endswith("· won (undone)"), top(app)
        assert "lost" not in app.status_text and "dead end" in app.status_text, app.status_text
        assert "the game was won" in app.status_text, app.status_text

    run(make_app(store, Game.from_text(WON_OR_DEAD)), scenario)
    assert [(r.played, r.won) for r in store.stats()] == [(1, 1)]


def test_auto_play_off_then_auto_finish(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("a")  # auto-play off
        assert not app.session.autoplay
        await pilot.press("1", "f")
        assert app.game.cards_on_foundations == 49 and not app.game.is_won()
        await pilot.press("e")
        await pilot.pause()
        assert app.game.is_won() and isinstance(app.screen, GameOverScreen)
        # a won game has no losing move: its box offers no analysis, and W leaves it open
        assert "where did it go wrong" not in " ".join(str(s.render()) for s in app.screen.query(Static))
        await pilot.press("W")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")  # new game from the announcement
        await pilot.pause()
        assert app.game.move_stack == [] and not app.game.is_won()

    run(make_app(store, Game.from_text(NEARLY_WON)), scenario)


def test_lost_announcement_then_undo(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "f")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "lost" in app.status_text
        await pilot.press("u")
        await pilot.pause()
        assert moves(app) == [] and not isinstance(app.screen, GameOverScreen)
        await pilot.press("r")  # the dead end again; then leave it for a new game: no question asked
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, (GameOverScreen, ConfirmScreen)) and app.game.move_stack == []

    run(make_app(store, Game.from_text(ONE_FROM_LOST), autoplay=False), scenario)
    assert [(r.played, r.won) for r in store.stats()] == [(1, 0)]


def test_unfinished_game_resumes(store: Store) -> None:
    async def first(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "enter", "3")  # 6♣ onto 5♣ (Alaska builds up or down in suit)

    run(make_app(store, Game.deal("alaska", seed=9), autoplay=False), first)
    record = store.latest_unfinished(CLIENT)
    assert record is not None and record.variant == "alaska" and len(record.moves) == 1

    async def second(pilot: Pilot[None], app: YukonApp) -> None:
        assert app.resumed and app.game.rules.variant == "alaska" and app.game.seed == 9
        assert len(app.game.move_stack) == 1 and "Welcome back" in app.status_text

    run(make_app(store), second)


def test_new_game_asks_and_abandons(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("6", "enter", "5", "n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # no: keep playing
        assert moves(app) == ["6:8D>5"]
        await pilot.press("g")
        await pilot.pause()
        app.screen.query_one(Input).value = "7"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.game == Game.deal("yukon", seed=7) and app.game.seed == 7

    run(make_app(store, Game.deal("yukon", seed=42), autoplay=False), scenario)
    [row] = store.stats()
    assert (row.played, row.won) == (1, 0)


def test_variant_change_rebuilds_the_table(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v", "down", "down", "down", "enter")  # Australian Patience
        await pilot.pause()
        await pilot.pause()
        assert app.game.rules.variant == "australian" and app.game.seed == 99
        assert len(app.query(ColumnView)) == 7 and app.query_one("#waste", PileView)
        await pilot.press("d")  # one card from the stock to the waste
        assert moves(app)[0] == "deal" and len(app.game.waste) == 1
        await pilot.press("w")
        assert app.state.pick is not None and app.state.pick.src == 17

    run(make_app(store, Game.deal("yukon", seed=42)), scenario)


def test_a_variant_chosen_through_the_leave_question_gets_its_own_table(store: Store) -> None:
    """Milligan Yukon with a move played, then Yukon from the new-game dialog and "leave this game?": the
    table was rebuilt on the question's screen, so the eight columns stayed, and the next key crashed
    (IndexError in ColumnView col-8)."""
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("d")
        assert moves(app) == ["deal"]
        await pilot.press("v", "up", "up", "up", "up", "d", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert app.game.rules.variant == "yukon"
        assert len(app.query(ColumnView)) == 7 and len(app.query(PileView)) == 4
        assert [v.column for v in app.query(ColumnView)] == list(range(7))
        await pilot.press("right", "h")
        await pilot.pause()
        assert app.is_running and "deal 341" not in str(app.query_one("#info", Static).render())

    run(make_app(store, Game.deal("milligan-yukon", seed=341)), scenario, size=(120, 40))


def test_milligan_deals_rows_and_scrolls(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert len(app.query(ColumnView)) == 8 and len(app.query(PileView)) == 9
        await pilot.click("#stock")
        await pilot.pause()
        for _ in range(8):  # 68 cards, 8 a row: 9 deals in all
            await pilot.press("d")
        assert app.game.stock == [] and "the stock is empty" in app.status_text
        # the columns are now taller than the terminal: face-down cards are compacted
        assert app.state.compact

    run(make_app(store, Game.deal("milligan-yukon", seed=4)), scenario, size=(80, 20))


def footer_keys(app: YukonApp) -> list[str]:
    """The keys the key bar shows, as "key Label"."""
    from textual.widgets._footer import FooterKey

    return [f"{k.key_display} {k.description}" for k in app.query(FooterKey) if k.display]


def test_the_key_bar_shows_d_while_the_stock_can_deal(store: Store) -> None:
    # d was in no key bar: a stock variant's one key of its own was only in the help (and the first status line)
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert "d Deal" in footer_keys(app)
        for _ in range(9):  # 68 cards, 8 a deal (the ninth: the last 4)
            await pilot.press("d")
        await pilot.pause()
        assert app.game.stock == [] and "d Deal" not in footer_keys(app)
        assert "u Undo" in footer_keys(app)
        await pilot.press("d")  # still a word for it: the stock is empty
        assert app.status_text == "The stock is empty." and app.query_one("#status").has_class("error")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Deal from the stock" in " ".join(label for _, label in app.screen.rows())  # (the key is the game's)
        await pilot.press("escape", "u")
        await pilot.pause()
        assert app.game.stock and "d Deal" in footer_keys(app)

    run(make_app(store, Game.deal("milligan-yukon", seed=4), autoplay=False), scenario, size=(100, 40))


def test_no_d_in_the_key_bar_without_a_stock(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert "d Deal" not in footer_keys(app) and "u Undo" in footer_keys(app)

    run(make_app(store, Game.deal("yukon", seed=42)), scenario, size=(100, 40))


@pytest.mark.parametrize("variant, says", [("australian", True), ("milligan-yukon", True), ("yukon", False)])
def test_a_new_game_of_a_stock_variant_says_d_deals(store: Store, variant: str, says: bool) -> None:
    # the first game's status line said "d: deal", a new game's ("Deal 99 of ... Good luck!") did not
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert ("d: deal" in app.status_text) == says, app.status_text
        await pilot.press("n")
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert app.game.seed == 99 and app.status_text.startswith("Deal 99 of ")
        assert ("d: deal" in app.status_text) == says, app.status_text

    run(make_app(store, Game.deal(variant, seed=42), autoplay=False), scenario)


def test_choosing_a_stock_variant_says_d_deals(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v", "down", "down", "down", "enter")  # Australian Patience: a new table
        await pilot.pause()
        await pilot.pause()
        assert app.game.rules.variant == "australian"
        assert app.status_text.startswith("Deal 99 of Australian Patience") and "d: deal" in app.status_text
        assert "d Deal" in footer_keys(app)

    run(make_app(store, Game.deal("yukon", seed=42)), scenario)


def test_hint_is_shown_on_the_table(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hint = app.state.hint
        assert hint is not None and hint in app.game.legal_moves()
        assert app.status_text.startswith("Hint (no peeking): ")  # honest by default, and it says so
        await pilot.press("escape")
        assert app.state.hint is None

    run(make_app(store, Game.deal("yukon", seed=42), hint_time=0.3), scenario)


def test_winnable_indicator(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "winnable ✓" in str(app.query_one("#info").render())

    run(make_app(store, Game.from_text(NEARLY_WON), winnable_time=2.0), scenario)


def test_help_lists_the_bindings(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(f"{keys} {label}" for keys, label in app.screen.rows())
        for b in ("Take back the last move", "Show a good move", "Statistics"):
            assert b in text
        assert "Deal from the stock" not in text  # Yukon has no stock
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)

    run(make_app(store, Game.deal("yukon", seed=42)), scenario)


@pytest.mark.parametrize("variant", ["yukon", "australian", "milligan-yukon"])
def test_random_keys_and_clicks_never_crash(store: Store, variant: str) -> None:
    """Any key of the bindings (but quit) and clicks anywhere, in any order: the app keeps running."""
    rng = random.Random(f"tui-{variant}")
    keys = [
        "left", "right", "up", "down", "enter", "space", "escape", "1", "2", "3", "5", "7", "8", "9",
        "f", "d", "w", "u", "r", "a", "e", "n", "y", "R", "g", "s", "question_mark", "backspace", "0",
    ]

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        for _ in range(50):
            if rng.random() < 0.3:
                await pilot.click(offset=(rng.randrange(80), rng.randrange(24)))
            else:
                await pilot.press(rng.choice(keys))
        await pilot.pause()
        assert app.is_running
        # whatever happened, the position on the table is the start replayed with the moves made
        replay = app.session.start.copy()
        for m in app.game.move_stack:
            replay.push(m)
        assert replay == app.game

    run(make_app(store, Game.deal(variant, seed=11)), scenario)


def test_foundation_return_by_click_and_key(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "f")
        assert moves(app) == ["5:AS>F"]
        await pilot.click("#found-1")  # pick A♠ back up from its foundation...
        await pilot.pause()
        assert app.state.pick is not None and 3 in app.state.targets
        await pilot.press("4")  # ...and put it on the red 2 of column 4
        assert moves(app) == ["5:AS>F", "F:AS>4"]

    run(make_app(store, Game.deal("yukon", seed=6, foundation_return=True), autoplay=False), scenario)


def test_no_foundation_return_explains(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "f")
        await pilot.click("#found-1")
        await pilot.pause()
        assert app.state.pick is None and "do not come back" in app.status_text

    run(make_app(store, Game.deal("yukon", seed=6), autoplay=False), scenario)


def test_smart_move_by_key_and_double_click(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "up", "m")  # A♠ and 7♦: the only place is 2♦ in column 1
        assert moves(app) == ["2:AS+1>1"]
        widget = app.query_one("#col-4", ColumnView)
        await pilot.click(widget, offset=(5, widget.row_of(7)), times=2)  # A♥: up
        await pilot.pause()
        assert moves(app)[-1] == "4:AH>F"
        widget = app.query_one("#col-6", ColumnView)
        await pilot.click(widget, offset=(5, widget.row_of(9)), times=2)  # 8♦: onto 9♣
        await pilot.pause()
        assert moves(app)[-1] == "6:8D>5"
        await pilot.press("3", "m")  # J♦ fits nowhere
        assert "fits nowhere" in app.status_text and len(moves(app)) == 3

    run(make_app(store, Game.deal("yukon", seed=42), autoplay=False), scenario)


def test_the_top_line_shows_a_grade_only_once_it_spoils_nothing() -> None:
    """Beside the deal number, as in the web table, the deal's grade (docs/difficulty.md); but a grade says the
    deal can be won: none on a deal dealt by number until the game is over, none ever on a deal proven lost
    nor on a PySolFC deal of the same number (another deal); at once on a deal dealt as winnable."""
    from yukon import deal_data

    hard = next(v for v in deal_data.verdicts("yukon", "kings", False, status="won", difficulty="hard") if v.line)
    lost = deal_data.verdicts("yukon", "kings", False, status="lost")[0].seed
    for game, shown in ((Game.deal("yukon", seed=hard.seed), f"deal {hard.seed} · "),
                        (Game.deal("yukon", seed=lost), f"deal {lost} · "),
                        (Game.deal("yukon", seed=hard.seed, numbering="pysolfc"), f"deal {hard.seed} · ")):

        async def scenario(pilot: Pilot[None], app: YukonApp, shown: str = shown) -> None:
            assert shown in str(app.query_one("#info").render())
            assert "(hard)" not in str(app.query_one("#info").render())

        run(make_app(None, game, autoplay=False), scenario, size=(100, 24))

    async def played_out(pilot: Pilot[None], app: YukonApp) -> None:
        assert f"deal {hard.seed} · " in str(app.query_one("#info").render())
        app.session.play_line(hard.moves(), autoplay=False)  # the winning line: the game is over
        app.refresh_table()
        await pilot.pause()
        assert app.session.status == "won" and f"deal {hard.seed} (hard) · " in str(app.query_one("#info").render())
        app.start_game(Game.deal("yukon", seed=hard.seed), proved_winnable=True)  # as the new-game screen deals it
        await pilot.pause()
        assert app.game.move_stack == [] and f"deal {hard.seed} (hard) · " in str(app.query_one("#info").render())

    run(make_app(None, Game.deal("yukon", seed=hard.seed), autoplay=False), played_out, size=(100, 24))


def readme_terminal_keys() -> set[str]:
    """The keys the README's "Play in the terminal" paragraph names (`h`, `,`/`.`, `esc`), as Textual names them."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text.split("## Play in the terminal", 1)[1].split("\n## ", 1)[0]
    prose = re.sub(r"```.*?```", "", section, flags=re.S)  # (the commands' options are no keys)
    names = {",": "comma", ".": "full_stop", "+": "plus", "-": "minus", "?": "question_mark", "esc": "escape"}
    keys = set()
    for quoted in re.findall(r"`([^`]+)`", prose):
        for key in quoted.split("/") if quoted != "/" else [quoted]:
            if len(key) == 1 or key in names:
                keys.add(names.get(key, key))
    return keys


def test_the_readme_names_the_terminal_keys_as_they_are() -> None:
    # the README said h showed "the solver's hint" (the honest one is the default, k switches) and named no d
    bound = {k for b in YukonApp.BINDINGS if isinstance(b, Binding) for k in b.key.split(",")}
    named = readme_terminal_keys()
    assert named - bound == set(), "keys the README names that the game does not bind"
    shown = {b.key.split(",")[0] for b in YukonApp.BINDINGS if isinstance(b, Binding) and b.show}
    assert shown - named - {"space"} == set(), "keys of the key bar the README does not name"  # (space: in words)
    for key in ("d", "k", "W", "b", "R", "x", "m", "g"):
        assert key in named, key


def test_an_ace_dealt_face_up_goes_up_with_the_deal_as_on_the_web_table(store: Store) -> None:
    # The web table played it up at the deal and counted it (Moves 1, Undo took it back); the terminal left it
    # until the first move. Both follow the session now: the deal's automatic plays belong to the deal.
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert moves(app) == ["4:AH>F"] and app.game.cards_on_foundations == 1
        assert " 0 moves " in str(app.query_one("#info").render())
        await pilot.press("u")
        assert app.status_text == "Nothing to undo" and moves(app) == ["4:AH>F"]
        await pilot.press("6", "enter", "5")  # 8♦ onto 9♣: the player's first move
        assert moves(app) == ["4:AH>F", "6:8D>5"] and " 1 move " in str(app.query_one("#info").render())
        await pilot.press("comma")  # the replay counts as the table does, and starts where the game did
        assert app.status_text.startswith("Replay: move 0/1"), app.status_text
        assert " 0 moves " in str(app.query_one("#info").render())  # (the top line counts as the replay does)
        await pilot.press("comma")
        assert app.status_text == "The start of the game" and app.game.cards_on_foundations == 1
        await pilot.press("escape")
        await pilot.press("R")
        await pilot.pause()
        assert moves(app) == ["4:AH>F"]

    run(make_app(store, Game.deal("yukon", seed=42)), scenario)
