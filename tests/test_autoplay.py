"""Automatic plays: safe cards to the foundations, the certain win and the moves that finish it."""

from __future__ import annotations

import random

import pytest

from engine_helpers import make, names
from yukon import Game
from yukon.autoplay import (
    finish_moves,
    is_certain_win,
    is_safe_to_play_up,
    kept_for_the_tableau,
    left_in_sentences,
    left_to_the_player,
    next_safe_move,
    safe_moves,
)
from yukon.cards import RANK, parse_card
from yukon.rules import rules_for


def safe(game: Game) -> set[str]:
    return {str(m) for m in safe_moves(game)}


def test_aces_are_safe_where_nothing_goes_on_them() -> None:
    for variant in ("yukon", "russian", "australian", "milligan-yukon"):
        g = make(variant, ["AS", "5H"], fill=1)
        assert safe(g) == {"1:AS>F"}
        assert str(next_safe_move(g)) == "1:AS>F"
    # Alaska builds up as well as down: the 2S may still be placed on the AS
    assert safe(make("alaska", ["AS", "5H"], fill=1)) == set()


def kept(game: Game) -> dict[str, str]:
    return {str(m): why for m, why in kept_for_the_tableau(game)}


def test_a_card_left_for_the_tableau_is_told_with_the_cards_that_may_still_go_on_it() -> None:
    # Alaska: a free Ace could go up, but automatic play leaves it as the 2 may still be placed on it
    assert kept(make("alaska", ["AS", "5H"], fill=1)) == {
        "1:AS>F": "A♠ is not played up automatically: you may still want to move the 2♠ onto it"}
    assert kept(make("yukon", ["AS", "5H"], fill=1)) == {}  # a safe Ace is played up, nothing to tell
    # alternate colours: the black Aces not yet up may still go on the 2♥
    g = make("yukon", ["2H", "9C"], foundations=["AS", "AH", "-", "-"], fill=1)
    assert kept(g) == {"1:2H>F": "2♥ is not played up automatically: you may still want to move the A♣ onto it"}
    g = make("yukon", ["2H", "9C"], foundations=["-", "AH", "-", "-"], fill=1)
    assert kept(g) == {"1:2H>F": "2♥ is not played up automatically: you may still want to move the A♠ or A♣ onto it"}
    assert kept(make("yukon", ["2H", "9C"], foundations=["AS", "AH", "-", "AC"], fill=1)) == {}


def test_a_card_whose_twin_needs_its_pile_is_told_so() -> None:
    # two decks, no stock: the 5♦ would take the only pile at 4♦ while the other 5♦ is still to come
    found = ["KS", "KH", "4D", "KC", "KS", "KH", "2D", "KC"]
    g = make("milligan-yukon", ["5D", "KD QD JD TD 9D 8D 7D 6D", "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D"],
             foundations=found)
    assert kept(g)["1:5D>F"] == ("5♦ is not played up automatically: the other 5♦ may need the"
                                 " foundation pile it would go on")


def test_every_play_left_to_the_player_comes_with_why_in_one_list() -> None:
    # the one place both games take the words from: the Milligan stock's reason, then the tableau's
    stock = Game.deal("milligan-yukon", seed=1)
    assert [(str(m), why) for m, why in left_to_the_player(stock)] == [
        ("7:AS>F", "A♠ is not played up automatically while the stock lasts: a deal puts a card on it, and you may"
                   " want to move the two together")]
    g = make("yukon", ["2C", "9H"], foundations=["-", "-", "-", "AC"], fill=1)
    assert [(str(m), why) for m, why in left_to_the_player(g)] == [
        ("1:2C>F", "2♣ is not played up automatically: you may still want to move the A♥ or A♦ onto it")]
    assert left_to_the_player(make("yukon", ["AS", "5H"], fill=1)) == []  # a safe Ace goes up: nothing to say



def test_cards_left_for_the_same_reason_are_told_in_one_sentence() -> None:
    # two Aces held while a Milligan stock lasts were two sentences of the same 110 characters each
    stock = Game.deal("milligan-yukon", seed=4133423762)
    assert [str(m) for m, _ in left_to_the_player(stock)] == ["2:AS>F", "3:AH>F"]  # (still one sentence each)
    assert left_in_sentences(stock) == [
        "A♠ and A♥ are not played up automatically while the stock lasts: a deal puts a card on each, and you may"
        " want to move the two together"]
    # the cards asked about alone: one card is told as left_to_the_player tells it
    assert left_in_sentences(stock, {parse_card("AH")}) == [left_to_the_player(stock)[1][1]]
    assert left_in_sentences(stock, set()) == []
    # the tableau's reason, the same for both black 2s: the red Aces may still go on them
    g = make("yukon", ["2C", "2S", "9H"], foundations=["AS", "-", "-", "AC"], fill=1)
    assert left_in_sentences(g) == [
        "2♣ and 2♠ are not played up automatically: you may still want to move the A♥ or A♦ onto them"]
    # different reasons stay apart, in left_to_the_player's order
    g = make("yukon", ["2C", "2H", "9D"], foundations=["-", "AH", "-", "AC"], fill=1)
    assert left_in_sentences(g) == [why for _, why in left_to_the_player(g)] and len(left_in_sentences(g)) == 2

@pytest.mark.parametrize(
    ("foundations", "is_safe"),
    [
        (["AS", "AH", "-", "-"], False),  # AC could still want the 2H
        (["AS", "AH", "-", "AC"], True),  # both black aces are up: nothing can go on 2H any more
        (["-", "AH", "AD", "AC"], False),
    ],
)
def test_alternate_colour_safe_when_both_lower_cards_of_the_other_colour_are_up(
    foundations: list[str], is_safe: bool
) -> None:
    g = make("yukon", ["2H", "9C"], foundations=foundations, fill=1)
    assert "1:2H>F" in {str(m) for m in g.legal_moves()}
    assert safe(g) == ({"1:2H>F"} if is_safe else set())
    assert is_safe_to_play_up(g, parse_card("2H")) is is_safe


def test_alternate_colour_safe_rule_in_general() -> None:
    g = make("yukon", ["9C"], foundations=["6S", "8H", "5D", "7C"], fill=0)
    # a red 7 needs both black 6s up: 6S and 6C are -> 7D is safe
    assert is_safe_to_play_up(g, parse_card("7D"))
    # a red 9 needs 8S and 8C up: 8S is not; a black 9 needs 8H and 8D up: 8D is not
    assert not is_safe_to_play_up(g, parse_card("9H"))
    assert not is_safe_to_play_up(g, parse_card("9C"))
    assert safe(g) == set()  # 9C does not even fit yet (8C is not up)


@pytest.mark.parametrize("variant", ["russian", "australian"])
def test_same_suit_builds_every_card_that_fits_is_safe(variant: str) -> None:
    g = make(variant, ["7H", "2S", "9C"], foundations=["AS", "6H", "-", "-"], fill=2)
    assert safe(g) == {"1:7H>F", "2:2S>F"}


def test_alaska_only_kings_are_safe() -> None:
    g = make("alaska", ["7H", "KD", "AC", "9C"], foundations=["-", "6H", "QD", "-"], fill=3)
    assert {str(m) for m in g.legal_moves() if m.dst == 16} == {"1:7H>F", "2:KD>F", "3:AC>F"}
    # 8H could still be placed on the 7H, and 2C on the AC (Alaska builds up or down)
    assert safe(g) == {"2:KD>F"}


def test_milligan_needs_both_copies_up() -> None:
    one_each = ["AS", "AC", "AH", "-", "-", "-", "-", "-"]
    g = make("milligan-yukon", ["2H", "9C"], foundations=one_each, fill=1)
    assert safe(g) == set()
    # both black aces up, but one heart pile only: the other 2H may need that slot first
    both_black = ["AS", "AC", "AH", "AS", "AC", "-", "-", "-"]
    g = make("milligan-yukon", ["2H", "9C"], foundations=both_black, fill=1)
    assert safe(g) == set()
    both_piles = ["AS", "AC", "AH", "AS", "AC", "AH", "-", "-"]
    g = make("milligan-yukon", ["2H", "9C"], foundations=both_piles, fill=1)
    assert safe(g) == {"1:2H>F"}


def test_safe_moves_include_the_waste_and_never_a_return_from_the_foundations() -> None:
    g = make("australian", ["3C", "9D"], foundations=["-", "-", "-", "2C"], waste="AH", fill=1, foundation_return=True)
    assert {str(m) for m in g.legal_moves()} == {"W:AH>F", "1:3C>F", "F:2C>1"}
    assert safe(g) == {"W:AH>F", "1:3C>F"}
    assert all(m.src != 16 for m in safe_moves(g))


def test_no_safe_move() -> None:
    g = Game.deal("yukon", seed=0)
    assert safe_moves(g) == [] and next_safe_move(g) is None


def test_safe_moves_do_not_change_the_game() -> None:
    g = Game.deal("australian", seed=3)
    before = g.to_dict()
    safe_moves(g)
    finish_moves(g)
    is_certain_win(g)
    assert g.to_dict() == before and g.move_stack == []


# ---------------------------------------------------------------- the certain win


RUNS = [
    "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H AS",
    "KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AH",
    "KD QC JD TC 9D 8C 7D 6C 5D 4C 3D 2C AD",
    "KC QD JC TD 9C 8D 7C 6D 5C 4D 3C 2D AC",
]


def test_all_face_up_in_descending_columns_is_a_certain_win() -> None:
    g = make("yukon", RUNS)
    assert is_certain_win(g)
    line = finish_moves(g)
    assert len(line) == 52
    for m in line:
        g.push(m)
    assert g.is_won()


def test_descending_in_rank_is_enough_colours_do_not_matter() -> None:
    runs = [" ".join(f"{r}{s}" for r in "KQJT98765432A") for s in "SHDC"]
    g = make("yukon", runs)
    assert is_certain_win(g)
    h = g.copy()
    for m in finish_moves(g):
        h.push(m)
    assert h.is_won()


def test_a_face_down_card_or_a_rise_is_not_a_certain_win() -> None:
    face_down = ["KS." + RUNS[0][3:], *RUNS[1:]]
    g = make("yukon", face_down)
    assert g.face_down_count == 1 and not is_certain_win(g) and finish_moves(g) == []
    rise = [RUNS[0].replace("2H AS", "AS 2H"), *RUNS[1:]]
    g = make("yukon", rise)
    assert not is_certain_win(g) and finish_moves(g) == []


def test_not_a_certain_win_with_cards_in_stock_or_waste() -> None:
    base = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"]
    found = ["KS", "KH", "KD", "-"]
    g = make("australian", [base[0][3:]], foundations=found, stock="KC")
    assert not is_certain_win(g)
    g = make("australian", [base[0][3:]], foundations=found, waste="KC")
    assert not is_certain_win(g)
    g = make("australian", base, foundations=found)
    assert is_certain_win(g) and len(finish_moves(g)) == 13


def test_equal_ranks_in_a_column_are_not_descending() -> None:
    # two decks: 7D then 7C in one column is not strictly descending
    found = ["KS", "KH", "KD", "KC", "KS", "KH", "6D", "6C"]
    good = make("milligan-yukon", ["KD QC JD TC 9D 8C 7D", "KC QD JC TD 9C 8D 7C"], foundations=found)
    assert is_certain_win(good) and len(finish_moves(good)) == 14
    bad = make("milligan-yukon", ["KD QC JD TC 9D 8C 7D 7C", "KC QD JC TD 9C 8D"], foundations=found)
    assert not is_certain_win(bad)


@pytest.mark.parametrize("seed", range(12))
def test_finish_moves_win_every_random_certain_win(seed: int) -> None:
    rng = random.Random(seed)
    variant = rng.choice(["yukon", "russian", "alaska", "australian", "milligan-yukon"])
    rules = rules_for(variant)
    piles = [[s % 4 + 4 * r for r in range(rng.randint(0, 13))] for s in range(rules.foundations)]
    rest = [c for c in range(52) for _ in range(rules.decks)]
    for p in piles:
        for c in p:
            rest.remove(c)
    rng.shuffle(rest)
    rest.sort(key=lambda c: -RANK[c])  # stable: equal ranks keep a random order
    cols = [rest[i :: rules.columns] for i in range(rules.columns)]
    g = Game(rules, [([], col) for col in cols], piles)
    g = Game.from_dict(g.to_dict())  # and it is a valid position
    assert is_certain_win(g)
    line = finish_moves(g)
    assert len(line) == rules.card_count - g.cards_on_foundations
    for m in line:
        g.push(m)
    assert g.is_won()
    # (an empty pile takes whichever ace comes first, so pile order may differ)
    assert sorted(names(p[-1] for p in g.foundations)) == sorted(["KS", "KH", "KD", "KC"] * rules.decks)


@pytest.mark.parametrize("name", ["safe_moves", "next_safe_move", "held_back", "is_certain_win", "finish_moves",
                                  "waits_for_the_stock", "kept_for_the_tableau", "left_to_the_player",
                                  "left_in_sentences"])
@pytest.mark.parametrize("not_a_game", ["yukon KS/-/-/-/-/-/- QS/KH/KD/KC", None, 7])
def test_a_function_given_no_game_says_what_it_got(name: str, not_a_game: object) -> None:
    """Given a position text (or anything not a Game) they said AttributeError: 'str' has no 'rules'."""
    import yukon.autoplay

    with pytest.raises(TypeError, match=rf"{name}\(\) needs a yukon.Game, not {type(not_a_game).__name__}"):
        getattr(yukon.autoplay, name)(not_a_game)


@pytest.mark.parametrize("name", ["is_safe_to_play_up", "twin_has_a_slot"])
def test_a_card_check_given_no_game_says_what_it_got(name: str) -> None:
    import yukon.autoplay
    from yukon.visible import VisiblePosition

    view = VisiblePosition.of(Game.deal("yukon", seed=1))
    with pytest.raises(TypeError, match=rf"{name}\(\) needs a yukon.Game, not VisiblePosition"):
        getattr(yukon.autoplay, name)(view, 0)
