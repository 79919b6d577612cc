"""Helpers for the engine tests: build hand-made positions compactly.

A position must hold every card exactly once (twice in Milligan Yukon), which
makes hand-made positions long. :func:`make` takes only the cards a test is
about and puts every card left over face down at the bottom of one column
(``fill``), where they take no part in any move until that column's face-up
cards are all gone.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import strategies as st

from yukon import Game, Move, rules_for
from yukon.autoplay import next_safe_move
from yukon.cards import NAME, RANK, SUIT, parse_card

_CARD = re.compile(r"10|[A2-9TJQK]", re.IGNORECASE)

ALL_OPTIONS: list[tuple[str, str, bool]] = [
    (variant, empty, ret)
    for variant in ("yukon", "russian", "alaska", "australian", "milligan-yukon")
    for empty in ("kings", "any")
    for ret in (False, True)
]


def cards(text: str) -> list[int]:
    """``"7H QC 3D"`` or ``"7HQC3D"`` as card ints."""
    text = text.replace(" ", "")
    out: list[int] = []
    pos = 0
    while pos < len(text):
        m = _CARD.match(text, pos)
        assert m, f"bad card text in test: {text!r}"
        out.append(parse_card(text[pos:m.end() + 1]))
        pos = m.end() + 1
    return out


def names(seq: Iterable[int]) -> list[str]:
    return [NAME[c] for c in seq]


def make(
    variant: str = "yukon",
    columns: Sequence[str] = (),
    foundations: Sequence[str] | None = None,
    stock: str = "",
    waste: str = "",
    fill: int | None = None,
    **options: Any,
) -> Game:
    """A position from the cards a test cares about.

    ``columns`` holds one string per column, ``"DOWN.UP"`` or ``"UP"`` (cards
    bottom first, spaces allowed, ``""`` for an empty column); ``foundations``
    the top card of each pile (``"-"`` or ``""`` for an empty one). Every card
    not placed goes face down at the bottom of column ``fill`` (0-based); with
    ``fill=None`` the position must already be complete.
    """
    rules = rules_for(variant, **options)
    cols: list[tuple[list[int], list[int]]] = []
    for text in columns:
        text = text.replace(" ", "")
        if "." in text:
            down_text, up_text = text.split(".")
            cols.append((cards(down_text), cards(up_text)))
        else:
            cols.append(([], cards(text)))
    while len(cols) < rules.columns:
        cols.append(([], []))
    piles: list[list[int]] = []
    for top in foundations or ["-"] * rules.foundations:
        if top in ("", "-"):
            piles.append([])
        else:
            t = parse_card(top)
            piles.append([SUIT[t] + 4 * r for r in range(RANK[t])])
    stock_cards = cards(stock)
    waste_cards = cards(waste)
    used: Counter[int] = Counter()
    for down, up in cols:
        used.update(down)
        used.update(up)
    for p in piles:
        used.update(p)
    used.update(stock_cards)
    used.update(waste_cards)
    rest = [c for c in range(52) for _ in range(rules.decks - used[c])]
    if fill is not None:
        down, up = cols[fill]
        cols[fill] = (rest + down, up)
    data = {
        "variant": rules.variant,
        "rules": rules.options(),
        "tableau": [{"down": names(d), "up": names(u)} for d, u in cols],
        "foundations": [names(p) for p in piles],
        "stock": names(stock_cards),
        "waste": names(waste_cards),
    }
    return Game.from_dict(data)


def move_texts(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def move_set(game: Game) -> set[str]:
    moves = move_texts(game)
    assert len(moves) == len(set(moves)), f"duplicate moves listed: {moves}"
    return set(moves)


def play(game: Game, *texts: str) -> list[Move]:
    """Push moves given in full notation (via Move.from_text, so the short-form parser is not involved)."""
    played = []
    for t in texts:
        m = Move.from_text(t)
        game.push(m)
        played.append(m)
    return played


def column(game: Game, index: int) -> tuple[list[str], list[str]]:
    """``(down, up)`` of column ``index`` (0-based) as card names."""
    down, up = game.columns[index]
    return names(down), names(up)


def check_invariants(game: Game) -> None:
    """What must hold in every position reached by legal play."""
    rules = game.rules
    counts: Counter[int] = Counter()
    for down, up in game.columns:
        assert not (down and not up), "a column has face-down cards and no face-up card"
        counts.update(down)
        counts.update(up)
    for pile in game.foundations:
        counts.update(pile)
        for height, c in enumerate(pile):
            assert SUIT[c] == SUIT[pile[0]] and RANK[c] == height + 1
    counts.update(game.stock)
    counts.update(game.waste)
    assert all(counts[c] == rules.decks for c in range(52)), "a card is missing or doubled"
    assert sum(counts.values()) == 52 * rules.decks


# ---------------------------------------------------------------- a reference move generator
#
# A slow, literal reading of docs/rules.md and docs/contract.md that shares no code with the engine's
# move generator: the engine's legal_moves() must list exactly these moves.


def _fits(build: str, lead: int, target: int) -> bool:
    if build == "alternate":
        return RANK[lead] == RANK[target] - 1 and (SUIT[lead] in (1, 2)) != (SUIT[target] in (1, 2))
    if build == "suit":
        return RANK[lead] == RANK[target] - 1 and SUIT[lead] == SUIT[target]
    assert build == "suit-updown"
    return abs(RANK[lead] - RANK[target]) == 1 and SUIT[lead] == SUIT[target]


def _foundation_takes(game: Game, c: int) -> bool:
    for pile in game.foundations:
        if not pile and RANK[c] == 1:
            return True
        if pile and SUIT[pile[-1]] == SUIT[c] and RANK[pile[-1]] == RANK[c] - 1:
            return True
    return False


def reference_moves(game: Game) -> set[str]:
    """Every legal move of ``game`` in notation, from the rules alone."""
    r = game.rules
    cols = game.columns
    out: set[str] = set()

    def into_empty_ok(c: int) -> bool:
        return r.empty_column == "any" or RANK[c] == 13

    def to_columns(src: str, c: int, count: int, skip: int | None, whole_column: bool) -> None:
        extra = f"+{count - 1}" if count > 1 else ""
        for d, (ddown, dup) in enumerate(cols):
            if d == skip:
                continue
            if dup:
                ok = _fits(r.build, c, dup[-1])
            else:
                assert not ddown
                ok = into_empty_ok(c) and not whole_column
            if ok:
                out.add(f"{src}:{NAME[c]}{extra}>{d + 1}")

    for s, (down, up) in enumerate(cols):
        for i, c in enumerate(up):
            to_columns(str(s + 1), c, len(up) - i, s, whole_column=(i == 0 and not down))
        if up and _foundation_takes(game, up[-1]):
            out.add(f"{s + 1}:{NAME[up[-1]]}>F")
    if game.waste:
        w = game.waste[-1]
        to_columns("W", w, 1, None, whole_column=False)
        if _foundation_takes(game, w):
            out.add(f"W:{NAME[w]}>F")
    if game.stock:
        out.add("deal")
    if r.foundation_return:
        for pile in game.foundations:
            if pile:
                to_columns("F", pile[-1], 1, None, whole_column=False)
    return out


@st.composite
def positions(draw: Any) -> Game:
    """Any legal position of any variant: random foundations, columns, stock and waste."""
    variant, empty, ret = draw(st.sampled_from(ALL_OPTIONS))
    rules = rules_for(variant, empty_column=empty, foundation_return=ret)
    heights = draw(st.lists(st.integers(0, 13), min_size=rules.foundations, max_size=rules.foundations))
    suits = [i % 4 for i in range(rules.foundations)]
    piles = [[suit + 4 * r for r in range(h)] for suit, h in zip(suits, heights, strict=True)]
    on_piles = [c for p in piles for c in p]
    rest = [c for c in range(52) for _ in range(rules.decks)]
    for c in on_piles:
        rest.remove(c)
    rest = draw(st.permutations(rest))
    n_stock = draw(st.integers(0, len(rest))) if rules.has_stock else 0
    n_waste = draw(st.integers(0, n_stock)) if rules.has_waste else 0
    stock, waste, tableau = rest[: n_stock - n_waste], rest[n_stock - n_waste : n_stock], rest[n_stock:]
    # cut the tableau cards into columns, each with some of its cards face down
    cuts = sorted(draw(st.lists(st.integers(0, len(tableau)), min_size=rules.columns - 1, max_size=rules.columns - 1)))
    bounds = [0, *cuts, len(tableau)]
    columns = []
    for a, b in itertools.pairwise(bounds):
        col = tableau[a:b]
        n_down = draw(st.integers(0, max(0, len(col) - 1)))
        columns.append({"down": [NAME[c] for c in col[:n_down]], "up": [NAME[c] for c in col[n_down:]]})
    data = {
        "variant": variant,
        "rules": {"empty_column": empty, "foundation_return": ret},
        "tableau": columns,
        "foundations": [[NAME[c] for c in p] for p in piles],
        "stock": [NAME[c] for c in stock],
        "waste": [NAME[c] for c in waste],
    }
    return Game.from_dict(data)


def move_that_triggers_autoplay() -> tuple[Game, str]:
    """A Yukon deal with no safe card at the start (the deal, as dealt), and a move after which one is safe
    and the game is not won."""
    for seed in range(1, 500):
        g = Game.deal("yukon", seed=seed)
        if next_safe_move(g) is not None:
            continue
        for m in g.legal_moves():
            g.push(m)
            if next_safe_move(g) is not None and not g.is_won():
                g.pop()
                return g, str(m)
            g.pop()
    raise AssertionError("no deal found")  # pragma: no cover


def play_randomly(game: Game, rng: random.Random, moves: int) -> Game:
    """``game`` itself after up to ``moves`` legal moves drawn by ``rng`` (fewer where none is left)."""
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


def mid_game(option: tuple[str, str, bool], deal: int, choices: list[int]) -> Game:
    """Deal ``deal`` of the variant and options, then the legal moves picked by ``choices``."""
    variant, empty, ret = option
    game = Game.deal(variant, deal, empty_column=empty, foundation_return=ret)
    for pick in choices:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
    return game
