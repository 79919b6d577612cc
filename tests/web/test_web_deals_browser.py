"""The New dialog's kinds of deal in a real browser: "a hard winnable deal" deals one the shipped verdicts
grade hard, and the top bar shows its grade; "a deal proven lost" deals a lost one, with no grade shown."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import open_page, settle, start_deal, state

import yukon
from yukon import deal_data
from yukon.difficulty import scale
from yukon.rules import rules_for

pytestmark = pytest.mark.browser


def _deal_from_dialog(page: Any, choice: str) -> dict[str, Any]:
    before = state(page)["id"]
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    page.select_option("#new-variant", "yukon")
    page.select_option("#new-deal", choice)
    page.click("#new-ok")
    page.wait_for_function(f"window.yukon.state.id !== {before!r}")
    settle(page)
    return state(page)


def test_a_hard_deal_and_a_lost_deal_from_the_new_dialog(browser: Any, server: Any) -> None:
    page = open_page(browser, server)
    s = _deal_from_dialog(page, "winnable:hard")
    known = deal_data.verdict_for(rules_for("yukon"), s["seed"])
    assert known is not None and known.status == "won" and known.difficulty == "hard"
    page.wait_for_selector("#deal-grade-wrap:not([hidden])")
    assert page.inner_text("#deal-grade") == "hard"
    assert "hard" in page.inner_text("#message")
    s = _deal_from_dialog(page, "lost")
    known = deal_data.verdict_for(rules_for("yukon"), s["seed"])
    assert known is not None and known.status == "lost"
    page.wait_for_function("document.getElementById('deal-grade-wrap').hidden")
    assert "cannot be won" in page.inner_text("#message")
    page.click("#btn-new")  # the dialog remembers the choice
    assert page.input_value("#new-deal") == "lost"
    assert page.errors == []


def test_no_grade_in_the_top_bar_for_a_deal_by_number_until_the_game_is_over(browser: Any, server: Any) -> None:
    """A grade says the deal can be won: a deal typed in by number (one the verdicts grade hard) shows none, nor
    does "any deal"; once the game is over (given up), the grade shows."""
    hard = next(v for v in deal_data.verdicts("yukon", "kings", False, status="won") if v.difficulty == "hard")
    page = open_page(browser, server)
    s = _deal_from_dialog(page, "winnable:hard")
    page.wait_for_selector("#deal-grade-wrap:not([hidden])")  # (shown: so hidden below is the grade's doing)
    s = _deal_from_dialog(page, "any")
    assert s["difficulty"] is None and page.is_hidden("#deal-grade-wrap")
    s = start_deal(page, hard.seed)
    assert s["difficulty"] is None and page.is_hidden("#deal-grade-wrap")
    page.evaluate("async () => window.yukon.accept(await window.yukon.api("
                  "'POST', `/api/games/${window.yukon.state.id}/resign`))")
    page.wait_for_selector("#deal-grade-wrap:not([hidden])")
    assert page.inner_text("#deal-grade") == "hard"
    assert page.errors == []


def test_the_new_dialog_offers_the_grades_of_the_chosen_rules(browser: Any, server: Any) -> None:
    """Only the grades the variant and options offer (yukon.difficulty.SCALES) can be chosen; a grade chosen
    that the next rules lack falls back to "a winnable deal"."""
    page = open_page(browser, server)
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    enabled = ("() => [...document.querySelectorAll('#new-deal option')]"
               ".filter((o) => o.value.includes(':') && !o.disabled).map((o) => o.value.split(':')[1])")
    page.select_option("#new-variant", "yukon")
    page.wait_for_function(f"({enabled})().length === {len(scale('yukon', 'kings', False))}")
    for name, rules in yukon.VARIANTS.items():
        page.select_option("#new-variant", name)
        assert page.evaluate(enabled) == list(scale(name, rules.empty_column, rules.foundation_return)), name
    page.select_option("#new-variant", "yukon")
    page.select_option("#new-deal", "winnable:expert")
    page.select_option("#new-empty-column", "any")  # Yukon with any card into an empty column: fewer grades
    expected = scale("yukon", "any", False)
    assert page.evaluate(enabled) == list(expected)
    assert page.input_value("#new-deal") == ("winnable:expert" if "expert" in expected else "winnable")
    assert page.errors == []


def test_the_new_dialog_says_why_a_difficulty_is_not_offered(browser: Any, server: Any) -> None:
    # Russian Solitaire's easy…expert were greyed out with no reason given
    page = open_page(browser, server)
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    page.select_option("#new-variant", "yukon")
    page.wait_for_function("document.querySelector('#new-deal option[value=\"winnable:easy\"]').disabled === false")
    assert page.inner_text("#new-deal-note") == ""  # (Yukon's defaults: every grade offered, nothing to say)
    page.select_option("#new-variant", "russian")
    assert not scale("russian", "kings", False)
    note = page.inner_text("#new-deal-note")
    assert note.startswith("No graded deals for Russian Solitaire with these options"), note
    assert "empty column: any" in note  # where the shipped verdicts do grade it
    assert page.get_attribute("#new-deal option[value='winnable:easy']", "title") == note
    page.select_option("#new-empty-column", "any")
    graded = scale("russian", "any", False)
    said = page.inner_text("#new-deal-note")
    assert said == f"Graded deals of Russian Solitaire with these options: {', '.join(graded)}."
    assert not page.is_disabled("#new-deal option[value='lost']")  # (Russian, any card: some are proven lost)
    page.select_option("#new-deal", "lost")
    page.select_option("#new-variant", "milligan-yukon")
    said = page.inner_text("#new-deal-note")
    assert said == ("No graded deals for Milligan Yukon: its shipped deals have no difficulty grades. "
                    "No deals proven lost for Milligan Yukon: its shipped verdicts have none.")
    # "a deal proven lost" was offered for Milligan Yukon and always refused (400), the old game staying
    assert page.is_disabled("#new-deal option[value='lost']")
    assert "No deals proven lost for Milligan Yukon" in (page.get_attribute("#new-deal option[value='lost']", "title")
                                                         or "")
    assert page.input_value("#new-deal") == "any"  # the choice greyed out is not the one made
    page.select_option("#new-variant", "russian")
    page.check("#new-foundation-return")  # Russian with cards coming back: none proven lost, some without
    note = page.inner_text("#new-deal-note")
    assert "No deals proven lost for Russian Solitaire with these options; there are some with empty column: kings" \
        in note, note
    assert page.errors == []
    page.context.close()
