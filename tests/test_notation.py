"""Move notation: str/repr/from_text round-trips, short forms, and the errors for bad or illegal moves."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest

from engine_helpers import make, move_set, reference_moves
from yukon import FOUNDATION, STOCK, WASTE, Game, IllegalMoveError, InvalidMoveError, Move
from yukon.cards import parse_card
from yukon.notation import STOCK_MOVE, make_move


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move(1, 4, parse_card("7H"), 1), "2:7H>5"),
        (Move(1, 4, parse_card("7H"), 3), "2:7H+2>5"),
        (Move(2, FOUNDATION, parse_card("QC"), 1), "3:QC>F"),
        (Move(WASTE, 3, parse_card("9D"), 1), "W:9D>4"),
        (Move(WASTE, FOUNDATION, parse_card("AS"), 1), "W:AS>F"),
        (Move(FOUNDATION, 2, parse_card("5S"), 1), "F:5S>3"),
        (Move(9, 15, parse_card("TD"), 12), "10:TD+11>16"),
        (STOCK_MOVE, "deal"),
    ],
)
def test_str_repr_and_from_text(move: Move, text: str) -> None:
    assert str(move) == text
    assert repr(move) == f"Move.from_text({text!r})"
    assert Move.from_text(text) == move
    assert eval(repr(move), {"Move": Move}) == move
    assert pickle.loads(pickle.dumps(move)) == move
    assert hash(Move.from_text(text)) == hash(move)


def test_move_fields_and_kinds() -> None:
    m = Move.from_text("2:7H+2>5")
    assert (m.src, m.dst, m.card, m.count) == (1, 4, parse_card("7H"), 3)
    assert m.is_tableau_move and not m.is_foundation_move and not m.is_stock_move
    up = Move.from_text("3:QC>F")
    assert up.is_foundation_move and not up.is_tableau_move
    assert STOCK_MOVE.is_stock_move and STOCK_MOVE.src == STOCK and STOCK_MOVE.count == 0
    assert not Move.from_text("W:9D>4").is_tableau_move
    assert not Move.from_text("F:5S>3").is_tableau_move


def test_moves_are_immutable_values() -> None:
    m = Move.from_text("2:7H>5")
    with pytest.raises(AttributeError):
        m.dst = 3  # type: ignore[misc]
    assert m == Move(1, 4, parse_card("7H"))  # count defaults to 1
    assert m != Move.from_text("2:7H+1>5") and m != "2:7H>5"
    assert len({m, Move.from_text("2:7H>5"), Move.from_text("2:7H>6")}) == 2
    assert make_move(1, 4, parse_card("7H"), 1) is make_move(1, 4, parse_card("7H"), 1)
    assert m.key == Move.from_text("2:7H>5").key != Move.from_text("2:7H>6").key


@pytest.mark.parametrize(
    ("text", "full"),
    [
        ("2:7h>5", "2:7H>5"),
        ("2:10H>5", "2:TH>5"),
        ("2:♥T+2>5", "2:TH+2>5"),
        ("2 : 7H + 2 > 5", "2:7H+2>5"),
        ("2:7H+2->5", "2:7H+2>5"),
        ("2:7H+2-5", "2:7H+2>5"),
        ("2.7H+2 5", "2:7H+2>5"),
        ("2:7H+0>5", "2:7H>5"),
        ("3:qc>f", "3:QC>F"),
        ("w:9d>4", "W:9D>4"),
        ("f:5s>3", "F:5S>3"),
        ("  deal ", "deal"),
        ("DEAL", "deal"),
        ("stock", "deal"),
    ],
)
def test_lenient_full_forms(text: str, full: str) -> None:
    assert str(Move.from_text(text)) == full


@pytest.mark.parametrize(
    "text",
    [
        "", "   ", "hello", "2:7H", "2:7H>", ">5", "2:XX>5", "2:7X>5", "2:1H>5", "0:7H>5", "2:7H>0",
        "+2>5", "2:+2>5", "W:9D+1>4", "F:5S+1>3", "2:7H+2>F", "2:7H>2", "F:5S>F", "2:7H>>5", "2:7H>5>6",
        "2:7H+x>5", "2:7H>W", "S:7H>5", "deal 2", "2:7H>5 please", "100:7H>5", "2:7H>100",
    ],
)
def test_garbage_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="move"):
        Move.from_text(text)
    g = Game.deal("yukon", seed=1)
    before = g.to_dict()
    with pytest.raises(InvalidMoveError):
        g.parse_move(text)
    assert g.to_dict() == before and g.move_stack == []


@pytest.mark.parametrize("value", [None, 25, b"2:7H>5", ["2:7H>5"]])
def test_non_text_is_not_a_move(value: object) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_text(value)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        Game.deal("yukon", seed=1).parse_move(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["7H>5", "2>5", "QC>F", "2:7H+2"])
def test_short_forms_need_a_position(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_text(text)


def test_invalid_move_errors_are_value_errors() -> None:
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)


# ---------------------------------------------------------------- parse_move against a position


def example() -> Game:
    # the worked example of docs/rules.md: column 1 ends 7H QC 3D over a face-down 9S
    return make("yukon", ["9S.7H QC 3D", "8C", "8D", "KH", "5S", "", "AS"], fill=4)


@pytest.mark.parametrize(
    ("text", "full"),
    [
        ("1:7H+2>2", "1:7H+2>2"),
        ("1:7H>2", "1:7H+2>2"),  # the count is found
        ("7H>2", "1:7H+2>2"),  # and the column
        ("7h 2", "1:7H+2>2"),
        ("♥7>2", "1:7H+2>2"),
        ("QC>4", "1:QC+1>4"),
        ("1>4", "1:QC+1>4"),  # only one move goes from column 1 to 4
        ("AS>F", "7:AS>F"),
        ("7>F", "7:AS>F"),
        ("7:AS>F", "7:AS>F"),
        ("as f", "7:AS>F"),
    ],
)
def test_short_forms_are_completed_by_the_position(text: str, full: str) -> None:
    g = example()
    assert str(g.parse_move(text)) == full


def test_ambiguous_short_forms_list_the_candidates() -> None:
    g = make("yukon", ["9S.7H 4S 7D", "8C", "KH"], fill=2)
    before = g.to_dict()
    with pytest.raises(InvalidMoveError, match=r"ambiguous move '1>2': could be 1:7H\+2>2, 1:7D>2"):
        g.parse_move("1>2")
    assert g.to_dict() == before
    # two decks: the same card in two columns
    g = make("milligan-yukon", ["7H", "8C", "7H", "5S"], fill=3)
    with pytest.raises(InvalidMoveError, match=r"ambiguous move '7H>2': could be 1:7H>2, 3:7H>2"):
        g.parse_move("7H>2")
    assert str(g.parse_move("3:7H>2")) == "3:7H>2"


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("1:7H+2>3", "does not fit on 8D"),
        ("1:QC+0>4", "moves with 1 card"),
        ("1:7H>3", r"illegal move '1:7H\+2>3': 7H does not fit on 8D"),  # short form: the count is found
        ("1:9S+3>2", "not face up in column 1"),
        ("2:8C>F", "does not fit on a foundation"),
        ("1:3D>6", "only a King may lead into an empty column"),
        ("2:8C>6", "changes nothing"),
        ("5:5S>6", "only a King"),
        ("4:KH>6", "changes nothing"),
        ("1:7H+2>9", "only 7 columns"),
        ("9:7H>2", "only 7 columns"),
        ("W:7H>2", "has no waste"),
        ("F:7H>2", "foundation_return is off"),
        ("deal", "has no stock"),
        ("1:KS>2", "not face up in column 1"),
        ("8C>5", r"illegal move '2:8C>5': 8C does not fit on 5S"),  # its place is found ("no legal move matches"
        ("QC>F", r"illegal move '1:QC>F': only a free card goes to a foundation, and QC is covered"),  # both)
        ("AS>4", r"illegal move '7:AS>4': AS does not fit on KH"),
        ("6>5", "no legal move matches"),
    ],
)
def test_illegal_moves_name_the_fault_and_change_nothing(text: str, fault: str) -> None:
    g = example()
    before = g.to_dict()
    with pytest.raises(IllegalMoveError, match=fault):
        g.parse_move(text)
    with pytest.raises(IllegalMoveError):
        g.push_text(text)
    assert g.to_dict() == before and g.move_stack == []


def test_push_of_an_illegal_move_object_changes_nothing() -> None:
    g = example()
    before = g.to_dict()
    for text in ["1:7H+2>3", "1:QC>4", "2:8C>F", "1:3D>6", "4:KH>6", "W:7H>2", "F:7H>2", "deal"]:
        with pytest.raises(IllegalMoveError, match="illegal move"):
            g.push(Move.from_text(text))
        assert g.to_dict() == before
    with pytest.raises(IllegalMoveError, match=r"not a move: '1:7H\+2>2' \(push takes a Move; push_text reads "):
        g.push("1:7H+2>2")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"^not a move: None$"):
        g.push(None)  # type: ignore[arg-type]
    assert g.to_dict() == before and g.move_stack == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_listed_move_round_trips_through_parse_move(seed: int) -> None:
    for variant in ("yukon", "australian", "milligan-yukon"):
        g = Game.deal(variant, seed=seed)
        for m in g.legal_moves():
            assert g.parse_move(str(m)) == m
            assert Move.from_text(str(m)) == m
            assert eval(repr(m), {"Move": Move}) == m


def test_deal_parses_only_where_there_is_a_stock() -> None:
    assert Game.deal("milligan-yukon", seed=1).parse_move("deal") == STOCK_MOVE
    assert Game.deal("australian", seed=1).parse_move("turn") == STOCK_MOVE
    with pytest.raises(IllegalMoveError):
        Game.deal("russian", seed=1).parse_move("deal")


def test_listed_moves_are_the_legal_ones() -> None:
    g = example()
    assert move_set(g) == {"1:7H+2>2", "1:QC+1>4", "7:AS>F"}
    for m in g.legal_moves():
        assert g.is_legal(m)
    assert not g.is_legal("1:7H+2>2")
    assert not g.is_legal(Move.from_text("1:7H+2>3"))


# ---------------------------------------------------------------- regressions (engine fixes)


@pytest.mark.parametrize("text", ["17:AS>1", "18:AS>1", "19:AS>1", "1:AS>17", "1:AS>33", "99:AS>1", "1:AS>99"])
def test_column_numbers_beyond_16_are_not_moves(text: str) -> None:
    # Column 17 used to be read as the foundations, 18 as the waste, 19 as the stock ('19:AS>1' printed
    # as 'deal'), and column 33 collided with column 1 of the next source: '1:AS>33' == '2:AS>1'.
    with pytest.raises(InvalidMoveError, match="columns are numbered 1 to 16"):
        Move.from_text(text)


def test_distinct_moves_never_share_a_key() -> None:
    # A parsed '1:AS>33' used to poison the move cache, so that '2:AS>1' came back as '1:AS>33'.
    with pytest.raises(InvalidMoveError):
        Move.from_text("1:AS>33")
    assert str(Move.from_text("2:AS>1")) == "2:AS>1"
    keys = {Move(s, d, c, k).key for s in range(18) for d in range(17) for c in range(0, 52, 5) for k in (1, 2, 104)}
    assert len(keys) == 18 * 17 * 11 * 3


@pytest.mark.parametrize("text", ["1:AS+104>2", "1:AS+255>2", "1:AS+999>2"])
def test_counts_beyond_two_decks_are_not_moves(text: str) -> None:
    # '+255' made a count of 256, which overflowed into the card's bits of the move key.
    with pytest.raises(InvalidMoveError, match="at most 104 cards"):
        Move.from_text(text)
    assert Move.from_text("1:AS+103>2").count == 104


@pytest.mark.parametrize(
    "fields",
    [(0, 1, 99, 1), (0, 1, 52, 1), (0, 1, -1, 1), (-1, 0, 5, 1), (0, 17, 5, 1), (0, 32, 5, 1), (19, 0, 5, 1),
     (0, 1, 5, 0), (0, 1, 5, 256), (18, 0, 5, 1), (18, 18, 5, 0)],
)
def test_move_fields_out_of_range_are_rejected(fields: tuple[int, int, int, int]) -> None:
    # Move(0, 1, 99, 1) used to reach push(), which failed with an IndexError instead of a move error;
    # Move(-1, ...) was taken as the last column.
    with pytest.raises(InvalidMoveError, match="not a move"):
        Move(*fields)


def test_single_card_full_form_round_trips_in_milligan() -> None:
    # Two 7H in one column both fit on 8C: '1:7H>2' (what str() writes for the single card) used to be
    # read as a short form, and parse_move said it was ambiguous.
    g = make("milligan-yukon", ["7H 4S 7H", "8C", "3D"], fill=2)
    assert move_set(g) == {"1:7H+2>2", "1:7H>2"}
    for m in g.legal_moves():
        assert g.parse_move(str(m)) == m


@pytest.mark.parametrize(
    ("move", "fault"),
    [
        (Move(0, FOUNDATION, parse_card("QC"), 1), "only a free card goes to a foundation, and QC is covered"),
        (Move(0, 0, parse_card("3D"), 1), "source and destination are the same"),
        (Move(FOUNDATION, 0, parse_card("7H"), 1), "7H is not the top card of a foundation"),
        (Move(0, 8, parse_card("3D"), 1), "only 7 columns"),
    ],
)
def test_illegal_move_objects_name_the_fault(move: Move, fault: str) -> None:
    g = make("yukon", ["9S.7H QC 3D", "8C", "8D", "KH", "5S"], foundations=["4S", "-", "-", "-"], fill=4,
             foundation_return=True)
    before = g.to_dict()
    with pytest.raises(IllegalMoveError, match=fault):
        g.push(move)
    assert g.to_dict() == before


def test_generate_legal_moves_yields_the_moves_of_the_position() -> None:
    g = example()
    moves = g.generate_legal_moves()
    assert isinstance(moves, Iterator)
    # the worked example's two moves, and the ace in column 7 goes up (an empty column takes only a king)
    assert [str(m) for m in moves] == ["1:7H+2>2", "1:QC+1>4", "7:AS>F"]
    g.push_text("7:AS>F")
    assert [str(m) for m in g.generate_legal_moves()] == ["1:7H+2>2", "1:QC+1>4"]
    g.push_text("1:QC+1>4")  # the 7H is left alone over the face-down 9S
    assert [str(m) for m in g.generate_legal_moves()] == ["1:7H>2"]
    assert {str(m) for m in g.generate_legal_moves()} == reference_moves(g)
