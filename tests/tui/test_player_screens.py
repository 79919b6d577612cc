"""The terminal's New dialog says the deal chosen in good English: "an easy winnable deal", not "a easy"."""

from __future__ import annotations

import pytest

from yukon.tui.dealscreens import describe_choice


@pytest.mark.parametrize(("difficulty", "said"), [
    ("easy", "an easy winnable deal"), ("medium", "a medium winnable deal"), ("hard", "a hard winnable deal"),
    ("expert", "an expert winnable deal"), (None, "a winnable deal (proved by the solver)"),
])
def test_the_winnable_deal_chosen(difficulty: str | None, said: str) -> None:
    assert describe_choice("winnable", difficulty) == said


def test_any_and_lost_deals() -> None:
    assert describe_choice("any", None) == "any deal"
    assert describe_choice("lost", None) == "a deal proven lost"
