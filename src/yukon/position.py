"""Reading and writing whole positions: the JSON form and the one-line form.

The one-line form is to a position what FEN is to chess: four space-separated
fields, shell-friendly once quoted, that round-trip exactly.

1. variant and options: ``yukon,kings,noreturn`` (or ``any`` / ``return``)
2. the columns, left to right, separated by ``/``: face-down cards, a ``.``,
   face-up cards (bottom first, two characters each); a column without
   face-down cards is just its face-up cards; an empty column is ``-``
3. the top card of each foundation pile, separated by ``/`` (``-`` for empty):
   a pile holds its suit from the ace up to that card
4. only where the variant has a stock: ``STOCK/WASTE``, each bottom first, ``-`` when empty

>>> from yukon import Game
>>> g = Game.deal("yukon", seed=1)
>>> text = g.to_text()
>>> text.split()[0]
'yukon,kings,noreturn'
>>> Game.from_text(text) == g
True
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .cards import NAME, RANK, SUIT, parse_card
from .errors import InvalidCardError, InvalidPositionError, InvalidRulesError, shown
from .rules import OPTIONS, Rules, rules_for, variant_name

if TYPE_CHECKING:
    from .game import Game

_TOP_KEYS = ("variant", "rules", "tableau", "foundations", "stock", "waste")


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidPositionError(f"{where} must be a list of cards, not {shown(value)}")
    out = []
    for i, text in enumerate(value):
        try:
            out.append(parse_card(text))
        except InvalidCardError:
            raise InvalidPositionError(f"{where}[{i}]: not a card: {shown(text)}") from None
    return out


def game_from_json(text: str | bytes | bytearray) -> Game:
    """Read a JSON position given as text; raises :class:`InvalidPositionError` naming the fault."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidPositionError(f"a JSON position is text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidPositionError(
            f"position is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except ValueError as exc:  # bytes that are not UTF-8 (UnicodeDecodeError)
        raise InvalidPositionError(f"position is not valid JSON: {shown(str(exc))}") from None
    except RecursionError:
        raise InvalidPositionError("position is not a position: its JSON is nested too deeply") from None
    return game_from_dict(data)


def _options(raw: Any) -> dict[str, Any]:
    """The ``rules`` object: rule options by name (what each takes, :meth:`Rules.with_options` checks)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidRulesError(f"'rules' must be an object of rule options, not {shown(raw)}")
    for key in raw:
        if not isinstance(key, str) or key not in OPTIONS:
            raise InvalidRulesError(f"unknown rule option {shown(key)} in 'rules' (known: {', '.join(OPTIONS)})")
    return raw


def game_from_dict(data: Any) -> Game:
    """Validate a JSON position (already parsed: a dict) and build the game."""
    if not isinstance(data, dict):
        hint = " (JSON text: use Game.from_json)" if isinstance(data, (str, bytes, bytearray)) else ""
        raise InvalidPositionError(f"a position is a JSON object, not {type(data).__name__}{hint}")
    if data.get("format") == "yukon-game" and "tableau" not in data:  # (a file of the other kind)
        raise InvalidPositionError("this is a game record (docs/records.md), not a position: its 'start' is one")
    for key in ("variant", "tableau", "foundations"):
        if key not in data:
            raise InvalidPositionError(f"position has no {key!r} key")
    rules = rules_for(variant_name(data["variant"])).with_options(**_options(data.get("rules")))

    tableau = data["tableau"]
    if not isinstance(tableau, list):
        raise InvalidPositionError(f"'tableau' must be a list of columns, not {shown(tableau)}")
    columns: list[tuple[list[int], list[int]]] = []
    for i, col in enumerate(tableau):
        if not isinstance(col, dict):
            raise InvalidPositionError(
                f"column {i + 1} must be an object with 'down' and 'up' lists, not {shown(col)}"
            )
        extra = [shown(key) for key in col if key not in ("down", "up")]
        if extra:
            raise InvalidPositionError(f"column {i + 1} has unknown key(s): {', '.join(sorted(extra))}")
        down = _cards(col.get("down", []), f"column {i + 1} 'down'")
        if "up" not in col:
            raise InvalidPositionError(f"column {i + 1} has no 'up' list")
        up = _cards(col["up"], f"column {i + 1} 'up'")
        columns.append((down, up))

    found_raw = data["foundations"]
    if not isinstance(found_raw, list):
        raise InvalidPositionError(f"'foundations' must be a list of piles, not {shown(found_raw)}")
    foundations = [_cards(p, f"foundation {i + 1}") for i, p in enumerate(found_raw)]
    stock = _cards(data.get("stock", []) if data.get("stock") is not None else [], "'stock'")
    waste = _cards(data.get("waste", []) if data.get("waste") is not None else [], "'waste'")
    return build_game(rules, columns, foundations, stock, waste)


def build_game(
    rules: Rules,
    columns: Sequence[tuple[list[int], list[int]]],
    foundations: Sequence[list[int]],
    stock: list[int],
    waste: list[int],
) -> Game:
    """Check a position against its variant's rules and build it."""
    from .game import Game

    if len(columns) != rules.columns:
        raise InvalidPositionError(
            f"{rules.title} has {rules.columns} columns, the position has {len(columns)}"
        )
    for i, (down, up) in enumerate(columns):
        if down and not up:
            raise InvalidPositionError(
                f"column {i + 1} has face-down cards but no face-up card"
            )
    if len(foundations) != rules.foundations:
        raise InvalidPositionError(
            f"{rules.title} has {rules.foundations} foundations, the position has {len(foundations)}"
        )
    for i, pile in enumerate(foundations):
        for j, c in enumerate(pile):
            if SUIT[c] != SUIT[pile[0]]:
                raise InvalidPositionError(
                    f"foundation {i + 1} mixes suits: {NAME[pile[0]]} and {NAME[c]}"
                )
            if RANK[c] != j + 1:
                raise InvalidPositionError(
                    f"foundation {i + 1} is out of sequence: {NAME[c]} at height {j + 1}"
                    f" (a pile runs from its ace up: {' '.join(NAME[x] for x in pile)})"
                )
    if not rules.has_stock and stock:
        raise InvalidPositionError(f"{rules.title} has no stock, the position has {len(stock)} card(s) there")
    if not rules.has_waste and waste:
        raise InvalidPositionError(f"{rules.title} has no waste, the position has {len(waste)} card(s) there")

    counts: Counter[int] = Counter()
    for down, up in columns:
        counts.update(down)
        counts.update(up)
    for pile in foundations:
        counts.update(pile)
    counts.update(stock)
    counts.update(waste)
    want = rules.decks
    too_many = sorted(c for c, n in counts.items() if n > want)
    missing = sorted(c for c in range(52) if counts[c] < want)
    # Both faults in one line: a card typed twice usually stands where the missing one belongs,
    # and naming only one sends the user back for a second try.
    faults: list[str] = []
    if too_many:
        times = "once" if want == 1 else f"{want} times"
        faults.append(f"card(s) present more than {times}: {' '.join(NAME[c] for c in too_many)}")
    if missing:
        faults.append(f"card(s) missing: {' '.join(NAME[c] for c in missing)}")
    if faults:
        raise InvalidPositionError("; ".join(faults))
    return Game(rules, columns, foundations, stock, waste)


# ------------------------------------------------------------------ one-line form

_CARD_RE = re.compile(r"(10|[A2-9TJQK])([SHDC♠♥♦♣])", re.IGNORECASE)


def _card_run(text: str, where: str) -> list[int]:
    if text == "-" or text == "":
        return []
    pos = 0
    out = []
    while pos < len(text):
        m = _CARD_RE.match(text, pos)
        if not m:
            raise InvalidPositionError(f"{where}: not a card at {text[pos:pos + 3]!r} in {shown(text)}")
        out.append(parse_card(m.group(0)))
        pos = m.end()
    return out


def _pile_from_top(text: str, where: str) -> list[int]:
    if text == "-":
        return []
    cards = _card_run(text, where)
    if len(cards) != 1:
        raise InvalidPositionError(f"{where}: give one top card per foundation, not {shown(text)}")
    top = cards[0]
    return [SUIT[top] + 4 * r for r in range(RANK[top])]


def game_from_text(text: str) -> Game:
    """Read the one-line form; raises :class:`InvalidPositionError` naming the fault."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a one-line position is text, not {type(text).__name__}")
    fields = text.split()
    if len(fields) not in (3, 4):
        raise InvalidPositionError(
            f"a one-line position has 3 or 4 space-separated fields, not {len(fields)}: {shown(text)}"
        )
    head = fields[0].split(",")
    options: dict[str, Any] = {}
    value: str | bool
    for word in head[1:]:
        w = word.lower()
        if w in OPTIONS["empty_column"]:
            key, value = "empty_column", w
        elif w in ("return", "noreturn"):
            key, value = "foundation_return", w == "return"
        else:
            raise InvalidRulesError(f"unknown rule option {shown(word)} in {shown(fields[0])}")
        if key in options:
            raise InvalidRulesError(f"rule option {shown(word)} in {shown(fields[0])}: {key} is given twice")
        options[key] = value
    rules = rules_for(head[0], **options)
    columns = []
    for i, col in enumerate(fields[1].split("/")):
        down_text, _dot, up_text = col.rpartition(".") if "." in col else ("", "", col)
        columns.append((_card_run(down_text, f"column {i + 1}"), _card_run(up_text, f"column {i + 1}")))
    if len(columns) != rules.columns:  # (told before the next fields: a space typed in the tableau splits it,
        # and its second half read as the foundations said "foundation 1: give one top card ..., not ''")
        raise InvalidPositionError(
            f"{rules.title} has {rules.columns} columns, the position has {len(columns)}: {shown(fields[1])}"
            + (" (a space inside the tableau field splits it)" if len(fields) == 4 and not rules.has_stock else ""))
    foundations = [_pile_from_top(p, f"foundation {i + 1}") for i, p in enumerate(fields[2].split("/"))]
    stock: list[int] = []
    waste: list[int] = []
    if len(fields) == 4:
        parts = fields[3].split("/")
        if len(parts) != 2:
            raise InvalidPositionError(f"the stock field is STOCK/WASTE, not {shown(fields[3])}")
        stock = _card_run(parts[0], "stock")
        waste = _card_run(parts[1], "waste")
    return build_game(rules, columns, foundations, stock, waste)


def game_to_text(game: Game) -> str:
    rules = game.rules
    head = ",".join(
        (rules.variant, rules.empty_column, "return" if rules.foundation_return else "noreturn")
    )
    cols = []
    for down, up in game.columns:
        run = "".join(NAME[c] for c in up)
        if down:
            cols.append("".join(NAME[c] for c in down) + "." + run)
        else:
            cols.append(run or "-")
    found = "/".join(NAME[p[-1]] if p else "-" for p in game.foundations)
    fields = [head, "/".join(cols), found]
    if rules.has_stock:
        stock = "".join(NAME[c] for c in game.stock) or "-"
        waste = "".join(NAME[c] for c in game.waste) or "-"
        fields.append(f"{stock}/{waste}")
    return " ".join(fields)


def read_position(text: str) -> Game:
    """A position given as JSON text or the one-line form (CLI and web input)."""
    stripped = text.strip()
    # (a one-line position starts with its variant's name: text opening a JSON object or array is JSON, and
    # its faults are told as JSON's, not as "a one-line position has 3 or 4 fields, not 1")
    if stripped.startswith(("{", "[")):
        return game_from_json(stripped)
    return game_from_text(stripped)
