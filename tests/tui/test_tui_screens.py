"""The terminal game's rough edges, through Textual's Pilot: quitting from every dialog, the top line
at 80 columns, the help scrolled to its end, Milligan Yukon at 60x20, the clock of a lost game,
winnable deals only, and auto-play saying why it holds a card back."""

from __future__ import annotations

import itertools

import pytest
from test_tui_app import make_app, run
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets._footer import FooterKey
from tui_helpers import ONE_FROM_LOST, FakeClock

import yukon
from yukon import Game, Move, deal_data
from yukon.autoplay import left_to_the_player
from yukon.deal import MAX_SEED
from yukon.rules import VARIANTS, rules_for
from yukon.tui.app import Tableau, YukonApp
from yukon.tui.dealscreens import DealNumberScreen, NewGameScreen
from yukon.tui.screens import ConfirmScreen, GameOverScreen, HelpScreen, StatsScreen
from yukon.tui.widgets import ColumnView, PileView


def info_text(app: YukonApp) -> str:
    return str(app.query_one("#info", Static).render())


@pytest.mark.parametrize(
    ("keys", "screen"),
    [
        (["question_mark"], HelpScreen),
        (["s"], StatsScreen),
        (["g"], DealNumberScreen),
        (["v"], NewGameScreen),
        (["6", "enter", "5", "n"], ConfirmScreen),  # a move made (8♦ onto 9♣), then "new game?" asks
        (["5", "f"], GameOverScreen),  # the last legal move: the game is lost
    ],
    ids=["help", "stats", "deal-number", "new-game", "confirm", "game-over"],
)
def test_q_and_ctrl_c_quit_from_every_dialog(keys: list[str], screen: type) -> None:
    """Both quit keys on the same dialog, one app a dialog: app.exit only records the call here, so the dialog
    stays up after the first key (checked) and the second key meets it just as the first did."""
    game = Game.from_text(ONE_FROM_LOST) if screen is GameOverScreen else Game.deal("yukon", seed=42)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        exits: list[object] = []
        app.exit = lambda *args, **kwargs: exits.append(args)  # type: ignore[method-assign]
        await pilot.press(*keys)
        await pilot.pause()
        assert isinstance(app.screen, screen)
        shown = app.screen
        for quit_key in ("q", "ctrl+c"):
            await pilot.press(quit_key)
            await pilot.pause()
            assert exits, f"{quit_key} did nothing on {screen.__name__}"
            assert app.screen is shown  # (still the same dialog for the next key)
            exits.clear()

    run(make_app(None, game, autoplay=False), scenario)


def test_q_and_ctrl_c_quit_from_the_table() -> None:
    """Both keys in one app, as on the dialogs above: the table stays up after the first."""

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        exits: list[object] = []
        app.exit = lambda *args, **kwargs: exits.append(args)  # type: ignore[method-assign]
        for quit_key in ("q", "ctrl+c"):
            await pilot.press(quit_key)
            await pilot.pause()
            assert exits, f"{quit_key} did nothing on the table"
            assert not app.screen.is_modal
            exits.clear()

    run(make_app(None, Game.deal("yukon", seed=1)), scenario)


def test_the_game_over_box_names_q() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "f")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        notes = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "q: quit" in notes

    run(make_app(None, Game.from_text(ONE_FROM_LOST), autoplay=False), scenario)


def test_the_top_line_is_never_cut_at_80_columns() -> None:
    """The longest variant name with a rule option, the largest deal number, the winnable indicator."""
    game = Game.deal("milligan-yukon", seed=MAX_SEED, empty_column="any")

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for verdict in ("not winnable ✗", "winnable: …", "winnable ✓"):
            app.winnable_text = verdict
            app._update_info()
            text = info_text(app)
            assert len(text) <= 78 and text.endswith(verdict), text  # 80 columns less the padding
            assert "Milligan" in text and f"#{MAX_SEED}" in text and "0:00" in text

    run(make_app(None, game, winnable=True, winnable_time=0.2), scenario, size=(80, 24))


def test_the_top_line_in_full_where_there_is_room() -> None:
    game = Game.deal("milligan-yukon", seed=MAX_SEED, empty_column="any")

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        text = info_text(app)
        assert text.startswith(f"Milligan Yukon (empty: any) · deal {MAX_SEED} · 0 moves · 0:00 · 0/104 up · auto")

    run(make_app(None, game), scenario, size=(140, 30))


def test_the_help_uses_the_room_of_a_wide_terminal() -> None:
    # at 160x45 the box was 76 columns wide: most rows folded in two, and the keys scrolled with half the screen empty
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one("Vertical")
        scroll = app.screen.query_one("#help-keys", VerticalScroll)
        assert 100 <= box.outer_size.width <= 120, box.outer_size
        assert scroll.max_scroll_y == 0  # every key and the rules in sight, no scrolling

    run(make_app(None, Game.deal("yukon", seed=42)), scenario, size=(160, 45))


def test_help_scrolls_to_its_end_at_80x24() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        scroll = app.screen.query_one("#help-keys", VerticalScroll)
        goal = app.screen.query_one("#help-goal", Static)
        mouse = app.screen.query_one("#help-mouse", Static)
        assert scroll.max_scroll_y > 0  # it does not fit: it must scroll
        # the rules come first, in sight before any scrolling (they came after some thirty keys)
        assert "Goal" in str(goal.render()) and goal.virtual_region.bottom <= scroll.scrollable_content_region.height
        # ↓ scrolls a line at a time; the rest of the way by pages (one key press redraws the box, and a page is
        # ten lines: ~5 presses instead of ~35 for the same end), a page more than needed to see it stops there
        for line in (1, 2):
            await pilot.press("down")
            assert scroll.scroll_y == line
        for _ in range(-(-(scroll.max_scroll_y - 2) // 10) + 1):
            await pilot.press("pagedown")
        await pilot.press("down", "down")  # and ↓ at the end stays there
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        # the last words (how to play with the mouse) are inside the visible part of the box
        bottom = mouse.virtual_region.bottom
        assert scroll.scroll_y < bottom <= scroll.scroll_y + scroll.scrollable_content_region.height
        assert str(mouse.render()).startswith("Mouse: click a card")
        await pilot.press("home")
        assert scroll.scroll_y == 0  # at once: a scroll animation would leave it wherever the clock says

    run(make_app(None, Game.deal("milligan-yukon", seed=1)), scenario, size=(80, 24))


def test_milligan_fits_60x20() -> None:
    """Its 8 columns and its stock and 8 foundations, without sideways scrolling."""

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.pause()
        columns = list(app.query(ColumnView))
        piles = list(app.query(PileView))
        assert len(columns) == 8 and len(piles) == 9
        for w in [*columns, *piles]:
            assert w.region.x >= 0 and w.region.right <= 60 and w.region.width >= 5, (w.id, w.region)
        assert app.query_one("#tableau", Tableau).max_scroll_x == 0
        assert len({w.region.x for w in columns}) == 8  # side by side

    run(make_app(None, Game.deal("milligan-yukon", seed=5)), scenario, size=(60, 20))


STOCK_VARIANTS = [v for v, r in VARIANTS.items() if r.has_stock]


@pytest.mark.parametrize("size", [(80, 24), (120, 30)])
@pytest.mark.parametrize("variant", STOCK_VARIANTS)
def test_the_stock_says_it_is_the_stock(variant: str, size: tuple[int, int]) -> None:
    """A bare "68" over column 1 told a new player nothing: the stock reads "Stock 68", within the
    terminal's width, beside the other piles (not over them), down to "Stock  0"."""

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.pause()
        stock = app.query_one("#stock", PileView)
        piles = sorted(app.query(PileView), key=lambda w: w.region.x)
        assert piles[0] is stock
        full = len(app.game.stock)
        assert full and str(stock.render()).strip() == f"Stock {full}"
        for left, right in itertools.pairwise(piles):
            assert left.region.right <= right.region.x, (left.id, right.id)
        assert piles[-1].region.right <= size[0]
        assert app.query_one("#tableau", Tableau).max_scroll_x == 0
        for _ in range(len(app.game.columns[0][1])):  # up column 1's cards to the stock, above it
            if app.state.cursor.area == "tab":
                await pilot.press("up")
        assert app.state.cursor.area == "top" and app.state.cursor.pile == 0
        assert str(stock.render()).strip() == f"▶Stock {full}◀"
        await pilot.press("d")
        await pilot.pause()
        assert str(stock.render()).strip() == f"▶Stock {len(app.game.stock)}◀" and len(app.game.stock) < full
        for _ in range(full):
            if app.game.stock:
                await pilot.press("d")
        await pilot.pause()
        assert app.game.stock == []
        assert str(stock.render()).strip() == "▶Stock  0◀"

    run(make_app(None, Game.deal(variant, seed=5)), scenario, size=size)


@pytest.mark.parametrize("width", [60, 67, 80])
@pytest.mark.parametrize("variant", STOCK_VARIANTS)
def test_a_blank_cell_parts_the_stock_from_the_pile_beside_it(variant: str, width: int) -> None:
    """Read from the screen, not the snapshot's SVG (which leaves the blanks out and read "Stock 24[   ]"): the
    stock's label and the pile beside it have a blank cell between them, the cursor on either or neither."""

    def drawn(pile: PileView) -> tuple[int, int]:
        text = str(pile.render())
        return pile.region.x + len(text) - len(text.lstrip()), pile.region.x + len(text.rstrip())

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        stock = app.query_one("#stock", PileView)
        beside = min((p for p in app.query(PileView) if p is not stock), key=lambda p: p.region.x)
        while app.state.cursor.area == "tab":  # up column 1 to the stock, then to the pile beside it
            await pilot.press("up")
        for _ in range(3):
            assert str(stock.render()).strip().startswith(("Stock", "▶Stock"))
            assert drawn(stock)[1] < drawn(beside)[0], (str(stock.render()), str(beside.render()))
            await pilot.press("right")

    run(make_app(None, Game.deal(variant, seed=5)), scenario, size=(width, 24))


@pytest.mark.parametrize("variant", ["yukon", "australian"])
def test_stock_and_foundations_line_up_with_the_table_when_wide(variant: str) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.pause()
        columns = sorted(app.query(ColumnView), key=lambda w: w.region.x)
        founds = sorted((p for p in app.query(PileView) if p.kind == "found"), key=lambda w: w.region.x)
        # the foundations sit over the last columns, exactly
        for pile, column in zip(reversed(founds), reversed(columns), strict=False):
            assert (pile.region.x, pile.region.width) == (column.region.x, column.region.width)
        if app.game.rules.has_stock:
            assert app.query_one("#stock", PileView).region.x == columns[0].region.x

    run(make_app(None, Game.deal(variant, seed=4)), scenario, size=(200, 40))


def test_the_clock_stops_on_a_lost_game_and_both_displays_agree() -> None:
    clock = FakeClock()

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "f")  # the only legal move: lost at once
        await pilot.pause()
        await pilot.press("u")  # out of the dead end: the clock runs again
        await pilot.pause()
        clock.now += 70
        await pilot.press("r")  # and back into it after 70 seconds
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        details = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "1:10" in details
        clock.now += 22  # the box stays up; time passes
        app._update_info()
        assert "· 1:10 ·" in info_text(app) and app.session.elapsed == 70

    app = YukonApp(None, Game.from_text(ONE_FROM_LOST), clock=clock, tick=False, autoplay=False)
    run(app, scenario)


def test_esc_says_cancel() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("1", "enter")
        assert app.state.pick is not None and "esc: cancel" in app.status_text
        await pilot.press("escape")
        assert app.state.pick is None

    run(make_app(None, Game.deal("yukon", seed=1)), scenario)


def test_winnable_deals_only_from_the_new_game_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules the shipped verdicts lack: the solver searches random deals (below: with the data)."""
    monkeypatch.setattr(deal_data, "has_verdicts", lambda *args, **kwargs: False)
    monkeypatch.setattr(deal_data, "verdict_for", lambda *args, **kwargs: None)
    seeds = iter([1, 22])  # Russian Solitaire deal 1 is lost (proved at once), deal 22 is won

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and not app.screen.winnable_only
        await pilot.press("w")
        assert app.screen.winnable_only
        await pilot.press("enter")  # Russian Solitaire, highlighted
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.winnable_only and app.game.seed == 22 and app.game.move_stack == []
        assert "proved this deal winnable" in app.status_text

    app = YukonApp(None, Game.deal("russian", seed=3), clock=FakeClock(), tick=False, new_seed=lambda: next(seeds))
    run(app, scenario)


@pytest.mark.parametrize("keys, status, grade, words", [
    (["l"], "lost", None, "cannot be won"),
    (["d", "d", "d", "d"], "won", "hard", "hard"),  # any winnable, easy, medium, hard
    (["w"], "won", None, "proved this deal winnable"),
])
def test_the_new_game_screen_deals_from_the_shipped_verdicts(
    monkeypatch: pytest.MonkeyPatch, keys: list[str], status: str, grade: str | None, words: str
) -> None:
    """A deal proven lost, a hard winnable deal, a winnable deal: drawn from the data at once, no solver,
    and the deal's grade said when the game starts."""
    import yukon.solver

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran although the shipped verdicts know these deals")

    monkeypatch.setattr(yukon.solver, "solve", refuse)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press(*keys)
        shown = str(app.screen.query_one("#deal-kind", Static).render())
        assert ("proven lost" if status == "lost" else "winnable") in shown and (grade or "") in shown
        await pilot.press("enter")  # Yukon, highlighted
        await pilot.pause()
        known = deal_data.verdict_for(rules_for("yukon"), app.game.seed)
        assert known is not None and known.status == status and (grade is None or known.difficulty == grade)
        assert app.session.moves_made == 0 and words in app.status_text
        if status == "won":
            assert known.difficulty in app.status_text
        # dealt as winnable: its grade beside the deal number tells nothing new (a lost deal has none)
        info = str(app.query_one("#info").render())
        assert (f"deal {app.game.seed} ({known.difficulty})" in info) == (status == "won"), info

    run(YukonApp(None, Game.deal("yukon", seed=3), clock=FakeClock(), tick=False), scenario, size=(100, 24))


@pytest.mark.parametrize("variant", list(yukon.VARIANTS))
def test_a_winnable_deal_of_every_variant_is_welcomed_with_what_the_verdicts_say(variant: str) -> None:
    # Australian deal 762 (easy on the top line) was welcomed with "Deal 762 of Australian Patience. Good luck!":
    # a variant of another layout than the game left rebuilt the table and said the welcome again, its note gone
    from yukon.winnable_deals import described

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one(OptionList).highlighted = list(yukon.VARIANTS).index(variant)
        await pilot.press("w", "enter")
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        known = deal_data.verdict_for(app.game.rules, app.game.seed)
        assert app.game.rules.variant == variant and known is not None and known.status == "won"
        assert app.status_text.startswith(f"Deal {app.game.seed} of {app.game.rules.title}: {described(known)}. ")

    for start in ("yukon", "milligan-yukon", "australian"):  # (the same layout and others)
        run(make_app(None, Game.deal(start, seed=3)), scenario, size=(100, 24))


def test_the_new_game_screen_keys_choose_their_kind_of_deal_whatever_was_chosen_before() -> None:
    # After an easy winnable game a new player pressed v, Down, w, Enter and got "any deal": w toggled the
    # remembered "easy winnable" off. Each key now chooses what the box's keys line says.
    async def choose(pilot: Pilot[None], app: YukonApp, *keys: str) -> str:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press(*keys)
        shown = str(app.screen.query_one("#deal-kind", Static).render())
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        return shown

    def verdict(app: YukonApp) -> deal_data.Verdict | None:
        return deal_data.verdict_for(app.game.rules, app.game.seed)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        assert "a: any deal" in " ".join(str(s.render()) for s in app.screen.query(".note"))
        await pilot.press("escape")
        assert await choose(pilot, app, "d", "d") == "Deal: an easy winnable deal"
        first = verdict(app)
        assert first is not None and first.difficulty == "easy"
        winnable = "Deal: a winnable deal (proved by the solver)"  # (Russian Solitaire: "; ... has no grades ...")
        assert (await choose(pilot, app, "down", "w")).startswith(winnable)
        known = verdict(app)
        assert app.game.rules.variant == "russian" and known is not None and known.status == "won"
        assert (await choose(pilot, app, "w")).startswith(winnable)  # w again: still a winnable deal
        assert await choose(pilot, app, "l", "l") == "Deal: a deal proven lost"  # l again: still lost
        known = verdict(app)
        assert known is not None and known.status == "lost"
        assert await choose(pilot, app, "a") == "Deal: any deal"
        assert not app.winnable_only and app.deal_kind == "any" and app.game.seed == 99

    run(make_app(None, Game.deal("yukon", seed=3)), scenario, size=(100, 24))


def test_autoplay_says_why_it_leaves_an_ace_while_the_milligan_stock_lasts() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        # A♠ is column 7's free card: a move elsewhere, and the status says why it stays
        move = next(m for m in app.game.legal_moves() if m.count == 1 and m.src not in (6, 17) and m.dst < 8)
        await pilot.press(str(move.src + 1), "enter", str(move.dst + 1))
        assert app.game.move_stack == [move]
        assert ("A♠ is not played up automatically while the stock lasts: a deal puts a card on it, and you may"
                " want to move the two together; f plays it up") in app.status_text, app.status_text
        await pilot.press("a", "a")  # off and on again: said again
        assert "while the stock lasts" in app.status_text

    run(make_app(None, Game.deal("milligan-yukon", seed=1)), scenario)


def test_autoplay_tells_two_aces_it_leaves_for_the_same_reason_in_one_sentence() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        held = {str(m) for m, _ in left_to_the_player(app.game)}
        assert held == {"2:AS>F", "3:AH>F"}
        await pilot.press("a", "a")  # (the deal's only other move deals onto them) auto-play off and on: it says why
        assert app.status_text.endswith(
            "; A♠ and A♥ are not played up automatically while the stock lasts: a deal puts a card on each, and you"
            " may want to move the two together; f plays one up"), app.status_text
        assert app.status_text.count("not played up") == 1

    run(make_app(None, Game.deal("milligan-yukon", seed=4133423762)), scenario, size=(120, 40))


def test_autoplay_says_why_it_leaves_an_alaska_ace_that_a_two_may_go_on() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        # column 5's A♠ could go up, but in Alaska the 2♠ may still be built on it: a move elsewhere says so once
        assert "5:AS>F" in [str(m) for m in app.game.legal_moves()]
        assert app.play(Move.from_text("4:5H+1>2"))
        await pilot.pause()
        assert ("A♠ is not played up automatically: you may still want to move the 2♠ onto it; f plays it up"
                in app.status_text), app.status_text
        assert app.play(Move.from_text("7:6D+3>1"))
        await pilot.pause()
        assert "not played up" not in app.status_text, app.status_text  # once a game

    run(make_app(None, Game.deal("alaska", seed=6)), scenario, size=(120, 40))


def test_the_difficulty_key_offers_the_grades_of_the_highlighted_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    """d cycles through the grades the highlighted variant offers (docs/difficulty.md), none where it has none."""
    from yukon import difficulty

    monkeypatch.delitem(difficulty.SCALES, ("russian", "kings", False), raising=False)
    monkeypatch.setitem(difficulty.SCALES, ("australian", "kings", False), difficulty.EASY_OR_HARD)
    names = list(yukon.VARIANTS)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)

        async def cycle(variant: str, presses: int) -> list[str | None]:
            screen.query_one(OptionList).highlighted = names.index(variant)
            seen = []
            for _ in range(presses):
                await pilot.press("d")
                seen.append(screen.difficulty)
            return seen

        assert await cycle("australian", 4) == [None, "easy", "hard", None]
        assert await cycle("russian", 2) == [None, None]  # a winnable deal, no grade
        assert await cycle("yukon", 5) == ["easy", "medium", "hard", "expert", None]  # (from a winnable deal)

    run(YukonApp(None, Game.deal("yukon", seed=3), clock=FakeClock(), tick=False), scenario)


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_the_footer_shows_whole_keys_that_fit(width: int) -> None:
    # Textual's footer cut its row at the edge: at 60 columns it ended in a bare "t"
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        for _ in range(3):
            await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        shown = [k for k in keys if k.display]
        assert max(k.region.right for k in shown) <= width  # each key whole, inside the row
        assert {k.action for k in shown} >= {"help", "quit", "hint", "undo"}  # the most needed stay
        if width >= 80:
            assert shown == keys  # room for all: none left out
        else:
            assert len(shown) < len(keys)

    run(make_app(None, Game.deal("yukon", seed=1)), scenario, size=(width, 24))


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_game_over_keys_wrap_between_keys_never_inside_one(width: int) -> None:
    # At 80 columns the lost box read "... R: restart   x:" and then "export the record   W: ...   esc:", "close"
    from textual.geometry import Region

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("5", "f")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        keys = app.screen.query(".note").last()
        size = keys.size
        drawn = [strip.text.rstrip() for strip in keys.render_lines(Region(0, 0, size.width, size.height))]
        drawn = [line for line in drawn if line]
        assert len(drawn) >= 2  # (it does wrap, at each width: there are 8 keys)
        for line in drawn:
            assert not line.endswith(":") and ":" in line.split("   ")[0], drawn
            assert all(": " in pair for pair in line.strip().split("   ")), drawn
        joined = "   ".join(line.strip() for line in drawn)
        assert "x: export the record" in joined and "W: where did it go wrong?" in joined and "q: quit" in joined

    run(make_app(None, Game.from_text(ONE_FROM_LOST), autoplay=False), scenario, size=(width, 24))


def test_the_difficulty_key_says_when_the_rules_have_no_grades() -> None:
    # Russian Solitaire with kings only has no grades: d stayed on "a winnable deal" and seemed to do nothing
    names = list(yukon.VARIANTS)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        deal = screen.query_one("#deal-kind", Static)
        screen.query_one(OptionList).highlighted = names.index("russian")
        await pilot.press("d", "d")
        assert str(deal.render()) == ("Deal: a winnable deal (proved by the solver); Russian Solitaire has no "
                                      "difficulty grades with these rules")
        screen.query_one(OptionList).highlighted = names.index("yukon")
        await pilot.pause()
        await pilot.press("d")
        assert str(deal.render()) == "Deal: an easy winnable deal"

    run(YukonApp(None, Game.deal("yukon", seed=3), clock=FakeClock(), tick=False), scenario)


VERDICTS = ("not winnable ✗ (was at move 1234)", "not winnable ✗", "winnable ✓", "winnable: …", "winnable: ?")


@pytest.mark.parametrize("variant", list(yukon.VARIANTS))
@pytest.mark.parametrize("width", [58, 78, 118])  # 60, 80 and 120 columns less the padding
@pytest.mark.parametrize("given_up", [False, True])
def test_the_top_line_keeps_variant_moves_and_verdict(variant: str, width: int, given_up: bool) -> None:
    # At 60 columns a long Milligan game with its options given up ended in "given up ·": the verdict was cut off
    from yukon.tui.app import info_line

    default = rules_for(variant)
    game = Game.deal(variant, seed=MAX_SEED, empty_column="any" if default.empty_column != "any" else "kings",
                     foundation_return=not default.foundation_return)
    for verdict in VERDICTS:
        shown = " · ".join(w for w in ("given up" if given_up else "", verdict) if w)
        text = info_line(game, 1234, 3725.0, True, shown, width, "expert")
        assert len(text) <= width, text
        assert text.startswith(default.title.split()[0]), text
        assert "1234 m" in text, text  # the move count: "1234 moves" or "1234 mv"
        # the verdict whole, at the end: only its bracket may go
        assert text.endswith((shown, shown.split(" (")[0])), text
        assert not given_up or "given up" in text, text
        if width >= 118:
            assert text.endswith(shown), text  # at 120 columns the verdict in full


def test_a_given_up_verdict_fits_at_60_columns() -> None:
    game = Game.deal("milligan-yukon", seed=MAX_SEED, empty_column="any", foundation_return=True)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.session.result = "abandoned"
        app.winnable_text = "not winnable ✗ (was at move 12)"
        app._update_info()
        text = info_text(app)
        assert len(text) <= 58 and "…" not in text, text
        assert text.startswith("Milligan") and "0 m" in text and text.endswith("given up · not winnable ✗"), text

    run(make_app(None, game, winnable=True, winnable_time=0.2), scenario, size=(60, 24))


@pytest.mark.parametrize("variant", list(yukon.VARIANTS))
@pytest.mark.parametrize("width", [60, 80])
def test_the_status_line_wraps_between_keys_never_inside_one(variant: str, width: int) -> None:
    # At 60 columns an Alaska hint ended its second line in "p:" and put "play it" on the third
    from textual.geometry import Region

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        status = app.query_one("#status", Static)
        size = status.size
        drawn = [s.text.strip() for s in status.render_lines(Region(0, 0, size.width, size.height))]
        drawn = [line for line in drawn if line]
        assert "p: play it" in app.status_text
        assert any(line.replace("\u00a0", " ").endswith("p: play it") for line in drawn), drawn
        assert not any(line.endswith(("p:", "p: play")) for line in drawn), drawn

    run(make_app(None, Game.deal(variant, seed=7)), scenario, size=(width, 24))
