"""yukon.demo: the computer's decision reads only what the player sees, its moves are counted in the game's
record, and a game the computer played in stays out of the statistics."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yukon import Game, IllegalMoveError
from yukon.demo import (
    COMPUTER_MOVES,
    NO_MOVE,
    NO_PROGRESS,
    REPEATS,
    SPEEDS,
    WON,
    computer_moves,
    decide,
    play_computer_move,
    situation,
    speed_pause,
)
from yukon.honest import Budget, play_honest, player
from yukon.notation import Move
from yukon.session import PlaySession
from yukon.store import Store
from yukon.visible import VisiblePosition, visible_history

SMALL = Budget(samples=3, nodes=2_000)
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"


def test_the_decision_sees_only_the_view() -> None:
    game = Game.deal("alaska", seed=4)
    view, seen, seed = situation(game)
    assert seen == frozenset() and seed == 0
    other = view.fill(tuple(reversed(view.unseen)))
    assert other.to_text() != game.to_text()
    mine, theirs = decide(view, seen, seed, SMALL, None), decide(*situation(other), SMALL, None)
    assert mine.move is not None and (mine.move, mine.source, mine.win_share) == (
        theirs.move, theirs.source, theirs.win_share)


#: Three legal moves, none of which turns a card or is safe to play up (found by playing Yukon deal 1 at random).
NOTHING_TO_TURN = ("yukon,kings,noreturn 5C4D3S2H/-/5D.QCJD/TS8D9S.8HAH4H3C/TD9CKSKH.6DQDJCTH7S6H5S9H6S5H7H6C/"
                   "2DTC2S7DKC.8CKDQS4S3D/4CJHASAC7C2C.3H8SJS9DQH AD/-/-/-")


def test_the_computer_gives_up_rather_than_go_round_in_circles() -> None:
    view, _, seed = situation(Game.from_text(NOTHING_TO_TURN))
    moves = view.legal_moves()
    assert len(moves) == 3 and all(view.after(m) is not None for m in moves)
    assert decide(view, frozenset(), seed, SMALL, None).reason == "move"
    every_move_goes_back = frozenset(view.after(m) for m in moves)
    decision = decide(view, every_move_goes_back, seed, SMALL, None)  # type: ignore[arg-type]
    assert decision.move is None and decision.reason == REPEATS, decision


#: Milligan Yukon, 18 legal moves, none of which turns, plays up or deals a card (found by random play).
MILLIGAN_NO_PROGRESS = (
    "milligan-yukon,kings,return AD6C5H7HAHKH3C2D2CTD4CAH9HKCQDJC7S/ASJH4CKS4D4DQHJS9S2DTS9C2STH3HJD8S/3D4H8H/"
    "6H7D.3D9D5D/7HQS8C.KD8CTC5CQC/JD3S8D9C.9S6D5SQS7S4S6D9HQCJCTDQH6S5D2S2CAD5CTH7C2H7C8SKH/3C9D7D8H6H2H.KCJHTCKSTSJSKDQD6S6C5H/"
    "4S8D3H5S3S.4H AC/AS/AC/-/-/-/-/- -/-")


def test_the_computer_gives_up_when_it_has_long_only_moved_the_same_cards_around(monkeypatch) -> None:
    """Past GIVE_UP_AFTER views that differ only in the arrangement of the face-up cards, with no move left that
    turns, plays up or deals a card, the computer stops with two decks (such moves give new views without end);
    a move that makes progress, fewer such views, or one deck, and it plays on."""
    view, _, seed = situation(Game.from_text(MILLIGAN_NO_PROGRESS))
    moves = view.legal_moves()
    assert not any(player.makes_progress(view, m) for m in moves)
    two_rearrangements = frozenset(view.after(m) for m in moves[:2])
    monkeypatch.setattr(player, "GIVE_UP_AFTER", 3)
    assert decide(view, two_rearrangements, seed, SMALL, None).reason == "move"  # 2 views of 3: not yet
    monkeypatch.setattr(player, "GIVE_UP_AFTER", 2)
    decision = decide(view, two_rearrangements, seed, SMALL, None)  # type: ignore[arg-type]
    assert decision.move is None and decision.reason == NO_PROGRESS, decision
    # a view with a move that turns a card: the same count of rearrangements leaves it playing on
    turning = VisiblePosition.of(Game.deal("yukon", seed=2))
    assert any(player.makes_progress(turning, m) for m in turning.legal_moves())
    passed = frozenset(turning.after(m) for m in turning.legal_moves() if turning.after(m) is not None)
    assert len(passed) >= 2 and not player.out_of_ideas(turning, passed)  # type: ignore[arg-type]
    one_deck = VisiblePosition.of(Game.from_text(NOTHING_TO_TURN))
    assert not any(player.makes_progress(one_deck, m) for m in one_deck.legal_moves())
    rearranged = frozenset(one_deck.after(m) for m in one_deck.legal_moves()[:2])
    assert not player.out_of_ideas(one_deck, rearranged)  # type: ignore[arg-type]


def test_play_honest_resigns_when_out_of_ideas(monkeypatch) -> None:
    """play_honest stops where out_of_ideas says so, before it thinks (here at once: no view needed)."""
    monkeypatch.setattr(player, "GIVE_UP_AFTER", 0)
    game = Game.from_text(MILLIGAN_NO_PROGRESS)
    played = play_honest(game, SMALL, seed=1, max_moves=50)
    assert (played.reason, played.moves, played.nodes, played.won) == ("no progress", 0, 0, False)
    assert player.out_of_ideas(VisiblePosition.of(game), set(visible_history(game)))
    played = play_honest(Game.from_text(NOTHING_TO_TURN), SMALL, seed=1, max_moves=3)  # one deck: plays on
    assert played.moves == 3 and played.reason == "move limit"


def test_the_terminal_and_the_web_say_why_the_computer_stopped() -> None:
    """Every reason a decision can stop for has its own words in the terminal game and on the web table."""
    from yukon.tui import demo as tui_demo

    reasons = (WON, NO_MOVE, REPEATS, NO_PROGRESS)
    assert set(tui_demo._ENDED) == set(reasons)
    script = (Path(tui_demo.__file__).parent.parent / "web" / "static" / "demo.js").read_text()
    assert all(f'd.reason === "{r}"' in script for r in reasons), [r for r in reasons if f'"{r}"' not in script]


def test_computer_moves_are_counted_in_the_same_save(store: Store) -> None:
    core = PlaySession(Game.from_text(NEARLY_WON), store, client="test", write_at="deal", autoplay=True)
    played = play_computer_move(core, Move.from_text("1:KH>F"))
    assert len(played) == 4 and core.result == "won"
    record = store.load_game(core.id)
    assert record is not None and record.extra[COMPUTER_MOVES] == 1 and record.result == "won"
    assert store.stats() == []
    with pytest.raises(Exception, match="over"):
        play_computer_move(core, Move.from_text("1:KH>F"))
    assert core.extra[COMPUTER_MOVES] == 1  # a refused move is not counted


def test_an_illegal_computer_move_changes_nothing(store: Store) -> None:
    core = PlaySession(Game.deal("yukon", seed=3), store, client="test", write_at="deal")
    with pytest.raises(IllegalMoveError):
        play_computer_move(core, Move.from_text("1:KH>F"))
    assert COMPUTER_MOVES not in core.extra and core.moves == []


def test_only_the_players_games_count(store: Store) -> None:
    for n, extra in enumerate([{}, {COMPUTER_MOVES: 2}, {COMPUTER_MOVES: 0}, {COMPUTER_MOVES: True}]):
        store.create_game(f"g{n}", "yukon", {}, n, {}, "web", extra, result="won")
    (row,) = store.stats()
    assert (row.played, row.won) == (3, 3)  # the one with two computer moves is left out


def test_counts_and_speeds() -> None:
    assert computer_moves({COMPUTER_MOVES: 3}) == 3
    assert computer_moves({}) == computer_moves({COMPUTER_MOVES: "3"}) == computer_moves({COMPUTER_MOVES: -1}) == 0
    assert [speed_pause(name) for name, _ in SPEEDS] == sorted((p for _, p in SPEEDS), reverse=True)
    with pytest.raises(ValueError, match="slow, normal, fast, fastest"):
        speed_pause("warp")


def test_views_of_games_that_differ_in_hidden_cards_are_equal() -> None:
    game = Game.deal("australian", seed=2)
    view = VisiblePosition.of(game)
    assert VisiblePosition.of(view.fill(sorted(view.unseen))) == view


def _same_history_other_cards(start: Game, moves: list[Move], rng: random.Random) -> Game:
    """The game of ``moves`` from ``start``, with the cards still unseen at the end moved around in the deal."""
    end = start.copy()
    for m in moves:
        end.push(m)
    columns = [(list(down), list(up)) for down, up in start.columns]
    stock = list(start.stock)
    # face-down cards never move until they are turned, from the top; the stock deals its last card first
    slots = [(i, k) for i, (down, _) in enumerate(end.columns) for k in range(len(down))] + \
        [(-1, k) for k in range(len(end.stock))]
    cards = {place: (columns[place[0]][0][place[1]] if place[0] >= 0 else stock[place[1]]) for place in slots}
    shuffled = [cards[p] for p in slots]
    rng.shuffle(shuffled)
    for (i, k), card in zip(slots, shuffled, strict=True):
        if i >= 0:
            columns[i][0][k] = card
        else:
            stock[k] = card
    other = Game(start.rules, columns, [list(p) for p in start.foundations], stock, list(start.waste))
    for m in moves:
        other.push(m)
    return other


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(["yukon", "russian", "alaska", "australian", "milligan-yukon"]),
       seed=st.integers(0, 10_000), plies=st.integers(0, 25), shuffle=st.integers(0, 2**32))
def test_games_with_the_same_history_and_other_unseen_cards_get_the_same_decision(
    variant: str, seed: int, plies: int, shuffle: int,
) -> None:
    rng = random.Random(shuffle)
    start = Game.deal(variant, seed=seed)
    game = start.copy()
    moves: list[Move] = []
    for _ in range(plies):
        legal = game.legal_moves()
        if len(legal) < 2:
            break
        moves.append(rng.choice(legal))
        game.push(moves[-1])
    other = _same_history_other_cards(start, moves, rng)
    assert situation(game) == situation(other)
    mine, theirs = decide(*situation(game), SMALL, None), decide(*situation(other), SMALL, None)
    assert (mine.move, mine.reason, mine.source, mine.win_share) == (
        theirs.move, theirs.reason, theirs.source, theirs.win_share)
