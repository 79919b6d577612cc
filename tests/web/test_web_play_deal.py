"""``yukon play --variant/--seed/--numbering``: the table opens that deal (PySolFC's numbers too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from yukon import Game
from yukon.store import Store
from yukon.web import cli as web_cli


def run_play(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run ``yukon play`` up to the point where the server would start; return the address it printed."""
    from yukon import cli

    printed: list[str] = []

    class NoServer:
        def __init__(self, config: object) -> None:
            pass

        def run(self) -> None:
            pass

    import uvicorn

    monkeypatch.setattr(uvicorn, "Server", NoServer)
    monkeypatch.setattr("builtins.print", lambda *a, **k: printed.append(" ".join(str(x) for x in a)))
    assert cli.main(["play", "--no-browser", "--port", "0", *argv]) == 0
    return printed


def test_a_pysolfc_deal_opens_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "y.sqlite3"
    printed = run_play(["--db", str(db), "--variant", "russian", "--seed", "123456", "--numbering", "pysolfc"],
                       monkeypatch)
    [line] = [p for p in printed if "served at" in p]
    game_id = line.split("?game=")[1].split()[0]
    store = Store(db)
    record = store.load_game(game_id)
    assert record is not None and record.seed == 123456 and record.extra.get("numbering") == "pysolfc"
    expected = Game.deal("russian", seed=123456, numbering="pysolfc")
    assert Game.from_dict(record.start).to_text() == expected.to_text()
    store.close()


@pytest.mark.parametrize("argv, words", [
    (["--numbering", "pysolfc"], "--seed"),
    (["--variant", "milligan-yukon", "--seed", "3", "--numbering", "pysolfc"], "not available"),
    (["--seed", "x"], "not a deal number"),
])
def test_a_bad_deal_is_one_line_and_exit_2(tmp_path: Path, argv: list[str], words: str) -> None:
    out = subprocess.run([sys.executable, "-m", "yukon", "play", "--no-browser", "--db", str(tmp_path / "y.db"),
                          *argv], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_record_and_deal_together_are_refused(tmp_path: Path) -> None:
    assert web_cli._asks_for_a_deal(web_cli.argparse.Namespace(variant=None, empty_column=None,
                                                               foundation_return=None, seed="4", numbering=None))
    out = subprocess.run([sys.executable, "-m", "yukon", "play", "--no-browser", "--record", str(tmp_path / "r.json"),
                          "--seed", "4"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "not both" in out.stderr
