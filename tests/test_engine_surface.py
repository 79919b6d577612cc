"""The engine's fast public surface (raw read-only state, ``push_unchecked``, images) and its boundary:
no module of the package but ``game.py`` reaches into a ``Game``'s private state.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import ALL_OPTIONS
from yukon import Game, rules_for

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "yukon"


def game_private_names() -> set[str]:
    """Every underscore name of ``Game`` (its slots and its private methods), dunders aside."""
    names = {n for n in Game.__slots__ if n.startswith("_")}
    names |= {n for n in vars(Game) if n.startswith("_") and not n.endswith("__")}
    return names


def private_accesses(source: str, names: set[str]) -> list[tuple[int, str]]:
    """``(line, name)`` of each ``x._name`` (and ``getattr(x, "_name")``) with ``_name`` in ``names``.

    ``self._name`` and ``cls._name`` are a class's own business (``Session._history`` is not
    ``Game._history``); anything else, ``game._cols`` or ``self.game._cols``, is a reach inside.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names:
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            found.append((node.lineno, node.attr))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in names):
            found.append((node.lineno, str(node.args[1].value)))
    return found


def test_the_private_names_are_known() -> None:
    names = game_private_names()
    assert {"_cols", "_down", "_found", "_stock", "_waste", "_accept", "_history", "_illegal"} <= names
    assert "__init__" not in names


def test_the_scan_finds_a_reach_inside() -> None:
    names = game_private_names()
    source = (
        "def f(game, self):\n"
        "    a = game._cols\n"
        "    b = self.game._down\n"
        "    c = getattr(game, '_found')\n"
        "    d = self._history\n"   # a class's own attribute of the same name: not a reach
        "    e = game.column_cards\n"
    )
    assert sorted(private_accesses(source, names)) == [(2, "_cols"), (3, "_down"), (4, "_found")]


def test_no_module_but_game_reaches_into_a_game() -> None:
    names = game_private_names()
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 20  # the scan does see the package
    offenders = [
        f"{path.relative_to(PACKAGE)}:{line}: .{name}"
        for path in modules if path != PACKAGE / "game.py"
        for line, name in private_accesses(path.read_text(encoding="utf-8"), names)
    ]
    assert offenders == []


# ---------------------------------------------------------------- the raw read-only state


def test_raw_state_is_the_position() -> None:
    g = Game.deal("australian", seed=5)
    for _ in range(30):
        moves = g.legal_moves()
        if not moves:
            break
        g.push(moves[len(moves) // 2])
    assert [list(c) for c in g.column_cards] == [down + up for down, up in g.columns]
    assert list(g.down_counts) == [len(down) for down, _ in g.columns]
    assert [list(p) for p in g.foundation_piles] == g.foundations
    assert list(g.stock_cards) == g.stock
    assert list(g.waste_cards) == g.waste
    assert [c for c in range(52) if g.foundation_accepts[c]] == [c for c in range(52) if g.foundation_target(c)]


def test_raw_state_is_live_across_push_and_pop() -> None:
    """The same lists for the game's life, so that a search may keep them while it plays."""
    g = Game.deal("yukon", seed=11)
    cols, down, piles = g.column_cards, g.down_counts, g.foundation_piles
    move = g.legal_moves()[0]
    g.push(move)
    assert g.column_cards is cols and g.down_counts is down and g.foundation_piles is piles
    assert [list(c) for c in cols] == [d + u for d, u in g.columns]
    g.pop()
    assert [list(c) for c in cols] == [d + u for d, u in g.columns]


def test_raw_state_cannot_be_rebound() -> None:
    g = Game.deal("yukon", seed=1)
    with pytest.raises(AttributeError):
        g.column_cards = []  # type: ignore[misc]


def test_a_copy_has_its_own_raw_state() -> None:
    g = Game.deal("yukon", seed=2)
    c = g.copy()
    assert c.column_cards is not g.column_cards
    assert all(a is not b for a, b in zip(c.column_cards, g.column_cards, strict=True))


# ---------------------------------------------------------------- push_unchecked and images


@settings(max_examples=25, derandomize=True, database=None, deadline=None)
@given(options=st.sampled_from(ALL_OPTIONS), seed=st.integers(0, 2**32 - 1),
       choices=st.lists(st.integers(0, 2**20), min_size=1, max_size=80))
def test_push_unchecked_plays_as_push_and_images_round_trip(
    options: tuple[str, str, bool], seed: int, choices: list[int]
) -> None:
    variant, empty, ret = options
    checked = Game.deal(variant, seed=seed, empty_column=empty, foundation_return=ret)
    unchecked = checked.copy()
    for choice in choices:
        moves = checked.legal_moves()
        assert unchecked.legal_moves() == moves
        if not moves:
            break
        move = moves[choice % len(moves)]
        checked.push(move)
        unchecked.push_unchecked(move)
        assert unchecked == checked and unchecked.move_stack == checked.move_stack
        image = checked.to_image()
        again = Game.from_image(checked.rules, image, seed=checked.seed)
        assert again == checked and again.to_dict() == checked.to_dict()
        assert again.legal_moves() == checked.legal_moves()
        assert again.seed == checked.seed and again.move_stack == []
    while unchecked.move_stack:  # pop undoes an unchecked push exactly as a checked one
        assert unchecked.pop() == checked.pop()
        assert unchecked == checked


def test_images_differ_for_different_positions() -> None:
    g = Game.deal("yukon", seed=3)
    before = g.to_image()
    g.push(g.legal_moves()[0])
    assert g.to_image() != before
    assert Game.from_image(rules_for("yukon"), before) != g


# ---------------------------------------------------------------- one move key


def test_one_move_key() -> None:
    """``move_key`` is the key's one formula: ``Move.key``, ``make_move``'s sharing and ``move_of_key`` agree."""
    import random

    from yukon.notation import FOUNDATION, MAX_COUNT, STOCK, STOCK_MOVE, WASTE, Move, make_move, move_key, move_of_key

    rng = random.Random("move-keys")
    fields = {(STOCK, STOCK, -1, 0)}
    while len(fields) < 5000:
        fields.add((rng.randrange(WASTE + 1), rng.randrange(FOUNDATION + 1), rng.randrange(52),
                    rng.randrange(1, MAX_COUNT + 1)))
    keys = set()
    for src, dst, card, count in fields:
        m = make_move(src, dst, card, count)
        assert (m.src, m.dst, m.card, m.count) == (src, dst, card, count)
        assert m.key == move_key(src, dst, card, count) == Move(src, dst, card, count).key
        assert make_move(src, dst, card, count) is m
        assert move_of_key(m.key) is m
        keys.add(m.key)
    assert len(keys) == len(fields)  # distinct moves, distinct keys
    assert move_of_key(STOCK_MOVE.key) is STOCK_MOVE


def test_legal_moves_are_the_shared_instances() -> None:
    from yukon.notation import make_move

    for variant in ("yukon", "australian", "milligan-yukon"):
        g = Game.deal(variant, seed=9)
        for m in g.legal_moves():
            assert make_move(m.src, m.dst, m.card, m.count) is m


def test_no_module_imports_another_modules_private_names() -> None:
    """A private name (``_CACHE``, ``_core`` aside: a module's own compiled part) stays in its module."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("yukon")):
                offenders += [f"{path.relative_to(PACKAGE)}:{node.lineno}: {a.name}" for a in node.names
                              if a.name.startswith("_") and not a.name.startswith("__") and a.name != "_core"]
    assert offenders == []
