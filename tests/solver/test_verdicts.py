"""The solver's verdicts against a plain exhaustive search, and each pruning rule and the key alone.

Every check runs on generated small positions and on late positions of real
deals, for every variant and option (tests/solver/cases.py), decided by the
plain breadth-first search of tests/solver/reference.py. Node limits, not
time limits, keep the runs deterministic.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import yukon
from yukon import Game, Move
from yukon.cards import NAME, SUIT
from yukon.notation import FOUNDATION
from yukon.rules import accepted_by
from yukon.solver import search
from yukon.solver.key import position_key

from .cases import (
    ALL_OPTIONS,
    CAP,
    VARIANTS,
    Case,
    first_empty_fires,
    first_empty_only,
    late_cases,
    safe_rule_fires,
    safe_rule_only,
    small_cases,
    solver_children,
    with_options,
)
from .positions import option_id, small_position, stuck_position
from .reference import ReferenceResult, reference_solve, replays_to_win

#: a node budget no small position comes near: the solver must decide every case
GENEROUS = 1_000_000

def params(opts: list[tuple[str, str, bool]], *, slow_variant: str | None = None) -> list[object]:
    """One test per option; those of ``slow_variant`` marked slow."""
    return [pytest.param(o, id=option_id(o), marks=[pytest.mark.slow] if o[0] == slow_variant else [])
            for o in opts]


def all_cases(opt: tuple[str, str, bool]) -> list[Case]:
    small, _ = small_cases(opt)
    late, _ = late_cases(opt)
    return [*small, *late]


def describe(game: Game) -> str:
    return game.to_text()


# ------------------------------------------------------------------ the verdicts

@pytest.mark.parametrize("opt", params(ALL_OPTIONS, slow_variant="milligan-yukon"))  # two decks: more cases
def test_verdict_equals_reference(opt: tuple[str, str, bool]) -> None:
    small, skipped = small_cases(opt)
    late, _ = late_cases(opt)
    least = 1 if opt[2] else 5  # with foundation return few small positions stay small enough
    assert len(small) >= least, f"only {len(small)} small positions decided by the plain search ({skipped} too big)"
    wrong = []
    for game, ref in [*small, *late]:
        before = game.to_dict()
        result = yukon.solve(game, time_limit=None, node_limit=GENEROUS)
        assert game.to_dict() == before, "solve() changed the game"
        assert result.status != "unknown", f"undecided ({result.reason}) with {GENEROUS} nodes: {describe(game)}"
        if result.status != ref.status:
            wrong.append(f"{describe(game)}: solver {result.status} ({result.reason}), reference {ref.status}"
                         + (f" by {' '.join(map(str, ref.line))}" if ref.line else ""))
        if result.status == "won":
            assert replays_to_win(game, result.moves), f"winning line does not win: {describe(game)}"
    assert not wrong, "wrong verdicts:\n" + "\n".join(wrong)


def test_cases_cover_both_verdicts_in_every_variant() -> None:
    """The generated cases are not all of one kind: every variant has won and lost positions."""
    for variant in VARIANTS:
        seen = Counter(ref.status for opt in ALL_OPTIONS if opt[0] == variant for _, ref in all_cases(opt))
        assert seen["won"] >= 10 and seen["lost"] >= 2, (variant, seen)
    total = sum(len(all_cases(opt)) for opt in ALL_OPTIONS)
    assert total >= 220, total


@pytest.mark.parametrize("variant", VARIANTS)
def test_real_deals_with_a_small_game_tree(variant: str) -> None:
    """Whole deals whose reachable positions the plain search can list (most are quick losses; Russian
    Solitaire deals often jam within a few moves, so the plain search decides most of them)."""
    seeds, cap = (range(1, 25), 6000) if variant == "russian" else (range(1, 41), 400)
    checked = 0
    for seed in seeds:
        game = Game.deal(variant, seed=seed)
        ref = reference_solve(game, max_states=cap)
        if ref is None:
            continue
        checked += 1
        result = yukon.solve(game, time_limit=None, node_limit=GENEROUS)
        assert result.status == ref.status, (variant, seed, result.status, ref.status)
    if variant == "russian":
        assert checked >= 18


# ------------------------------------------------------------------ (a) the safe foundation rule


def direct_is_safe(game: Game, card: int) -> bool:
    """Definition of the rule: no card that could ever be placed on ``card`` is still off the foundations
    (every copy of each such card is up)."""
    up = Counter(c for pile in game.foundations for c in pile)
    return all(up[y] == game.rules.decks for y in accepted_by(game.rules.build)[card])


def test_is_safe_foundation_card_matches_its_definition() -> None:
    rng = random.Random("safe-definition")
    checked = Counter()
    for _ in range(400):
        variant = rng.choice(VARIANTS)
        game = small_position(rng, variant, remaining=(3, 30))
        heights = search.min_heights(game)
        off = {c for col in game.column_cards for c in col} | set(game.stock) | set(game.waste)
        for pile_top in off:
            if not game.foundation_target(pile_top):
                continue
            got = search.is_safe_foundation_card(game.rules.build, pile_top, heights)
            # the card must be playable (its predecessor up) for the rule to matter
            assert got == direct_is_safe(game, pile_top), (describe(game), NAME[pile_top], got)
            checked[got] += 1
    assert checked[True] >= 50 and checked[False] >= 50, checked


SAFE_OPTIONS = [o for o in ALL_OPTIONS if not o[2]]  # the rule is off with foundation return


@pytest.mark.parametrize("opt", params(SAFE_OPTIONS))
def test_safe_foundation_rule_alone(opt: tuple[str, str, bool]) -> None:
    """Searching with only rule (a) gives the plain search's verdict, on positions where it fires."""
    variant, empty, ret = opt
    rng = random.Random(f"safe-{option_id(opt)}")
    fired = 0
    wrong = []
    # (the cases come with the plain search's verdict at CAP: it is not searched again; None: not a case)
    pool: list[tuple[Game, ReferenceResult | None]] = list(all_cases(opt))
    pool += [(small_position(rng, variant, empty, ret, remaining=(4, 10)), None) for _ in range(25)]
    for game, known in pool:
        if fired >= 10:
            break
        if not safe_rule_fires(game):
            continue
        ref = known or reference_solve(game, max_states=CAP)
        if ref is None:
            continue
        fired += 1
        pruned = reference_solve(game, max_states=CAP, moves=safe_rule_only)
        assert pruned is not None  # a pruned search never visits more positions
        if pruned.status != ref.status:
            wrong.append(f"{describe(game)}: with the rule {pruned.status}, without {ref.status} "
                         f"by {' '.join(map(str, ref.line))}")
        # the forced move itself keeps a won position won
        forced = safe_rule_only(game)[0]
        after = game.copy()
        after.push(forced)
        if ref.status == "won":
            ref_after = reference_solve(after, max_states=CAP)
            if ref_after is not None and ref_after.status != "won":
                wrong.append(f"{describe(game)}: forced {forced} loses a won position")
    least = 3 if variant == "alaska" else 8  # Alaska: only a King is ever safe (a card fits on both neighbours)
    assert fired >= least, f"the rule fired on only {fired} positions"
    assert not wrong, "\n".join(wrong)


def test_safe_foundation_rule_is_off_with_foundation_return() -> None:
    game = Game.from_text("yukon,kings,return KH/QS/KS/-/-/-/- JS/QH/KD/KC")
    assert safe_rule_fires(with_options(game, "kings", False))
    children = solver_children(game)
    assert len(children) > 1, [str(m) for m in children]


def naive_safe_rule(game: Game) -> list[Move]:
    """Rule (a) as first written: ``is_safe_foundation_card`` alone, with no regard to a second deck."""
    moves = game.legal_moves()
    heights = search.min_heights(game)
    for m in moves:
        if m.dst == FOUNDATION and m.src != FOUNDATION and search.is_safe_foundation_card(
                game.rules.build, m.card, heights):
            return [m]
    return moves


@pytest.mark.parametrize("stock", ["", "KDKD"])
def test_safe_rule_milligan_two_piles(stock: str) -> None:
    """Diamond piles at TD and JD, a QD free on JD in column 4 and another QD face down in column 3 under a
    KH. Winning: KH up, then the QD of column 4 up (on the JD pile), JD up (on the TD pile), the turned QD up,
    then both KD. Forcing the turned QD up first (onto the JD pile, the only one that takes it) leaves the
    other QD on the JD that its only pile needs: lost. (The first rule said 'lost' here.)"""
    kings = "-/-" if stock else "KD/KD"
    text = f"milligan-yukon,kings,noreturn {kings}/QD.KH/JDQD/-/-/-/- KS/QH/TD/KC/KS/KH/JD/KC {stock or '-'}/-"
    game = Game.from_text(text)
    ref = reference_solve(game, max_states=CAP)
    assert ref is not None and ref.status == "won"
    naive = reference_solve(game, max_states=CAP, moves=naive_safe_rule)
    assert naive is not None and naive.status == "lost"  # the counterexample is one
    pruned = reference_solve(game, max_states=CAP, moves=safe_rule_only)
    assert pruned is not None and pruned.status == "won"
    result = yukon.solve(game, time_limit=None, node_limit=GENEROUS)
    assert result.status == "won", result
    assert search.Searcher(game, search.Limits(None, GENEROUS, None, None)).run().status == "won"


def test_safe_rule_milligan_dealt_card() -> None:
    """QH is 'safe' (both black jacks up, the other QH up) and lies on a face-down 7D; the stock deals 8D onto
    column 1 and 6D onto column 2. Winning: deal first (8D lands on the QH), carry QH+8D onto the KS, then 6D,
    7D, 8D, ... up. Forcing QH up first makes the deal drop 8D onto the 7D it needs: lost. (The rule said
    'lost' here until it waited for the Milligan stock to run out.)"""
    text = "milligan-yukon,kings,noreturn 7D.QH/-/KS/KH/KDQDJDTD9D/-/-/- QS/JH/5D/KC/KS/KH/KD/KC 6D8D/-"
    game = Game.from_text(text)
    ref = reference_solve(game, max_states=CAP)
    assert ref is not None and ref.status == "won"
    assert [str(m) for m in ref.line[:2]] == ["deal", "1:QH+1>3"]
    naive = reference_solve(game, max_states=CAP, moves=naive_safe_rule)
    assert naive is not None and naive.status == "lost"  # the counterexample is one
    result = yukon.solve(game, time_limit=None, node_limit=GENEROUS)
    assert result.status == "won", result


# ------------------------------------------------------------------ (b) stuck cards


STUCK_VARIANTS = ("yukon", "russian", "alaska", "australian")  # one deck; the rule needs kings-only columns


@pytest.mark.parametrize("variant", STUCK_VARIANTS)
def test_stuck_positions_are_lost(variant: str) -> None:
    """Rule (b): whenever stuck_cards() names a card, the plain search finds no win."""
    rng = random.Random(f"stuck-{variant}")
    fired = 0
    for _ in range(60):
        game = stuck_position(rng, variant, "kings", False, remaining=(6, 12))
        if game is None or not search.stuck_cards(game):
            continue
        fired += check_stuck(game)
        if fired >= 8:
            break
    assert fired >= 4, f"stuck_cards() fired on only {fired} positions"


@pytest.mark.slow  # the reference search of many positions
def test_stuck_positions_are_lost_with_foundation_return() -> None:
    """The same with foundation return (the plain search decides few of these: every foundation top may come
    back into play)."""
    rng = random.Random("stuck-return")
    fired = 0
    for i in range(80):
        game = stuck_position(rng, STUCK_VARIANTS[i % 4], "kings", True, remaining=(5, 9), kings_out=True)
        if game is None or not search.stuck_cards(game):
            continue
        fired += check_stuck(game)
        if fired >= 6:
            break
    assert fired >= 3, f"stuck_cards() fired on only {fired} positions"


def stuck_within_its_column(game: Game) -> bool:
    """The simplest stuck card: one whose every target and some lower card of its suit lie beneath it."""
    targets = game.rules.build_rule.placeable_on
    for col, nd in zip(game.column_cards, game.down_counts, strict=False):
        for i in range(min(nd + 1, len(col))):
            y, beneath = col[i], set(col[:i])
            if y < 48 and all(t in beneath for t in targets[y]) and any(c in beneath for c in range(y % 4, y, 4)):
                return True
    return False


@pytest.mark.parametrize("variant", STUCK_VARIANTS)
def test_stuck_sets_across_columns_are_lost(variant: str) -> None:
    """Rule (b) as a largest fixed point: cards stuck only together (a card's targets lie beneath another
    stuck card, or on the foundations) and no card stuck on its own column alone. The plain search agrees."""
    rng = random.Random(f"stuck-set-{variant}")
    fired = 0
    # (outside Yukon most stuck cards are stuck within their own column: it takes more cards in play)
    remaining = (8, 14) if variant == "yukon" else (12, 20)
    for _ in range(1500):
        game = small_position(rng, variant, "kings", False, remaining=remaining)
        if not search.stuck_cards(game) or stuck_within_its_column(game):
            continue
        fired += check_stuck(game)
        if fired >= 6:
            break
    assert fired >= 3, f"stuck_cards() fired on only {fired} positions"


def check_stuck(game: Game) -> int:
    ref = reference_solve(game, max_states=CAP)
    if ref is None:
        return 0
    stuck = search.stuck_cards(game)
    assert ref.status == "lost", (describe(game), [NAME[c] for c in stuck], [str(m) for m in ref.line])
    result = yukon.solve(game, time_limit=None, node_limit=GENEROUS)
    assert result.status == "lost"
    return 1


def check_stuck_and_free(stuck_text: str, names: set[str], free_text: str) -> None:
    """``stuck_text`` has exactly the stuck cards ``names`` and the plain search finds it lost; the
    layout ``free_text``, the same but for one card, has none and the plain search wins it."""
    game = Game.from_text(stuck_text)
    assert {NAME[c] for c in search.stuck_cards(game)} == names
    ref = reference_solve(game)
    assert ref is not None and ref.status == "lost"
    free = Game.from_text(free_text)
    assert search.stuck_cards(free) == []
    won = reference_solve(free)
    assert won is not None and won.status == "won"


def test_stuck_cards_example() -> None:
    """5S lies on 6S and 4S (Russian Solitaire: it can only go onto the 6S or up after the 4S): stuck.
    Without the lower card beneath, the same layout is not stuck."""
    check_stuck_and_free("russian,kings,noreturn 4S6S.5S/KS/QS/JS/TS/9S/8S7S 3S/KH/KD/KC", {"4S", "5S", "6S"},
                         "russian,kings,noreturn 6S.5S/KS/QS/JS/TS/9S/4S8S7S 3S/KH/KD/KC")


def test_stuck_card_whose_targets_are_up() -> None:
    """5H lies on 4H, face down; both cards it fits on (6S, 6C) are on the foundations, where without
    foundation return they stay: 5H never leaves. With the 6C still in play the same layout is won."""
    layout = "4H.5H/KSQHJCTH9C8H7C/KHQCJHTC9H8C7H/QS/JS/TS9S8S7S6H/KC"
    check_stuck_and_free(f"yukon,kings,noreturn {layout} 6S/3H/KD/6C", {"4H", "5H"},
                         f"yukon,kings,noreturn {layout}6C 6S/3H/KD/5C")
    back = Game.from_text(f"yukon,kings,return {layout} 6S/3H/KD/6C")
    assert search.stuck_cards(back) == []  # the 6C may come back down


def test_cards_that_hold_each_other_are_stuck() -> None:
    """JH lies on TH, TD and 8C (face down); 9C on QS and QC. JH fits only on QS and QC, under the 9C;
    the 9C only on TH and TD, under the JH; each has a lower card of its suit beneath it: neither can
    ever leave, though neither is stuck within its own column. With the QC elsewhere the deal is won."""
    text = "yukon,kings,noreturn THTD8C.JH/QSQC.9C/KHQH/KDJD/KSQD/KCTC/JC JS/9H/9D/7C"
    assert not stuck_within_its_column(Game.from_text(text))
    check_stuck_and_free(text, {"8C", "9C", "TH", "TD", "JH", "QS", "QC"},
                         "yukon,kings,noreturn THTD8C.JH/QS.9C/KHQH/KDJD/KSQD/KCTC/JCQC JS/9H/9D/7C")


def test_stuck_cards_only_for_one_deck_kings() -> None:
    game = Game.from_text("russian,any,noreturn 4S6S.5S/KS/QS/JS/TS/9S/8S7S 3S/KH/KD/KC")
    assert search.stuck_cards(game) == []  # any card may lead into an empty column: 5S can leave
    result = yukon.solve(game, time_limit=None, node_limit=GENEROUS)
    assert result.status == "won" and replays_to_win(game, result.moves)  # a replayed line proves it


# ------------------------------------------------------------------ (c) the first empty column


@pytest.mark.parametrize("opt", params(ALL_OPTIONS))
def test_first_empty_column_rule_alone(opt: tuple[str, str, bool]) -> None:
    """Rule (c): trying only the first of several empty columns gives the plain search's verdict."""
    variant, empty, ret = opt
    rng = random.Random(f"first-empty-{option_id(opt)}")
    # (the cases come with the plain search's verdict at CAP: it is not searched again; None: not a case)
    pool: list[tuple[Game, ReferenceResult | None]] = list(all_cases(opt))
    profile = dict(remaining=(3, 6), used=(1, 3)) if ret or empty == "any" else dict(remaining=(4, 10), used=(1, 4))
    extra = 12 if ret or empty == "any" else 30
    pool += [(small_position(rng, variant, empty, ret, **profile), None)  # type: ignore[arg-type]
             for _ in range(extra)]
    fired = 0
    for game, known in pool:
        if not first_empty_fires(game):
            continue
        ref = known or reference_solve(game, max_states=CAP)
        if ref is None:
            continue
        fired += 1
        pruned = reference_solve(game, max_states=CAP, moves=first_empty_only)
        assert pruned is not None
        assert pruned.status == ref.status, (describe(game), pruned.status, ref.status, [str(m) for m in ref.line])
        if fired >= 6:
            break
    assert fired >= 2, f"the rule fired on only {fired} positions"


def test_children_applies_the_first_empty_column_rule() -> None:
    game = Game.from_text("yukon,kings,noreturn KH/QHKS/-/-/-/-/- QS/JH/KD/KC")
    king = yukon.cards.parse_card("KS")
    assert {m.dst for m in game.legal_moves() if m.card == king and m.dst < FOUNDATION} == {2, 3, 4, 5, 6}
    assert {m.dst for m in solver_children(game) if m.card == king and m.dst < FOUNDATION} == {2}
    # while a Milligan stock lasts every empty column is tried (a deal serves the columns in order)
    game = Game.from_text("milligan-yukon,kings,noreturn JH.KS/-/-/-/-/-/-/KH QS/KH/KD/KC/KS/TH/KD/KC QH/-")
    assert {m.dst for m in solver_children(game) if m.card == king and m.dst < FOUNDATION} == set(range(1, 7))


# ------------------------------------------------------------------ (d) the transposition key


def shuffled_columns(game: Game, rng: random.Random) -> Game:
    data = game.to_dict()
    rng.shuffle(data["tableau"])
    return Game.from_dict(data)


def canonical_text(game: Game) -> str:
    """The position up to column order and, per suit, the order of its foundation piles."""
    head, cols, found, *rest = game.to_text().split(" ")
    tops = sorted(found.split("/"))
    return " ".join([head, "/".join(sorted(cols.split("/"))), "/".join(tops), *rest])


def playout_positions(rng: random.Random, game: Game, steps: int) -> list[Game]:
    out = [game.copy()]
    g = game.copy()
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        g.push(rng.choice(moves))
        out.append(Game.from_text(g.to_text()))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_key_ignores_column_order(variant: str) -> None:
    rng = random.Random(f"key-order-{variant}")
    for seed in range(1, 6):
        for g in playout_positions(rng, Game.deal(variant, seed=seed), 40)[::5]:
            other = shuffled_columns(g, rng)
            if g.rules.stock == "rows" and g.stock:
                # while a Milligan stock lasts, a deal gives its cards to the columns in order
                assert other.columns == g.columns or position_key(other) != position_key(g), describe(g)
            else:
                assert position_key(other) == position_key(g), describe(g)


def test_key_ignores_which_milligan_pile_is_which() -> None:
    rng = random.Random("key-piles")
    swapped_some = 0
    for seed in range(1, 6):
        for g in playout_positions(rng, Game.deal("milligan-yukon", seed=seed), 120)[::10]:
            data = g.to_dict()
            piles = data["foundations"]
            for suit in range(4):
                same = [i for i, p in enumerate(piles) if p and SUIT[yukon.cards.parse_card(p[0])] == suit]
                empty = [i for i, p in enumerate(piles) if not p]
                pair = same[:2] if len(same) == 2 else (same[:1] + empty[:1]) if same and empty else []
                if len(pair) == 2:
                    i, j = pair
                    piles[i], piles[j] = piles[j], piles[i]
                    swapped_some += 1
            other = Game.from_dict(data)
            assert position_key(other) == position_key(g), describe(g)
    assert swapped_some >= 10


@pytest.mark.parametrize("variant", VARIANTS)
def test_key_tells_different_positions_apart(variant: str) -> None:
    """Property over random playouts (every option): equal keys imply the same position up to column order
    and foundation pile order."""
    rng = random.Random(f"key-distinct-{variant}")
    count = 0
    for empty in ("kings", "any"):
        for ret in (False, True):
            for seed in range(1, 4):
                # one table per deal, as in a search: the key stores the stock's length, not its cards
                seen: dict[bytes, str] = {}
                game = Game.deal(variant, seed=seed, empty_column=empty, foundation_return=ret)
                for _ in range(3):
                    for g in playout_positions(rng, game, 60):
                        k = position_key(g)
                        text = canonical_text(g)
                        assert seen.setdefault(k, text) == text, (seen[k], text)
                count += len(seen)
    assert count > 500


@pytest.mark.parametrize("opt", params(ALL_OPTIONS))
def test_search_with_the_key_alone(opt: tuple[str, str, bool]) -> None:
    """The plain search, with position_key() instead of the exact key, gives the same verdicts."""
    wrong = []
    for game, ref in all_cases(opt)[:10]:
        keyed = reference_solve(game, max_states=CAP, key=position_key)
        assert keyed is not None
        if keyed.status != ref.status:
            wrong.append(f"{describe(game)}: {keyed.status} with position_key, {ref.status} without")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("variant", VARIANTS)
def test_child_key_equals_the_key_after_the_move(variant: str) -> None:
    """The depth-first search computes a child's key without playing the move (Searcher.child_key); it must
    be the key of the position the move leads to."""
    from yukon.solver.key import column_key, extra_key

    rng = random.Random(f"child-key-{variant}")
    checked = 0
    for opt in [o for o in ALL_OPTIONS if o[0] == variant]:
        positions = [g for g, _ in all_cases(opt)]
        positions += playout_positions(rng, Game.deal(variant, seed=5, empty_column=opt[1],
                                                      foundation_return=opt[2]), 80)
        for game in positions:
            searcher = search.Searcher(game, search.Limits())
            g = searcher.game  # the searcher's own copy
            colkeys = [column_key(g.down_counts[i], c) for i, c in enumerate(g.column_cards)]
            extra = extra_key(g)
            for m in g.legal_moves():
                predicted = searcher.child_key(m, colkeys, extra)
                if predicted is None:
                    continue
                g.push(m)
                assert predicted == position_key(g), (describe(game), str(m))
                g.pop()
                checked += 1
    assert checked > 150


def test_key_keeps_column_order_while_a_milligan_stock_lasts() -> None:
    """In Milligan Yukon a deal gives the stock's cards to the columns in order, so while the stock lasts two
    positions that differ only in column order are different positions. (The key once merged them.)"""
    a = Game.from_text("milligan-yukon,kings,noreturn KS/-/-/-/-/-/-/KH QS/KH/KD/KC/KS/JH/KD/KC QH/-")
    b = Game.from_text("milligan-yukon,kings,noreturn -/KS/-/-/-/-/-/KH QS/KH/KD/KC/KS/JH/KD/KC QH/-")
    deal = a.parse_move("deal")
    after_a, after_b = a.copy(), b.copy()
    after_a.push(deal)
    after_b.push(deal)
    # the same move leads to positions that are not the same up to column order: a and b differ in play
    assert canonical_text(after_a) != canonical_text(after_b)
    assert position_key(a) != position_key(b)
    # once the stock is out, the columns are alike again
    assert position_key(after_a) == position_key(Game.from_text(" ".join(
        [after_a.to_text().split()[0], "/".join(reversed(after_a.to_text().split()[1].split("/"))),
         *after_a.to_text().split()[2:]])))


def depth_first(game: Game, memory_limit: int | None = None) -> search.SearchOutcome:
    """The depth-first search alone (solve() runs a best-first phase first, which decides most small
    positions by itself: the depth-first search needs checking on its own)."""
    return search.Searcher(game, search.Limits(None, GENEROUS, memory_limit, None)).run()


@pytest.mark.parametrize("opt", params(ALL_OPTIONS))
def test_each_search_phase_alone(opt: tuple[str, str, bool]) -> None:
    """solve() may answer from a greedy probe, the best-first phase or the depth-first search: each of the
    two complete searches must give the reference verdict by itself."""
    wrong = []
    for game, ref in all_cases(opt):
        before = game.to_dict()
        for name, out in (
            ("depth-first", depth_first(game)),
            ("best-first", search.best_first(game, search.Limits(None, GENEROUS, None, None), 10**7)),
        ):
            assert game.to_dict() == before
            assert out.status != "unknown", (name, describe(game), out.reason)
            if out.status != ref.status:
                wrong.append(f"{describe(game)}: {name} {out.status} ({out.reason}), reference {ref.status}")
            if out.status == "won":
                assert replays_to_win(game, out.moves), (name, describe(game))
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("variant", "seeds"), [("russian", range(1, 21)), ("alaska", range(1, 5)),
                                              ("milligan-yukon", range(1, 3))])
def test_depth_first_search_with_a_small_table(variant: str, seeds: range) -> None:
    """A table too small for the search ends it with ``unknown`` (reason "memory limit"), never a guess.
    Real deals the depth-first search decides in a few thousand positions, searched again with a table a
    third of the size it needed (16 bytes an entry: the compiled search's link keys; the Python search
    counts 200)."""
    compared = 0
    for seed in seeds:
        game = Game.deal(variant, seed=seed)
        full = search.Searcher(game, search.Limits(None, 20_000, None, None)).run()
        if full.status == "unknown" or full.stats.peak_table < 1500:
            continue
        entries = max(600, full.stats.peak_table // 3)
        small = search.Searcher(game, search.Limits(None, 400_000, 16 * entries, None)).run()
        assert (small.status, small.reason) == ("unknown", "memory limit"), (variant, seed)
        compared += 1
    assert compared >= 1
