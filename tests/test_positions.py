"""Whole positions: the JSON form and the one-line form, their round-trips, and every malformed input rejected."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from engine_helpers import ALL_OPTIONS, make
from yukon import Game, InvalidPositionError
from yukon.position import read_position
from yukon.rules import VARIANTS

TOP_KEYS = ["variant", "rules", "tableau", "foundations", "stock", "waste"]


def played(variant: str, seed: int, n: int, **options: Any) -> Game:
    """A deal with ``n`` moves played (foundation moves first, else the first move listed)."""
    g = Game.deal(variant, seed=seed, **options)
    for _ in range(n):
        moves = g.legal_moves()
        if not moves:
            break
        up = [m for m in moves if m.dst == 16]
        g.push(up[0] if up else moves[len(g.move_stack) * 7 % len(moves)])
    return g


# ---------------------------------------------------------------- writing and round-trips


@pytest.mark.parametrize(("variant", "empty", "ret"), ALL_OPTIONS)
def test_json_and_one_line_round_trip(variant: str, empty: str, ret: bool) -> None:
    g = played(variant, 3, 40, empty_column=empty, foundation_return=ret)
    d = g.to_dict()
    assert list(d) == TOP_KEYS
    assert d["rules"] == {"empty_column": empty, "foundation_return": ret}
    assert all(list(col) == ["down", "up"] for col in d["tableau"])
    assert Game.from_dict(d) == g
    assert Game.from_dict(json.loads(json.dumps(d))) == g
    assert Game.from_json(json.dumps(d)) == g
    assert Game.from_json(json.dumps(d).encode()) == g
    text = g.to_text()
    assert "\n" not in text and Game.from_text(text) == g
    assert Game.from_text(text).to_text() == text
    assert read_position(text) == g and read_position(json.dumps(d, indent=2)) == g
    assert eval(repr(g), {"Game": Game}) == g


def test_a_reader_fills_in_defaults() -> None:
    full = Game.deal("milligan-yukon", seed=2).to_dict()
    d = {k: full[k] for k in ("variant", "tableau", "foundations", "stock")}  # no rules, no waste
    g = Game.from_dict(d)
    assert g.rules.options() == {"empty_column": "kings", "foundation_return": True}
    d["rules"] = {"empty_column": "any"}  # one key: the other takes the variant's default
    assert Game.from_dict(d).rules.options() == {"empty_column": "any", "foundation_return": True}
    d["rules"] = None
    assert Game.from_dict(d).rules.foundation_return is True
    y = Game.deal("yukon", seed=2).to_dict()
    del y["stock"], y["waste"]
    assert Game.from_dict(y) == Game.deal("yukon", seed=2)
    y["stock"] = y["waste"] = None
    assert Game.from_dict(y) == Game.deal("yukon", seed=2)
    for col in y["tableau"]:
        if not col["down"]:
            del col["down"]
    assert Game.from_dict(y) == Game.deal("yukon", seed=2)


def test_a_reader_accepts_aliases_and_lenient_cards_a_writer_writes_canonical_forms() -> None:
    g = Game.deal("russian", seed=4)
    d = g.to_dict()
    d["variant"] = "Russian Solitaire"
    d["tableau"][0]["up"] = [c.replace("T", "10").lower() for c in d["tableau"][0]["up"]]
    d["tableau"][1]["up"] = [{"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[1]] + c[0] for c in d["tableau"][1]["up"]]
    back = Game.from_dict(d)
    assert back == g and back.to_dict() == g.to_dict()
    text = g.to_text().replace("russian,", "russian-solitaire,").lower()
    assert Game.from_text(text) == g


def test_the_one_line_form_example() -> None:
    g = Game.deal("yukon", seed=5)
    assert g.to_text() == (
        "yukon,kings,noreturn QD/KC.JD9D2H5D5H/QCTS.9S8CKSAH3S/3H4DAS.KDQH6HJHQS/4S2C9CJS.6S9H6D7SJC/"
        "7H8S7C5S3C.2D5C7DAC8D/TC8H2S4C6CTD.THAD4HKH3D -/-/-/-"
    )
    a = Game.deal("australian", seed=5, empty_column="any", foundation_return=True)
    a.push(a.parse_move("deal"))
    head, _cols, found, stock = a.to_text().split(" ")
    assert head == "australian,any,return" and found == "-/-/-/-"
    assert stock.endswith("/" + "".join(c for c in a.to_dict()["waste"]))


def test_one_line_foundations_hold_their_suit_from_the_ace_to_the_top_card() -> None:
    g = make("yukon", ["KC"], foundations=["KS", "KH", "KD", "QC"])
    assert g.to_text() == "yukon,kings,noreturn KC/-/-/-/-/-/- KS/KH/KD/QC"
    assert [len(p) for p in Game.from_text(g.to_text()).foundations] == [13, 13, 13, 12]


def test_one_line_reader_tolerances() -> None:
    g = Game.deal("yukon", seed=5)
    text = g.to_text()
    assert Game.from_text("  " + text.replace(" ", "   ") + "\n") == g
    # a variant without a stock may still carry an empty STOCK/WASTE field
    assert Game.from_text(text + " -/-") == g


# ---------------------------------------------------------------- malformed JSON positions


def _base(variant: str = "yukon") -> dict[str, Any]:
    return Game.deal(variant, seed=5).to_dict()


def _set(path: list[Any], value: Any, variant: str = "yukon") -> Callable[[], Any]:
    def build() -> Any:
        d = _base(variant)
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return d

    return build


def _delete(key: str) -> Callable[[], Any]:
    def build() -> Any:
        d = _base()
        del d[key]
        return d

    return build


def _swap_into_foundation() -> dict[str, Any]:
    d = _base()
    # take QD (column 1's only card) off the tableau and put it on a foundation out of sequence
    d["tableau"][0]["up"] = []
    d["foundations"][0] = ["QD"]
    return d


def _duplicate() -> dict[str, Any]:
    d = _base()
    d["tableau"][0]["up"] = ["QD", "JD"]
    return d


def _missing() -> dict[str, Any]:
    d = _base()
    d["tableau"][1]["up"].pop()  # 5H gone
    return d


def _down_without_up() -> dict[str, Any]:
    d = _base()
    col = d["tableau"][1]
    d["tableau"][0]["up"] += col["up"]
    col["up"] = []
    return d


def _mixed_foundation() -> dict[str, Any]:
    d = _base()
    d["tableau"][2]["up"].remove("AH")
    d["tableau"][6]["up"].remove("AD")
    d["foundations"][0] = ["AH", "AD"]
    return d


def _out_of_sequence() -> dict[str, Any]:
    d = _base()
    d["tableau"][2]["up"].remove("AH")
    d["tableau"][1]["up"].remove("2H")
    d["foundations"][1] = ["2H", "AH"]
    return d


def _stock_in_yukon() -> dict[str, Any]:
    d = _base()
    d["tableau"][0]["up"] = []
    d["stock"] = ["QD"]
    return d


def _waste_in_milligan() -> dict[str, Any]:
    d = _base("milligan-yukon")
    d["waste"] = [d["stock"].pop()]
    return d


MALFORMED_JSON: list[tuple[str, Callable[[], Any], str]] = [
    ("not JSON", lambda: '{"variant": "yukon", "tableau": [', "not valid JSON"),
    ("JSON but not an object", lambda: "[1, 2, 3]", "a position is a JSON object, not list"),
    ("not an object", lambda: ["yukon"], "a position is a JSON object, not list"),
    ("no variant", _delete("variant"), "no 'variant' key"),
    ("no tableau", _delete("tableau"), "no 'tableau' key"),
    ("no foundations", _delete("foundations"), "no 'foundations' key"),
    ("unknown variant", _set(["variant"], "klondike"), "unknown variant 'klondike'"),
    ("variant not a name", _set(["variant"], 7), "variant must be a name"),
    ("unknown option", _set(["rules", "redeal"], True), "unknown rule option 'redeal'"),
    ("bad option value", _set(["rules", "empty_column"], "queens"), "'empty_column' takes"),
    ("bad option type", _set(["rules", "foundation_return"], "no"), "'foundation_return' takes"),
    ("rules not an object", _set(["rules"], ["kings"]), "'rules' must be an object"),
    ("tableau not a list", _set(["tableau"], {"1": []}), "'tableau' must be a list of columns"),
    ("too few columns", _set(["tableau"], [{"down": [], "up": ["7H"]}]), "Yukon has 7 columns, the position has 1"),
    ("column not an object", _set(["tableau", 3], ["KD"]), "column 4 must be an object"),
    ("column with an unknown key", _set(["tableau", 3, "face_up"], []), "column 4 has unknown key"),
    ("column without up", lambda: {**_base(), "tableau": [{"down": []}] * 7}, "column 1 has no 'up' list"),
    ("down not a list", _set(["tableau", 2, "down"], "QCTS"), "column 3 'down' must be a list of cards"),
    ("malformed card", _set(["tableau", 0, "up"], ["QX"]), r"column 1 'up'\[0\]: not a card: 'QX'"),
    ("card not a string", _set(["tableau", 0, "up"], [12]), r"column 1 'up'\[0\]: not a card: 12"),
    ("card missing", _missing, "card.s. missing: 5H"),
    ("card present twice", _duplicate, "card.s. present more than once: JD"),
    ("down without up", _down_without_up, "column 2 has face-down cards but no face-up card"),
    ("foundations not a list", _set(["foundations"], "AS"), "'foundations' must be a list of piles"),
    ("foundation pile not a list", _set(["foundations", 0], "AS"), "foundation 1 must be a list of cards"),
    ("wrong foundation count", _set(["foundations"], [[], [], []]), "Yukon has 4 foundations, the position has 3"),
    ("foundation out of sequence", _swap_into_foundation, "foundation 1 is out of sequence: QD at height 1"),
    ("foundation out of order", _out_of_sequence, "foundation 2 is out of sequence: 2H at height 1"),
    ("foundation mixing suits", _mixed_foundation, "foundation 1 mixes suits: AH and AD"),
    ("stock in a variant without stock", _stock_in_yukon, "Yukon has no stock, the position has 1 card"),
    ("stock not a list", _set(["stock"], "AS", "australian"), "'stock' must be a list of cards"),
    ("waste in Milligan", _waste_in_milligan, "Milligan Yukon has no waste, the position has 1 card"),
    ("Milligan with 4 foundations", _set(["foundations"], [[]] * 4, "milligan-yukon"), "has 8 foundations"),
    ("Milligan card thrice", _set(["stock", 1], "QH", "milligan-yukon"), "present more than 2 times: QH"),
]


@pytest.mark.parametrize(("kind", "build", "fault"), MALFORMED_JSON, ids=[k for k, _, _ in MALFORMED_JSON])
def test_malformed_json_positions_are_rejected_naming_the_fault(
    kind: str, build: Callable[[], Any], fault: str
) -> None:
    data = build()
    before = copy.deepcopy(data)
    read = Game.from_json if isinstance(data, str) else Game.from_dict  # from_dict takes parsed JSON only
    with pytest.raises(InvalidPositionError, match=fault) as info:
        read(data)
    assert data == before  # the input is left as it was
    assert "\n" not in str(info.value)
    if isinstance(data, dict):
        with pytest.raises(InvalidPositionError, match=fault):
            Game.from_json(json.dumps(data))


def test_a_game_record_is_not_taken_for_a_position() -> None:
    """It said "position has no 'variant' key" of a record file given to `yukon solve` or `yukon moves`."""
    from yukon.record import GameRecord

    data = GameRecord.from_game(Game.deal("yukon", seed=3)).to_dict()
    for read in (lambda: Game.from_dict(data), lambda: Game.from_json(json.dumps(data))):
        with pytest.raises(InvalidPositionError, match=r"this is a game record \(docs/records.md\), not a position"):
            read()
    assert Game.from_dict(data["start"]) == Game.deal("yukon", seed=3)


def test_at_least_fifteen_kinds_of_malformed_json() -> None:
    assert len({fault for _, _, fault in MALFORMED_JSON}) >= 15


def test_the_contract_example_is_only_a_fragment() -> None:
    example = {
        "variant": "yukon",
        "rules": {"empty_column": "kings", "foundation_return": False},
        "tableau": [{"down": [], "up": ["7H"]}, {"down": ["4C"], "up": ["9S", "QC", "3D", "JH", "2C"]}],
        "foundations": [["AS", "2S"], [], [], []],
        "stock": [],
        "waste": [],
    }
    with pytest.raises(InvalidPositionError, match="Yukon has 7 columns, the position has 2"):
        Game.from_dict(example)


# ---------------------------------------------------------------- malformed one-line positions

GOOD = (
    "yukon,kings,noreturn QD/KC.JD9D2H5D5H/QCTS.9S8CKSAH3S/3H4DAS.KDQH6HJHQS/4S2C9CJS.6S9H6D7SJC/"
    "7H8S7C5S3C.2D5C7DAC8D/TC8H2S4C6CTD.THAD4HKH3D -/-/-/-"
)
HEAD, COLS, FOUND = GOOD.split(" ")
MILLIGAN = Game.deal("milligan-yukon", seed=5).to_text()
_M_HEAD, _M_COLS, _M_FOUND, _M_STOCK = MILLIGAN.split(" ")
MILLIGAN_WITH_WASTE = f"{_M_HEAD} {_M_COLS} {_M_FOUND} {_M_STOCK[:-4]}/{_M_STOCK[-4:-2]}"
AUSTRALIAN = Game.deal("australian", seed=5).to_text()

MALFORMED_TEXT: list[tuple[str, str, str]] = [
    ("empty", "", "3 or 4 space-separated fields, not 0"),
    ("two fields", f"{HEAD} {COLS}", "3 or 4 space-separated fields, not 2"),
    ("five fields", f"{GOOD} -/- extra", "3 or 4 space-separated fields, not 5"),
    ("unknown variant", GOOD.replace("yukon,", "klondike,"), "unknown variant 'klondike'"),
    ("unknown option", GOOD.replace("kings,", "queens,"), "unknown rule option 'queens'"),
    ("malformed card", GOOD.replace("QD/", "QX/"), "column 1: not a card at 'QX/'|column 1: not a card at 'QX'"),
    ("too few columns", f"{HEAD} QD/KC.JD9D2H5D5H {FOUND}", "Yukon has 7 columns, the position has 2"),
    ("wrong foundation count", f"{HEAD} {COLS} -/-/-", "Yukon has 4 foundations, the position has 3"),
    # a space typed inside the tableau: it said "foundation 1: give one top card per foundation, not ''"
    ("a space in the tableau", f"{HEAD} {COLS.replace('/', ' /', 1)} {FOUND}",
     r"Yukon has 7 columns, the position has 1: .* \(a space inside the tableau field splits it\)"),
    ("two cards for a foundation top", f"{HEAD} {COLS} ASKS/-/-/-", "foundation 1: give one top card"),
    ("card missing", GOOD.replace("QD/", "-/"), "card.s. missing: QD"),
    ("card duplicated", GOOD.replace("QD/", "QDJD/"), "present more than once: JD"),
    ("down without up", GOOD.replace("/KC.JD9D2H5D5H/", "/KCJD9D2H5D5H./"), "column 2 has face-down cards but no"),
    ("stock field without slash", f"{AUSTRALIAN.rsplit('/', 1)[0]}", "the stock field is STOCK/WASTE"),
    ("stock in Yukon", GOOD.replace("QD/", "-/") + " QD/-", "Yukon has no stock, the position has 1 card"),
    ("waste in Milligan", MILLIGAN_WITH_WASTE, "Milligan Yukon has no waste, the position has 1 card"),
    ("foundation card also in a column", GOOD.replace("-/-/-/-", "AH/-/-/-"), "present more than once: AH"),
    ("option given twice", GOOD.replace("kings,", "kings,any,"), "'any' in 'yukon,kings,any,noreturn'.*given twice"),
    ("return given twice", GOOD.replace("noreturn", "noreturn,return"), "given twice"),
]


@pytest.mark.parametrize(("kind", "text", "fault"), MALFORMED_TEXT, ids=[k for k, _, _ in MALFORMED_TEXT])
def test_malformed_one_line_positions_are_rejected_naming_the_fault(kind: str, text: str, fault: str) -> None:
    with pytest.raises(InvalidPositionError, match=fault) as info:
        Game.from_text(text)
    assert "\n" not in str(info.value)


def _swap_first_card(variant: str) -> tuple[dict[str, Any], str, str, str]:
    """A deal with its first tableau card overwritten by its last one: that card once too often, the first nowhere.

    Returned: the JSON form, the one-line form, the card now present too often, the card now missing."""
    g = Game.deal(variant, seed=5)
    d = g.to_dict()
    first_column = d["tableau"][0]
    first_list = first_column["down"] or first_column["up"]
    gone, twice = first_list[0], d["tableau"][-1]["up"][-1]
    assert gone != twice
    first_list[0] = twice
    head, tableau, rest = g.to_text().split(" ", 2)
    assert tableau.startswith(gone) and tableau.endswith(twice)  # the same two cards in the one-line form
    return d, f"{head} {twice}{tableau[2:]} {rest}", twice, gone


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_card_given_twice_and_one_missing_are_both_named(variant: str) -> None:
    """Only the card given twice was named: fixing it then met "card(s) missing" on a second try."""
    d, text, twice, gone = _swap_first_card(variant)
    times = "more than 2 times" if variant == "milligan-yukon" else "more than once"
    expected = f"card(s) present {times}: {twice}; card(s) missing: {gone}"
    for read in (lambda: Game.from_dict(d), lambda: Game.from_json(json.dumps(d)), lambda: Game.from_text(text)):
        with pytest.raises(InvalidPositionError) as info:
            read()
        assert str(info.value) == expected


def test_unknown_top_level_json_keys_are_ignored() -> None:
    # A reading we chose: extra keys (a note, a deal number) travel along without harm.
    d = Game.deal("yukon", seed=5).to_dict()
    d["seed"] = 5
    d["comment"] = "from a bug report"
    assert Game.from_dict(d) == Game.deal("yukon", seed=5)


def test_one_line_form_must_be_text() -> None:
    with pytest.raises(InvalidPositionError, match="one-line position is text"):
        Game.from_text(None)  # type: ignore[arg-type]


def test_the_malformed_text_table_is_made_of_well_formed_variations() -> None:
    assert Game.from_text(GOOD) == Game.deal("yukon", seed=5)
    assert Game.from_text(MILLIGAN) == Game.deal("milligan-yukon", seed=5)
    assert len(MALFORMED_TEXT) >= 15


@pytest.mark.parametrize("text, said", [
    ('[1,2', "position is not valid JSON: Expecting ',' delimiter"),
    ('[]', "a position is a JSON object, not list"),
    ('  [{"variant": "yukon"}]', "a position is a JSON object, not list"),
])
def test_json_array_is_told_as_json(text: str, said: str) -> None:
    """A JSON array (or a broken one) was read as the one-line form: "has 3 or 4 space-separated fields, not 1"."""
    with pytest.raises(InvalidPositionError, match=re.escape(said)):
        read_position(text)


def test_cli_json_array_argument_is_told_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    from yukon.cli import main

    assert main(["solve", "[1,2"]) == 2
    assert capsys.readouterr().err.startswith("yukon: error: invalid position: position is not valid JSON")
