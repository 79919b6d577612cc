"""``yukon tui``: the options reach the app; bad input is one line and status 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from yukon.cli import main
from yukon.tui.app import YukonApp


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[YukonApp]:
    """Capture the app instead of running it."""
    apps: list[YukonApp] = []

    def fake_run(self: YukonApp, *args: Any, **kwargs: Any) -> None:
        apps.append(self)

    monkeypatch.setattr(YukonApp, "run", fake_run)
    return apps


def test_deal_options_start_that_deal(started: list[YukonApp], tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    assert main(["tui", "--variant", "russian", "--seed", "12", "--empty-column", "any",
                 "--foundation-return", "--db", str(db)]) == 0
    [app] = started
    rules = app.game.rules
    assert (rules.variant, rules.empty_column, rules.foundation_return, app.game.seed) == ("russian", "any", True, 12)
    assert db.exists() and not app.resumed


def test_no_option_resumes_or_deals_yukon(started: list[YukonApp], tmp_path: Path) -> None:
    assert main(["tui", "--db", str(tmp_path / "s.sqlite3")]) == 0
    assert started[0].game.rules.variant == "yukon" and started[0].session.moves_made == 0


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], started: list[YukonApp]) -> None:
    assert main(["tui", "--seed", "-3", "--db", str(tmp_path / "s.sqlite3")]) == 2
    assert main(["tui", "--variant", "klondike", "--db", str(tmp_path / "s.sqlite3")]) == 2
    not_ours = tmp_path / "other.sqlite3"
    not_ours.write_bytes(b"this is not a database, but it is long enough to look like one" * 20)
    assert main(["tui", "--db", str(not_ours)]) == 2
    assert main(["tui", "--seed", "abc", "--db", str(tmp_path / "s.sqlite3")]) == 2  # (said as solve says it)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("yukon: error: ") for line in err)
    assert "deal number" in err[0] and "klondike" in err[1] and "not a usable yukon store" in err[2]
    assert err[3] == "yukon: error: not a deal number: 'abc' (write digits 0-9, from 0 to 18446744073709551615)"
    assert started == []
