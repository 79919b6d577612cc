"""The New dialog's kinds of deal (any, winnable, of a difficulty, proven lost) and a deal's difficulty, at the
API: drawn from the shipped verdicts at once, without the solver."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_client import app_client, new_game, solver_threads

import yukon
import yukon.solver
from yukon import deal_data
from yukon.rules import rules_for
from yukon.store import Store


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran although the shipped verdicts know these rules")

    monkeypatch.setattr(yukon, "solve", refuse)
    monkeypatch.setattr(yukon.solver, "solve", refuse)
    store = Store(tmp_path / "web.sqlite3")
    with app_client(store, solver=solver_threads()) as c:
        yield c
    store.close()


def _known(variant: str, seed: int, **options: Any) -> deal_data.Verdict:
    v = deal_data.verdict_for(rules_for(variant, **options), seed)
    assert v is not None, (variant, seed)
    return v


@pytest.mark.parametrize("body, status, grade", [
    ({"deal": "lost"}, "lost", None),
    ({"deal": "winnable"}, "won", None),
    ({"winnable_only": True}, "won", None),
    ({"deal": "winnable", "difficulty": "hard"}, "won", "hard"),
    ({"difficulty": "easy"}, "won", "easy"),
    ({"variant": "alaska", "deal": "winnable", "difficulty": "hard"}, "won", "hard"),
    ({"variant": "russian", "deal": "lost"}, "lost", None),
])
def test_a_deal_of_each_kind_comes_from_the_data(client: TestClient, body: dict[str, Any], status: str,
                                                 grade: str | None) -> None:
    for _ in range(3):
        s = new_game(client, **body)
        v = _known(body.get("variant", "yukon"), s["seed"])
        assert v.status == status and (grade is None or v.difficulty == grade)
        assert s["deal_note"] and (grade or "") in s["deal_note"]
        assert s["moves"] == [] and s["status"] == "playing"


def test_any_deal_is_a_random_deal(client: TestClient) -> None:
    seeds = {new_game(client, deal="any")["seed"] for _ in range(4)}
    assert len(seeds) == 4 and not any(s <= 1000 for s in seeds)  # (drawn from 2**32: not the studied ones)


@pytest.mark.parametrize("body, words", [
    ({"deal": "maybe"}, "deal is one of"),
    ({"difficulty": "impossible"}, "difficulty is one of"),
    ({"deal": "lost", "difficulty": "hard"}, "for a winnable deal"),
    ({"deal": "lost", "seed": 5}, "give no seed"),
    ({"deal": "winnable", "numbering": "pysolfc"}, "give no seed"),
    ({"variant": "milligan-yukon", "options": {"empty_column": "any"}, "deal": "lost"},
     "No deal of Milligan Yukon with these options is proven lost"),  # (it said "milligan-yukon", lower case)
    ({"variant": "milligan-yukon", "deal": "winnable", "difficulty": "easy"}, "has no difficulty grade"),
])
def test_a_choice_that_cannot_be_honoured_is_refused(client: TestClient, body: dict[str, Any], words: str) -> None:
    before = client.get("/api/stats").json()
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    assert client.get("/api/stats").json() == before


def _graded(grade: str) -> deal_data.Verdict:
    return next(v for v in deal_data.verdicts("yukon", "kings", False, status="won") if v.difficulty == grade)


@pytest.mark.parametrize("body", [{"deal": "winnable", "difficulty": "hard"}, {"deal": "winnable"},
                                  {"winnable_only": True}])
def test_a_deal_dealt_as_winnable_shows_its_grade(client: TestClient, body: dict[str, Any]) -> None:
    """The game's state carries the grade when the player asked for a winnable deal (of a grade or not)."""
    s = new_game(client, **body)
    v = _known("yukon", s["seed"])
    assert v.status == "won" and s["difficulty"] == v.difficulty and v.difficulty is not None
    assert client.get(f"/api/games/{s['id']}").json()["difficulty"] == v.difficulty


@pytest.mark.parametrize("body", [{}, {"winnable_only": True}, {"deal": "any"}])  # (the last two: "not checked")
def test_no_grade_on_a_deal_dealt_by_number_until_the_game_is_over(client: TestClient, body: dict[str, Any]) -> None:
    """A deal by number the verdicts grade hard: a grade shown would say it can be won; once over, it may show."""
    hard = _graded("hard")
    s = new_game(client, **body, seed=hard.seed)
    assert s["seed"] == hard.seed and s["difficulty"] is None
    assert client.get(f"/api/games/{s['id']}").json()["difficulty"] is None
    r = client.post(f"/api/games/{s['id']}/resign")
    assert r.status_code == 200, r.text
    assert r.json()["difficulty"] == "hard"  # over: nothing left to spoil
    assert client.get(f"/api/games/{s['id']}").json()["difficulty"] == "hard"


def test_no_grade_on_any_deal_nor_on_a_lost_one(client: TestClient) -> None:
    assert new_game(client, deal="any")["difficulty"] is None
    s = new_game(client, deal="lost")
    assert s["difficulty"] is None
    assert client.post(f"/api/games/{s['id']}/resign").json()["difficulty"] is None  # a lost deal has none


def test_the_grade_of_a_deal_number_cannot_be_asked_for(client: TestClient) -> None:
    hard = _graded("hard")
    assert client.get("/api/deals/difficulty", params={"seed": hard.seed}).status_code == 404
    assert not any("difficulty" in path for path in client.app.openapi()["paths"])  # type: ignore[attr-defined]


def test_the_page_offers_the_kinds_of_deal(client: TestClient) -> None:
    page = client.get("/").text
    for value in ("any", "winnable", "winnable:easy", "winnable:medium", "winnable:hard", "winnable:expert", "lost"):
        assert f'<option value="{value}">' in page
    assert '<script type="module" src="/static/deals.js"></script>' in page
    assert client.get("/static/deals.js").status_code == 200


def test_the_variants_say_which_options_have_a_deal_proven_lost(client: TestClient) -> None:
    """The New dialog greys out "a deal proven lost" where the server would refuse one: /api/variants says where
    there are some, and every option set it names deals one, every other is refused."""
    variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    assert variants["milligan-yukon"]["lost"] == []
    assert {"empty_column": "kings", "foundation_return": False} in variants["yukon"]["lost"]
    for name, v in variants.items():
        for empty in ("kings", "any"):
            for ret in (False, True):
                body = {"variant": name, "options": {"empty_column": empty, "foundation_return": ret}, "deal": "lost"}
                r = client.post("/api/games", json=body)
                offered = {"empty_column": empty, "foundation_return": ret} in v["lost"]
                assert r.status_code == (201 if offered else 400), (body, r.text)
                if not offered:
                    assert r.json()["error"].startswith(f"No deal of {v['title']} with these options"), r.text
