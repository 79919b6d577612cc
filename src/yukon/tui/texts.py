"""The terminal game's words: the status line's wrapping, the top line, and what the analysis found.

Plain functions of the game and its state, apart from the app that shows them (:mod:`yukon.tui.app`).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from ..analysis import Analysis, range_text
from ..cli_common import plural
from ..game import Game
from ..notation import Move
from ..rules import rules_for
from ..store import StatsRow
from .replay import Replay
from .screens import clock_text
from .session import describe_move

#: What a key or click that would change the game says while a replay is shown.
REPLAYING = "Replaying: l plays on from here, esc goes back to the game"
#: The most lines the status line takes: a hint with its reason, or the computer's move and the keys, wraps to
#: a second line at 80 columns rather than losing its end.
STATUS_LINES = 2
#: Below 80 columns the longest messages (about 150 characters: the computer's move with its odds and keys, a
#: Milligan deal with the cards auto-play leaves) need a third line: at 60 columns two lost "p: play it".
NARROW_STATUS_LINES = 3


def status_lines_for(width: int) -> int:
    """The most lines the status line may take in a terminal ``width`` columns wide (the table is laid out
    as if it always took them, so a long message never folds or moves the columns)."""
    return STATUS_LINES if width >= 80 else NARROW_STATUS_LINES


#: A key and what it does ("p: play it", "esc: stop") after the message, set off by two spaces or more.
_KEY_PAIR = re.compile(r"[^\s:]{1,7}: \S.{0,20}")
_HELD = "\x00"  # (stands for a space inside a key pair while wrapping: not whitespace, so never a break)


def wrap_status(text: str, width: int) -> str:
    """``text`` folded into lines of at most ``width`` cells between words, each key pair after the message
    kept whole on one line (at 60 columns a hint ended in "p:", with "play it" below: Textual breaks at any
    space, a non-breaking one too).

    >>> print(wrap_status("Q♣ from column 4 to column 2 (wins)   p: play it", 36))
    Q♣ from column 4 to column 2 (wins)
    p: play it
    >>> wrap_status("Paused: space plays on", 80)
    'Paused: space plays on'
    """
    parts = re.split(r"(\s{2,})", text)
    held = "".join(part.replace(" ", _HELD) if i and i % 2 == 0 and _KEY_PAIR.fullmatch(part) else part
                   for i, part in enumerate(parts))
    lines = textwrap.wrap(held, max(10, width), replace_whitespace=False, break_on_hyphens=False)
    return "\n".join(lines).replace(_HELD, " ")


#: Where a message may end when it is longer than the status line's lines: after a clause or a sentence.
_CLAUSE_END = re.compile(r"[;.](?= )")


def fit_status(forms: Sequence[str], width: int, lines: int) -> str:
    """The first of ``forms`` (a message, then shorter forms of it) that :func:`wrap_status` folds into at most
    ``lines`` lines of ``width`` cells, folded. When none does, the last one ends after its last whole clause or
    sentence that fits, with ``…`` and its keys (the key pairs after it): never in the middle of a sentence (at
    80x24 a Milligan deal's message ended in "a deal puts a card on it," and nothing after).

    >>> fit_status(["Dealt; A♠ is held back: why; f plays it up", "Dealt; auto-play leaves A♠"], 30, 1)
    'Dealt; auto-play leaves A♠'
    >>> print(fit_status(["One clause here; another clause; a third one   p: play it"], 20, 2))
    One clause here; …
    p: play it
    """
    for form in forms:
        folded = wrap_status(form, width)
        if folded.count("\n") < lines:
            return folded
    text = forms[-1]
    parts = re.split(r"(\s{2,})", text)
    keys = 0  # how many of the parts at its end are key pairs (with the spaces before them)
    while len(parts) - keys >= 3 and _KEY_PAIR.fullmatch(parts[-1 - keys]):
        keys += 2
    body, tail = "".join(parts[:len(parts) - keys]), "".join(parts[len(parts) - keys:])
    ends = [m.end() for m in _CLAUSE_END.finditer(body)]
    for end in reversed(ends):
        folded = wrap_status(body[:end] + " …" + tail, width)
        if folded.count("\n") < lines:
            return folded
    return "\n".join(wrap_status(text, width).split("\n")[:lines])  # (no clause fits: as much as fits)


def win_stats_line(row: StatsRow | None, elapsed: float) -> str:
    """The won box's statistics of the rules just won, in the web table's words (``statsLine`` in its banner.js):
    the streak, the best one, the best time (a new best said) and the games won; ``""`` without a row.

    >>> win_stats_line(StatsRow("yukon", {}, 7, 4, 2, 3, 95.0, 120), 95.0)
    'Streak 2 · best streak 3 · best time 1:35 (a new best!) · won 4 of 7'
    """
    if row is None:
        return ""
    best = row.best_time is not None and abs(row.best_time - elapsed) < 0.01 and row.won > 1
    return (f"Streak {row.current_streak} · best streak {row.best_streak} · best time {clock_text(row.best_time)}"
            f"{' (a new best!)' if best else ''} · won {row.won} of {row.played}")


def replay_label(replay: Replay) -> str:
    """What the top line says of a replay's position: on the solver's winning line, or a move of the game."""
    if replay.better_from is not None and replay.at >= replay.better_from:
        return "replay: winning line"
    return "replay"


def info_line(game: Game, moves: int, elapsed: float, autoplay: bool, winnable: str, width: int,
              difficulty: str | None = None, *, replay: str | None = None) -> str:
    """The top line in at most ``width`` cells when it can be: the full form, else shorter words,
    else without its least needed parts (``auto``, then the cards up); the winnable indicator stays.
    ``difficulty``, the deal's grade (docs/difficulty.md), stands beside the deal number, as in the web table.
    ``replay`` (a replay's label) stands where the clock, ``auto`` and the verdict were: those are the game in
    play's, not the replayed position's (no time is kept per move, and nothing autoplays in a replay).

    >>> g = Game.deal("milligan-yukon", seed=18446744073709551615, empty_column="any")
    >>> info_line(g, 0, 0.0, True, "not winnable ✗", 120)
    'Milligan Yukon (empty: any) · deal 18446744073709551615 · 0 moves · 0:00 · 0/104 up · auto · not winnable ✗'
    >>> info_line(g, 0, 0.0, True, "not winnable ✗", 78)
    'Milligan (any) · #18446744073709551615 · 0 mv · 0:00 · 0/104 · not winnable ✗'
    >>> info_line(Game.deal("yukon", seed=5), 3, 61.0, False, "", 120, "hard")
    'Yukon · deal 5 (hard) · 3 moves · 1:01 · 0/52 up'
    >>> info_line(Game.deal("yukon", seed=5), 3, 61.0, True, "not winnable ✗", 120, replay="replay")
    'Yukon · deal 5 · 3 moves · 0/52 up · replay'
    """
    rules = game.rules
    default = rules_for(rules.variant)
    long_words: list[str] = []
    short_words: list[str] = []
    if rules.empty_column != default.empty_column:
        long_words.append(f"empty: {rules.empty_column}")
        short_words.append(rules.empty_column)
    if rules.foundation_return != default.foundation_return:
        word = "return" if rules.foundation_return else "no return"
        long_words.append(word)
        short_words.append(word)

    def titled(title: str, words: list[str]) -> str:
        return title + (f" ({', '.join(words)})" if words else "")

    name = rules.title.split()[0]  # "Milligan", "Australian": the variant still named
    title, short_title = titled(rules.title, long_words), titled(name, short_words)
    grade = f" ({difficulty})" if difficulty else ""
    deal = f"deal {game.seed}{grade}" if game.seed is not None else "own position"
    short_deal = f"#{game.seed}{grade}" if game.seed is not None else "own"
    bare_deal = f"#{game.seed}" if game.seed is not None else "own"
    clock, count = clock_text(elapsed), plural(moves, "move")
    up = f"{game.cards_on_foundations}/{rules.card_count}"
    auto = "auto" if autoplay else ""
    if replay is not None:
        clock, auto, winnable = "", "", replay
    # the verdict without its bracket ("(was at move N)"), then in its sign alone: never cut inside a word
    verdict = re.sub(r" \([^)]*\)", "", winnable)
    sign = verdict.replace("not winnable ✗", "✗").replace("winnable ✓", "✓").replace("winnable: ", "")
    mv = f"{moves} mv"
    forms = [
        [title, deal, count, clock, f"{up} up", auto, winnable],
        [titled(rules.title, short_words), short_deal, count, clock, f"{up} up", auto, winnable],
        [short_title, short_deal, count, clock, f"{up} up", auto, winnable],
        [short_title, short_deal, count, clock, up, winnable],
        [short_title, short_deal, mv, clock, up, winnable],
        [short_title, short_deal, mv, clock, winnable],
        # below that the variant, the move count and the verdict stay to the last: the rest goes first
        [short_title, bare_deal, mv, clock, winnable],
        [short_title, bare_deal, mv, winnable],
        [short_title, bare_deal, mv, verdict],
        [name, bare_deal, mv, verdict],
        [name, mv, verdict],
        [name, mv, sign],
    ]
    lines = [" · ".join(part for part in form if part) for form in forms]
    return next((line for line in lines if len(line) <= width), lines[-1])


def analysis_text(result: Analysis, moves: Sequence[Move], start: Game, dealt: int = 0) -> tuple[str, str]:
    """The analysis in one status line, and its kind (``good`` or ``error``). ``dealt``: how many of ``moves``
    are the deal's automatic plays (the player's moves are numbered after them)."""
    if result.losing_move is not None:
        n = result.losing_move
        before = start.copy()
        for move in moves[:n - 1]:
            before.push(move)
        what = describe_move(before, moves[n - 1])
        return (f"Move {n - dealt} lost the game ({what}): before it, it could be won.  "
                f"b: step through a winning line", "error")
    ranged = range_text(result, dealt)  # (what a range leaves open: the start, the end, or only the moves between)
    if ranged is not None:
        return ranged, "error"
    if result.end == "won":
        return "You won: no move lost the game", "good"
    if result.start == "lost":  # (a position set up by hand is no deal)
        what = "deal" if start.seed is not None else "position"
        return f"This {what} could not be won from the start: no move lost it", "good"
    if result.end == "winnable":
        if result.winning_line:
            return "It can still be won from here: no move lost it.  b: step through a winning line", "good"
        return "It can still be won from here: no move lost it", "good"
    return "The solver could not decide the game in time", "error"


def no_line_text(result: Analysis | None, own_position: bool = False) -> str:
    """Why ``b`` has no winning line to step through (it said "once W has found the move that lost the
    game" also after W had found that the deal was lost from the start)."""
    if result is None:
        return "b steps through a winning line once W has found where the game went wrong"
    if result.end == "won":
        return "You won: there is no better line to show (, and . replay your moves)"
    if result.start == "lost":
        return f"No winning line: this {'position' if own_position else 'deal'} could not be won from the start"
    return "No winning line to show: the solver did not find one in time"


__all__ = ["NARROW_STATUS_LINES", "REPLAYING", "STATUS_LINES", "analysis_text", "fit_status", "info_line",
           "no_line_text", "replay_label", "status_lines_for", "win_stats_line", "wrap_status"]
