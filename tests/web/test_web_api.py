"""The JSON API of ``yukon play``: every endpoint, every error path, persistence."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_client import LOCAL, app_client, error_of, new_game, solver_threads

import yukon
from engine_helpers import move_that_triggers_autoplay
from yukon import Game, Move, deal_data, winnable_deals
from yukon.autoplay import next_safe_move
from yukon.errors import ILLEGAL_REASONS
from yukon.store import Store
from yukon.web import create_app, solving

#: The address a browser on this machine uses (the server answers only for its own host names).
# Positions built by hand. Two moves from won:
NEARLY_WON = Game.from_text("yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC").to_dict()

# Russian Solitaire, no legal move: kings on buried queens, jacks on buried tens.
LOST = "russian,kings,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JD/JC 9S/9H/9D/9C"
# The same, one move earlier (empty column: any): winnable, and 6:JC>7 loses it.
WINNABLE_ANY = "russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    store = Store(db)
    with app_client(store, solver=solver_threads()) as c:
        yield c
    store.close()


def seen(position: dict[str, Any]) -> dict[str, Any]:
    """What the page is told of a position: the face-down cards and the stock only counted."""
    return {
        "variant": position["variant"], "rules": position["rules"],
        "tableau": [{"down_count": len(c["down"]), "up": c["up"]} for c in position["tableau"]],
        "foundations": position["foundations"], "stock_count": len(position["stock"]), "waste": position["waste"],
    }


# ---------------------------------------------------------------------- page and reference


def test_page_and_assets(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert '<script type="module" src="/static/main.js">' in r.text
    assert "http" not in r.text.replace("http://www.w3.org", "")
    assert r.text.index("/static/main.js") < r.text.index("/static/analysis.js")  # (it uses main.js's hooks)
    for asset in ("main.js", "analysis.js", "style.css", "favicon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert client.get("/favicon.ico").status_code == 200
    assert client.get("/static/nope.js").status_code == 404


def test_every_module_the_page_imports_is_served(client: TestClient) -> None:
    """The table's modules import one another by relative paths (no bundler): each one named is served, as a
    script, and none comes from elsewhere."""
    import re

    todo, seen = ["main.js"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], name
        imported = re.findall(r'^import [^;]*? from "([^"]+)";', r.text, re.M)
        assert all(re.fullmatch(r"\./[a-z]+\.js", i) for i in imported), (name, imported)
        todo += [i[2:] for i in imported]
    assert {"main.js", "store.js", "render.js", "replay.js"} <= seen


def test_variants(client: TestClient) -> None:
    data = client.get("/api/variants").json()
    names = [v["name"] for v in data["variants"]]
    assert names == ["yukon", "russian", "alaska", "australian", "milligan-yukon"]
    milligan = data["variants"][-1]
    assert milligan["columns"] == 8 and milligan["foundations"] == 8 and milligan["defaults"]["foundation_return"]
    assert data["options"] == {"empty_column": ["kings", "any"], "foundation_return": [False, True]}


# ---------------------------------------------------------------------- new games


def test_new_game_is_the_deal_with_state(client: TestClient) -> None:
    s = new_game(client, variant="yukon", seed=42)
    game = Game.deal("yukon", seed=42)
    for key, value in seen(game.to_dict()).items():
        assert s[key] == value
    assert "stock" not in s and all(set(c) == {"down_count", "up"} for c in s["tableau"])
    assert s["seed"] == 42 and len(s["id"]) >= 20
    assert s["legal_moves"] == [str(m) for m in game.legal_moves()]
    assert s["moves"] == [] and s["move_count"] == 0
    assert (s["can_undo"], s["can_redo"], s["status"], s["result"]) == (False, False, "playing", None)
    assert s["elapsed"] == 0 and s["clock_running"] is False


@pytest.mark.parametrize("variant", ["yukon", "russian", "alaska", "australian", "milligan-yukon", "milligan"])
def test_every_variant_and_options(client: TestClient, variant: str) -> None:
    s = new_game(client, variant=variant, seed=3, options={"empty_column": "any", "foundation_return": True})
    assert s["rules"] == {"empty_column": "any", "foundation_return": True}
    game = Game.deal(variant, seed=3, empty_column="any", foundation_return=True)
    assert s["tableau"] == seen(game.to_dict())["tableau"]


def test_random_deal_numbers_differ(client: TestClient) -> None:
    a, b = new_game(client), new_game(client)
    assert a["id"] != b["id"] and isinstance(a["seed"], int)


def test_new_game_from_position(client: TestClient) -> None:
    s = new_game(client, position=NEARLY_WON)
    assert s["seed"] is None and s["tableau"] == seen(NEARLY_WON)["tableau"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"variant": "klondike"}, 400, "unknown variant"),
        ({"options": {"empty_column": "queens"}}, 400, "empty_column"),
        ({"options": {"colour": "red"}}, 400, "unknown rule option"),
        ({"seed": -1}, 422, "seed"),
        ({"seed": "7"}, 422, "seed"),
        ({"seed": 2**64}, 400, "deal number"),
        ({"seed": 2**64, "numbering": "pysolfc"}, 400, "saved games keep deal numbers up to"),  # (PySolFC's go on)
        ({"seed": 1, "extra": True}, 422, "extra"),
        ({"position": {"variant": "yukon"}}, 400, "tableau"),
        ({"position": NEARLY_WON, "seed": 3}, 400, "not both"),
        ({"abandon": "no-such-game"}, 404, "no-such-game"),
        ({"autoplay": "yes"}, 422, "autoplay"),
    ],
)
def test_new_game_errors(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    assert words in error_of(client.post("/api/games", json=body), status)


def test_malformed_json(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert "not valid JSON" in error_of(r, 400)
    r = client.post("/api/games", content=b"[1, 2]", headers={"Content-Type": "application/json"})
    error_of(r, 422)


def test_new_game_with_autoplay_plays_safe_cards(client: TestClient) -> None:
    for seed in range(1, 60):
        if next_safe_move(Game.deal("yukon", seed=seed)) is not None:
            break
    s = new_game(client, seed=seed, autoplay=True)
    assert s["move_count"] >= 1 and s["played"] == s["moves"] and all(m.endswith(">F") for m in s["moves"])
    # they are the deal's: no move counted, nothing to undo or restart
    assert (s["moves_made"], s["dealt"], s["can_undo"]) == (0, s["move_count"], False)
    for action in ("undo", "restart"):
        assert "nothing to" in error_of(client.post(f"/api/games/{s['id']}/{action}"), 409)
    game = Game.deal("yukon", seed=seed)
    game.replay([Move.from_text(m) for m in s["moves"]])
    after = client.post(f"/api/games/{s['id']}/moves", json={"move": str(game.legal_moves()[0]), "autoplay": False})
    assert after.status_code == 200 and after.json()["moves_made"] == 1
    back = client.post(f"/api/games/{s['id']}/undo").json()
    assert (back["moves"], back["moves_made"], back["can_undo"]) == (s["moves"], 0, False)


# ---------------------------------------------------------------------- reading games


def test_unknown_game_is_404_everywhere(client: TestClient) -> None:
    bad = "A" * 22
    assert "no game" in error_of(client.get(f"/api/games/{bad}"), 404)
    for path, body in [("moves", {"move": "deal"}), ("undo", None), ("redo", None), ("restart", None),
                       ("hint", None), ("winnable", None), ("auto", None), ("clock", {"running": False})]:
        error_of(client.post(f"/api/games/{bad}/{path}", json=body), 404)


def test_latest(client: TestClient) -> None:
    assert "no unfinished game" in error_of(client.get("/api/games/latest"), 404)
    s = new_game(client, seed=9)
    assert client.get("/api/games/latest").json()["id"] == s["id"]


def test_latest_with_missing_ok_answers_no_game_with_204(client: TestClient) -> None:
    """The page's first visit expects no game: 204 (no error in the browser's console), not 404."""
    r = client.get("/api/games/latest?missing_ok=true")
    assert r.status_code == 204 and r.content == b""
    assert "missing_ok" in error_of(client.get("/api/games/latest?missing_ok=perhaps"), 422)
    s = new_game(client, seed=9)
    assert client.get("/api/games/latest?missing_ok=true").json()["id"] == s["id"]


def test_a_game_with_missing_ok_answers_an_unknown_id_with_204(client: TestClient) -> None:
    """The page asks for the game it remembers so: another database or a deleted game leaves the id unknown,
    which it expects (no error in the browser's console); a known id gives its state, as without."""
    assert "no game with id" in error_of(client.get("/api/games/gone123"), 404)
    r = client.get("/api/games/gone123?missing_ok=true")
    assert r.status_code == 204 and r.content == b""
    assert "missing_ok" in error_of(client.get("/api/games/gone123?missing_ok=perhaps"), 422)
    s = new_game(client, seed=9)
    assert client.get(f"/api/games/{s['id']}?missing_ok=true").json() == client.get(f"/api/games/{s['id']}").json()


# ---------------------------------------------------------------------- moves


def test_move_undo_redo_restart(client: TestClient, db: Path) -> None:
    s = new_game(client, seed=42)
    gid = s["id"]
    first, second = s["legal_moves"][0], None
    r = client.post(f"/api/games/{gid}/moves", json={"move": first})
    assert r.status_code == 200
    s = r.json()
    assert s["moves"] == [first] and s["played"] == [first] and s["can_undo"] and not s["can_redo"]
    assert s["clock_running"] is True
    second = s["legal_moves"][0]
    s = client.post(f"/api/games/{gid}/moves", json={"move": second}).json()
    assert s["move_count"] == 2
    # committed before the reply: another connection sees it
    assert Store(db).load_game(gid).moves == [first, second]

    s = client.post(f"/api/games/{gid}/undo").json()
    assert s["moves"] == [first] and s["undone_count"] == 1 and s["undone_first"] == second and s["can_redo"]
    s = client.post(f"/api/games/{gid}/redo").json()
    assert s["moves"] == [first, second] and not s["can_redo"]
    s = client.post(f"/api/games/{gid}/restart").json()
    assert s["moves"] == [] and s["can_redo"] and s["tableau"] == seen(Game.deal("yukon", seed=42).to_dict())["tableau"]
    s = client.post(f"/api/games/{gid}/redo").json()
    assert s["moves"] == [first]
    s = client.post(f"/api/games/{gid}/undo", json={"to": 0}).json()
    assert s["moves"] == [] and "can't" not in s
    # a new move clears the redo list
    s = client.post(f"/api/games/{gid}/moves", json={"move": second if second in s["legal_moves"] else
                                                       s["legal_moves"][-1]}).json()
    assert not s["can_redo"]


def test_short_notation_is_accepted(client: TestClient) -> None:
    s = new_game(client, seed=42)
    full = s["legal_moves"][0]  # e.g. 2:JH+3>4
    short = full.split(":")[1].split("+")[0] + ">" + full.split(">")[1]
    s = client.post(f"/api/games/{s['id']}/moves", json={"move": short}).json()
    assert s["moves"] == [full]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"move": "1:KS>5"}, 409, "illegal move"),
        ({"move": "3:QC>F"}, 409, "illegal"),
        ({"move": "deal"}, 409, "no stock"),
        ({"move": "zz"}, 400, "not a move"),
        ({"move": ""}, 400, "not a move"),
        ({"move": 5}, 422, "move"),
        ({}, 422, "move"),
        ({"move": "deal", "autoplay": 1}, 422, "autoplay"),
    ],
)
def test_bad_moves_change_nothing(client: TestClient, db: Path, body: dict[str, Any], status: int, words: str) -> None:
    s = new_game(client, seed=42)
    gid = s["id"]
    before = client.get(f"/api/games/{gid}").json()
    assert words in error_of(client.post(f"/api/games/{gid}/moves", json=body), status)
    after = client.get(f"/api/games/{gid}").json()
    assert after == before
    assert Store(db).load_game(gid).moves == []


@pytest.mark.parametrize("fast_lane", [True, False])
def test_a_move_sent_again_or_from_a_stale_page_is_refused_when_it_says_where_it_was_made(
        store: Store, fast_lane: bool) -> None:
    """``at`` (the move count the client saw) makes a move safe to send again: a deal from the stock names
    no card, so without it a repeated request (a retry, a second tab) deals twice."""
    with app_client(store, fast_lane=fast_lane) as client:
        s = new_game(client, variant="australian", seed=4)
        gid, stock = s["id"], s["stock_count"]
        dealt = client.post(f"/api/games/{gid}/moves", json={"move": "deal", "at": 0})
        assert dealt.status_code == 200 and dealt.json()["stock_count"] == stock - 1
        again = error_of(client.post(f"/api/games/{gid}/moves", json={"move": "deal", "at": 0}), 409)
        assert "1 move is played, not 0" in again and "nothing changed" in again
        assert client.get(f"/api/games/{gid}").json()["stock_count"] == stock - 1  # dealt once
        assert client.post(f"/api/games/{gid}/moves", json={"move": "deal", "at": 1.0}).status_code == 200
        assert client.post(f"/api/games/{gid}/moves", json={"move": "deal"}).status_code == 200  # (at is optional)
        for at in (-1, 1.5, "2", True):
            error_of(client.post(f"/api/games/{gid}/moves", json={"move": "deal", "at": at}), 422)


@pytest.mark.parametrize(
    ("move", "words"), [("1:KS>5", "illegal move"), ("3:QC>F", "illegal"), ("deal", "no stock")],
)
def test_check_says_why_a_move_is_refused_and_plays_nothing(client: TestClient, db: Path, move: str,
                                                           words: str) -> None:
    s = new_game(client, seed=42)
    gid = s["id"]
    r = client.post(f"/api/games/{gid}/check", json={"move": move})
    refused = client.post(f"/api/games/{gid}/moves", json={"move": move})
    assert r.status_code == 200 and refused.status_code == 409
    answer = r.json()
    assert answer == {"move": move, "legal": False, **refused.json()}  # the words of the move's own refusal
    assert answer["reason"] in ILLEGAL_REASONS and words in answer["error"] and answer["explanation"]
    s.pop("held_back_note")  # (a new game's and a move's answers alone: it says what they have not said)
    assert client.get(f"/api/games/{gid}").json() == s | {"played": []}
    assert Store(db).load_game(gid).moves == []


def test_check_answers_a_legal_move_without_playing_it(client: TestClient) -> None:
    s = new_game(client, seed=42)
    gid, move = s["id"], s["legal_moves"][0]
    assert client.post(f"/api/games/{gid}/check", json={"move": move}).json() == {"move": move, "legal": True}
    assert client.get(f"/api/games/{gid}").json()["moves"] == []
    assert "not a move" in error_of(client.post(f"/api/games/{gid}/check", json={"move": "zz"}), 400)
    assert "move" in error_of(client.post(f"/api/games/{gid}/check", json={"move": 5}), 422)
    assert "no game" in error_of(client.post(f"/api/games/{'A' * 22}/check", json={"move": move}), 404)
    client.post(f"/api/games/{gid}/resign")
    assert "over" in error_of(client.post(f"/api/games/{gid}/check", json={"move": move}), 409)


def test_nothing_to_undo_or_redo(client: TestClient) -> None:
    gid = new_game(client, seed=1)["id"]
    assert "nothing to undo" in error_of(client.post(f"/api/games/{gid}/undo"), 409)
    assert "nothing to redo" in error_of(client.post(f"/api/games/{gid}/redo"), 409)
    assert "nothing to restart" in error_of(client.post(f"/api/games/{gid}/restart"), 409)
    s = client.post(f"/api/games/{gid}/moves", json={"move": client.get(f"/api/games/{gid}").json()["legal_moves"][0]})
    assert "between 0 and 1" in error_of(client.post(f"/api/games/{gid}/undo", json={"to": 5}), 400)
    error_of(client.post(f"/api/games/{gid}/undo", json={"to": -1}), 422)
    assert "nothing to undo" in error_of(client.post(f"/api/games/{gid}/undo", json={"to": 1}), 409)
    assert s.status_code == 200


def test_autoplay_turn_is_undone_together(client: TestClient) -> None:
    game, move = move_that_triggers_autoplay()
    gid = new_game(client, seed=game.seed)["id"]
    s = client.post(f"/api/games/{gid}/moves", json={"move": move, "autoplay": True}).json()
    assert s["played"][0] == move and len(s["played"]) > 1 and s["moves"] == s["played"]
    s = client.post(f"/api/games/{gid}/undo").json()
    assert s["moves"] == [] and s["undone_count"] > 1
    s = client.post(f"/api/games/{gid}/redo").json()
    assert s["played"][0] == move and len(s["moves"]) > 1


def test_win_is_recorded_and_game_closes(client: TestClient, db: Path) -> None:
    s = new_game(client, position=NEARLY_WON)
    gid = s["id"]
    s = client.post(f"/api/games/{gid}/moves", json={"move": "2:KH>F"}).json()
    assert s["status"] == "playing"
    s = client.post(f"/api/games/{gid}/moves", json={"move": "1:KS>F"}).json()
    assert s["status"] == "won" and s["result"] == "won" and not s["can_undo"] and s["legal_moves"] == []
    assert s["clock_running"] is False
    assert "over" in error_of(client.post(f"/api/games/{gid}/undo"), 409)
    assert "over" in error_of(client.post(f"/api/games/{gid}/moves", json={"move": "deal"}), 409)
    stats = client.get("/api/stats").json()["stats"]
    assert [(r["variant"], r["played"], r["won"], r["fewest_moves"]) for r in stats] == [("yukon", 1, 1, 2)]
    assert stats[0]["win_rate"] == 1.0 and stats[0]["current_streak"] == 1 and stats[0]["best_time"] is not None
    assert client.get("/api/stats?variant=russian").json()["stats"] == []
    assert "unknown variant" in error_of(client.get("/api/stats?variant=bridge"), 400)
    assert Store(db).load_game(gid).result == "won"


def test_auto_finish(client: TestClient) -> None:
    s = new_game(client, position=Game.from_text("yukon,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC").to_dict())
    s = client.post(f"/api/games/{s['id']}/moves", json={"move": "2:KH>3", "autofinish": True}).json()
    assert s["status"] == "won" and s["played"][0] == "2:KH>3"


def test_auto_endpoint(client: TestClient) -> None:
    s = new_game(client, position=NEARLY_WON)
    s = client.post(f"/api/games/{s['id']}/auto", json={"autoplay": True, "autofinish": False}).json()
    assert s["status"] == "won" and len(s["played"]) == 2
    error_of(client.post(f"/api/games/{s['id']}/auto", json={"autoplay": "x"}), 422)
    assert "over" in error_of(client.post(f"/api/games/{s['id']}/auto"), 409)


def test_lost_position_and_abandon(client: TestClient) -> None:
    lost = Game.from_text(LOST).to_dict()
    s = new_game(client, position=lost)
    assert s["status"] == "lost" and s["legal_moves"] == []
    w = client.post(f"/api/games/{s['id']}/winnable").json()
    assert w["status"] == "lost" and w["last_winnable"] is None
    h = client.post(f"/api/games/{s['id']}/hint").json()
    assert h["move"] is None and h["status"] == "lost"
    # a game with moves made counts as played when the player starts another
    g = new_game(client, seed=42)
    client.post(f"/api/games/{g['id']}/moves", json={"move": g["legal_moves"][0]})
    new_game(client, seed=43, abandon=g["id"])
    rows = client.get("/api/stats").json()["stats"]
    assert [(r["played"], r["won"]) for r in rows] == [(1, 0)]
    assert "over" in error_of(client.post(f"/api/games/{g['id']}/redo"), 409)
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "abandoned"


def test_clock(client: TestClient) -> None:
    s = new_game(client, seed=42)
    gid = s["id"]
    c = client.post(f"/api/games/{gid}/clock", json={"running": True}).json()
    assert c["clock_running"] is False  # no move yet: the clock waits for the first one
    client.post(f"/api/games/{gid}/moves", json={"move": s["legal_moves"][0]})
    c = client.post(f"/api/games/{gid}/clock", json={"running": False}).json()
    assert c["clock_running"] is False and c["elapsed"] >= 0
    c = client.post(f"/api/games/{gid}/clock", json={"running": True}).json()
    assert c["clock_running"] is True
    error_of(client.post(f"/api/games/{gid}/clock", json={}), 422)


# ---------------------------------------------------------------------- solver endpoints


def test_hint_is_a_legal_move(client: TestClient) -> None:
    s = new_game(client, seed=5)
    h = client.post(f"/api/games/{s['id']}/hint", json={"kind": "solver"}).json()
    assert h["move"] in s["legal_moves"] and h["source"] in ("solver", "heuristic") and h["move_count"] == 0
    assert (h["kind"], h["label"]) == ("solver", "solver hint: it sees the face-down cards")


@pytest.mark.parametrize(("variant", "unseen"), [
    ("yukon", "the face-down cards"),
    ("australian", "the stock's order"),  # every card is dealt face up: only the stock is hidden
    ("milligan-yukon", "the face-down cards and the stock"),
])
def test_a_solver_answer_says_what_it_sees_that_the_player_does_not(client: TestClient, variant: str,
                                                                    unseen: str) -> None:
    s = new_game(client, variant=variant, seed=4)
    assert s["unseen"] == unseen
    h = client.post(f"/api/games/{s['id']}/hint", json={"kind": "solver"}).json()
    assert (h["label"], h["unseen"]) == (f"solver hint: it sees {unseen}", unseen)
    w = client.post(f"/api/games/{s['id']}/winnable").json()
    assert (w["label"], w["unseen"]) == (f"perfect information: the solver sees {unseen}", unseen)
    assert client.post(f"/api/games/{s['id']}/hint").json()["label"] == "hint (no peeking)"


def test_the_hint_is_honest_by_default_and_says_so(client: TestClient) -> None:
    s = new_game(client, seed=5)
    h = client.post(f"/api/games/{s['id']}/hint").json()
    assert (h["kind"], h["label"]) == ("honest", "hint (no peeking)")
    assert h["move"] in s["legal_moves"] and h["move_count"] == 0
    assert h["source"] in ("safe", "only move", "samples", "heuristic") and h["status"] == "unknown"
    assert client.post(f"/api/games/{s['id']}/hint", json={"kind": "honest"}).json()["kind"] == "honest"
    error_of(client.post(f"/api/games/{s['id']}/hint", json={"kind": "peek"}), 422)


@pytest.fixture
def patient_client(db: Path) -> Iterator[TestClient]:
    """A client whose solver may take its time: the first search also starts the worker processes,
    which on a loaded machine takes longer than the default limit."""
    store = Store(db)
    with TestClient(create_app(store, hint_time=10.0), base_url=LOCAL) as c:
        yield c
    store.close()


def test_hints_follow_a_known_line_instantly(patient_client: TestClient) -> None:
    client = patient_client
    s = new_game(client, position=Game.from_text("russian,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC").to_dict())
    gid = s["id"]
    h = client.post(f"/api/games/{gid}/hint", json={"kind": "solver"}).json()
    assert (h["source"], h["status"]) == ("solver", "won")
    s = client.post(f"/api/games/{gid}/moves", json={"move": h["move"]}).json()
    h2 = client.post(f"/api/games/{gid}/hint", json={"kind": "solver"}).json()
    assert h2["source"] == "solver" and h2["seconds"] == 0 and h2["move"] in s["legal_moves"]
    assert client.post(f"/api/games/{gid}/winnable").json()["status"] == "won"


def test_winnable(client: TestClient) -> None:
    s = new_game(client, position=Game.from_text("russian,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC").to_dict())
    gid = s["id"]
    w = client.post(f"/api/games/{gid}/winnable").json()
    assert (w["status"], w["source"], w["move_count"], w["last_winnable"]) == ("won", "solver", 0, None)
    assert w["perfect_information"] is True and "sees the face-down cards" in w["label"]
    client.post(f"/api/games/{gid}/moves", json={"move": "1:KS>F"})
    w = client.post(f"/api/games/{gid}/winnable").json()
    assert w["status"] == "won" and w["move_count"] == 1


def test_winnable_lost_offers_last_winnable(client: TestClient) -> None:
    s = new_game(client, position=Game.from_text(WINNABLE_ANY).to_dict())
    gid = s["id"]
    s = client.post(f"/api/games/{gid}/moves", json={"move": "6:JC>7"}).json()  # fills the last empty column
    assert s["status"] == "lost"
    w = client.post(f"/api/games/{gid}/winnable").json()
    assert w["status"] == "lost" and w["last_winnable"] == 0
    s = client.post(f"/api/games/{gid}/undo", json={"to": w["last_winnable"]}).json()
    assert s["moves"] == [] and s["status"] == "playing"
    assert client.post(f"/api/games/{gid}/winnable").json()["status"] == "won"


#: Russian deals the solver proves lost at once (stuck cards), and one it proves won in milliseconds.
RUSSIAN_LOST_DEALS = [1, 2, 5]
RUSSIAN_WON_DEAL = 22
#: a client, the deal numbers its random draws will give (in turn, round again), and the numbers drawn
Drawn = tuple[TestClient, list[int], list[int]]


@pytest.fixture
def drawn(db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    """A client whose random deal numbers the test chooses (appended to the list), and the numbers drawn.

    Its solver works in threads, so that the numbers chosen here reach the search for a winnable deal."""
    chosen: list[int] = []
    drawn_numbers: list[int] = []

    def randbelow(n: int) -> int:
        number = chosen[len(drawn_numbers) % len(chosen)]
        assert 0 <= number < n
        drawn_numbers.append(number)
        return number

    monkeypatch.setattr(winnable_deals, "secrets", SimpleNamespace(randbelow=randbelow))
    # the solver's search, as for rules the shipped verdicts lack (tests/web/test_web_deals.py: with them)
    monkeypatch.setattr(deal_data, "has_verdicts", lambda *args, **kwargs: False)
    monkeypatch.setattr(deal_data, "verdict_for", lambda *args, **kwargs: None)
    store = Store(db)
    with TestClient(create_app(store, solver=solving.SolverQueue(processes=False)), base_url=LOCAL) as c:
        yield c, chosen, drawn_numbers
    store.close()


def test_winnable_only_deal_skips_deals_until_one_is_proved_winnable(drawn: Drawn) -> None:
    client, chosen, drawn_numbers = drawn
    chosen += [*RUSSIAN_LOST_DEALS, RUSSIAN_WON_DEAL]
    s = new_game(client, variant="russian", winnable_only=True)
    assert s["seed"] == RUSSIAN_WON_DEAL and s["deal_note"] == "the solver proved this deal winnable"
    assert drawn_numbers == chosen  # the lost ones were drawn, tried and passed over
    assert yukon.solve(Game.deal("russian", seed=RUSSIAN_WON_DEAL), time_limit=30).status == "won"


def test_winnable_only_deal_says_when_none_was_proved(drawn: Drawn, monkeypatch: pytest.MonkeyPatch) -> None:
    client, chosen, drawn_numbers = drawn
    chosen += RUSSIAN_LOST_DEALS
    monkeypatch.setattr(solving, "DEAL_BUDGET", 0.5)  # every deal drawn is lost: give up soon
    s = new_game(client, variant="russian", winnable_only=True)
    assert drawn_numbers and s["seed"] == drawn_numbers[-1]  # the last one tried, none of them proved
    assert "not proven winnable" in s["deal_note"] and "proved this deal winnable" not in s["deal_note"]
    assert yukon.solve(Game.deal("russian", seed=s["seed"]), time_limit=30).status == "lost"


def test_a_chosen_deal_number_is_not_checked(drawn: Drawn) -> None:
    client, _chosen, drawn_numbers = drawn
    s = new_game(client, winnable_only=True, seed=5)
    assert "not checked" in s["deal_note"] and s["seed"] == 5 and drawn_numbers == []


# ---------------------------------------------------------------------- persistence


def test_resume_after_server_restart(db: Path) -> None:
    store = Store(db)
    with TestClient(create_app(store), base_url=LOCAL) as c:
        s = new_game(c, seed=42, autoplay=False)
        gid = s["id"]
        m1 = s["legal_moves"][0]
        s = c.post(f"/api/games/{gid}/moves", json={"move": m1}).json()
        m2 = s["legal_moves"][0]
        c.post(f"/api/games/{gid}/moves", json={"move": m2})
        before = c.post(f"/api/games/{gid}/undo").json()
    store.close()
    store = Store(db)
    with TestClient(create_app(store), base_url=LOCAL) as c:
        after = c.get(f"/api/games/{gid}").json()
        assert after["tableau"] == before["tableau"] and after["moves"] == [m1]
        assert after["can_redo"] and after["can_undo"]
        assert c.get("/api/games/latest").json()["id"] == gid
        assert c.post(f"/api/games/{gid}/redo").json()["moves"] == [m1, m2]
    store.close()


def test_the_state_names_the_plays_up_automatic_play_holds_back(client: TestClient) -> None:
    # Milligan Yukon deal 4133423762: two free Aces, which automatic play leaves while the stock lasts (a deal
    # may need them); the page says why from this list, as the terminal game does
    milligan = new_game(client, variant="milligan-yukon", seed=4133423762, autoplay=True)
    assert milligan["moves"] == [] and milligan["held_back"] == ["2:AS>F", "3:AH>F"]
    assert set(milligan["held_back"]) <= set(milligan["legal_moves"])  # (free face-up cards: nothing new to see)
    # the server words the stock's reason too, in the terminal game's words (the page knows no rule)
    stock = "is not played up automatically while the stock lasts: a deal puts a card on it, and you may want to move"
    assert milligan["held_back_why"] == {"2:AS>F": f"A♠ {stock} the two together",
                                         "3:AH>F": f"A♥ {stock} the two together"}
    yukon_game = new_game(client, seed=1234)
    assert yukon_game["held_back"] == [] and yukon_game["held_back_why"] == {}  # Aces are safe in Yukon


def test_the_note_on_cards_held_back_joins_those_of_one_reason_and_is_said_once(client: TestClient) -> None:
    # the page joined the per-card words itself: two Aces left while the stock lasts were two sentences of the same
    # 110 characters; the note is the terminal's now (yukon.autoplay.left_in_sentences), the cards of one reason in one
    from yukon import Game
    from yukon.autoplay import left_in_sentences

    milligan = new_game(client, variant="milligan-yukon", seed=4133423762, autoplay=True)
    joined = left_in_sentences(Game.deal("milligan-yukon", seed=4133423762))
    assert milligan["held_back_note"] == {"sentences": joined, "cards": 2}
    assert len(joined) == 1 and joined[0].startswith("A♠ and A♥ are not played up automatically")
    # told once per card and game: the next move's answer says nothing of them, though they are still left
    played = client.post(f"/api/games/{milligan['id']}/moves", json={"move": "2:AS>F", "autoplay": True}).json()
    assert played["held_back"] == ["3:AH>F"] and played["held_back_note"] == {"sentences": [], "cards": 0}
    # with automatic play off it leaves nothing: nothing to tell
    quiet = new_game(client, variant="milligan-yukon", seed=4133423762, autoplay=False)
    assert quiet["held_back"] and quiet["held_back_note"] == {"sentences": [], "cards": 0}


def test_the_state_says_which_foundation_pile_each_card_would_go_on(client: TestClient) -> None:
    # the page lit up (and aimed at) a foundation pile it worked out with its own copy of the rule: the server
    # says it now, the engine's choice. Two decks: the 2♠ goes on the first A♠, a red Ace on the first empty pile.
    from engine_helpers import make

    position = make("milligan-yukon", ["2S", "AH", "AD", "KC"], foundations=["AS", "-", "AS"] + ["-"] * 5, fill=3)
    s = new_game(client, position=position.to_dict())
    piles = s["foundation_piles"]
    assert piles == {"2S": 0, "AH": 1, "AD": 1}  # the face-up cards a pile takes (the A♣ lies face down)
    played = client.post(f"/api/games/{s['id']}/moves", json={"move": "2:AH>F"}).json()
    assert played["foundations"][1] == ["AH"]  # where the server said
    assert played["foundation_piles"] == {"2S": 0, "AD": 3}
    # the replay's positions say it too: the page lights the next move's pile there
    start = client.get(f"/api/games/{s['id']}/replay", params={"at": 0}).json()
    assert start["foundation_piles"] == piles


def test_the_state_says_why_automatic_play_leaves_a_free_card_the_tableau_may_need(client: TestClient) -> None:
    # Alaska deal 6: a free Ace that automatic play leaves, as a 2 may still be placed on it (it builds up or
    # down in suit): the server says why, in a player's words, for the page to show once
    alaska = new_game(client, variant="alaska", seed=6, autoplay=True)
    assert alaska["moves"] == [] and alaska["held_back"] == ["5:AS>F"]
    assert alaska["held_back_why"] == {
        "5:AS>F": "A♠ is not played up automatically: you may still want to move the 2♠ onto it"}
    played = client.post(f"/api/games/{alaska['id']}/moves", json={"move": "5:AS>F"}).json()
    assert played["held_back"] == [] and played["held_back_why"] == {}  # once it is up, there is nothing to tell


def test_every_answer_that_names_a_move_says_it_in_the_terminal_games_words(client: TestClient) -> None:
    # the page worded moves itself ("ace of spades to the foundation"), the terminal otherwise ("A♠ from column 2
    # to its foundation"): one wording now, yukon.session.describe_move's, sent with the answer that names the move
    from yukon.session import describe_move

    s = new_game(client, seed=1)
    assert s["words"] == {}  # (nothing played yet)
    group = next(m for m in s["legal_moves"] if "+" in m)
    played = client.post(f"/api/games/{s['id']}/moves", json={"move": group}).json()
    rules = Game.deal("yukon", seed=1).rules
    assert played["words"] == {t: describe_move(rules, Move.from_text(t)) for t in played["played"]}
    assert re.fullmatch(r"[a-z]+ of [a-z]+ and \d+ cards? on it from column \d to column \d", played["words"][group])
    undone = client.post(f"/api/games/{s['id']}/undo").json()
    assert undone["words"][undone["undone_first"]] == played["words"][group]
    redone = client.post(f"/api/games/{s['id']}/redo").json()
    assert redone["words"][redone["played"][0]] == played["words"][group]
    hint = client.post(f"/api/games/{s['id']}/hint").json()
    assert hint["words"] == ({hint["move"]: describe_move(rules, Move.from_text(hint["move"]))} if hint["move"] else {})
    milligan = new_game(client, variant="milligan-yukon", seed=1)
    dealt = client.post(f"/api/games/{milligan['id']}/moves", json={"move": "deal"}).json()
    assert dealt["words"]["deal"] == "deal a row from the stock"
