"""Garbage in, YukonError out: every entry point of the engine that reads input from outside raises only
``yukon.YukonError`` (a ``ValueError``) for anything it cannot use, with a short one-line message, and
changes nothing. Random JSON values, deep nesting, wrong types, huge text, non-ASCII digits.

Derandomized (the same examples every run); ``YUKON_HYPOTHESIS_EXAMPLES=2000`` explores further.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import yukon
from yukon import Game, Move, YukonError
from yukon.autoplay import is_safe_to_play_up
from yukon.cards import card, card_long_name
from yukon.deal import MAX_SEED, check_seed, parse_seed, parse_seeds
from yukon.errors import InvalidPlaceError, InvalidPositionError, InvalidSeedError
from yukon.position import read_position

_EXPLORE = int(os.environ.get("YUKON_HYPOTHESIS_EXAMPLES", "0"))
FUZZ = settings(max_examples=_EXPLORE or 200, derandomize=not _EXPLORE, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

#: a message longer than this echoes its input
MAX_MESSAGE = 400

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)
#: values a Python caller might pass where JSON was meant
python_junk = json_values | st.binary(max_size=12) | st.tuples(st.integers(), st.text(max_size=3)) | st.builds(
    object) | st.sets(st.integers(), max_size=3) | st.dictionaries(st.integers(), st.integers(), max_size=3)


def rejected(call: Any, *args: Any, **kwargs: Any) -> YukonError | None:
    """Run ``call``; None when it succeeds, its error when that is a short, one-line YukonError."""
    try:
        call(*args, **kwargs)
    except YukonError as exc:
        text = str(exc)
        assert isinstance(exc, ValueError)
        assert text and "\n" not in text and len(text) <= MAX_MESSAGE, text[:1000]
        return exc
    return None


def good_position(variant: str = "australian") -> dict[str, Any]:
    return Game.deal(variant, seed=7).to_dict()


PATHS = [("variant",), ("rules",), ("rules", "empty_column"), ("rules", "foundation_return"), ("tableau",),
         ("tableau", 0), ("tableau", 0, "up"), ("tableau", 0, "up", 0), ("tableau", 1, "down"),
         ("foundations",), ("foundations", 0), ("stock",), ("stock", 0), ("waste",)]


def replaced(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any] | None:
    """A copy of ``data`` with ``value`` at ``path``; None where the path is not there (an empty stock)."""
    out = json.loads(json.dumps(data))
    node = out
    try:
        for key in path[:-1]:
            node = node[key]
        node[path[-1]]
    except (IndexError, KeyError):
        return None
    node[path[-1]] = value
    return out


# ------------------------------------------------------------------ positions


@FUZZ
@given(python_junk)
def test_from_dict_of_anything(value: Any) -> None:
    rejected(Game.from_dict, value)


@FUZZ
@given(st.sampled_from(PATHS), python_junk, st.sampled_from(sorted(yukon.VARIANTS)))
def test_from_dict_with_one_part_replaced(path: tuple[Any, ...], value: Any, variant: str) -> None:
    broken = replaced(good_position(variant), path, value)
    assume(broken is not None)
    rejected(Game.from_dict, broken)


@FUZZ
@given(st.dictionaries(st.text(max_size=20) | st.integers(), python_junk, max_size=4))
def test_rules_of_anything(rules: dict[Any, Any]) -> None:
    rejected(Game.from_dict, {**good_position("yukon"), "rules": rules})


@pytest.mark.parametrize("rules", [{"variant": "alaska"}, {"variant": "yukon", "empty_column": "any"},
                                   {1: "any"}, {"seed": 3}, {"empty_column": ["any"]}])
def test_rules_holding_other_keys_are_unknown_options(rules: dict[Any, Any]) -> None:
    error = rejected(Game.from_dict, {**good_position("yukon"), "rules": rules})
    assert isinstance(error, yukon.InvalidRulesError)


def test_json_text_is_not_a_dict() -> None:
    text = json.dumps(good_position())
    for value in (text, text.encode(), bytearray(text.encode())):
        error = rejected(Game.from_dict, value)
        assert isinstance(error, InvalidPositionError) and "from_json" in str(error)
        assert Game.from_json(value) == Game.deal("australian", seed=7)


@FUZZ
@given(json_values)
def test_from_json_of_any_json(value: Any) -> None:
    rejected(Game.from_json, json.dumps(value))


@FUZZ
@given(st.text(max_size=60) | st.binary(max_size=60))
def test_from_json_of_any_text(text: str | bytes) -> None:
    rejected(Game.from_json, text)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_nesting(depth: int) -> None:
    """Text nested deeper than the JSON reader's recursion, and a parsed structure as deep in every place."""
    assert isinstance(rejected(Game.from_json, "[" * depth + "]" * depth), InvalidPositionError)
    assert isinstance(rejected(Game.from_json, '{"a":' * depth + "1" + "}" * depth), InvalidPositionError)
    assert isinstance(rejected(read_position, "{" + '"a":{' * depth), InvalidPositionError)
    deep: Any = []
    for _ in range(depth):
        deep = [deep]
    for path in PATHS:
        data = replaced(good_position(), path, deep)
        if data is not None:
            assert rejected(Game.from_dict, data) is not None, path


def test_huge_input_is_not_echoed() -> None:
    huge = "Q" * 10_000_000
    for call, arg in ((Game.from_text, huge), (Game.from_json, huge), (Move.from_text, huge),
                      (Game.deal("yukon", seed=1).parse_move, huge), (Game.from_dict, {"variant": huge}),
                      (yukon.parse_card, huge), (parse_seeds, huge)):
        assert rejected(call, arg) is not None, call


@FUZZ
@given(st.text(max_size=80))
def test_from_text_of_any_text(text: str) -> None:
    rejected(Game.from_text, text)


@FUZZ
@given(st.integers(0, 3), st.text(max_size=6), st.sampled_from(sorted(yukon.VARIANTS)))
def test_from_text_with_one_field_changed(field: int, junk: str, variant: str) -> None:
    parts = Game.deal(variant, seed=3).to_text().split()
    if field < len(parts):
        parts[field] = parts[field][: len(parts[field]) // 2] + junk
    rejected(Game.from_text, " ".join(parts))


@FUZZ
@given(python_junk)
def test_from_text_of_anything(value: Any) -> None:
    rejected(Game.from_text, value)


# ------------------------------------------------------------------ moves


@FUZZ
@given(st.text(max_size=20) | python_junk)
def test_move_text_of_anything(text: Any) -> None:
    rejected(Move.from_text, text)


@FUZZ
@given(st.lists(python_junk | st.integers(-5, 120), min_size=4, max_size=4))
def test_move_of_any_fields(fields: list[Any]) -> None:
    rejected(Move, *fields)


@FUZZ
@given(st.text(max_size=20) | python_junk, st.sampled_from(sorted(yukon.VARIANTS)))
def test_parse_and_push_anything(text: Any, variant: str) -> None:
    game = Game.deal(variant, seed=11)
    before = game.to_dict()
    rejected(game.parse_move, text)
    if isinstance(text, str):
        error = rejected(game.push_text, text)
        if error is not None:
            assert game.to_dict() == before
        game = Game.deal(variant, seed=11)
    assert rejected(game.push, text) is not None  # never a Move: always refused
    assert game.to_dict() == before and game.move_stack == []


@pytest.mark.parametrize("text", ["３:QC>F", "٣:QC>F", "1>５", "2:7H+２>5", "2:7H>\u0665", "１２>F"])
def test_only_ascii_digits_name_columns_and_counts(text: str) -> None:
    game = Game.deal("yukon", seed=42)
    assert isinstance(rejected(Move.from_text, text), yukon.InvalidMoveError)
    assert isinstance(rejected(game.parse_move, text), yukon.InvalidMoveError)


def test_replay_of_junk() -> None:
    game = Game.deal("yukon", seed=1)
    for junk in (5, None, [object()], ["2:QQ>1"]):
        assert rejected(game.replay, junk) is not None
    assert game.move_stack == []
    first = str(game.legal_moves()[0])
    with pytest.raises(yukon.InvalidMoveError, match=r"not a list of moves: .* \(a str: give a list, or use push_text"):
        game.replay(first)  # (a str was read as its characters: "not a move: '4'")
    assert game.move_stack == []


# ------------------------------------------------------------------ reading a position: places, cards, images


@pytest.mark.parametrize(("column", "index", "words"), [
    (99, 0, "no column 99: Yukon has columns 0 to 6"), (7, 0, "no column 7"),
    (-1, 0, "no column -1"),  # (it answered for column 7: Python's wrap)
    (0, -1, "no card at index -1 of column 0: it holds one card, index 0"),
    (1, 6, "no card at index 6 of column 1: it holds 6 cards, indexes 0 to 5"),
    (True, 0, "no column True"), ("1", 0, "no column '1'"), (1.0, 0, "no column 1.0"), (0, None, "index None"),
])
def test_card_at_refuses_a_place_the_position_has_not(column: Any, index: Any, words: str) -> None:
    game = Game.deal("yukon", seed=1)
    error = rejected(game.card_at, column, index)
    assert isinstance(error, InvalidPlaceError) and isinstance(error, IndexError), error  # (IndexError it was)
    assert words in str(error)


@FUZZ
@given(python_junk | st.integers(-10, 10), python_junk | st.integers(-10, 25), st.sampled_from(sorted(yukon.VARIANTS)))
def test_card_at_of_anything(column: Any, index: Any, variant: str) -> None:
    game = Game.deal(variant, seed=5)
    if rejected(game.card_at, column, index) is None:
        down, up = game.columns[column]
        assert game.card_at(column, index) == (down + up)[index] and index >= 0 and column >= 0


def test_an_empty_column_holds_no_card() -> None:
    game = Game.from_text("yukon,kings,noreturn KS/5H.KHQC/QDJD/KD/-/KC/6H7H8H9HTHJHQH QS/4H/TD/JC")
    with pytest.raises(InvalidPlaceError, match="no card at index 0 of column 4: it is empty"):
        game.card_at(4, 0)
    assert game.card_at(1, 0) == yukon.parse_card("5H")  # (face down: the engine sees it)


@pytest.mark.parametrize("card", ["AS", -1, 52, 99, True, None, 1.0, pytest.param("x" * 1000, id="long-text")])
def test_foundation_target_refuses_a_non_card(card: Any) -> None:
    """'AS' raised TypeError, 99 IndexError, and -1 answered for the king of clubs."""
    game = Game.deal("yukon", seed=1)
    error = rejected(game.foundation_target, card)
    assert isinstance(error, yukon.InvalidCardError), error
    if card == "AS":
        assert "parse_card('AS') reads a name" in str(error)
    assert [c for c in range(52) if game.foundation_target(c)] == [0, 1, 2, 3]
    assert isinstance(rejected(game.foundation_pile_for, card), yukon.InvalidCardError)  # (its sibling)


@pytest.mark.parametrize("card", ["AS", -1, 52, True, 1.0, None, pytest.param("x" * 1000, id="long-text")])
def test_every_call_that_takes_a_card_int_refuses_a_non_card(card: Any) -> None:
    """The siblings of foundation_target: is_safe_to_play_up('AS') raised TypeError and (-1) read the king of
    clubs, card_long_name too, card_name(True) named the ace of hearts."""
    game = Game.deal("yukon", seed=1)
    for call, args in ((is_safe_to_play_up, (game, card)), (card_long_name, (card,)), (yukon.card_name, (card,))):
        assert isinstance(rejected(call, *args), yukon.InvalidCardError), call


@pytest.mark.parametrize(("rank", "suit"), [("a", 1), (1.5, 1), (True, 0), (1, None), (0, 0), (14, 0), (1, 4)])
def test_card_of_a_rank_and_suit_that_are_no_card(rank: Any, suit: Any) -> None:
    """card('a', 1) raised TypeError, and card(1.5, 1) gave 3.0."""
    assert isinstance(rejected(card, rank, suit), yukon.InvalidCardError)


def test_numpy_ints_are_places_and_cards() -> None:
    """The environment's arrays hold numpy ints: they name columns and cards as ints do."""
    np = pytest.importorskip("numpy")
    game = Game.deal("yukon", seed=1)
    assert game.card_at(np.int64(1), np.int8(2)) == game.card_at(1, 2)
    assert game.foundation_target(np.int8(0)) and yukon.card_name(np.int16(37)) == "TH"
    assert card(np.int64(12), np.int8(3)) == yukon.parse_card("QC")


def test_a_pysolfc_game_number_of_any_size_is_refused_in_a_line() -> None:
    """10**5000 raised ValueError (its repr has too many digits), a megabyte numbering was echoed whole."""
    assert isinstance(rejected(Game.deal, "yukon", 10**5000, "pysolfc"), yukon.NumberingError)
    assert isinstance(rejected(Game.deal, "yukon", 1, "x" * 10**6), yukon.NumberingError)


@pytest.mark.parametrize("variant", sorted(yukon.VARIANTS))
def test_from_image_refuses_bytes_that_are_no_image(variant: str) -> None:
    """It raised IndexError, or read trailing bytes and cards above 51 into a corrupt game."""
    game = Game.deal(variant, seed=9)
    game.push(game.legal_moves()[0])
    rules, image = game.rules, game.to_image()
    assert Game.from_image(rules, image) == game and Game.from_image(rules, bytearray(image)) == game
    bad = [b"", b"\x05\x01", image[:-1], image + b"\x00", image[:40], bytes([image[0] + 9]) + image[1:],
           image[:2] + bytes([60]) + image[3:]]  # (60: no card)
    for junk in bad:
        assert isinstance(rejected(Game.from_image, rules, junk), InvalidPositionError), junk
    assert isinstance(rejected(Game.from_image, rules, image.decode("latin-1")), InvalidPositionError)
    assert isinstance(rejected(Game.from_image, variant, image), yukon.InvalidRulesError)


@FUZZ
@given(st.binary(max_size=140), st.sampled_from(sorted(yukon.VARIANTS)))
def test_from_image_of_any_bytes(image: bytes, variant: str) -> None:
    rules = yukon.rules_for(variant)
    if rejected(Game.from_image, rules, image) is None:
        game = Game.from_image(rules, image)
        assert game.to_image() == image and len(game.columns) == rules.columns


# ------------------------------------------------------------------ deals and seeds


@FUZZ
@given(python_junk, python_junk)
def test_deal_of_anything(variant: Any, seed: Any) -> None:
    rejected(Game.deal, variant, seed)
    rejected(Game.deal, "yukon", seed)


@FUZZ
@given(st.dictionaries(st.text(max_size=12).filter(lambda k: k not in ("variant", "seed")), python_junk,
                       max_size=3))
def test_deal_options_of_anything(options: dict[str, Any]) -> None:
    rejected(Game.deal, "yukon", 1, **options)
    rejected(yukon.rules_for, "alaska", **options)


def test_options_named_variant_are_unknown_options() -> None:
    assert isinstance(rejected(yukon.rules_for, "yukon", **{"variant": "alaska"}), yukon.InvalidRulesError)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**100, 1.0, "3", True, None, math.nan, [1]])
def test_check_seed_raises_a_yukon_error(seed: Any) -> None:
    assert isinstance(rejected(check_seed, seed), InvalidSeedError)


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, MAX_SEED])
def test_every_deal_number_deals(seed: int) -> None:
    game = Game.deal("yukon", seed=seed)
    assert game.seed == seed and Game.deal("yukon", seed=seed) == game
    assert parse_seed(str(seed)) == seed


@FUZZ
@given(st.text(max_size=25))
def test_parse_seed_of_any_text(text: str) -> None:
    error = rejected(parse_seed, text)
    if error is None:
        assert text.strip().isascii() and text.strip().isdigit()
    rejected(parse_seeds, text, 1000)


@pytest.mark.parametrize("text", ["１２", "١٢", "+5", "1_0", " 0x1 ", "1e3", str(MAX_SEED + 1), "", "-"])
def test_parse_seed_refuses(text: str) -> None:
    assert isinstance(rejected(parse_seed, text), InvalidSeedError)


@pytest.mark.parametrize("text", ["1-3,,5", "1-3,", ",4", " , "])
def test_an_empty_item_of_a_seed_list_is_named(text: str) -> None:
    """It said "bad seed range '': not a deal number: ''", which names nothing the user wrote."""
    with pytest.raises(InvalidSeedError, match=r"empty item in the seed range '.*': write the numbers between"):
        parse_seeds(text)
