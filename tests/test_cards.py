"""Cards: the int encoding, the two-character names, and the lenient parser (docs/contract.md, Cards)."""

from __future__ import annotations

import pytest

from yukon import InvalidCardError, InvalidPositionError, card_name, parse_card
from yukon.cards import (
    CLUBS,
    DECK,
    DIAMONDS,
    HEARTS,
    NAME,
    PRETTY,
    RANK,
    RED,
    SPADES,
    SUIT,
    card,
    card_long_name,
)


def test_encoding_is_rank_major() -> None:
    assert card(1, SPADES) == 0
    assert card(1, CLUBS) == 3
    assert card(2, SPADES) == 4
    assert card(13, CLUBS) == 51
    for c in DECK:
        assert c == (RANK[c] - 1) * 4 + SUIT[c]
        assert card(RANK[c], SUIT[c]) == c


def test_next_card_of_a_suit_is_plus_four() -> None:
    for c in DECK[:-4]:
        assert SUIT[c + 4] == SUIT[c] and RANK[c + 4] == RANK[c] + 1


def test_colours() -> None:
    assert [RED[card(5, s)] for s in (SPADES, HEARTS, DIAMONDS, CLUBS)] == [False, True, True, False]
    assert sum(RED) == 26


def test_names_are_unique_two_character_strings() -> None:
    assert len(set(NAME)) == 52
    assert all(len(n) == 2 and n[0] in "A23456789TJQK" and n[1] in "SHDC" for n in NAME)
    assert NAME[card(10, HEARTS)] == "TH"
    assert card_name(card(1, SPADES)) == "AS"


@pytest.mark.parametrize("bad", [52, 99, -1, "AS", None, 1.5, True])
def test_card_name_of_a_non_card_names_it(bad: object) -> None:
    # (-1 once gave 'KC', Python's last entry, and 52 a bare IndexError)
    # (a card's name is pointed to parse_card, which reads it)
    name = r": parse_card\('AS'\) reads a name" if bad == "AS" else ""
    with pytest.raises(InvalidCardError, match=rf"not a card number: .* \(a card is an int from 0 to 51{name}\)$"):
        card_name(bad)  # type: ignore[arg-type]


def test_pretty_names_use_suit_symbols_and_ten() -> None:
    assert PRETTY[card(10, HEARTS)] == "10♥"
    assert PRETTY[card(12, CLUBS)] == "Q♣"
    assert PRETTY[card(1, DIAMONDS)] == "A♦"
    assert PRETTY[card(7, SPADES)] == "7♠"


@pytest.mark.parametrize("c", DECK)
def test_every_name_parses_back(c: int) -> None:
    assert parse_card(NAME[c]) == c
    assert parse_card(NAME[c].lower()) == c
    assert parse_card(PRETTY[c]) == c


@pytest.mark.parametrize(
    "text", ["TH", "th", "10H", "10h", "T♥", "♥T", "10♥", "♥10", " TH ", "T♥\ufe0f", "tH"]
)
def test_lenient_forms_of_the_ten_of_hearts(text: str) -> None:
    assert parse_card(text) == card(10, HEARTS)


@pytest.mark.parametrize(
    "text", ["", "T", "1H", "11H", "0H", "TX", "HH", "THH", "10", "ZS", "T H", "S", "KS!", "♥", "1♥"]
)
def test_malformed_cards_are_rejected(text: str) -> None:
    with pytest.raises(InvalidCardError, match="not a card"):
        parse_card(text)


@pytest.mark.parametrize("value", [None, 37, ["TH"], b"TH"])
def test_non_strings_are_not_cards(value: object) -> None:
    with pytest.raises(InvalidCardError, match="not a card"):
        parse_card(value)  # type: ignore[arg-type]


def test_card_errors_are_position_errors_and_value_errors() -> None:
    assert issubclass(InvalidCardError, InvalidPositionError)
    assert issubclass(InvalidCardError, ValueError)


def test_card_rejects_impossible_rank_and_suit() -> None:
    for rank, suit in [(0, 0), (14, 0), (1, 4), (1, -1)]:
        with pytest.raises(InvalidCardError):
            card(rank, suit)


def test_long_names_for_screen_readers() -> None:
    assert card_long_name(card(12, CLUBS)) == "queen of clubs"
    assert card_long_name(card(1, SPADES)) == "ace of spades"
    assert card_long_name(card(10, DIAMONDS)) == "ten of diamonds"
    assert len({card_long_name(c) for c in DECK}) == 52
