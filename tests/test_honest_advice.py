"""The honest player's advice per variant (yukon.honest.heuristic; docs/honest.md, "Round three").

The rules choose the advice from one table; the first player's advice stays Yukon's, so Yukon's
choices and its player's name do not change; the same-suit advice scores what a player sees only, and
its terms say what they claim on positions built for them.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_honest import SETTINGS, TINY, choices, deals, mid_game, options, rearranged
from yukon import Game
from yukon.cards import DECK, NAME, RANK, SUIT, parse_card
from yukon.honest import DEFAULT_METHOD, HONEST_1, Method, choose, honest_hint
from yukon.honest.heuristic import ADVICE_BY_BUILD, CLASSIC, SAME_SUIT, Advice, advice_for, preference
from yukon.rules import BUILD_RULES, VARIANTS, rules_for
from yukon.study.db import StudyParams
from yukon.study.players import HONEST_VERSION, honest_label, honest_study, parse_budget, play_deal, player_version
from yukon.study.worker import DealTask
from yukon.visible import VisiblePosition


def position(rules: str, columns: list[str], foundations: str = "-/-/-/-") -> Game:
    """A position with these face-up columns (``-`` empty) and foundation tops, empty columns before the
    last to make seven; every other card lies face down under the last column's cards."""
    used: set[int] = set()
    for col in columns:
        if col != "-":
            used |= {parse_card(col[i:i + 2]) for i in range(0, len(col), 2)}
    for top in foundations.split("/"):
        if top != "-":
            c = parse_card(top)
            used |= {x for x in DECK if SUIT[x] == SUIT[c] and RANK[x] <= RANK[c]}
    rest = "".join(NAME[c] for c in DECK if c not in used)
    cols = [*columns[:-1], *["-"] * (7 - len(columns)), f"{rest}.{columns[-1]}"]
    return Game.from_text(f"{rules} {'/'.join(cols)} {foundations}")


def score(advice: Advice, game: Game, move: str) -> float:
    """The advice's own score of ``move``, without the share of the moves it opens (``opens``)."""
    advice = dataclasses.replace(advice, opens=0.0)
    view = VisiblePosition.of(game)
    m = game.parse_move(move)
    assert game.is_legal(m), f"{move} is not legal in {game.to_text()}"
    return advice.preference(view, m)


# ---------------------------------------------------------------- the table


def test_every_build_rule_has_an_advice_and_the_rules_choose_it() -> None:
    assert set(ADVICE_BY_BUILD) == set(BUILD_RULES)
    assert advice_for(VARIANTS["yukon"]) is CLASSIC
    assert advice_for(VARIANTS["milligan-yukon"]) is CLASSIC
    for variant in ("russian", "alaska", "australian"):
        assert advice_for(VARIANTS[variant]) is SAME_SUIT
        assert advice_for(rules_for(variant, empty_column="any")) is SAME_SUIT
    names = [a.name for a in {id(a): a for a in ADVICE_BY_BUILD.values()}.values()]
    assert len(names) == len(set(names))  # each advice names a distinct player
    assert CLASSIC.name == HONEST_VERSION


def test_the_player_is_named_by_the_rules_advice() -> None:
    budget = parse_budget("12x10000")
    assert honest_label(budget) == "honest-1 12x10000"
    assert honest_label(budget, VARIANTS["yukon"]) == "honest-1 12x10000"
    assert honest_label(budget, rules_for("yukon", empty_column="any")) == "honest-1 12x10000"
    assert honest_label(budget, VARIANTS["alaska"]) == "honest-2s 12x10000"
    assert player_version(rules_for("russian", empty_column="any")) == "2s"
    alaska = StudyParams("alaska", "kings", False, 30.0, None, 10**9, "15")
    assert honest_study(alaska, "honest", "12x10000").solver_version == "honest-2s 12x10000"
    yukon_any = StudyParams("yukon", "any", False, 30.0, None, 10**9, "15")
    assert honest_study(yukon_any, "honest", None).solver_version == "honest-1 12x10000"


def test_a_study_of_another_player_is_not_continued_by_this_one() -> None:
    task = DealTask("alaska", "kings", False, 3, None, None, None, player="honest-1 2x100")
    with pytest.raises(ValueError, match="honest-2s"):
        play_deal(task)


def test_method_takes_an_advice_or_none() -> None:
    assert DEFAULT_METHOD.advice is None and HONEST_1.advice is CLASSIC
    with pytest.raises(ValueError, match="advice"):
        Method(advice="classic")  # type: ignore[arg-type]


# ---------------------------------------------------------------- Yukon unchanged


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_yukon_decisions_are_the_first_players(deal: int) -> None:
    game = Game.deal("yukon", seed=deal)
    for ply in range(12):
        view = VisiblePosition.of(game)
        a = choose(view, frozenset(), TINY, ply, method=DEFAULT_METHOD)
        b = choose(view, frozenset(), TINY, ply, method=HONEST_1)
        assert (a.move, a.source, a.nodes) == (b.move, b.source, b.nodes)
        if a.move is None:
            break
        game.push(a.move)


# ---------------------------------------------------------------- the same-suit terms


def test_a_card_laid_on_the_lower_card_of_its_suit_is_an_inversion() -> None:
    """Alaska: 8S may go on 9S or on 7S; on 7S it lies above the 7S, which cannot go up before it."""
    game = position("alaska,kings,noreturn", ["9S", "7S", "KD", "8S", "KH"])
    down, up = score(SAME_SUIT, game, "4:8S>1"), score(SAME_SUIT, game, "4:8S>2")
    assert score(CLASSIC, game, "4:8S>1") == score(CLASSIC, game, "4:8S>2")
    assert down - up == pytest.approx(SAME_SUIT.inversion)


def test_moving_a_group_between_cards_it_fits_is_a_shuffle() -> None:
    """Alaska: 8S on 9S moved to 7S gains no link, turns nothing: shuffle and inversion; onto 9S from a
    card it does not fit makes a link."""
    game = position("alaska,kings,noreturn", ["9S8S", "7S", "KD", "KH"])
    move = "1:8S>2"
    assert score(SAME_SUIT, game, move) == pytest.approx(
        score(CLASSIC, game, move) - SAME_SUIT.shuffle - SAME_SUIT.inversion)
    made = position("alaska,kings,noreturn", ["9S", "KD8S", "KH"])
    assert score(SAME_SUIT, made, "2:8S>1") == pytest.approx(score(CLASSIC, made, "2:8S>1") + SAME_SUIT.link)


def test_an_empty_column_spent_on_a_group_that_turns_nothing() -> None:
    """Russian, any card into an empty column: a Queen's group spent there scores less than a King's."""
    game = position("russian,any,noreturn", ["-", "7HQD", "7CKS", "KC"])
    queen, king = score(SAME_SUIT, game, "2:QD>1"), score(SAME_SUIT, game, "3:KS>1")
    assert score(CLASSIC, game, "2:QD>1") - SAME_SUIT.shuffle - SAME_SUIT.fill_empty == pytest.approx(queen)
    assert king > queen


def test_emptying_a_column_counts_for_any_card_where_any_card_may_lead() -> None:
    rules = "russian,any,noreturn"
    game = position(rules, ["8H", "7H", "KS", "5C"])  # no King waits for a column
    assert score(SAME_SUIT, game, "2:7H>1") - score(CLASSIC, game, "2:7H>1") == pytest.approx(
        SAME_SUIT.link + SAME_SUIT.empty_for_a_king - CLASSIC.empty)


def test_a_group_laid_over_face_down_cards_buries_them() -> None:
    """Yukon: 7S may go on the 8H (no card face down under it) or on the 8D (every other card face down
    under it); ``bury`` costs the second move its weight per card moved and card face down there."""
    game = position("yukon,kings,noreturn", ["8H", "KC7S", "8D"])
    buried = dataclasses.replace(CLASSIC, name="b", bury=2.0)
    down = VisiblePosition.of(game).columns[6][0]
    assert down > 0 and score(CLASSIC, game, "2:7S>1") == score(CLASSIC, game, "2:7S>7")
    assert score(buried, game, "2:7S>1") == score(CLASSIC, game, "2:7S>1")
    assert score(buried, game, "2:7S>7") == pytest.approx(score(CLASSIC, game, "2:7S>7") - 2.0 * down)


# ---------------------------------------------------------------- honest


@SETTINGS
@given(options, deals, choices, st.lists(st.integers(0, 200), min_size=1, max_size=120))
def test_every_advice_scores_only_what_a_player_sees(option, deal, picks, order) -> None:
    game = mid_game(option, deal, picks).copy()
    other = rearranged(game, order)
    a, b = VisiblePosition.of(game), VisiblePosition.of(other)
    for advice in (CLASSIC, SAME_SUIT):
        assert [advice.preference(a, m) for m in game.legal_moves()] == [
            advice.preference(b, m) for m in game.legal_moves()]
    assert [preference(a, m) for m in game.legal_moves()] == [preference(b, m) for m in game.legal_moves()]


@SETTINGS
@given(options, deals, choices, st.lists(st.integers(0, 200), min_size=1, max_size=120), st.integers(0, 2**32))
def test_the_same_suit_advice_is_honest_on_every_variant(option, deal, picks, order, seed) -> None:
    game = mid_game(option, deal, picks).copy()
    other = rearranged(game, order)
    method = Method(advice=SAME_SUIT)
    a = honest_hint(game, None, seed=seed, budget=TINY, method=method)
    b = honest_hint(other, None, seed=seed, budget=TINY, method=method)
    assert (a.move, a.source, a.samples, a.nodes) == (b.move, b.source, b.samples, b.nodes), game.to_text()
    assert a.move is None or game.is_legal(a.move)
    again = honest_hint(game, None, seed=seed, budget=TINY, method=method)
    assert (again.move, again.nodes) == (a.move, a.nodes)


def test_the_bench_reads_deals_and_weights() -> None:
    from bench_scripts import load_bench

    bench = load_bench("honest_advice")
    assert bench.parse_deals("1-3,7") == [1, 2, 3, 7]
    changed = bench.parse_advice("inversion=0,empty_serves_any_card=0", SAME_SUIT)
    assert (changed.inversion, changed.empty_serves_any_card, changed.link) == (0.0, False, SAME_SUIT.link)
    assert changed.name == "2s*"  # never mistaken for the shipped advice
    with pytest.raises(SystemExit, match="unknown advice weight"):
        bench.parse_advice("courage=1", SAME_SUIT)


def test_the_sweep_bench_plays_resumes_and_compares(tmp_path, monkeypatch, capsys) -> None:
    from bench_scripts import BENCH, load_bench

    monkeypatch.syspath_prepend(str(BENCH))  # it imports bench/honest_advice.py beside it
    bench = load_bench("honest_sweep")
    out = tmp_path / "run.csv"
    args = ["honest_sweep.py", "--out", str(out), "--deals", "1-2", "--budget", "2x500"]
    monkeypatch.setattr("sys.argv", args)
    bench.main()
    first = out.read_text()
    assert [line.split(",")[0] for line in sorted(first.splitlines())] == ["1", "2"]
    bench.main()  # resumes: nothing left to play
    assert out.read_text() == first
    greedy = tmp_path / "greedy.csv"
    monkeypatch.setattr("sys.argv", ["honest_sweep.py", "--out", str(greedy), "--deals", "1-2", "--greedy"])
    bench.main()
    assert bench.read_rows(str(greedy)).keys() == {1, 2}
    capsys.readouterr()
    bench.compare(str(out), [str(greedy)])
    printed = capsys.readouterr().out
    assert "2 deals in common" in printed and "paired difference" in printed
