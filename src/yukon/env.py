"""A Gymnasium environment for Yukon and its family (install with ``pip install yukon[rl]``).

Importing this module registers one environment id per variant::

    yukon/Yukon-v0  yukon/Russian-v0  yukon/Alaska-v0  yukon/Australian-v0  yukon/MilliganYukon-v0

>>> import gymnasium as gym
>>> import yukon.env
>>> env = gym.make("yukon/Yukon-v0", empty_column="any", max_episode_steps=300)
>>> obs, info = env.reset(seed=42)                 # deal number 42, as ``Game.deal("yukon", 42)``
>>> env.action_space
Discrete(2928)
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

Without importing it first, ``gym.make("yukon.env:yukon/Yukon-v0")`` imports it for you
(Gymnasium's ``"module:id"`` form).

The full documentation (action encoding, observation layout, rewards, illegal
actions) is in ``docs/agents.md``; the essentials follow.

Actions
-------
``Discrete(n)`` with ``C`` columns and ``N`` cards (``C, N = 7, 52``; Milligan
Yukon ``8, 104``). The layout depends only on ``C`` and ``N`` and is the same
for every rule option. In order:

==========================  =====================================  =============================
section (offset)            index                                  move
==========================  =====================================  =============================
tableau (0)                 ``(s * N + k - 1) * C + d``            the ``k``-th card from the free
                                                                   end of column ``s``, with the
                                                                   ``k - 1`` cards on it, onto
                                                                   column ``d`` (``s:XX+{k-1}>d``)
to foundation (C·N·C)       ``+ s``                                free card of column ``s`` up
waste (C·N·C + C)           ``+ d``; ``+ C`` for the foundation    waste top to column ``d`` / up
from foundation (+C+1)      ``+ card * C + d``                     foundation top ``card`` (0..51)
                                                                   back onto column ``d``
stock (last)                ``n - 1``                              ``deal``
==========================  =====================================  =============================

Every legal move of every variant and option has exactly one index; most
indices are never legal (``d == s``, ``k`` beyond the face-up cards, the waste
in a variant without one). Use ``info["action_mask"]`` or ``action_masks()``.
An illegal action leaves the game unchanged: the step returns the same
position, reward ``illegal_reward``, ``info["illegal_action"] = True``, and is
not terminal (``illegal_action="raise"`` raises :class:`yukon.IllegalMoveError`
instead). An action outside the space raises ``ValueError``. In a position with no legal
move at all (a deal that starts lost, such as Russian deal 29, or a step after
the end) every action returns ``terminated=True``, reward 0, game unchanged.

Observation
-----------
A ``Dict`` of ``int8`` arrays; a card is coded ``card + 1`` (1..52, see
:mod:`yukon.cards`), ``0`` is "no card" and ``53`` a card the player cannot see:

* ``tableau`` ``(C, N)``: each column bottom first, zero-padded; face-down
  cards are 53 unless ``observe_hidden=True``.
* ``down`` ``(C,)``: the number of face-down cards at the bottom of each column.
* ``foundations`` ``(4 * decks,)``: the top card of each foundation pile (0 if empty).
* ``stock`` ``(S,)``: the stock bottom first (its last card is dealt next), all 53
  unless ``observe_hidden=True``; ``S`` is the stock's size after the deal (at least 1).
* ``waste`` ``(S,)``: the waste bottom first (every card in it was seen face up).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, ClassVar, SupportsInt

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"yukon.env needs Gymnasium and NumPy ({exc.name} is missing): pip install 'yukon[rl]'"
    ) from exc

from .cards import NAME
from .deal import check_seed
from .errors import IllegalMoveError, InvalidSeedError, shown
from .game import Game
from .notation import FOUNDATION, STOCK, STOCK_MOVE, WASTE, Move, make_move
from .render import layout_text
from .rules import Rules, rules_for, variant_name

#: Observation code of a card the player cannot see (face down, or in the stock).
HIDDEN = 53
#: Observation code of "no card".
EMPTY = 0

#: Environment ids and the variant each plays.
ENV_IDS: dict[str, str] = {
    "yukon/Yukon-v0": "yukon",
    "yukon/Russian-v0": "russian",
    "yukon/Alaska-v0": "alaska",
    "yukon/Australian-v0": "australian",
    "yukon/MilliganYukon-v0": "milligan-yukon",
}
#: The step limit each id is registered with (``gym.make(..., max_episode_steps=...)`` changes it).
MAX_EPISODE_STEPS = 1000

REWARD_MODES = ("shaped", "sparse")
ILLEGAL_ACTIONS = ("penalize", "raise")
#: Shaped reward: per card that reaches a foundation (minus per card that leaves one).
REWARD_FOUNDATION = 1.0
#: Shaped reward: per face-down card turned face up.
REWARD_TURN = 0.5

# bytes.translate tables: card -> card + 1, and card -> HIDDEN
_CODE = bytes(min(i + 1, 255) for i in range(256))
_HIDE = bytes([HIDDEN]) * 256


class ActionLayout:
    """The fixed action encoding for ``columns`` columns and ``cards`` cards (see the module text).

    >>> lay = ActionLayout(7, 52)
    >>> lay.n, lay.encode(Move.from_text("2:7H+2>5")), lay.describe(lay.encode(Move.from_text("2:7H+2>5")))
    (2928, 382, 'column 2, card 3 from the free end, onto column 5')
    >>> lay.describe(lay.n - 1)
    'deal'
    """

    def __init__(self, columns: int, cards: int) -> None:
        self.columns = c = columns
        self.cards = cards
        self.tableau = 0
        self.to_foundation = c * cards * c
        self.waste = self.to_foundation + c
        self.from_foundation = self.waste + c + 1
        self.stock = self.from_foundation + 52 * c
        self.n = self.stock + 1
        self._index: dict[int, int] = {}

    def encode(self, move: Move) -> int:
        """The action index of ``move`` (any move of the notation; ``ValueError`` if it has none)."""
        c = self.columns
        s, d, k = move.src, move.dst, move.count
        if s == STOCK:
            return self.stock
        if s < FOUNDATION:
            if s >= c:
                raise ValueError(f"{move}: no column {s + 1} in a game of {c} columns")
            if d == FOUNDATION:
                return self.to_foundation + s
            if d < c and 1 <= k <= self.cards:
                return (s * self.cards + k - 1) * c + d
        elif s == WASTE:
            if d == FOUNDATION:
                return self.waste + c
            if d < c:
                return self.waste + d
        elif s == FOUNDATION and d < c and 0 <= move.card < 52:
            return self.from_foundation + move.card * c + d
        raise ValueError(f"{move}: not a move of a game of {c} columns")

    def indices(self, moves: Sequence[Move]) -> list[int]:
        """Action indices of ``moves`` (memoised by move key: the environment's hot path)."""
        index = self._index
        try:
            return [index[m.key] for m in moves]
        except KeyError:
            for m in moves:
                if m.key not in index:
                    index[m.key] = self.encode(m)
            return [index[m.key] for m in moves]

    def decode(self, action: int, game: Game) -> Move | None:
        """The move that ``action`` names in ``game``'s position, or None if it names no card there.

        The move returned may still be illegal (a card that does not fit); check with
        ``game.is_legal``. This reads the position independently of the mask tables.
        """
        c = self.columns
        if not 0 <= action < self.n:
            return None
        if action == self.stock:
            return STOCK_MOVE
        if action >= self.from_foundation:
            card, d = divmod(action - self.from_foundation, c)
            return make_move(FOUNDATION, d, card, 1)
        if action >= self.waste:
            waste = game.waste
            if not waste:
                return None
            i = action - self.waste
            return make_move(WASTE, FOUNDATION if i == c else i, waste[-1], 1)
        cols = game.columns
        if action >= self.to_foundation:
            s = action - self.to_foundation
            if s >= len(cols) or not cols[s][1]:
                return None
            return make_move(s, FOUNDATION, cols[s][1][-1], 1)
        rest, d = divmod(action, c)
        s, k1 = divmod(rest, self.cards)
        if s >= len(cols):
            return None
        up = cols[s][1]
        if k1 >= len(up):
            return None
        return make_move(s, d, up[len(up) - 1 - k1], k1 + 1)

    def describe(self, action: int) -> str:
        """Words for an action index, independent of any position."""
        c = self.columns
        if not 0 <= action < self.n:
            return f"no action {action} (the space has {self.n})"
        if action == self.stock:
            return "deal"
        if action >= self.from_foundation:
            card, d = divmod(action - self.from_foundation, c)
            return f"{NAME[card]} from a foundation onto column {d + 1}"
        if action >= self.waste:
            i = action - self.waste
            return "waste to the foundation" if i == c else f"waste onto column {i + 1}"
        if action >= self.to_foundation:
            return f"column {action - self.to_foundation + 1} to the foundation"
        rest, d = divmod(action, c)
        s, k1 = divmod(rest, self.cards)
        return f"column {s + 1}, card {k1 + 1} from the free end, onto column {d + 1}"


_LAYOUTS: dict[tuple[int, int], ActionLayout] = {}


def action_layout(rules: Rules) -> ActionLayout:
    """The (shared) action layout of a variant."""
    key = (rules.columns, rules.card_count)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = ActionLayout(*key)
    return lay


class YukonEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    """One game of a Yukon-family variant per episode (see the module text and docs/agents.md).

    Keyword arguments: ``variant`` (a name or alias), the rule options
    ``empty_column`` and ``foundation_return`` (None: the variant's default),
    ``observe_hidden`` (show face-down cards and the stock), ``reward``
    (``"shaped"`` or ``"sparse"``), ``illegal_reward`` (None: -1.0 shaped, 0.0 sparse),
    ``illegal_action`` (``"penalize"`` or ``"raise"``) and ``render_mode``
    (None or ``"ansi"``).
    """

    # a class attribute (gymnasium.make reads it from the class), which gymnasium.Env declares as an instance one
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}  # type: ignore[misc]

    def __init__(
        self,
        variant: str = "yukon",
        *,
        empty_column: str | None = None,
        foundation_return: bool | None = None,
        observe_hidden: bool = False,
        reward: str = "shaped",
        illegal_reward: float | None = None,
        illegal_action: str = "penalize",
        render_mode: str | None = None,
    ) -> None:
        options: dict[str, Any] = {}
        if empty_column is not None:
            options["empty_column"] = empty_column
        if foundation_return is not None:
            options["foundation_return"] = foundation_return
        self.rules: Rules = rules_for(variant_name(variant), **options)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.observe_hidden = bool(observe_hidden)
        self.reward_mode = reward
        self.sparse = reward == "sparse"
        if illegal_reward is None:
            illegal_reward = 0.0 if self.sparse else -1.0
        self.illegal_reward = float(illegal_reward)
        self.illegal_action = illegal_action
        self.render_mode = render_mode

        r = self.rules
        self.layout = action_layout(r)
        ncols, ncards = r.columns, r.card_count
        self._stock_len = max(r.stock_size, 1)
        self.action_space = spaces.Discrete(self.layout.n)
        # gymnasium types spaces.Dict as Space[dict[str, Space]], but its samples are dicts of arrays
        self.observation_space = spaces.Dict({  # type: ignore[assignment]
            "tableau": spaces.Box(0, HIDDEN, (ncols, ncards), np.int8),
            "down": spaces.Box(0, ncards, (ncols,), np.int8),
            "foundations": spaces.Box(0, 52, (r.foundations,), np.int8),
            "stock": spaces.Box(0, HIDDEN, (self._stock_len,), np.int8),
            "waste": spaces.Box(0, 52, (self._stock_len,), np.int8),
        })
        self._game: Game | None = None
        self._legal: dict[int, Move] = {}
        self._mask_idx: list[int] = []

    # --------------------------------------------------------------- public helpers

    @property
    def game(self) -> Game:
        """The engine's game (it shows hidden cards: an agent that reads it is not fair)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (the method MaskablePPO looks for)."""
        mask = np.zeros(self.layout.n, dtype=np.bool_)
        mask[self._mask_idx] = True
        return mask

    def action_to_move(self, action: SupportsInt) -> Move | None:
        """The legal move that ``action`` plays now, or None if it is illegal here."""
        return self._legal.get(int(action))

    def move_to_action(self, move: Move | str) -> int:
        """The action index of a move (object or notation, read in the current position)."""
        if isinstance(move, str):
            move = self.game.parse_move(move)
        return self.layout.encode(move)

    def describe_action(self, action: SupportsInt) -> str:
        """The notation of ``action`` if it is legal now, else words for it."""
        move = self._legal.get(int(action))
        return str(move) if move is not None else self.layout.describe(int(action))

    # --------------------------------------------------------------- Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a game: deal number ``seed`` if given, else one drawn from the env's RNG.

        ``options``: ``{"deal": n}`` deals number ``n`` (the RNG untouched);
        ``{"position": text_or_dict}`` starts from a position of this variant and options
        (one-line form or JSON dict).
        """
        super().reset(seed=seed)
        options = options or {}
        unknown = set(options) - {"deal", "position"}
        if unknown:
            raise ValueError(f"unknown reset option(s): {', '.join(sorted(unknown))} (known: deal, position)")
        if "position" in options and "deal" in options:
            raise ValueError("reset options take a deal or a position, not both")
        if "position" in options:
            pos = options["position"]
            game = Game.from_text(pos) if isinstance(pos, str) else Game.from_dict(pos)
            if game.rules != self.rules:
                raise ValueError(
                    f"the position is a game of {game.rules.describe()}, this environment plays "
                    f"{self.rules.describe()}"
                )
        else:
            if "deal" in options:
                deal = _deal_number(options["deal"])
            elif seed is not None:
                deal = int(seed)
            else:
                deal = int(self.np_random.integers(0, 2**31))
            game = Game.deal(self.rules, deal)
        self._game = game
        self._update_legal(game.legal_moves())
        info = self._info(False)
        info["deal"] = game.seed
        return self._observe(), info

    def step(self, action: SupportsInt) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play action ``action`` (docs/agents.md, "Actions"): ``(observation, reward, terminated, truncated,
        info)``. An illegal action changes nothing and is rewarded ``illegal_reward`` (or raises
        :class:`~yukon.errors.IllegalMoveError` with ``illegal_action="raise"``); one outside the space raises
        ``ValueError``; a step before :meth:`reset` raises ``RuntimeError``."""
        game = self._game
        if game is None:
            raise RuntimeError("call reset() before step()")
        a = int(action)
        if not 0 <= a < self.layout.n:
            raise ValueError(f"action {action!r} is outside the action space Discrete({self.layout.n})")
        move = self._legal.get(a)
        if move is None:
            if not self._legal:  # nothing can be played: the game is over
                return self._observe(), 0.0, True, False, self._info(True)
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"illegal action {a} ({self.layout.describe(a)}) in {game.to_text()}")
            info = self._info(True)
            return self._observe(), self.illegal_reward, False, False, info
        found = game.cards_on_foundations
        down = game.face_down_count
        game.push_unchecked(move)
        moves = game.legal_moves()
        self._update_legal(moves)
        won = game.is_won()
        if self.sparse:
            reward = 1.0 if won else 0.0
        else:
            reward = REWARD_FOUNDATION * (game.cards_on_foundations - found) + REWARD_TURN * (
                down - game.face_down_count
            )
        info = self._info(False)
        info["move"] = move
        return self._observe(), reward, won or not moves, False, info

    def render(self) -> str | None:
        """The text layout of the position (face-down cards ``##``) with ``render_mode="ansi"``, else None."""
        if self.render_mode != "ansi":
            return None
        return layout_text(self.game)

    # --------------------------------------------------------------- internals

    def _update_legal(self, moves: list[Move]) -> None:
        idx = self.layout.indices(moves)
        self._mask_idx = idx
        self._legal = dict(zip(idx, moves, strict=True))

    def _info(self, illegal: bool) -> dict[str, Any]:
        mask = np.zeros(self.layout.n, dtype=np.int8)
        mask[self._mask_idx] = 1
        game = self._game
        assert game is not None
        return {
            "action_mask": mask,
            "illegal_action": illegal,
            "won": game.is_won(),
            "cards_on_foundations": game.cards_on_foundations,
        }

    def _observe(self) -> dict[str, np.ndarray]:
        game = self._game
        assert game is not None
        ncards = self.rules.card_count
        hidden = not self.observe_hidden
        cols = game.columns
        tab = bytearray(len(cols) * ncards)
        downs = bytearray(len(cols))
        for i, (down, up) in enumerate(cols):
            base = i * ncards
            nd = len(down)
            downs[i] = nd
            if nd:
                tab[base:base + nd] = bytes(down).translate(_HIDE if hidden else _CODE)
            tab[base + nd:base + nd + len(up)] = bytes(up).translate(_CODE)
        found = bytes(p[-1] + 1 if p else 0 for p in game.foundations)
        slen = self._stock_len
        stock = bytearray(slen)
        s = game.stock
        stock[:len(s)] = bytes(s).translate(_HIDE if hidden else _CODE)
        waste = bytearray(slen)
        w = game.waste
        waste[:len(w)] = bytes(w).translate(_CODE)
        return {
            "tableau": np.frombuffer(tab, dtype=np.int8).reshape(len(cols), ncards),
            "down": np.frombuffer(downs, dtype=np.int8),
            "foundations": np.frombuffer(bytearray(found), dtype=np.int8),
            "stock": np.frombuffer(stock, dtype=np.int8),
            "waste": np.frombuffer(waste, dtype=np.int8),
        }


def _deal_number(value: object) -> int:
    """The ``deal`` reset option as a deal number: an int (NumPy's too), never a float cut short or text
    (``int()`` made deal 3.7 deal 3, and 'x' a bare "invalid literal" error)."""
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidSeedError(f"reset option 'deal' is a deal number (an int), not {shown(value)}") from None
    return check_seed(number)


def honest_action(env: gym.Env[Any, Any], *, seed: int = 0, budget: Any = None) -> int | None:
    """A baseline policy: the honest player's action now (:mod:`yukon.honest`; it reads the game only
    through what a player sees, docs/honest.md), or None when there is no move or it would only go back
    to a position it has seen (it resigns). ``env``: a :class:`YukonEnv`, or what ``gym.make`` returns
    (its wrappers). ``budget``: a :class:`yukon.honest.Budget` (default the study's); ``seed`` fixes its
    samples: ``deal * 1009 + i`` at decision ``i`` (from 0) plays the honest study's game of that deal
    (:func:`yukon.honest.play_honest`), move for move."""
    from .honest import STUDY_BUDGET, honest_hint
    from .visible import VisiblePosition, visible_history

    inner = env.unwrapped  # (gym.make's TimeLimit and checkers do not pass .game and .layout through)
    if not isinstance(inner, YukonEnv):
        raise TypeError(f"honest_action needs a yukon environment, not {type(inner).__name__}")
    game = inner.game
    hint = honest_hint(game, None, seed=seed, budget=budget or STUDY_BUDGET)
    if hint.move is None:
        return None
    after = VisiblePosition.of(game).after(hint.move)
    if after is not None and after in set(visible_history(game)):
        return None
    return inner.layout.encode(hint.move)


def register_envs() -> None:
    """Register the five environment ids with Gymnasium (done on import; safe to repeat)."""
    for env_id, variant in ENV_IDS.items():
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point="yukon.env:YukonEnv",
            kwargs={"variant": variant},
            max_episode_steps=MAX_EPISODE_STEPS,
        )


register_envs()

__all__ = [
    "EMPTY", "ENV_IDS", "HIDDEN", "MAX_EPISODE_STEPS", "ActionLayout", "YukonEnv",
    "action_layout", "honest_action", "register_envs",
]
