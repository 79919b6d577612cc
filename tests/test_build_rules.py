"""The build rules as objects (:class:`yukon.rules.BuildRule`): the one place that says which card fits
on which, which cards are safe to play up, and what a card that does not fit needs.

The engine's legal moves, the safe plays of the games (``yukon.autoplay``) and of the solver (rule 1),
and the refusals' words all ask the variant's object; these tests pin that they agree with it.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given

from engine_helpers import ALL_OPTIONS, positions
from test_properties import POSITION_SETTINGS
from yukon import FOUNDATION, STOCK, WASTE, Game, Move, rules_for
from yukon.autoplay import is_safe_to_play_up, waits_for_the_stock
from yukon.cards import NAME, RANK, SUIT, parse_card
from yukon.errors import IllegalMoveError, InvalidRulesError
from yukon.rules import ALTERNATE, BUILD_RULES, BUILDS, SUIT_DOWN, SUIT_UPDOWN, VARIANTS, BuildRule, build_rule
from yukon.session import explain
from yukon.solver.search import is_safe_foundation_card, min_heights, twin_has_a_slot


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# ---------------------------------------------------------------- the objects and the variants' data


def test_each_variant_refers_to_its_build_rule_object() -> None:
    expected = {"yukon": ALTERNATE, "russian": SUIT_DOWN, "alaska": SUIT_UPDOWN, "australian": SUIT_DOWN,
                "milligan-yukon": ALTERNATE}
    assert {name: r.build_rule for name, r in VARIANTS.items()} == expected
    for name, rule in expected.items():
        for opt in ALL_OPTIONS:
            if opt[0] == name:
                rules = rules_for(name, empty_column=opt[1], foundation_return=opt[2])
                assert rules.build_rule is rule and rules.build == rule.name  # the contract's string


def test_the_registry_and_the_lookup() -> None:
    assert BUILDS == ("alternate", "suit", "suit-updown") == tuple(BUILD_RULES)
    assert [build_rule(name) for name in BUILDS] == [ALTERNATE, SUIT_DOWN, SUIT_UPDOWN]
    assert build_rule(SUIT_UPDOWN) is SUIT_UPDOWN
    assert len({b.code for b in BUILD_RULES.values()}) == 3  # the compiled search tells them apart
    for bad in ("diagonal", "", None, 3):
        with pytest.raises(InvalidRulesError, match="unknown build rule"):
            build_rule(bad)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ALTERNATE.same_suit = True  # type: ignore[misc]


@pytest.mark.parametrize(
    ("rule", "lead", "fits", "not_fits"),
    [
        (ALTERNATE, "7H", "8S 8C", "8H 8D 6S 6C 9S 7S"),
        (ALTERNATE, "QC", "KH KD", "KS KC JH"),
        (ALTERNATE, "KS", "", "AH QH KH"),
        (ALTERNATE, "AD", "2S 2C", "2H 2D KS"),
        (SUIT_DOWN, "7H", "8H", "8D 8S 6H"),
        (SUIT_DOWN, "KD", "", "QD AD"),
        (SUIT_UPDOWN, "7H", "8H 6H", "8D 6S 7H"),
        (SUIT_UPDOWN, "KD", "QD", "AD"),  # no wrap between King and Ace
        (SUIT_UPDOWN, "AD", "2D", "KD"),
    ],
)
def test_which_card_fits_on_which(rule: BuildRule, lead: str, fits: str, not_fits: str) -> None:
    c = parse_card(lead)
    assert [t for t in range(52) if rule.fits(c, t)] == sorted(cards(fits))
    assert rule.placeable_on[c] == tuple(sorted(cards(fits)))
    for t in cards(fits):
        assert c in rule.accepted_by[t] and rule.table[t * 52 + c] == 1
    for t in cards(not_fits):
        assert not rule.fits(c, t) and rule.table[t * 52 + c] == 0


@pytest.mark.parametrize(
    ("rule", "lead", "target", "wanted", "sentence"),
    [
        (ALTERNATE, "7S", "8S", "a red eight", "7♠ needs a red 8 (8♥ or 8♦); 8♠ is not one."),
        (ALTERNATE, "TH", "JD", "a black jack", "10♥ needs a black J (J♠ or J♣); J♦ is not one."),
        (ALTERNATE, "KH", "QS", None, "K♥ is a King: nothing is higher, it can only lead an empty column."),
        (SUIT_DOWN, "6C", "7S", "the seven of clubs", "6♣ goes only on 7♣, not on 7♠."),
        (SUIT_DOWN, "KC", "AC", None, "K♣ is a King: nothing is higher, it can only lead an empty column."),
        (SUIT_UPDOWN, "6C", "7S", "the seven or five of clubs",
         "6♣ goes only on 7♣ or 5♣, not on 7♠."),
        (SUIT_UPDOWN, "KC", "AC", "the queen of clubs", "K♣ goes only on Q♣, not on A♣."),
        (SUIT_UPDOWN, "AC", "KC", "the two of clubs", "A♣ goes only on 2♣, not on K♣."),
    ],
)
def test_the_words_for_what_a_card_needs(rule: BuildRule, lead: str, target: str, wanted: str | None,
                                         sentence: str) -> None:
    assert rule.wanted(parse_card(lead)) == wanted
    assert rule.refusal(parse_card(lead), parse_card(target)) == sentence


def test_a_refusal_is_worded_by_the_variants_rule() -> None:
    """``session.explain`` of a card that does not fit is the build rule's sentence, in every variant."""
    for name, rules in VARIANTS.items():
        game = Game.deal(name, seed=3)
        misfits = [
            Move(s, d, up[i], len(up) - i)
            for s, (_, up) in enumerate(game.columns) for i in range(len(up))
            for d, (_, dup) in enumerate(game.columns) if d != s and dup and not rules.fits(up[i], dup[-1])
        ]
        assert misfits, name
        for m in misfits[:20]:
            with pytest.raises(IllegalMoveError) as info:
                game.push(m)
            target = game.columns[m.dst][1][-1]
            assert info.value.reason == "does-not-fit" and info.value.target == NAME[target]
            assert f"({rules.build} build)" in str(info.value)  # the contract's message names the rule
            assert explain(info.value, rules) == rules.build_rule.refusal(m.card, target)


def test_the_help_words() -> None:
    assert [b.words for b in BUILD_RULES.values()] == ["alternate colours", "same suit", "same suit, up or down"]


# ---------------------------------------------------------------- fits agrees with the engine


@POSITION_SETTINGS
@given(g=positions())
def test_fits_agrees_with_the_engines_legal_moves(g: Game) -> None:
    """On random positions of every variant and option: a move of a face-up card (with those on it), the
    waste's top or a foundation's top onto another column's free card is legal exactly when the build
    rule says the card fits there, and every legal move onto a card is one that fits."""
    rule = g.rules.build_rule
    legal = set(g.legal_moves())
    columns = g.columns
    sources: list[tuple[int, int, int]] = []  # (source, card, count)
    for s, (_, up) in enumerate(columns):
        sources += [(s, up[i], len(up) - i) for i in range(len(up))]
    if g.waste:
        sources.append((WASTE, g.waste[-1], 1))
    if g.rules.foundation_return:
        sources += [(FOUNDATION, top, 1) for top in {p[-1] for p in g.foundations if p}]
    for s, card, count in sources:
        for d, (_, up) in enumerate(columns):
            if d == s or not up:
                continue
            move = Move(s, d, card, count)
            assert (move in legal) == g.is_legal(move) == rule.fits(card, up[-1]), (g.to_text(), str(move))
    for m in legal:
        if m.src != STOCK and m.dst != FOUNDATION and columns[m.dst][1]:
            assert rule.fits(m.card, columns[m.dst][1][-1]), (g.to_text(), str(m))


# ---------------------------------------------------------------- safe to play up: one rule


@POSITION_SETTINGS
@given(g=positions())
def test_the_games_and_the_solvers_safe_plays_are_one_rule(g: Game) -> None:
    """``yukon.autoplay``'s "safe to play up" (the games' auto-play) is the solver's rule 1 (the build
    rule's ``is_safe`` at the heights all copies reach, the twin's slot with two decks, nothing while a
    Milligan stock lasts) and the definition: no copy of a card that fits on it is off the foundations."""
    up_count = [0] * 52
    for pile in g.foundations:
        for c in pile:
            up_count[c] += 1
    heights = min_heights(g)
    for m in g.legal_moves():
        if m.dst != FOUNDATION or m.src == FOUNDATION:
            continue
        solver_says = (not waits_for_the_stock(g) and is_safe_foundation_card(g.rules.build_rule, m.card, heights)
                       and twin_has_a_slot(g, m.card))
        by_definition = all(up_count[y] == g.rules.decks for y in g.rules.build_rule.accepted_by[m.card])
        assert is_safe_to_play_up(g, m.card) == solver_says, (g.to_text(), str(m))
        if g.rules.decks == 1 or not solver_says:
            assert not solver_says or by_definition, (g.to_text(), str(m))
        assert g.rules.build_rule.is_safe(m.card, heights) == by_definition, (g.to_text(), str(m))


@pytest.mark.parametrize("rule", list(BUILD_RULES.values()), ids=BUILDS)
def test_safe_for_is_the_highest_card_that_fits_per_suit(rule: BuildRule) -> None:
    for card in range(52):
        need = rule.safe_for(card)
        assert rule.safe_table[card * 4:card * 4 + 4] == bytes(need)
        for suit in range(4):
            fitting = [RANK[y] for y in range(52) if SUIT[y] == suit and rule.fits(y, card)]
            assert need[suit] == max(fitting, default=0)
    # only Kings are ever safe building up and down: the next card up would have to be up first
    assert all(any(h > RANK[c] for h in SUIT_UPDOWN.safe_for(c)) for c in range(48))


# ---------------------------------------------------------------- Milligan Yukon: a whole column


def _milligan_with_a_whole_column(stock: bool) -> Game:
    """A Milligan Yukon deal with column 2 emptied (its cards put face down under column 3, and with
    ``stock`` false the stock's too): column 1 is one face-up card on no face-down one."""
    d = Game.deal("milligan-yukon", seed=5).to_dict()
    tableau = d["tableau"]
    tableau[2]["down"] = tableau[1]["down"] + tableau[1]["up"] + tableau[2]["down"]
    tableau[1] = {"down": [], "up": []}
    if not stock:
        tableau[2]["down"] = d["stock"] + tableau[2]["down"]
        d["stock"] = []
    return Game.from_dict(d)


def test_milligan_whole_column_into_an_empty_one_is_refused_and_says_why() -> None:
    """docs/rules.md, reading 6: the move is left out in every variant, in Milligan Yukon while the stock
    lasts too, where it is *not* nothing (the next deal lands differently): the refusal says what it is."""
    for stock in (True, False):
        g = _milligan_with_a_whole_column(stock)
        assert bool(g.stock) == stock
        (down, (card,)), _ = g.columns[:2]
        assert not down
        move = Move(0, 1, card, 1)
        assert move not in g.legal_moves() and not g.is_legal(move)
        with pytest.raises(IllegalMoveError) as info:
            g.push(move)
        assert info.value.reason == "whole-column"
        if stock:
            assert "only reorders the columns" in str(info.value) and "changes nothing" not in str(info.value)
        else:
            assert "changes nothing" in str(info.value)
        assert "reorders the columns" in explain(info.value, g.rules)
    # why the words differ: with the stock dealing, the same cards one column over end up elsewhere
    g = _milligan_with_a_whole_column(True)
    swapped = g.to_dict()
    swapped["tableau"][0], swapped["tableau"][1] = swapped["tableau"][1], swapped["tableau"][0]
    other = Game.from_dict(swapped)
    for x in (g, other):
        x.push(x.parse_move("deal"))
    assert sorted(map(tuple, g.column_cards)) != sorted(map(tuple, other.column_cards))
    assert explain(IllegalMoveError("x", "whole-column", "KD"), rules_for("yukon")).endswith("changes nothing.")
