"""Variants as data: the registry, aliases, options, build tables and the deal shape of every variant."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from yukon import VARIANTS, Game, InvalidPositionError, InvalidRulesError, Rules, UnknownVariantError, rules_for
from yukon.cards import DECK, KING, RANK, RED, SUIT, parse_card
from yukon.rules import accepted_by, build_table, variant_name

ALL_VARIANTS = ["yukon", "russian", "alaska", "australian", "milligan-yukon"]


def test_the_registry_holds_exactly_the_five_variants() -> None:
    assert list(VARIANTS) == ALL_VARIANTS
    assert all(isinstance(r, Rules) for r in VARIANTS.values())


@pytest.mark.parametrize(
    ("variant", "decks", "build", "stock", "empty", "ret", "columns", "foundations"),
    [
        ("yukon", 1, "alternate", "none", "kings", False, 7, 4),
        ("russian", 1, "suit", "none", "kings", False, 7, 4),
        ("alaska", 1, "suit-updown", "none", "kings", False, 7, 4),
        ("australian", 1, "suit", "waste", "kings", False, 7, 4),
        ("milligan-yukon", 2, "alternate", "rows", "kings", True, 8, 8),
    ],
)
def test_variant_table_of_rules_md(
    variant: str, decks: int, build: str, stock: str, empty: str, ret: bool, columns: int, foundations: int
) -> None:
    r = rules_for(variant)
    assert (r.variant, r.decks, r.build, r.stock) == (variant, decks, build, stock)
    assert (r.empty_column, r.foundation_return) == (empty, ret)
    assert (r.columns, r.foundations, r.card_count) == (columns, foundations, 52 * decks)
    assert r.has_stock == (stock != "none")
    assert r.has_waste == (stock == "waste")


def test_stock_sizes() -> None:
    assert [rules_for(v).stock_size for v in ALL_VARIANTS] == [0, 0, 0, 24, 68]


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("russian-solitaire", "russian"),
        ("Russian Solitaire", "russian"),
        ("russian_solitaire", "russian"),
        ("australian-patience", "australian"),
        ("milligan", "milligan-yukon"),
        ("Milligan Yukon", "milligan-yukon"),
        ("YUKON", "yukon"),
        (" alaska ", "alaska"),
        ("classic", "yukon"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert variant_name(alias) == name
    assert rules_for(alias).variant == name
    assert Game.deal(alias, seed=3).rules.variant == name


@pytest.mark.parametrize("name", ["klondike", "", "yukon2", "spider", "milligan-harp"])
def test_unknown_variants(name: str) -> None:
    with pytest.raises(UnknownVariantError, match="unknown variant"):
        rules_for(name)
    assert issubclass(UnknownVariantError, InvalidPositionError)


def test_variant_must_be_a_name() -> None:
    with pytest.raises(UnknownVariantError):
        variant_name(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("empty", ["kings", "any"])
@pytest.mark.parametrize("ret", [False, True])
def test_every_option_works_on_every_variant(variant: str, empty: str, ret: bool) -> None:
    r = rules_for(variant, empty_column=empty, foundation_return=ret)
    assert r.options() == {"empty_column": empty, "foundation_return": ret}
    assert r.kings_only == (empty == "kings")
    g = Game.deal(variant, seed=5, empty_column=empty, foundation_return=ret)
    assert g.rules == r
    assert g.to_dict()["rules"] == {"empty_column": empty, "foundation_return": ret}


@pytest.mark.parametrize(
    ("options", "fault"),
    [
        ({"empty_colum": "any"}, "unknown rule option 'empty_colum'"),
        ({"redeal": 1}, "unknown rule option 'redeal'"),
        ({"empty_column": "queens"}, "'empty_column' takes"),
        ({"empty_column": True}, "'empty_column' takes"),
        ({"foundation_return": "yes"}, r"'foundation_return' takes true or false \(False or True in Python\)"),
        ({"foundation_return": 1}, "'foundation_return' takes"),
        ({"foundation_return": None}, "'foundation_return' takes"),
    ],
)
def test_bad_options(options: dict[str, object], fault: str) -> None:
    with pytest.raises(InvalidRulesError, match=fault):
        rules_for("yukon", **options)
    with pytest.raises(InvalidRulesError, match=fault):
        Game.deal("yukon", seed=1, **options)


def test_rules_are_frozen_values() -> None:
    r = rules_for("yukon")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.build = "suit"  # type: ignore[misc]
    assert rules_for("yukon", empty_column="any") == rules_for("yukon").with_options(empty_column="any")
    assert rules_for("yukon").with_options() is rules_for("yukon")
    assert rules_for(r) is r


def test_describe() -> None:
    assert rules_for("yukon").describe() == "Yukon (empty column: kings, foundation return: off)"
    assert rules_for("milligan").describe() == "Milligan Yukon (empty column: kings, foundation return: on)"


# ---------------------------------------------------------------- build rules as tables


def _fits(build: str, lead: str, target: str) -> bool:
    return bool(build_table(build)[parse_card(target) * 52 + parse_card(lead)])


@pytest.mark.parametrize(
    ("build", "lead", "target", "ok"),
    [
        ("alternate", "7H", "8C", True),
        ("alternate", "7H", "8S", True),
        ("alternate", "7H", "8D", False),
        ("alternate", "7H", "8H", False),
        ("alternate", "7H", "6C", False),
        ("alternate", "QC", "KH", True),
        ("alternate", "KC", "AH", False),
        ("alternate", "AS", "2D", True),
        ("suit", "7H", "8H", True),
        ("suit", "7H", "8D", False),
        ("suit", "7H", "8C", False),
        ("suit", "8H", "7H", False),
        ("suit-updown", "7H", "8H", True),
        ("suit-updown", "8H", "7H", True),
        ("suit-updown", "7H", "8D", False),
        ("suit-updown", "7H", "7H", False),
        ("suit-updown", "9H", "7H", False),
        ("suit-updown", "KH", "AH", False),
        ("suit-updown", "AH", "KH", False),
    ],
)
def test_build_rules(build: str, lead: str, target: str, ok: bool) -> None:
    assert _fits(build, lead, target) is ok


@pytest.mark.parametrize("build", ["alternate", "suit", "suit-updown"])
def test_build_tables_match_their_definition(build: str) -> None:
    table = build_table(build)
    for t in DECK:
        for c in DECK:
            if build == "alternate":
                want = RANK[c] == RANK[t] - 1 and RED[c] != RED[t]
            elif build == "suit":
                want = RANK[c] == RANK[t] - 1 and SUIT[c] == SUIT[t]
            else:
                want = abs(RANK[c] - RANK[t]) == 1 and SUIT[c] == SUIT[t]
            assert bool(table[t * 52 + c]) is want
        assert accepted_by(build)[t] == tuple(c for c in DECK if table[t * 52 + c])
    # how many cards a free card takes: 2 (alternate), 1 (suit), 2 (up or down in suit), none on an ace
    sizes = Counter(len(a) for a in accepted_by(build))
    expected = {"alternate": {2: 48, 0: 4}, "suit": {1: 48, 0: 4}, "suit-updown": {2: 44, 1: 8}}[build]
    assert dict(sizes) == expected


def test_unknown_build_rule() -> None:
    with pytest.raises(InvalidRulesError):
        build_table("diagonal")


def test_empty_column_rule() -> None:
    kings = rules_for("yukon")
    anyc = rules_for("yukon", empty_column="any")
    for c in DECK:
        assert kings.accepts_into_empty(c) is (RANK[c] == KING)
        assert anyc.accepts_into_empty(c)


# ---------------------------------------------------------------- deal shapes


@pytest.mark.parametrize("variant", ["yukon", "russian", "alaska"])
@pytest.mark.parametrize("seed", [0, 1, 99, 2**64 - 1])
def test_yukon_deal_shape(variant: str, seed: int) -> None:
    g = Game.deal(variant, seed=seed)
    cols = g.columns
    assert len(cols) == 7
    assert [len(d) + len(u) for d, u in cols] == [1, 6, 7, 8, 9, 10, 11]
    assert [len(d) for d, _ in cols] == [0, 1, 2, 3, 4, 5, 6]
    assert [len(u) for _, u in cols] == [1, 5, 5, 5, 5, 5, 5]
    assert sum(len(d) for d, _ in cols) == 21 and sum(len(u) for _, u in cols) == 31
    assert g.stock == [] and g.waste == [] and g.foundations == [[], [], [], []]
    assert sorted(c for d, u in cols for c in d + u) == list(DECK)


@pytest.mark.parametrize("seed", [0, 1, 99])
def test_australian_deal_shape(seed: int) -> None:
    g = Game.deal("australian", seed=seed)
    cols = g.columns
    assert [(len(d), len(u)) for d, u in cols] == [(0, 4)] * 7
    assert len(g.stock) == 24 and g.waste == []
    assert g.foundations == [[]] * 4
    assert sorted(g.stock + [c for _, u in cols for c in u]) == list(DECK)


@pytest.mark.parametrize("seed", [0, 1, 99])
def test_milligan_deal_shape(seed: int) -> None:
    g = Game.deal("milligan-yukon", seed=seed)
    cols = g.columns
    assert [(len(d), len(u)) for d, u in cols] == [(i, 1) for i in range(8)]
    assert len(g.stock) == 68 and g.waste == []
    assert g.foundations == [[]] * 8
    all_cards = g.stock + [c for d, u in cols for c in d + u]
    assert Counter(all_cards) == Counter({c: 2 for c in DECK})


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_deals_are_reproducible_and_differ_by_seed(variant: str) -> None:
    assert Game.deal(variant, seed=11) == Game.deal(variant, seed=11)
    assert Game.deal(variant, seed=11) != Game.deal(variant, seed=12)
    assert Game.deal(variant, seed=11).seed == 11


def test_options_do_not_change_the_cards_dealt() -> None:
    a = Game.deal("yukon", seed=8)
    b = Game.deal("yukon", seed=8, empty_column="any", foundation_return=True)
    assert a.columns == b.columns and a.rules != b.rules


def test_a_random_deal_keeps_its_seed() -> None:
    g = Game.deal("yukon")
    assert isinstance(g.seed, int)
    assert Game.deal("yukon", seed=g.seed) == g


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True, None.__class__])
def test_bad_seeds(seed: object) -> None:
    with pytest.raises(ValueError, match="deal number"):
        Game.deal("yukon", seed=seed)  # type: ignore[arg-type]


def test_rules_fits() -> None:
    assert rules_for("yukon").fits(parse_card("7H"), parse_card("8C"))
    assert not rules_for("russian").fits(parse_card("7H"), parse_card("8C"))
    assert rules_for("alaska").fits(parse_card("9H"), parse_card("8H"))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_says_how_its_cards_build(variant: str) -> None:
    # the web help of Milligan Yukon never said (its one sentence is about the stock): the words are the rule's
    rules = rules_for(variant)
    build = rules.build_rule
    words = rules.build_in_words
    assert words.startswith("Build up or down" if build.up_too else "Build down")
    assert ("in the same suit" in words) is build.same_suit
    assert ("in alternate colours" in words) is not build.same_suit
    from yukon.tui.screens import rules_words

    assert words in rules_words(rules)  # (the terminal's help says it the same way)
