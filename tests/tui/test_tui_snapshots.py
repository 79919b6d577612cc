"""SVG snapshots of the start of each variant, so that any change in the drawing is seen.

Update them after an intended change with
``python -m pytest tests/tui/test_tui_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import FakeClock

from yukon import Game
from yukon.tui.app import YukonApp

SEEDS = {"yukon": 1, "russian": 2, "alaska": 3, "australian": 4, "milligan-yukon": 5}


def app_for(variant: str) -> YukonApp:
    return YukonApp(None, Game.deal(variant, seed=SEEDS[variant]), clock=FakeClock(), tick=False)


@pytest.mark.parametrize("variant", list(SEEDS))
def test_start_layout_80x24(snap_compare: Any, variant: str) -> None:
    assert snap_compare(app_for(variant), terminal_size=(80, 24))


def test_milligan_larger_terminal(snap_compare: Any) -> None:
    assert snap_compare(app_for("milligan-yukon"), terminal_size=(100, 40))


def test_milligan_after_all_deals(snap_compare: Any) -> None:
    """Nine deals: the tallest column (7 face down, 9 face up) still fits 80x24."""
    assert snap_compare(app_for("milligan-yukon"), terminal_size=(80, 24), press=["d"] * 9)


def test_milligan_compacts_in_a_short_terminal(snap_compare: Any) -> None:
    """Columns taller than the terminal: each column's face-down cards fold into one line (×N)."""
    assert snap_compare(app_for("milligan-yukon"), terminal_size=(80, 18), press=["d"] * 9)


def test_picked_card_and_where_it_fits(snap_compare: Any) -> None:
    """4♦ (free card of column 3) picked: gold, and column 1 (5♣) marked as where it fits."""
    assert snap_compare(app_for("yukon"), terminal_size=(80, 24), press=["3", "enter"])


def test_milligan_at_60x20(snap_compare: Any) -> None:
    """8 columns, the stock and 8 foundations at 60 columns: narrower piles, no sideways scrolling."""
    assert snap_compare(app_for("milligan-yukon"), terminal_size=(60, 20))


def test_yukon_wide_lines_up(snap_compare: Any) -> None:
    """At 120 columns the foundations sit over the last columns of the centred table."""
    assert snap_compare(app_for("yukon"), terminal_size=(120, 30))


def test_help_scrolled_to_its_end(snap_compare: Any) -> None:
    assert snap_compare(app_for("yukon"), terminal_size=(80, 24), press=["question_mark", "end"])


def test_help_at_160x45(snap_compare: Any) -> None:
    """A wide terminal: the help box widens (to 112 columns), its rows on one line each, nothing to scroll."""
    assert snap_compare(app_for("milligan-yukon"), terminal_size=(160, 45), press=["question_mark"])


def test_new_game_screen(snap_compare: Any) -> None:
    assert snap_compare(app_for("yukon"), terminal_size=(80, 24), press=["v", "w"])


class FixedVerdict(YukonApp):
    """The still-winnable indicator with a fixed verdict: no solver runs in a snapshot."""

    def _start_winnable(self) -> None:
        self.winnable_text = "not winnable ✗"
        self._update_info()


def test_longest_top_line_at_80_columns(snap_compare: Any) -> None:
    game = Game.deal("milligan-yukon", seed=18446744073709551615, empty_column="any")
    assert snap_compare(FixedVerdict(None, game, clock=FakeClock(), tick=False, winnable=True), terminal_size=(80, 24))
