"""PySolFC game numbers (yukon.pysolfc): the deals match pysol-cards, PySolFC's own dealer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from yukon import Game, YukonError, parse_card
from yukon.cli import main
from yukon.pysolfc import NumberingError

pysol_cards = pytest.importorskip("pysol_cards")

from pysol_cards.cards import CardRenderer  # noqa: E402
from pysol_cards.deal_game import Game as PysolGame  # noqa: E402
from pysol_cards.random_base import RandomBase  # noqa: E402

#: small (Microsoft-compatible, up to 32000), the first of PySolFC's own generator, and large ones
NUMBERS = (1, 2, 617, 11982, 32000, 32001, 123456, 2**31, 10**12 + 7, 2**64 - 1, 2**64, 10**20 - 1)

#: the text form of a few deals, as pysol-cards 0.24 deals them (a change in pysol-cards shows here)
PINNED = {
    1: "3D/JD.ASQHTD7D8C/2D7C.AH4H4S6DTC/9H5H5S.3CACTH8S6S/JCKDAD3H.4C4D8H8D9C/5DKCQC2S9D.5C7S2CQS2H/"
       "7H9SKHKSQDJS.TS3SJH6C6H",
    32000: "QC/QD.AC9C7S8SKC/8D2D.KS3C2H6H4S/QSTH9D.7H9SAD8HTC/4H3SKD6D.JHTDASTS2S/2CJD5C8C5S.7DQHJS6C3H/"
           "JC7C5D9H4C5H.6S3DKH4DAH",
    32001: "KS/4C.AS2CKDQS4D/AC6D.3CTH9S6CKC/JDKHTC.4H8D5C7D3S/8HJCJHJS.QD2SQHAD8C/5S4S2D7STD.TSAH5D6H9H/"
           "6S7H3D2H8S9C.QC9D5H3H7C",
    123456: "JC/3D.8H3CTD7S3H/2D4C.3S6DKH8DAD/2CKC8C.9HQS5D2H4D/9C6C9DJS.TS6SKS5S5C/ACTCTHASAH.JD4S7D9S7C/"
            "6H8S2S4HQH7H.KDQC5HJHQD",
    2**64: "5S/QD.AH5D6H4C2C/6S8S.4D7DTSQC7C/QS2H3S.9C8CJH8HKD/5H7SQH6C.4STC2SKH8D/4H3DJD3H3C.9S9HACTD2D/"
           "5CJCKS6DTHAS.7HKC9DADJS",
    10**20 - 1: "JH/KS.9HQCAD5DJD/JC3S.7C4SQSTH6S/TD9D2H.AC3HAHAS2D/5C4H8DQH.6D6H7D9C6C/2S7S4C5S8H.KDTCQD7HKH/"
                "2C4D3D5H9S8C.KCJS8S3CTS",
}


def pysol_layout(number: int) -> list[tuple[list[int], list[int]]]:
    """pysol-cards' own printed Yukon layout (``<XX>`` face down), read back as (down, up) columns."""
    text = PysolGame("yukon", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    columns = []
    for line in text.splitlines():
        words = line.split()
        down = [parse_card(w.strip("<>")) for w in words if w.startswith("<")]
        up = [parse_card(w) for w in words if not w.startswith("<")]
        assert all(w.startswith("<") for w in words[:len(down)])  # face-down cards come first
        columns.append((down, up))
    return columns


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("variant", ["yukon", "russian", "alaska"])
def test_yukon_layouts_match_pysol_cards(variant: str, number: int) -> None:
    game = Game.deal(variant, seed=number, numbering="pysolfc")
    assert game.columns == pysol_layout(number)
    assert game.seed == number and game.numbering == "pysolfc"
    assert [len(d) for d, _ in game.columns] == [0, 1, 2, 3, 4, 5, 6]
    assert [len(u) for _, u in game.columns] == [1, 5, 5, 5, 5, 5, 5]


@pytest.mark.parametrize("number, tableau", sorted(PINNED.items()))
def test_pinned_deals(number: int, tableau: str) -> None:
    assert Game.deal("yukon", seed=number, numbering="pysolfc").to_text() == f"yukon,kings,noreturn {tableau} -/-/-/-"


@pytest.mark.parametrize("number", NUMBERS)
def test_australian_patience_deals_four_rows_then_one_card_to_the_waste(number: int) -> None:
    dealer = PysolGame("yukon", number, RandomBase.DEALS_PYSOLFC)
    dealer.deal()
    order = [parse_card(CardRenderer(True).to_s(c)) for c in dealer.cards]
    game = Game.deal("australian", seed=number, numbering="pysolfc")
    assert game.columns == [([], [order[row * 7 + col] for row in range(4)]) for col in range(7)]
    assert game.waste == [order[28]]
    assert game.stock == order[29:][::-1]  # the next card turned is the stock's last
    game.push_text("deal")
    assert game.waste[-1] == order[29]


def test_australian_pinned() -> None:
    assert Game.deal("australian", seed=123456, numbering="pysolfc").to_text() == (
        "australian,kings,noreturn 3DKC2S8H/2D6CJS3S/2CTCAS9H/9C8S4HTS/AC8CAHJD/6H9DQHKD/4CTH7H3C -/-/-/- "
        "QD7C5C4DAD3HJCJH9S5S2H8D7S5H7DKS5DKHTDQC4S6SQS/6D"
    )


def test_the_three_yukon_layouts_share_one_deal_and_options_apply() -> None:
    yukon = Game.deal("yukon", seed=99, numbering="pysolfc")
    assert Game.deal("alaska", seed=99, numbering="pysolfc").columns == yukon.columns
    any_empty = Game.deal("yukon", seed=99, numbering="pysolfc", empty_column="any")
    assert any_empty.columns == yukon.columns and any_empty.rules.empty_column == "any"
    assert Game.deal("yukon", seed=99).columns != yukon.columns  # the two numberings differ


@pytest.mark.parametrize("variant, number, words", [
    ("milligan-yukon", 5, ("not available for Milligan Yukon", "yukon, russian, alaska, australian")),
    ("yukon", 0, ("from 1 to 99999999999999999999", "0")),
    ("yukon", 10**20, ("from 1 to",)),
    ("yukon", -4, ("from 1 to",)),
    ("yukon", True, ("from 1 to",)),
    ("yukon", "12", ("from 1 to", "'12'")),
])
def test_bad_numbers_and_variants(variant: str, number: object, words: tuple[str, ...]) -> None:
    with pytest.raises(NumberingError) as info:
        Game.deal(variant, seed=number, numbering="pysolfc")  # type: ignore[arg-type]
    for word in words:
        assert word in str(info.value)
    assert isinstance(info.value, YukonError)


def test_unknown_numbering() -> None:
    with pytest.raises(NumberingError, match="unknown deal numbering 'microsoft'"):
        Game.deal("yukon", seed=1, numbering="microsoft")


def test_random_pysolfc_deal() -> None:
    game = Game.deal("yukon", numbering="pysolfc")
    assert game.numbering == "pysolfc" and game.seed is not None and game.seed >= 1
    assert game == Game.deal("yukon", seed=game.seed, numbering="pysolfc")


def test_missing_pysol_cards_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pysol_cards", None)
    monkeypatch.setitem(sys.modules, "pysol_cards.deal_game", None)
    with pytest.raises(NumberingError, match="needs the pysol-cards package"):
        Game.deal("yukon", seed=1, numbering="pysolfc")
    assert Game.deal("yukon", seed=1).seed == 1  # our own numbering needs nothing


def test_the_engine_does_not_import_pysol_cards() -> None:
    code = ("import sys, yukon, yukon.record; yukon.Game.deal('yukon', seed=1); "
            "print('pysol_cards' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# ---------------------------------------------------------------------- the command line


def test_cli_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "123456", "--numbering", "pysolfc", "--text"]) == 0
    assert capsys.readouterr().out.strip() == f"yukon,kings,noreturn {PINNED[123456]} -/-/-/-"
    assert main(["deal", "-v", "australian", "--seed", "123456", "--numbering", "pysolfc", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["waste"] == ["6D"]


@pytest.mark.parametrize("argv, words", [
    (["deal", "-v", "milligan-yukon", "--seed", "3", "--numbering", "pysolfc"], ("not available for Milligan Yukon",)),
    (["deal", "--seed", "0", "--numbering", "pysolfc"], ("PySolFC game number",)),
    (["solve", "yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC", "--numbering", "pysolfc"], ("not both",)),
])
def test_cli_errors(capsys: pytest.CaptureFixture[str], argv: list[str], words: tuple[str, ...]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("yukon: error: ") and len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err


@pytest.mark.slow  # a whole solve through the command line
def test_cli_solve_a_pysolfc_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "--seed", "32001", "--numbering", "pysolfc", "--time-limit", "20", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["position"] == f"yukon,kings,noreturn {PINNED[32001]} -/-/-/-"
    assert code == {"won": 0, "lost": 1, "unknown": 3}[data["status"]]


def test_tui_numbering_reaches_the_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from yukon.tui.app import YukonApp

    apps: list[YukonApp] = []
    monkeypatch.setattr(YukonApp, "run", lambda self, *a, **k: apps.append(self))
    db = str(tmp_path / "s.sqlite3")
    assert main(["tui", "--seed", "123456", "--numbering", "pysolfc", "--db", db]) == 0
    [app] = apps
    assert app.session.start == Game.deal("yukon", seed=123456, numbering="pysolfc")
    assert app.game.numbering == "pysolfc"
    assert main(["tui", "-v", "milligan-yukon", "--seed", "1", "--numbering", "pysolfc", "--db", db]) == 2
    assert main(["tui", "--seed", str(2**64), "--numbering", "pysolfc", "--db", db]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "not available for Milligan Yukon" in err[0] and "saved games keep deal numbers up to" in err[1]


@pytest.mark.parametrize("command", ["play", "tui"])
def test_a_pysolfc_number_past_the_saved_games_is_refused_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # `yukon play` took it and ended in a ValueError traceback from the store ("a deal number is an int ...")
    served = ["--no-browser", "--port", "0"] if command == "play" else []
    argv = [command, *served, "--seed", str(2**64), "--numbering", "pysolfc", "--db", str(tmp_path / "s.sqlite3")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"yukon: error: deal {2**64} cannot be played here: saved games keep deal numbers up to "
                          f"{2**64 - 1} (yukon deal and yukon solve take PySolFC's numbers beyond that)"), err
    assert len(err.strip().splitlines()) == 1
