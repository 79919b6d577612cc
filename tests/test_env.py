"""The Gymnasium environment (issue 7): registration, check_env, masks, hidden cards, rewards, illegal actions."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import yukon.env  # noqa: E402
from yukon import FOUNDATION, STOCK, WASTE, Game, IllegalMoveError, Move  # noqa: E402
from yukon.env import ENV_IDS, HIDDEN, ActionLayout, YukonEnv  # noqa: E402
from yukon.render import layout_text  # noqa: E402

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"empty_column": "any", "foundation_return": True, "observe_hidden": True, "reward": "sparse"},
    {"render_mode": "ansi"},
]


def _make(env_id: str, **kwargs: Any) -> Any:
    return gym.make(env_id, **kwargs)


def _mask_moves(env: YukonEnv, mask: Any) -> list[Move | None]:
    """Decode every marked action independently of the env's tables (from the position)."""
    return [env.layout.decode(int(a), env.game) for a in np.flatnonzero(mask)]


# ----------------------------------------------------------------- registration and check_env


@pytest.mark.parametrize("env_id", list(ENV_IDS))
@pytest.mark.parametrize("opts", OPTION_SETS, ids=["defaults", "options", "ansi"])
def test_check_env_passes_without_warnings(env_id: str, opts: dict[str, Any]) -> None:
    env = _make(env_id, **opts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    assert env.spec.max_episode_steps == yukon.env.MAX_EPISODE_STEPS
    assert env.unwrapped.rules.variant == ENV_IDS[env_id]


@pytest.mark.parametrize("env_id", ["yukon/Yukon-v0", "yukon/Russian-v0", "yukon/Australian-v0"])
def test_the_honest_baseline_plays_through_gym_make_without_warnings(env_id: str) -> None:
    """The baseline policy's moves are legal actions and every observation stays inside the space, through
    the wrappers gym.make adds (its passive checker warns on the first step)."""
    env = _make(env_id, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        obs, info = env.reset(seed=3)
        for ply in range(8):
            action = yukon.env.honest_action(env, seed=3 * 1009 + ply)
            if action is None:
                break
            assert info["action_mask"][action] == 1
            obs, reward, term, trunc, info = env.step(action)
            assert obs in env.observation_space and isinstance(reward, float)
            assert isinstance(env.render(), str)
            if term or trunc:
                break
    assert ply > 0


def test_options_reach_the_rules() -> None:
    env = _make("yukon/Russian-v0", empty_column="any", foundation_return=True).unwrapped
    assert (env.rules.variant, env.rules.empty_column, env.rules.foundation_return) == ("russian", "any", True)
    assert _make("yukon/MilliganYukon-v0").unwrapped.rules.foundation_return is True
    with pytest.raises(ValueError, match="empty_column"):
        _make("yukon/Yukon-v0", empty_column="queens")
    with pytest.raises(ValueError, match="reward"):
        _make("yukon/Yukon-v0", reward="dense")


def test_module_colon_id_makes_the_env_without_importing_yukon_env_first() -> None:
    code = (
        "import sys, gymnasium as gym\n"
        "assert 'yukon.env' not in sys.modules\n"
        "env = gym.make('yukon.env:yukon/Australian-v0')\n"
        "print(env.unwrapped.rules.variant, env.action_space.n)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["australian", str(env_n("australian"))]


def env_n(variant: str) -> int:
    return YukonEnv(variant).action_space.n


def test_action_space_sizes_follow_the_documented_formula() -> None:
    for variant, (c, n) in {"yukon": (7, 52), "australian": (7, 52), "milligan-yukon": (8, 104)}.items():
        assert env_n(variant) == c * n * c + c + (c + 1) + 52 * c + 1


# ----------------------------------------------------------------- the encoding


def test_encoding_examples() -> None:
    lay = ActionLayout(7, 52)
    assert lay.encode(Move.from_text("1:AS>2")) == 1
    assert lay.encode(Move.from_text("2:7H+2>5")) == (1 * 52 + 2) * 7 + 4
    assert lay.encode(Move.from_text("3:QC>F")) == 7 * 52 * 7 + 2
    assert lay.encode(Move.from_text("W:9D>4")) == 7 * 52 * 7 + 7 + 3
    assert lay.encode(Move.from_text("W:AS>F")) == 7 * 52 * 7 + 7 + 7
    assert lay.encode(Move.from_text("F:5S>3")) == 7 * 52 * 7 + 7 + 8 + 16 * 7 + 2
    assert lay.encode(Move.from_text("deal")) == lay.n - 1
    with pytest.raises(ValueError):
        lay.encode(Move.from_text("8:AS>1"))


def test_two_copies_of_a_card_in_one_column_are_two_actions() -> None:
    # Milligan Yukon: 8H twice face up in column 1; both groups fit on 9S in column 2.
    env = YukonEnv("milligan-yukon")
    found = False
    for seed in range(1, 400):
        game = Game.deal("milligan-yukon", seed)
        rng = np.random.default_rng(seed)
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            groups = [m for m in moves if m.src < FOUNDATION and m.dst < FOUNDATION]
            cards = {(m.src, m.dst, m.card) for m in groups}
            if len(cards) < len(groups):
                found = True
                break
            game.push(moves[int(rng.integers(len(moves)))])
        if found:
            break
    assert found, "no position with the same card leading two groups from one column"
    env.reset(options={"position": game.to_text()})
    mask = env.action_masks()
    assert sorted(map(str, _mask_moves(env, mask))) == sorted(map(str, game.legal_moves()))


# ----------------------------------------------------------------- masks against the engine


def _check_position(env: YukonEnv, info: dict[str, Any], exhaustive: bool) -> None:
    game = env.game
    legal = game.legal_moves()
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    assert np.array_equal(env.action_masks(), mask.astype(bool))
    decoded = _mask_moves(env, mask)
    assert len(decoded) == len(legal) == len(set(decoded))
    assert set(decoded) == set(legal)
    for a in np.flatnonzero(mask):
        assert env.action_to_move(a) == env.layout.decode(int(a), game)
        assert env.layout.encode(env.action_to_move(a)) == a
    if exhaustive:  # every index: marked exactly when it names a move that the engine finds legal
        for a in range(env.action_space.n):
            move = env.layout.decode(a, game)
            assert bool(mask[a]) == (move is not None and game.is_legal(move)), (a, move)


def _walk(env: YukonEnv, seed: int, walk: int, eager: bool, steps: int = 300) -> None:
    """A random episode checked at every step; ``eager`` walks prefer foundation moves (to go deeper)."""
    obs, info = env.reset(seed=seed)
    r = env.rules
    assert env.game == Game.deal(r.variant, seed, empty_column=r.empty_column, foundation_return=r.foundation_return)
    _check_position(env, info, exhaustive=True)
    rng = np.random.default_rng(walk)
    for i in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        if not len(legal):
            break
        up = [a for a in legal if env.action_to_move(a).dst == FOUNDATION] if eager else []
        before_found, before_down = env.game.cards_on_foundations, env.game.face_down_count
        obs, reward, terminated, truncated, info = env.step(rng.choice(up or legal))
        assert obs in env.observation_space
        assert not truncated and not info["illegal_action"]
        assert reward == (env.game.cards_on_foundations - before_found) + 0.5 * (before_down - env.game.face_down_count)
        assert terminated == (env.game.is_won() or not env.game.legal_moves())
        _check_position(env, info, exhaustive=i % 50 == 49)
        if terminated:
            break


@pytest.mark.slow  # long random walks
# 50 walks (there were 100): every variant and option also gets two fixed walks in
# test_masks_on_every_variant_and_option below; these add the observation modes, random seeds and walks
@settings(max_examples=50, deadline=None, derandomize=True)
@given(
    variant=st.sampled_from(sorted(set(ENV_IDS.values()))),
    empty_column=st.sampled_from(["kings", "any"]),
    foundation_return=st.booleans(),
    observe_hidden=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    walk=st.integers(0, 2**32 - 1),
    eager=st.booleans(),
)
def test_masks_equal_the_engines_legal_moves(
    variant: str, empty_column: str, foundation_return: bool, observe_hidden: bool, seed: int, walk: int,
    eager: bool,
) -> None:
    env = YukonEnv(variant, empty_column=empty_column, foundation_return=foundation_return,
                   observe_hidden=observe_hidden)
    _walk(env, seed, walk, eager)


@pytest.mark.parametrize("variant", sorted(set(ENV_IDS.values())))
@pytest.mark.parametrize("empty_column", ["kings", "any"])
@pytest.mark.parametrize("foundation_return", [False, True])
def test_masks_on_every_variant_and_option(variant: str, empty_column: str, foundation_return: bool) -> None:
    env = YukonEnv(variant, empty_column=empty_column, foundation_return=foundation_return)
    for seed in (1, 2):
        _walk(env, seed, walk=seed, eager=seed == 1)


# ----------------------------------------------------------------- observation: what a player sees


def _visible_twins(variant: str, seed: int) -> tuple[str, str]:
    """Two positions that differ only in cards the player cannot see (face down or in the stock)."""
    game = Game.deal(variant, seed)
    d = game.to_dict()
    hidden = [(i, j) for i, col in enumerate(d["tableau"]) for j in range(len(col["down"]))]
    if d.get("stock"):
        (i1, j1), (i2, j2) = hidden[0], ("stock", 0)
        d["tableau"][i1]["down"][j1], d["stock"][0] = d["stock"][0], d["tableau"][i1]["down"][j1]
    else:
        (i1, j1), (i2, j2) = hidden[0], hidden[-1]
        a, b = d["tableau"][i1]["down"], d["tableau"][i2]["down"]
        a[j1], b[j2] = b[j2], a[j1]
    return game.to_text(), Game.from_dict(d).to_text()


@pytest.mark.parametrize("variant", ["yukon", "milligan-yukon", "australian"])
def test_observation_hides_face_down_cards_and_the_stock(variant: str) -> None:
    env = YukonEnv(variant)
    seed = 5
    if variant == "australian":  # no face-down cards at the deal: swap two stock cards instead
        game = Game.deal(variant, seed)
        d = game.to_dict()
        d["stock"][0], d["stock"][-1] = d["stock"][-1], d["stock"][0]
        one, two = game.to_text(), Game.from_dict(d).to_text()
    else:
        one, two = _visible_twins(variant, seed)
    assert one != two
    obs1, _ = env.reset(options={"position": one})
    obs2, _ = env.reset(options={"position": two})
    for key in obs1:
        assert np.array_equal(obs1[key], obs2[key]), key
    seen = YukonEnv(variant, observe_hidden=True)
    o1, _ = seen.reset(options={"position": one})
    o2, _ = seen.reset(options={"position": two})
    assert any(not np.array_equal(o1[k], o2[k]) for k in o1)


@pytest.mark.parametrize("variant", ["yukon", "australian", "milligan-yukon"])
@pytest.mark.parametrize("observe_hidden", [False, True])
def test_observation_layout(variant: str, observe_hidden: bool) -> None:
    env = YukonEnv(variant, observe_hidden=observe_hidden)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(3)
    for _ in range(60):  # walk a little so that foundations and waste fill
        legal = np.flatnonzero(info["action_mask"])
        if not len(legal):
            break
        found = [int(a) for a in legal if env.action_to_move(a).dst == FOUNDATION]
        obs, _, term, _, info = env.step(found[0] if found else rng.choice(legal))
        if term:
            break
    game = env.game
    n = game.rules.card_count
    for i, (down, up) in enumerate(game.columns):
        row = obs["tableau"][i]
        assert obs["down"][i] == len(down)
        shown_down = [HIDDEN] * len(down) if not observe_hidden else [c + 1 for c in down]
        assert list(row[: len(down) + len(up)]) == shown_down + [c + 1 for c in up]
        assert not row[len(down) + len(up):].any() and row.shape == (n,)
    assert list(obs["foundations"]) == [p[-1] + 1 if p else 0 for p in game.foundations]
    stock = [HIDDEN] * len(game.stock) if not observe_hidden else [c + 1 for c in game.stock]
    assert list(obs["stock"][: len(game.stock)]) == stock and not obs["stock"][len(game.stock):].any()
    assert list(obs["waste"][: len(game.waste)]) == [c + 1 for c in game.waste]
    assert obs in env.observation_space


# ----------------------------------------------------------------- seeds, rewards, ends


@pytest.mark.parametrize("env_id", list(ENV_IDS))
def test_same_seed_same_episode(env_id: str) -> None:
    def episode(seed: int) -> list[Any]:
        env = _make(env_id, max_episode_steps=120)
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        out: list[Any] = [env.unwrapped.game.to_text(), obs]
        for _ in range(200):
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, term, trunc, info = env.step(rng.choice(legal) if len(legal) else 0)
            out += [obs, reward, term, trunc, str(info.get("move"))]
            if term or trunc:
                break
        _, info2 = env.reset()  # seed=None after a seeded reset: reproducible too
        out.append(info2["deal"])
        return out

    a, b, c = episode(7), episode(7), episode(8)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x) if isinstance(x, dict) else x == y
    assert a[0] == Game.deal(ENV_IDS[env_id], 7).to_text() != c[0]


def test_sparse_and_shaped_rewards_on_a_win() -> None:
    pos = "yukon,kings,noreturn KS/-/-/-/-/-/- QS/KH/KD/KC"
    for mode, expected in (("sparse", 1.0), ("shaped", 1.0)):
        env = YukonEnv("yukon", reward=mode)
        _, info = env.reset(options={"position": pos})
        (a,) = np.flatnonzero(info["action_mask"])
        assert env.describe_action(a) == "1:KS>F"
        _, reward, term, trunc, info = env.step(a)
        assert (reward, term, trunc, info["won"]) == (expected, True, False, True)
        assert info["cards_on_foundations"] == 52 and not info["action_mask"].any()


def test_sparse_reward_is_zero_before_the_win_and_shaped_counts_turns() -> None:
    sparse, shaped = YukonEnv("yukon", reward="sparse"), YukonEnv("yukon")
    _, i1 = sparse.reset(seed=3)
    shaped.reset(seed=3)
    rng = np.random.default_rng(1)
    total = 0.0
    for _ in range(300):
        legal = np.flatnonzero(i1["action_mask"])
        if not len(legal):
            break
        a = rng.choice(legal)
        _, r1, t1, _, i1 = sparse.step(a)
        _, r2, t2, _, _ = shaped.step(a)
        assert r1 == 0.0 and t1 == t2
        total += r2
        if t1:
            break
    g = shaped.game
    assert total == g.cards_on_foundations + 0.5 * (21 - g.face_down_count)


def test_shaped_reward_is_negative_for_a_card_back_from_the_foundation() -> None:
    env = YukonEnv("milligan-yukon")
    rng = np.random.default_rng(0)
    for seed in range(1, 50):
        _, info = env.reset(seed=seed)
        for _ in range(300):
            legal = np.flatnonzero(info["action_mask"])
            if not len(legal):
                break
            back = [a for a in legal if env.action_to_move(a).src == FOUNDATION]
            if back:
                _, reward, _, _, _ = env.step(back[0])
                assert reward == -1.0
                return
            ups = [a for a in legal if env.action_to_move(a).dst == FOUNDATION]
            _, _, term, _, info = env.step(ups[0] if ups else rng.choice(legal))
            if term:
                break
    pytest.fail("no foundation return found")


def test_truncated_by_max_episode_steps() -> None:
    env = _make("yukon/Alaska-v0", max_episode_steps=5)
    _, info = env.reset(seed=2)
    for i in range(5):
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not term
        assert trunc == (i == 4)


def test_deal_with_no_legal_move_terminates_at_once() -> None:
    env = YukonEnv("russian")
    _, info = env.reset(seed=29)
    assert not info["action_mask"].any() and not Game.deal("russian", 29).legal_moves()
    before = env.game.to_text()
    _, reward, term, trunc, info = env.step(0)
    assert (reward, term, trunc) == (0.0, True, False) and env.game.to_text() == before


def test_stock_actions() -> None:
    for variant in ("australian", "milligan-yukon"):
        env = YukonEnv(variant)
        _, info = env.reset(seed=4)
        deal = env.action_space.n - 1
        assert info["action_mask"][deal] == 1 and env.action_to_move(deal).src == STOCK
        before = len(env.game.stock)
        _, reward, _, _, info = env.step(deal)
        assert len(env.game.stock) == before - (1 if variant == "australian" else 8)
        assert reward == 0.0  # a deal turns no face-down card and plays nothing up
        if variant == "australian":
            waste = [a for a in np.flatnonzero(info["action_mask"]) if env.action_to_move(a).src == WASTE]
            assert all(env.layout.waste <= a <= env.layout.waste + 7 for a in waste)


# ----------------------------------------------------------------- illegal actions


def test_illegal_action_changes_nothing_and_is_reported() -> None:
    env = _make("yukon/Yukon-v0")
    obs, info = env.reset(seed=9)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.unwrapped.game.to_text()
    obs2, reward, term, trunc, info2 = env.step(illegal)
    assert env.unwrapped.game.to_text() == before and env.unwrapped.game.move_stack == []
    assert (reward, term, trunc, info2["illegal_action"]) == (-1.0, False, False, True)
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    assert np.array_equal(info["action_mask"], info2["action_mask"])
    assert "move" not in info2
    sparse = YukonEnv("yukon", reward="sparse")
    sparse.reset(seed=9)
    assert sparse.step(illegal)[1] == 0.0
    custom = YukonEnv("yukon", illegal_reward=-0.25)
    custom.reset(seed=9)
    assert custom.step(illegal)[1] == -0.25


def test_illegal_action_can_raise_instead() -> None:
    env = YukonEnv("yukon", illegal_action="raise")
    _, info = env.reset(seed=9)
    before = env.game.to_text()
    with pytest.raises(IllegalMoveError, match="illegal action"):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert env.game.to_text() == before


def test_action_outside_the_space_raises() -> None:
    env = YukonEnv("yukon")
    env.reset(seed=1)
    for bad in (-1, env.action_space.n):
        with pytest.raises(ValueError, match="outside the action space"):
            env.step(bad)


def test_reset_options() -> None:
    env = YukonEnv("yukon")
    _, info = env.reset(options={"deal": 77})
    assert info["deal"] == 77 and env.game == Game.deal("yukon", 77)
    with pytest.raises(ValueError, match="this environment plays"):
        env.reset(options={"position": Game.deal("russian", 1).to_text()})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"shuffle": True})
    env.reset(options={"position": Game.deal("yukon", 5).to_dict()})
    assert env.game == Game.deal("yukon", 5)
    env.reset(options={"deal": np.int64(9)})
    assert env.game == Game.deal("yukon", 9)


@pytest.mark.parametrize("deal", [3.7, "3", "x", None, -3, 2**64])
def test_a_deal_option_that_is_no_deal_number_is_refused(deal: object) -> None:
    """int() made deal 3.7 deal 3 and "3" deal 3, and 'x' said "invalid literal for int()"."""
    env = YukonEnv("yukon")
    with pytest.raises(yukon.errors.InvalidSeedError, match="deal number"):
        env.reset(options={"deal": deal})


def test_a_deal_and_a_position_together_are_refused() -> None:
    env = YukonEnv("yukon")
    with pytest.raises(ValueError, match="a deal or a position, not both"):
        env.reset(options={"deal": 3, "position": Game.deal("yukon", 5).to_text()})


def test_render_ansi_is_the_engine_layout() -> None:
    env = _make("yukon/Yukon-v0", render_mode="ansi")
    env.reset(seed=12)
    text = env.render()
    assert text == layout_text(env.unwrapped.game) and "##" in text
    down = {c for d, _ in env.unwrapped.game.columns for c in d}
    shown = set(text.split())
    from yukon.cards import NAME

    assert not {NAME[c] for c in down} & shown
    assert YukonEnv("yukon").render() is None

