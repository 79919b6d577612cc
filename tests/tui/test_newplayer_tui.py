"""What a new player met at the terminal: at 80 columns the status line cut off the end of a hint ("... it
sees the face-down cards   p: play it") and of the computer's move in the demo ("space: pause  esc: stop").
The status line now takes a second line when the message needs it, and the columns do not fold or move when
it does (the table is laid out as if the status line always took its two lines). And q while the computer
played ended the game with a traceback (the demo redrew its keys after the last screen had gone)."""

from __future__ import annotations

import re

import pytest
from test_tui_app import make_app, run
from test_tui_demo import ENDLESS, demo_app
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import wait_for

import yukon
from yukon import Game
from yukon.cards import ACE, KING, PRETTY, RANK, RANK_NAMES
from yukon.store import Store
from yukon.tui.app import STATUS_LINES, YukonApp
from yukon.tui.widgets import ColumnView

LONG = ("The computer: 2♥ from column 2 to its foundation (wins in 21 of 24 guesses at the face-down "
        "cards, 3 undecided)   space: pause  esc: stop")


def status_lines(app: YukonApp) -> list[str]:
    """The status line as the terminal shows it, line by line."""
    status = app.query_one("#status", Static)
    size = status.outer_size  # (its padding included)
    return [strip.text.strip() for strip in status.render_lines(Region(0, 0, size.width, size.height))]


def columns_drawn(app: YukonApp) -> list[tuple[int, int, list[str]]]:
    """Where each column is and what its cards look like, row by row (the rows under the cards aside: a
    column widget reaches down to the status line, whatever its cards take)."""
    drawn = []
    for column in app.query(ColumnView):
        rows = 1 + len(column.rows())
        lines = column.render_lines(Region(0, 0, column.outer_size.width, rows))
        drawn.append((column.region.x, column.region.y, [strip.text for strip in lines]))
    return drawn


def test_a_solver_hint_is_shown_to_its_end_at_80_columns() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert len(status_lines(app)) == 1  # a short message keeps one line
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.status_text.startswith("Solver hint: ") and app.status_text.endswith("p: play it")
        shown = status_lines(app)
        assert len(shown) == 2, shown
        assert " ".join(shown).split() == app.status_text.split()  # every word of it, none cut off
        assert shown[-1].endswith("p: play it")

    run(make_app(None, Game.deal("yukon", seed=802), hint_time=10.0, hint_kind="solver"), scenario, (80, 24))


def test_a_long_message_does_not_fold_or_move_the_columns() -> None:
    # Milligan Yukon after its nine deals: a column of 16 cards. At 80x22 it fitted a one-line status line
    # exactly, so a second line would fold every column's face-down cards (and move the cards)
    # (the nine deals by d's action itself, then one redraw: what is checked is the layout after them, and a
    # key press each redraws the table nine times at each height; d the key is the Milligan tests' own)
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        for _ in range(9):
            app.action_deal()
        assert app.game.stock == []
        await pilot.pause()
        await pilot.pause()
        compact, places = app.state.compact, columns_drawn(app)
        tableau = app.query_one("#tableau")
        app.set_status(LONG)
        await pilot.pause()
        await pilot.pause()
        assert len(status_lines(app)) == STATUS_LINES
        assert app.state.compact == compact and columns_drawn(app) == places
        assert tableau.max_scroll_y == 0  # every card still in sight
        app.set_status("Moved.")
        await pilot.pause()
        await pilot.pause()
        assert len(status_lines(app)) == 1
        assert app.state.compact == compact and columns_drawn(app) == places

    for height in (22, 23, 24):
        run(make_app(None, Game.deal("milligan-yukon", seed=5)), scenario, (80, height))


def test_the_demo_says_its_keys_at_80_columns() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        app.set_status(LONG)
        await pilot.pause()
        shown = status_lines(app)
        assert len(shown) == 2 and shown[-1].endswith("esc: stop"), shown

    run(make_app(None, Game.deal("yukon", seed=802)), scenario, (80, 24))


def test_q_while_the_computer_plays_quits_cleanly_and_saves_the_game(store: Store) -> None:
    app = demo_app(store, Game.deal("yukon", seed=802))

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await wait_for(pilot, lambda: app.demo.moves >= 1)  # a move of the computer's is on the table
        app.demo.budget = ENDLESS  # (it is thinking when q comes)
        await wait_for(pilot, lambda: app.demo.active and app.demo.thinking)
        await pilot.press("q")
        await pilot.pause()

    run(app, scenario)  # (an exception at exit fails the test here)
    assert app.return_code == 0 and not app.demo.active
    assert store.load_game(app.session.id) is not None


def test_the_longest_messages_are_shown_to_their_end_at_60_columns() -> None:
    # At 60x20 two lines were not enough: a hint lost "p: play it", the computer's move its keys, and a
    # Milligan deal the end of why auto-play leaves its Aces. Below 80 columns the status line takes three.
    milligan = ("Dealt a card onto every column; 44 left in the stock; auto-play leaves A♣ A♥ A♦ A♠ while "
                "the stock lasts (a deal may need it): f plays it up")

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        for message, end in ((LONG, "esc: stop"), (LONG.split("   ")[0] + "   p: play it", "p: play it"),
                             (milligan, "f plays it up")):
            app.set_status(message)
            await pilot.pause()
            shown = status_lines(app)
            assert " ".join(shown).split() == message.split(), shown  # every word of it, none cut off
            assert " ".join(shown).endswith(end)

    run(make_app(None, Game.deal("milligan-yukon", seed=7)), scenario, (60, 20))


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_a_milligan_deal_s_message_ends_where_a_clause_ends(size: tuple[int, int]) -> None:
    # Milligan Yukon deal 995 at 80x24: a deal's message, with why auto-play leaves its Aces (the shared words,
    # 130 characters an Ace), ended in "a deal puts a card on it," and nothing after. The test above set a
    # message of its own, shorter than the game's: the game's own messages are played here.
    from yukon.tui.texts import status_lines_for

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        held = 0
        while app.game.stock:
            await pilot.press("d")
            await pilot.pause()
            shown = status_lines(app)
            assert 1 <= len(shown) <= status_lines_for(size[0]) and all(len(line) <= size[0] - 2 for line in shown)
            text = " ".join(shown)
            if "auto-play" in app.status_text or "automatically" in app.status_text:
                held += 1
                assert text.endswith(("; f plays it up", "; f plays one up")), shown
            else:
                assert text.split() == app.status_text.split(), shown
        assert held  # (the deal's held Aces were said)

    run(make_app(None, Game.deal("milligan-yukon", seed=995)), scenario, size)


def test_a_message_too_long_for_every_form_ends_after_a_whole_clause() -> None:
    from yukon.tui.texts import fit_status

    text = "; ".join(f"clause number {n} of a long message" for n in range(12)) + "   p: play it"
    shown = fit_status([text], 58, 3).split("\n")
    assert len(shown) == 3 and shown[-1].endswith("p: play it")
    body = " ".join(shown)[:-len("p: play it")].rstrip()
    assert body.endswith("of a long message; …"), shown


def test_a_long_message_does_not_move_the_columns_at_60_columns() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        for _ in range(3):
            await pilot.press("d")
        app.set_status("Moved.")
        await pilot.pause()
        await pilot.pause()
        compact, places = app.state.compact, columns_drawn(app)
        app.set_status(LONG)
        await pilot.pause()
        await pilot.pause()
        assert len(status_lines(app)) == 3
        assert app.state.compact == compact and columns_drawn(app) == places

    run(make_app(None, Game.deal("milligan-yukon", seed=7)), scenario, (60, 20))


def test_the_help_says_the_rules_of_the_game_in_play() -> None:
    # Alaska's help said "Build down in the tableau (same suit, up or down)", and no help said what an empty
    # column takes, how the stock deals or whether cards come back from the foundations.
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        said = " ".join(str(app.screen.query_one(f"#help-{part}", Static).render()) for part in ("goal", "mouse"))
        words.append(" ".join(said.split()))
        rows = dict(app.screen.rows())  # type: ignore[attr-defined]
        assert "rule options" in rows["v"]  # (it said "choose the variant, and winnable deals only")

    cases = [
        (Game.deal("alaska", seed=1), ("Build up or down in the same suit", "Only a King (with the cards on it) goes",
                                        "stays there")),
        (Game.deal("yukon", seed=1, empty_column="any", foundation_return=True),
         ("Build down in alternate colours", "Any card (with the cards on it) goes", "may come back")),
        (Game.deal("australian", seed=1), ("Build down in the same suit", "d turns the stock", "w picks up")),
        (Game.deal("milligan-yukon", seed=1), ("d deals a card from the stock onto every column", "may come back")),
    ]
    for game, expected in cases:
        words: list[str] = []
        run(make_app(None, game), scenario, (80, 24))
        assert all(part in words[0] for part in expected), words[0]
        assert "Goal: every card on the foundations." in words[0]
        if game.rules.build_rule.up_too:
            assert "Build down" not in words[0]
        assert ("Click the stock to deal" in words[0]) == game.rules.has_stock


def test_the_new_game_screen_chooses_the_rule_options() -> None:
    # v dealt every variant with its default rules: a game of `--empty-column any` came back as kings only,
    # and the screen had no way to choose an option (the web table's New dialog has them); its keys ended in a
    # bare "esc"; and a lost Milligan deal said "the shipped verdicts have no proven lost deal of milligan-yukon".
    from yukon.tui.dealscreens import NewGameScreen

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        text = " ".join(str(w.render()) for w in screen.query(Static))
        assert "empty column any card, foundation return off" in text and "esc: cancel" in text
        await pilot.press("d", "d", "d", "d")  # Yukon with any card into an empty column: graded up to hard
        assert screen.difficulty == "hard"
        await pilot.press("e")  # kings only: Yukon's expert grade comes in, hard stays
        assert screen.rules.kings_only and screen.difficulty == "hard"
        await pilot.press("e", "enter")
        await pilot.pause()
        assert app.game.rules == Game.deal("yukon", seed=1, empty_column="any").rules
        assert app.session.moves_made == 0 and "hard" in app.status_text

        await pilot.press("v")
        await pilot.pause()
        await pilot.press("end")  # Milligan Yukon: its own defaults (foundation return on)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.rules == yukon.VARIANTS["milligan-yukon"]
        await pilot.press("l")
        shown = str(screen.query_one("#deal-kind", Static).render())
        assert "none known of Milligan Yukon" in shown
        await pilot.press("enter")
        await pilot.pause()
        assert app.status_text.startswith("No deal of Milligan Yukon with these rules is known to be lost")
        assert "shipped" not in app.status_text

        await pilot.press("v")
        await pilot.pause()
        await pilot.press("end", "a", "f", "e", "enter")  # any deal (l chose lost: a chooses any); no return; any card
        await pilot.pause()
        await pilot.pause()
        rules = app.game.rules
        assert (rules.variant, rules.empty_column, rules.foundation_return) == ("milligan-yukon", "any", False)

    run(make_app(None, Game.deal("yukon", seed=1, empty_column="any")), scenario, (60, 20))


def _finished(store: Store, variant: str, options: dict[str, object], result: str, elapsed: float, moves: int,
              numbering: str = "yukon") -> None:
    """A finished game in ``store``, as the sessions write them."""
    import uuid

    extra = {} if numbering == "yukon" else {"numbering": numbering}
    store.create_game(uuid.uuid4().hex, variant, options, 7, {}, "tui", extra, moves=["1:AS>F"] * moves,
                      elapsed=elapsed, result=result)


@pytest.mark.parametrize(("size", "form"), [((60, 20), "narrow"), ((80, 24), "narrow"), ((120, 40), "wide")])
def test_every_figure_of_the_statistics_is_seen_without_scrolling_sideways(
    store: Store, size: tuple[int, int], form: str,
) -> None:
    # At 60 columns the table ended in "Tim" and took ten presses of → to show the best time and moves (at
    # 80, with PySolFC's deals, it ended at "Best"): where the nine columns do not fit, each row takes two
    # lines (three with long rules) in four columns, and every figure is in view.
    from textual.widgets import DataTable

    from yukon.tui.screens import StatsScreen

    _finished(store, "yukon", {"empty_column": "any", "foundation_return": True}, "won", 4000.0, 123, "pysolfc")
    _finished(store, "milligan-yukon", {}, "lost", 30.0, 9)
    _finished(store, "australian", {}, "won", 65.0, 88)
    figures = {"1:06:40", "123", "1:05", "88", "PySolFC"}

    async def look(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("s")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        [table] = [t for t in screen.query(DataTable) if t.display]
        assert table.id == ("stats" if form == "wide" else "stats-narrow")
        assert table.max_scroll_x == 0 and table.region.right <= size[0], (table.max_scroll_x, table.region)
        assert table.max_scroll_y == 0  # three rows: all of them in view too
        shown = " ".join(str(cell) for r in range(table.row_count) for cell in table.get_row_at(r))
        for figure in figures:
            assert figure in shown, (figure, shown)
        # the win rates, in both forms a percentage (the wide form's Win % column said a bare "0" and "100")
        column = 4 if form == "wide" else 1  # (Win %; in the narrow form the rate is under the games won)
        rates = sorted(str(table.get_row_at(r)[column]).split("\n")[-1] for r in range(table.row_count))
        assert rates == ["0%", "100%", "100%"], rates
        keys = str(screen.query_one("#stats-keys", Static).render())
        assert "←" not in keys and "↑" not in keys, keys

    run(make_app(store, Game.deal("yukon", seed=1)), look, size)


def test_the_statistics_follow_a_resize_and_say_how_to_see_more_rows(store: Store) -> None:
    from textual.widgets import DataTable

    for variant in ("yukon", "russian", "alaska", "australian", "milligan-yukon"):
        for numbering in ("yukon", "pysolfc"):
            _finished(store, variant, {}, "won", 100.0, 90, numbering)

    async def look(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("s")
        await pilot.pause()
        await pilot.pause()
        keys = app.screen.query_one("#stats-keys", Static)
        assert app.screen.query_one("#stats-narrow", DataTable).display
        assert str(keys.render()).startswith("↑ ↓: the other rows"), keys.render()  # ten rows do not fit 20 lines
        await pilot.resize_terminal(140, 40)
        await pilot.pause()
        await pilot.pause()
        wide = app.screen.query_one("#stats", DataTable)
        assert wide.display and wide.max_scroll_x == 0 and wide.max_scroll_y == 0
        assert str(keys.render()) == "esc: close   q: quit"

    run(make_app(store, Game.deal("yukon", seed=1)), look, (60, 20))


def test_a_picked_card_with_cards_on_it_is_told_as_moves_are() -> None:
    # "Picked A♠ with 1 card" read as if another card came from somewhere; moves say "A♠ and 1 card on it"
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "up", "enter")  # A♠ under 7♦ in column 2
        await pilot.pause()
        assert app.status_text.startswith("Picked A♠ and 1 card on it; it fits on column 1"), app.status_text
        await pilot.press("escape", "4", "up", "up", "enter")
        assert app.status_text.startswith("Picked 4♥ and 2 cards on it;"), app.status_text

    run(make_app(None, Game.deal("yukon", seed=42), autoplay=False), scenario, (80, 24))


def test_a_hint_played_says_its_kind() -> None:
    # p alone finds a hint and plays it: "Hint played: ..." did not say whether the solver had peeked
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("p")
        await wait_for(pilot, lambda: app.session.moves_made)  # (deal 42's Ace went up with the deal)
        assert app.status_text.startswith("Hint played (no peeking): "), app.status_text
        await pilot.press("k", "h")
        await wait_for(pilot, lambda: app.state.hint is not None)
        await pilot.press("p")
        await pilot.pause()
        assert app.session.moves_made >= 2 and app.status_text.startswith("Solver hint played: "), app.status_text

    run(make_app(None, Game.deal("yukon", seed=42), hint_time=10.0), scenario, (80, 24))


def test_k_says_which_hints_come_from_now_on() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("k")
        assert app.status_text == "Hints from now on: the solver's: it sees the face-down cards (k switches back)"
        await pilot.press("k")
        assert app.status_text == ("Hints from now on: no peeking: the honest player sees only what you see "
                                   "(k switches back)")

    run(make_app(None, Game.deal("yukon", seed=42)), scenario, (80, 24))


def test_the_shipped_verdicts_are_read_beside_the_table_not_when_the_game_ends(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # The top line's grade, shown once the game is over, read the verdicts file on the table's thread the first
    # time: the table froze for a third of a second (more on a slow machine) as the game was won or given up.
    import threading

    from yukon import deal_data

    on_the_table: list[bool] = []
    read = deal_data.load

    def reading(path: object = None) -> object:
        on_the_table.append(threading.current_thread() is threading.main_thread())
        return read(path)  # type: ignore[arg-type]

    deal_data._index.cache_clear()
    read.cache_clear()
    monkeypatch.setattr(deal_data, "load", reading)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        reader = app.data_reader
        assert reader is not None
        await wait_for(pilot, lambda: not reader.is_alive())
        await pilot.press("4", "f")  # A♥ up
        await pilot.press("W", "y")  # given up: the game is over, and its grade shows
        await wait_for(pilot, lambda: app.analysis is not None)
        assert "(easy)" in str(app.query_one("#info").render())

    run(make_app(store, Game.deal("yukon", seed=42), analysis_time=5.0, autoplay=False), scenario, (80, 24))
    assert on_the_table == [False]  # read once, in the reader's thread


def test_the_stock_keys_say_why_they_do_nothing_where_there_is_no_stock() -> None:
    # d (deal) and w (waste) in Yukon did nothing and said nothing
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("d")
        said.append(app.status_text)
        await pilot.press("w")
        said.append(app.status_text)
        assert app.session.moves_made == 0 or app.game.rules.has_stock

    said: list[str] = []
    run(make_app(None, Game.deal("yukon", seed=42)), scenario, (80, 24))
    assert said == ["Yukon has no stock (every card is dealt at the start)"] * 2
    said.clear()
    run(make_app(None, Game.deal("milligan-yukon", seed=42)), scenario, (80, 24))  # d deals; no waste
    assert said[0].startswith("Dealt") and said[1] == "Milligan Yukon has no waste"


def test_the_statistics_with_no_games_say_only_that(store: Store) -> None:
    # "No finished games yet." came with the note on the table's columns (Rules, Streak, Best...): no table shown
    async def look(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("s")
        await pilot.pause()
        texts = [str(s.render()) for s in app.screen.query(Static)]
        assert any(t.startswith("No finished games yet") for t in texts), texts
        assert not any("Streak" in t for t in texts), texts
        assert texts[-1] == "esc: close   q: quit"

    run(make_app(store, Game.deal("yukon", seed=1)), look, (80, 24))


#: Yukon deal 7 after 8 moves: column 6 has 5 face-down cards and 12 face-up ones, 13 lines once folded.
TALL = ("yukon,kings,noreturn -/2S.TSJH8H9CKCQHJSKSQC/5DJD.9S6H5S/3H.7C/ADTH4D.6S/"
        "4C8S9H7DTD.2HTC5C8D9D8C7HKHQSAS3S6C/JCKD4H4S6D2C.3D5HQD7S3C2D AC/AH/-/-")


def test_a_tall_column_at_60x20_does_not_scroll_the_table_sideways() -> None:
    # At 60x20 with the three-line status of a winning line's replay, the folded columns were one line too tall:
    # the table scrolled, its scrollbar moved every column two cells left, and 6♣ was out of view. The blank
    # line over the top row goes first.
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        app.set_status(LONG)
        app.refresh_table()
        await pilot.pause()
        await pilot.pause()
        tableau = app.query_one("#tableau")
        assert tableau.max_scroll_y == 0, tableau.max_scroll_y
        column = app.query_one("#col-6", ColumnView)
        assert column.region.bottom <= tableau.region.bottom
        assert status_lines(app)[-1], status_lines(app)  # the message does take its three lines
        app.set_status("")
        app.refresh_table()
        await pilot.pause()
        await pilot.pause()
        assert tableau.max_scroll_y == 0

    run(make_app(None, Game.from_text(TALL), autoplay=False), scenario, (60, 20))


def test_the_blank_line_over_the_top_row_stays_where_there_is_room() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        app.set_status(LONG)
        app.refresh_table()
        await pilot.pause()
        await pilot.pause()
        assert app.query_one("#piles-row").region.y == 2  # the top line, then the blank one

    run(make_app(None, Game.from_text(TALL), autoplay=False), scenario, (80, 24))


def test_the_statistics_cursor_starts_on_the_game_in_play(store: Store) -> None:
    from textual.widgets import DataTable

    from yukon.rules import rules_for

    for variant in ("alaska", "australian", "russian", "yukon"):
        _finished(store, variant, rules_for(variant).options(), "won", 100.0, 90)  # (as a session writes them)

    async def look(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("s")
        await pilot.pause()
        await pilot.pause()
        [table] = [t for t in app.screen.query(DataTable) if t.display]
        assert str(table.get_row_at(table.cursor_row)[0]) == "Russian"

    run(make_app(store, Game.deal("russian", seed=1)), look, (120, 40))


@pytest.mark.parametrize("variant", list(yukon.VARIANTS))
def test_the_new_game_screen_starts_with_the_rules_of_the_game_in_play(variant: str) -> None:
    # v in a Russian (Alaska, Australian, Milligan) game with other options than the variant's defaults
    # showed, and dealt, the defaults: the list's first highlight (Yukon) reset the rules before the game's
    # own variant was highlighted. And going down the list and back lost the options of the game in play.
    from yukon.tui.dealscreens import NewGameScreen

    base = yukon.VARIANTS[variant]
    rules = base.with_options(empty_column="any" if base.kings_only else "kings",
                              foundation_return=not base.foundation_return)
    words = (f"Rules: empty column {'kings only' if rules.kings_only else 'any card'}, "
             f"foundation return {'on' if rules.foundation_return else 'off'}")

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.rules == rules
        assert str(screen.query_one("#rule-options", Static).render()) == words
        last = variant == list(yukon.VARIANTS)[-1]
        await pilot.press("up" if last else "down")  # another variant: its own defaults
        await pilot.pause()
        assert screen.rules.variant != variant and screen.rules == yukon.VARIANTS[screen.rules.variant]
        await pilot.press("down" if last else "up")  # and back: the game's options again
        await pilot.pause()
        assert screen.rules == rules
        assert str(screen.query_one("#rule-options", Static).render()) == words
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        assert app.game.rules == rules and app.session.moves_made == 0

    run(make_app(None, Game.deal(rules, seed=5)), scenario, (80, 24))


def _refused_on_the_table(game: Game) -> tuple[int, int]:
    """A column whose free card does not fit on another column's free card (both from 0)."""
    for s, (_, up) in enumerate(game.columns):
        for d, (_, dup) in enumerate(game.columns):
            if d != s and up and dup and not game.rules.fits(up[-1], dup[-1]) and RANK[up[-1]] != KING:
                return s, d
    raise AssertionError("no refused move in this deal")


def _not_ready_to_go_up(game: Game) -> int:
    """A column whose free card is no Ace (so it cannot go up at the start)."""
    return next(s for s, (_, up) in enumerate(game.columns) if up and RANK[up[-1]] != ACE)


@pytest.mark.parametrize("variant", ["russian", "yukon"])
def test_a_refusal_names_every_card_as_the_table_does(variant: str) -> None:
    # Russian Solitaire said "8♣ goes only on the nine of clubs, not on 3♦" (and "cannot go up yet: the seven
    # of clubs must be ..."): one card in symbols, the other in words. The table, the moves told and the
    # hints write cards as 9♣; a refusal now does too (the session's words, as the web table's).
    in_words = re.compile(r"\b(" + "|".join(RANK_NAMES) + r")\b")

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        source, target = _refused_on_the_table(app.game)
        await pilot.press(str(source + 1), "enter", str(target + 1))
        await pilot.pause()
        said = app.status_text
        lead, on = (PRETTY[app.game.columns[c][1][-1]] for c in (source, target))
        assert said.startswith(lead) and on in said, said
        assert not in_words.search(said), said
        wanted = [PRETTY[c] for c in app.game.rules.build_rule.placeable_on[app.game.columns[source][1][-1]]]
        assert all(card in said for card in wanted), said  # which cards it does go on, as they are drawn
        await pilot.press("escape", str(_not_ready_to_go_up(app.game) + 1), "f")
        await pilot.pause()
        said = app.status_text
        assert "cannot go up yet" in said and not in_words.search(said), said

    run(make_app(None, Game.deal(variant, seed=5), autoplay=False), scenario, (80, 24))


@pytest.mark.parametrize(("variant", "seed", "guessed"), [
    ("australian", 11, "guesses at the stock's order"),  # every card dealt face up: only the stock is unseen
    ("milligan-yukon", 11, "guesses at the face-down cards and the stock"),
    ("yukon", 1, "guesses at the face-down cards"),
])
def test_a_hint_says_what_it_guessed_at(variant: str, seed: int, guessed: str) -> None:
    # Australian Patience deals every card face up, and its hint said "wins in 3 of 24 guesses at the
    # face-down cards": a new player looked for face-down cards there are none of
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert re.search(rf"wins in \d+ of \d+ {re.escape(guessed)}\b", app.status_text), app.status_text
        if guessed.endswith("face-down cards"):
            assert "stock" not in app.status_text

    run(make_app(None, Game.deal(variant, seed=seed), hint_time=3.0), scenario, (120, 40))


def test_w_before_any_move_says_to_play_first() -> None:
    # W in a new game said "Where did it go wrong? works once the game is over (won, no legal move left, or
    # given up with W)": W was the key just pressed, and it did nothing
    from yukon.tui.screens import ConfirmScreen

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("W")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.analysis is None
        assert "given up with W" not in app.status_text
        assert "play a move first" in app.status_text, app.status_text
        await pilot.press("6", "enter", "5")  # (8♦ onto 9♣) a move of the player's: now W offers to give up
        await pilot.press("W")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)

    run(make_app(None, Game.deal("yukon", seed=42), autoplay=False), scenario, (80, 24))


@pytest.mark.parametrize(("variant", "unseen"), [
    ("australian", "the stock's order"),
    ("milligan-yukon", "the face-down cards and the stock"),
    ("yukon", "the face-down cards"),
])
def test_the_solver_is_said_to_see_what_the_player_cannot(variant: str, unseen: str) -> None:
    # k and c in Australian Patience said the solver "sees the face-down cards": it has none, the solver
    # sees the stock's order
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("k")
        assert app.status_text == f"Hints from now on: the solver's: it sees {unseen} (k switches back)"
        await pilot.press("c")
        assert app.status_text.startswith(f"Still winnable? Checked after each move (perfect information: the "
                                          f"solver sees {unseen})")
        await pilot.press("c", "h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "olver hint" in app.status_text and f" · it sees {unseen}" in app.status_text, (
            app.status_text)
        if unseen == "the face-down cards":
            assert "stock" not in app.status_text

    run(make_app(None, Game.deal(variant, seed=3), hint_time=5.0), scenario, (120, 40))


def test_the_last_milligan_deal_says_which_columns_it_dealt_onto() -> None:
    # Milligan Yukon's 68 stock cards make eight deals of eight and a ninth of four, onto columns 1 to 4:
    # the ninth said "Dealt a card onto every column; 0 left in the stock"
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("d")
        assert app.status_text.startswith("Dealt a card onto every column; 60 left in the stock")
        for _ in range(7):
            await pilot.press("d")
        before = [len(down) + len(up) for down, up in app.game.columns]
        await pilot.press("d")
        after = [len(down) + len(up) for down, up in app.game.columns]
        assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1, 1, 0, 0, 0, 0]
        assert app.status_text.startswith("Dealt the last 4 cards onto columns 1 to 4; the stock is empty"), (
            app.status_text)

    run(make_app(None, Game.deal("milligan-yukon", seed=11), autoplay=False), scenario, (80, 24))


def test_undo_puts_the_cursor_on_the_card_it_brought_back() -> None:
    # A♣ up from column 2, then u: A♣ was back on column 2, the cursor stayed on 3♦ under it, and f said
    # "Only a free card goes to a foundation: 3♦ has cards on it"
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        down, up = app.game.columns[1]
        assert PRETTY[up[-1]] == "A♣"
        await pilot.press("2", "f")
        assert [str(m) for m in app.game.move_stack] == ["2:AC>F"]
        await pilot.press("u")
        cursor = app.state.cursor
        assert (cursor.area, cursor.pile, cursor.index) == ("tab", 1, len(down) + len(up) - 1)
        await pilot.press("f")  # the card brought back goes up again
        assert [str(m) for m in app.game.move_stack] == ["2:AC>F"]
        # a group brought back: the cursor on its lead card (8♦ with 2♣ A♦ Q♣ on it, onto 9♣)
        await pilot.press("u", "4", "up", "up", "up", "enter", "1")
        assert [str(m) for m in app.game.move_stack] == ["4:8D+3>1"]
        await pilot.press("u")
        assert (app.state.cursor.pile, app.state.cursor.index) == (3, 3 + 5 - 4)
        assert PRETTY[app.game.columns[3][1][1]] == "8♦"

    run(make_app(None, Game.deal("yukon", seed=11), autoplay=False), scenario, (80, 24))


def test_a_long_message_folds_again_for_the_new_width_when_the_terminal_grows() -> None:
    """A message folded for 60 columns unfolds when the terminal becomes 100 wide (the fold used the app's
    size while the resize was under way, which was still the old one)."""
    message = "Q♣ from column 4 to column 2 (it wins in 18 of 24 guesses)   p: play it   h: another hint"

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        app.set_status(message)
        await pilot.pause()
        status = app.query_one("#status", Static)
        assert "\n" in str(status.render()), status.render()  # (60 columns: two lines)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        assert str(status.render()) == message, status.render()

    run(make_app(None, Game.deal("yukon", seed=1)), scenario, (60, 30))
