"""A refused move names the rule it breaks (``IllegalMoveError.reason``), and a player's words for it.

One case per reason: the engine's reason code, the card and target it names, and
:func:`yukon.session.explain`'s sentence; plus the best place for a card.
"""

from __future__ import annotations

import pickle

import pytest

from yukon import Game
from yukon.errors import ILLEGAL_REASONS, IllegalMoveError
from yukon.session import PlaySession, explain

# Yukon: column 2 holds 5H face down under KH QC; column 5 is empty; the hearts 6 to Q lie in column 7
COLUMNS = "KS/5H.KHQC/QDJD/KD/-/KC/6H7H8H9HTHJHQH QS/4H/TD/JC"
YUKON = "yukon,kings,noreturn " + COLUMNS
AUSTRALIAN = ("australian,kings,noreturn 5C3S5S9H/6SJC6C5D/QC3D5H7H/AD4DTS8D/9S8HAH4H/QS4STD9C/KSKH6DQD -/-/-/- "
              "3CJD2H2DTC2S7DKC8CKDTH7S6H4CJHASAC7C2C3H8S/QH9DJS")
RETURN = "yukon,any,return KS/KH/QD/KD/-/-/- QS/QH/JD/KC"

CASES = [
    # position, move, reason, card, target, words in the explanation
    (YUKON, "deal", "no-stock", None, None, "has no stock"),
    (YUKON, "9:KS>1", "no-such-column", "KS", None, None),
    (YUKON, "W:KS>1", "no-waste", "KS", None, None),
    (YUKON, "F:QS>1", "no-return", "QS", None, "may not come back"),
    (YUKON, "2:5H>F", "not-face-up", "5H", None, "is not face up"),
    (YUKON, "2:KH>F", "covered", "KH", None, "has cards on it"),
    (YUKON, "2:KH+3>5", "group-size", "KH", None, None),
    (YUKON, "7:QH>F", "not-next-on-foundation", "QH", None, "Q♥ cannot go up yet: J♥ must be on a foundation"),
    (YUKON, "3:QD+1>2", "does-not-fit", "QD", "QC", "needs a black K (K♠ or K♣); Q♣ is not one"),
    (YUKON, "1:KS>2", "does-not-fit", "KS", "QC", "nothing is higher"),
    (YUKON, "4:KD>5", "whole-column", "KD", None, "changes nothing"),
    (YUKON, "3:JD>5", "kings-only", "JD", None, "Only a King"),
    (AUSTRALIAN, "W:QH>1", "not-waste-top", "QH", None, "top card of the waste"),
    (AUSTRALIAN, "7:QD>1", "does-not-fit", "QD", "9H", "goes only on K♦, not on 9♥"),
    (RETURN, "F:TD>1", "not-foundation-top", "TD", None, "top card of a foundation"),
]


def refusal(text: str, move: str) -> IllegalMoveError:
    game = Game.from_text(text)
    with pytest.raises(IllegalMoveError) as info:
        game.push(game.parse_move(move))
    assert Game.from_text(text) == game  # nothing changed
    return info.value


@pytest.mark.parametrize(("text", "move", "reason", "card", "target", "words"), CASES)
def test_a_refusal_names_its_rule(text: str, move: str, reason: str, card: str | None, target: str | None,
                                  words: str | None) -> None:
    err = refusal(text, move)
    assert (err.reason, err.card, err.target) == (reason, card, target), str(err)
    assert err.reason in ILLEGAL_REASONS
    said = explain(err, Game.from_text(text).rules)
    assert said and (words is None or words in said), said


def test_every_reason_has_a_case_but_the_fallbacks() -> None:
    # the empty stock is below; the notation itself refuses a move onto its own pile (InvalidMoveError)
    assert {c[2] for c in CASES} | {"stock-empty", "same-pile", "no-match", "illegal"} == set(ILLEGAL_REASONS)


def test_an_empty_stock_and_the_suit_updown_words() -> None:
    game = Game.deal("australian", seed=1)
    while game.stock:
        game.push(game.parse_move("deal"))
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move("deal")
    assert info.value.reason == "stock-empty" and explain(info.value, game.rules) == "The stock is empty."
    alaska = Game.from_text("alaska,kings,noreturn " + COLUMNS)
    with pytest.raises(IllegalMoveError) as info:
        alaska.parse_move("3:QD+1>2")
    assert "goes only on K♦ or J♦" in explain(info.value, alaska.rules)


def test_the_details_survive_pickling() -> None:
    err = refusal(YUKON, "7:QH>F")
    again = pickle.loads(pickle.dumps(err))
    assert (str(again), again.reason, again.card, again.target) == (str(err), err.reason, err.card, err.target)


def test_the_best_place_and_the_foundation_moves() -> None:
    s = PlaySession(Game.from_text("yukon,kings,noreturn KS/KH/QDJD/KD/-/-/- QS/QH/TD/KC"), client="test")
    best = {k: str(m) for k, m in s.best_moves().items()}
    assert best == {"1:KS": "1:KS>F", "2:KH": "2:KH>F", "3:JD": "3:JD>F", "3:QD": "3:QD+1>1"}
    assert {k: str(m) for k, m in s.foundation_moves().items()} == {"1:KS": "1:KS>F", "2:KH": "2:KH>F",
                                                                    "3:JD": "3:JD>F"}
