"""The ``yukon`` command's engine subcommands: ``deal`` and ``moves``, and their errors.

(Named test_engine_cli.py, not test_cli.py: tests/web/test_cli.py has that basename, and two test
modules of one basename in folders without __init__.py cannot be collected together.)
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine_helpers import make
from yukon import Game
from yukon.cards import PRETTY, RED
from yukon.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("yukon: error: ")
    for w in words:
        assert w in lines[0], (w, lines[0])


# ---------------------------------------------------------------- yukon deal


def test_deal_prints_a_readable_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "deal", "--variant", "russian", "--seed", "7")
    assert code == 0 and err == ""
    assert "Russian Solitaire" in out and "deal 7" in out
    assert "♠" in out and "♥" in out and "10" in out
    g = Game.deal("russian", seed=7)
    # column 1 holds one face-up card; it heads the first row of the table, after the column numbers
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split() == [str(n) for n in range(1, 8)])
    assert lines[header + 1].split()[0] == PRETTY[g.columns[0][1][0]]
    assert lines[header + 1].split()[1:] == ["▒▒"] * 6


def test_deal_layout_is_coloured_on_a_colour_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, _ = run(capsys, "deal", "--variant", "russian", "--seed", "7")
    assert code == 0
    # red suits in red, black suits in black, both bold on white; face-down cards in blue
    g = Game.deal("russian", seed=7)
    first = g.columns[0][1][0]  # 5S
    assert f"\x1b[1;30;47m{PRETTY[first]:>3}\x1b[0m" in out
    red = next(c for _, up in g.columns for c in up if RED[c])
    assert f"\x1b[1;31;47m{PRETTY[red]:>3}\x1b[0m" in out
    assert "\x1b[34m ▒▒\x1b[0m" in out


def test_deal_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--variant", "russian", "--seed", "7", "--json")
    assert code == 0
    assert json.loads(out) == Game.deal("russian", seed=7).to_dict()


@pytest.mark.parametrize("variant", ["yukon", "australian", "milligan-yukon"])
def test_game_to_json_is_what_deal_json_prints_and_reads_back(capsys: pytest.CaptureFixture[str],
                                                              variant: str) -> None:
    """Game had from_json but no to_json: ``game.to_json()`` was an AttributeError (GameRecord has both)."""
    game = Game.deal(variant, seed=11)
    game.push(game.legal_moves()[-1])  # (a deal from the stock, where there is one)
    assert Game.from_json(game.to_json()) == game
    code, out, _ = run(capsys, "deal", "--variant", variant, "--seed", "11", "--json")
    assert code == 0 and out == Game.deal(variant, seed=11).to_json() + "\n"


def test_deal_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--variant", "russian", "--seed", "7", "--text")
    assert code == 0
    assert out == Game.deal("russian", seed=7).to_text() + "\n"


def test_deal_options_and_aliases(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "deal", "-v", "milligan", "-s", "3", "--empty-column", "any", "--no-foundation-return", "--text"
    )
    assert code == 0
    assert out.split()[0] == "milligan-yukon,any,noreturn"
    assert Game.from_text(out) == Game.deal("milligan-yukon", seed=3, empty_column="any", foundation_return=False)
    code, out, _ = run(capsys, "deal", "--seed", "3", "--foundation-return", "--json")
    assert json.loads(out)["rules"] == {"empty_column": "kings", "foundation_return": True}


def test_deal_without_seed_picks_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--text")
    assert code == 0 and Game.from_text(out).rules.variant == "yukon"


@pytest.mark.parametrize("fmt", ["--text", "--json"])
@pytest.mark.parametrize("numbering", ["yukon", "pysolfc"])
def test_a_random_deal_says_its_number(capsys: pytest.CaptureFixture[str], fmt: str, numbering: str) -> None:
    """--text and --json printed a random deal that nobody could deal again: its number is said on stderr
    (the layout has it in its title), and stdout is the position alone."""
    code, out, err = run(capsys, "deal", "--variant", "russian", "--numbering", numbering, fmt)
    game = Game.from_text(out) if fmt == "--text" else Game.from_json(out)
    number = int(err.split("number ")[1].split()[0])
    again = ["--seed", str(number), "--numbering", numbering]
    assert code == 0 and " ".join(again[:2 if numbering == "yukon" else 4]) + " deals it again" in err
    assert run(capsys, "deal", "--variant", "russian", *again, fmt) == (0, out, "")  # (no line with a seed given)
    assert game == Game.deal("russian", seed=number, numbering=numbering)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["deal", "--variant", "klondike"], ["unknown variant 'klondike'"]),
        (["deal", "--seed", "-3"], ["deal number", "-3"]),
        (["deal", "--seed", str(2**64)], ["deal number"]),
        # (5,000 digits raised int()'s ValueError, a traceback)
        (["deal", "--numbering", "pysolfc", "--seed", "1" * 5000], ["PySolFC game number", "too large"]),
        (["deal", "--numbering", "pysolfc", "--seed", "1" + "0" * 20], ["too large", "1 to 99999999999999999999"]),
        (["deal", "--numbering", "pysolfc", "--seed", "0"], ["PySolFC game number is an int from 1"]),
    ],
)
def test_deal_errors(capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    one_line_error(err, *words)


def test_bad_arguments_exit_2_naming_the_problem(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["deal", "--empty-column", "queens"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'queens'" in err.strip().splitlines()[-1]


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0 and "deal" in out and "moves" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("yukon ")


# ---------------------------------------------------------------- yukon moves


def expected_moves(game: Game) -> str:
    return "".join(f"{m}\n" for m in game.legal_moves())


def test_moves_of_a_json_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    g = Game.deal("yukon", seed=7)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(g.to_dict()), encoding="utf-8")
    code, out, err = run(capsys, "moves", str(path))
    assert code == 0 and err == ""
    assert out == expected_moves(g)
    assert len(out.splitlines()) == len(g.legal_moves()) > 0


def test_moves_of_a_file_without_a_json_suffix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    g = Game.deal("australian", seed=2)
    path = tmp_path / "position"
    path.write_text(g.to_text() + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "moves", str(path))
    assert code == 0 and out == expected_moves(g) and "deal\n" in out


def test_moves_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game.deal("milligan-yukon", seed=4)
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(g.to_dict(), indent=2)))
    code, out, _ = run(capsys, "moves", "-")
    assert code == 0 and out == expected_moves(g)


@pytest.mark.parametrize("form", ["json", "one-line"])
def test_a_byte_order_mark_is_no_part_of_a_position_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        form: str) -> None:
    """A Windows editor saves UTF-8 with a byte order mark: the position read as 73 fields, '\\ufeff{...'."""
    g = Game.deal("russian", seed=3)
    path = tmp_path / "position.txt"
    path.write_bytes(b"\xef\xbb\xbf" + (json.dumps(g.to_dict()) if form == "json" else g.to_text()).encode())
    code, out, err = run(capsys, "moves", str(path))
    assert (code, err) == (0, "") and out == expected_moves(g)


def test_a_position_file_of_megabytes_is_refused_unread(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """It was read whole (``yukon moves /dev/zero`` never ended, filling the memory)."""
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * 2_000_000)
    code, out, err = run(capsys, "moves", str(path))
    assert code == 2 and out == "" and "longer than 1,000,000 bytes" in err and "huge.json" in err


def test_moves_of_the_one_line_form(capsys: pytest.CaptureFixture[str]) -> None:
    g = Game.deal("alaska", seed=9)
    code, out, _ = run(capsys, "moves", g.to_text())
    assert code == 0 and out == expected_moves(g)


def test_moves_of_inline_json(capsys: pytest.CaptureFixture[str]) -> None:
    g = Game.deal("yukon", seed=9)
    code, out, _ = run(capsys, "moves", json.dumps(g.to_dict()))
    assert code == 0 and out == expected_moves(g)


def test_moves_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    g = Game.deal("yukon", seed=9)
    code, out, _ = run(capsys, "moves", g.to_text(), "--json")
    assert code == 0 and json.loads(out) == [str(m) for m in g.legal_moves()]


def test_moves_of_a_won_and_a_lost_position(capsys: pytest.CaptureFixture[str]) -> None:
    won = make("yukon", [], foundations=["KS", "KH", "KD", "KC"])
    code, out, err = run(capsys, "moves", won.to_text())
    assert code == 0 and out == "" and err.strip() == "won"
    lost = make("yukon", ["", "", "", "", "", "", "5S"], fill=6)
    code, out, err = run(capsys, "moves", lost.to_text())
    assert code == 0 and out == "" and "no legal move" in err


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ("missing.json", ["cannot read position file 'missing.json'", "No such file"]),
        ("{not json", ["invalid position", "not valid JSON"]),
        ('{"variant": "klondike", "tableau": [], "foundations": []}', ["unknown variant 'klondike'"]),
        ("yukon,kings", ["invalid position", "3 or 4 space-separated fields"]),
        ("yukon,kings,noreturn QD/QD -/-/-/-", ["invalid position", "7 columns"]),
        (Game.deal("yukon", seed=1).to_text().replace("5C/", "5X/"), ["invalid position", "not a card"]),
        (Game.deal("yukon", seed=1).to_text().replace("5C/", "-/"), ["invalid position", "missing: 5C"]),
    ],
)
def test_moves_bad_input(capsys: pytest.CaptureFixture[str], arg: str, words: list[str], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "moves", arg)
    assert code == 2 and out == ""
    one_line_error(err, *words)


def test_moves_of_an_empty_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("  \n"))
    code, _, err = run(capsys, "moves", "-")
    assert code == 2
    one_line_error(err, "the position is empty")


def test_moves_of_a_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "moves", str(tmp_path))
    assert code == 2
    one_line_error(err, "cannot read position file")


# ---------------------------------------------------------------- a real process


def test_real_subprocess() -> None:
    cmd = [sys.executable, "-m", "yukon.cli"]
    done = subprocess.run([*cmd, "deal", "--seed", "7", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    position = done.stdout
    assert json.loads(position) == Game.deal("yukon", seed=7).to_dict()
    done = subprocess.run([*cmd, "moves", "-"], input=position, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected_moves(Game.deal("yukon", seed=7))
    done = subprocess.run([*cmd, "moves", "-"], input="{}", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == ["yukon: error: invalid position: position has no 'variant' key"]


def test_moves_of_a_binary_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # A file that is not UTF-8 text used to end in a UnicodeDecodeError traceback.
    path = tmp_path / "photo.json"
    path.write_bytes(bytes(range(128, 256)))
    code, out, err = run(capsys, "moves", str(path))
    assert code == 2 and out == ""
    one_line_error(err, "cannot read position file", "not UTF-8 text")


def test_interrupt_exits_130(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import yukon.cli

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(yukon.cli, "_cmd_deal", interrupted)
    assert main(["deal"]) == 130


def test_interrupt_while_the_command_line_loads_exits_130_quietly(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # 'yukon tui' then Ctrl-C at once: the subcommands' modules were loading, outside main's handler: a traceback
    import yukon.cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(yukon.cli, "build_parser", interrupted)
    try:
        code = main(["tui"])
    except KeyboardInterrupt:  # (what the traceback was printed for)
        pytest.fail("Ctrl-C while the command line loads ends with KeyboardInterrupt's traceback")
    assert code == 130
    assert capsys.readouterr() == ("", "")


def test_interrupt_while_python_m_yukon_imports_exits_130_quietly(tmp_path: Path) -> None:
    """``python -m yukon`` interrupted while it imports yukon.cli (before main can catch anything)."""
    import os

    import yukon.cli

    script = tmp_path / "interrupted.py"
    script.write_text(
        "import runpy, sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'yukon.cli_common':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "sys.argv = ['yukon', 'tui']\n"
        "runpy.run_module('yukon', run_name='__main__', alter_sys=True)\n",
        encoding="utf-8")
    src = str(Path(yukon.cli.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


#: A ``sitecustomize`` (Python imports it before the command) that stops the command's start at a known import:
#: it says so on stdout, then waits there for the test's Ctrl-C.
PAUSE_AT_IMPORT = """
import os, sys, time

class PauseAt:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ["YUKON_TEST_PAUSE_AT"]:
            sys.meta_path.remove(self)
            os.write(1, b"paused\\n")
            time.sleep(60)
        return None

sys.meta_path.insert(0, PauseAt())
"""


def interrupted_at_import(tmp_path: Path, at: str, argv: list[str]) -> tuple[int, str, str]:
    """``python ARGV`` held by a sitecustomize while it imports the module ``at``, then sent SIGINT: its exit
    status, standard output and standard error."""
    import os
    import signal

    import yukon

    (tmp_path / "sitecustomize.py").write_text(PAUSE_AT_IMPORT, encoding="utf-8")
    src = str(Path(yukon.__file__).resolve().parents[1])
    env = {**os.environ, "YUKON_TEST_PAUSE_AT": at,
           "PYTHONPATH": os.pathsep.join([str(tmp_path), src, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        said = proc.stdout.readline()
        assert said == "paused\n", (said, proc.stderr.read() if proc.stderr else "")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err


@pytest.mark.timeout(120)
@pytest.mark.parametrize("at", [
    "yukon.cards",  # the package's first import after its startup handler: `import yukon` (before: a traceback)
    "yukon.rules",  # its last
    "yukon.cli",  # yukon.__main__ importing the command line
    "yukon.tui.session",  # inside main: the terminal game's modules (main's own handler, as before)
])
def test_a_real_ctrl_c_at_any_point_of_python_m_yukons_start_exits_130_quietly(tmp_path: Path, at: str) -> None:
    """``python -m yukon tui --help`` sent SIGINT while it imports ``at`` (held there by a sitecustomize until
    the signal comes: no sleep-and-hope). Python imports the package before yukon.__main__ runs: a Ctrl-C in
    ``import yukon`` printed KeyboardInterrupt's traceback, one later ended quietly with 130."""
    assert interrupted_at_import(tmp_path, at, ["-m", "yukon", "tui", "--help"]) == (130, "", "")


#: The ``yukon`` console script as pip writes it (the entry point from pyproject.toml filled in).
CONSOLE_SCRIPT = """# -*- coding: utf-8 -*-
import re
import sys
from {module} import {function}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({function}())
"""


def console_script(folder: Path) -> Path:
    """The ``yukon`` console script of pyproject.toml's entry point, written into ``folder`` as pip would."""
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = project["project"]["scripts"]["yukon"].split(":")
    script = folder / "bin" / "yukon"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(CONSOLE_SCRIPT.format(module=module, function=function), encoding="utf-8")
    return script


@pytest.mark.timeout(120)
@pytest.mark.parametrize("at", [
    "yukon.cards",  # the package's first import after its startup handler (before: KeyboardInterrupt's traceback)
    "yukon.cli_common",  # the script's `from yukon.cli import main`, after the package
    "yukon.tui.session",  # inside main: the terminal game's modules (main's own handler)
])
def test_a_real_ctrl_c_while_the_console_script_starts_exits_130_quietly(tmp_path: Path, at: str) -> None:
    """``yukon tui --help``, the console script (not ``python -m yukon``), sent SIGINT while it imports ``at``
    (held there by a sitecustomize until the signal comes): only ``python -m yukon`` had the startup guard, and
    the script printed KeyboardInterrupt's traceback."""
    assert interrupted_at_import(tmp_path, at, [str(console_script(tmp_path)), "tui", "--help"]) == (130, "", "")


def test_the_console_script_hands_ctrl_c_back_as_the_command_runs(tmp_path: Path) -> None:
    """While the console script imports yukon, SIGINT exits at once; once main runs, Ctrl-C is Python's again
    (the command line answers it); a program of another name that imports yukon keeps Python's all along."""
    import os

    import yukon

    src = str(Path(yukon.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    check = ("import signal, sys\n"
             "import yukon.cli\n"
             "loading = signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
             "python = signal.default_int_handler\n"
             "yukon.cli._main = lambda argv: print(loading, signal.getsignal(signal.SIGINT) is python) or 0\n"
             "sys.exit(yukon.cli.main())\n")
    for name, said in [("yukon", "False True\n"), ("yukon-tools", "True True\n")]:
        script = tmp_path / name
        script.write_text(check, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60)
        assert (done.returncode, done.stdout, done.stderr) == (0, said, ""), name


@pytest.mark.parametrize(("argv0", "main_file", "is_it"), [
    ("/usr/bin/yukon", "/usr/bin/yukon", True),  # the console script
    ("/py/Scripts/yukon.exe", "/py/Scripts/yukon.exe/__main__.py", True),  # a Windows launcher, run as a zip
    ("/py/Scripts/yukon-script.py", "/py/Scripts/yukon-script.py", True),
    ("/usr/bin/yukon", "/home/me/game.py", False),  # a program that only set sys.argv[0]
    ("/home/me/yukon_tools.py", "/home/me/yukon_tools.py", False),  # another name
    ("/usr/bin/yukon", None, False),  # python -c, an interactive interpreter: no main file
])
def test_the_console_script_is_known_by_its_name_as_the_main_module(monkeypatch: pytest.MonkeyPatch, argv0: str,
                                                                     main_file: str | None, is_it: bool) -> None:
    import types

    from yukon.startup import running_as_console_script

    main = types.ModuleType("__main__")
    if main_file is not None:
        main.__file__ = main_file
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert running_as_console_script(argv0) is is_it


def test_a_program_that_imports_yukon_keeps_its_ctrl_c() -> None:
    """Only ``python -m yukon`` has a Ctrl-C exit quietly while it loads: ``import yukon`` elsewhere leaves
    SIGINT to Python (a KeyboardInterrupt the program may catch), and so does the command once it runs."""
    import os

    import yukon

    src = str(Path(yukon.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    check = "import signal, yukon; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=60)
    assert (done.stdout, done.stderr) == ("True\n", "")
    # the command itself, once it runs: yukon.__main__ handed SIGINT back before main
    check = ("import runpy, signal, sys; sys.argv = ['-m']; sys.orig_argv = ['python', '-m', 'yukon']; "
             "import yukon; handler = signal.getsignal(signal.SIGINT); "
             "import yukon.cli; yukon.cli.main = lambda: print(handler is signal.default_int_handler, "
             "signal.getsignal(signal.SIGINT) is signal.default_int_handler) or 0; "
             "runpy.run_module('yukon', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "False True\n", "")


def test_missing_layers_are_skipped_broken_ones_are_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import yukon.cli

    monkeypatch.setattr(yukon.cli, "SUBCOMMAND_MODULES", ("yukon.no_such_layer.cli",))
    choices = yukon.cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(choices) == {"deal", "moves"}
    # a layer that is there but misses one of its own dependencies is an error, not a missing layer
    (tmp_path / "broken_layer_for_test.py").write_text("import no_such_dependency_for_test\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(yukon.cli, "SUBCOMMAND_MODULES", ("broken_layer_for_test",))
    with pytest.raises(ImportError, match="no_such_dependency_for_test"):
        yukon.cli.build_parser()


# ---------------------------------------------------------------- bad input: one line, exit 2, never a traceback

_DEEP = "[" * 100_000
_RULES_VARIANT = json.dumps({**Game.deal("yukon", seed=1).to_dict(), "rules": {"variant": "alaska"}})


@pytest.mark.parametrize(("argv", "words"), [
    (["moves", _RULES_VARIANT], ["unknown rule option 'variant'"]),
    (["solve", _RULES_VARIANT], ["unknown rule option 'variant'"]),
    (["moves", '{"a":' + _DEEP], ["nested too deeply"]),
    (["solve", '{"a":' * 100_000], ["nested too deeply"]),
    (["moves", "{" + "x" * 1_000_000], ["not valid JSON"]),
    (["solve", "--seed", "1", "--time-limit", "nan"], ["--time-limit", "nan"]),
    (["solve", "--seed", "1", "--time-limit", "-1"], ["--time-limit"]),
    (["solve", "--seed", "1", "--time-limit", "１"], ["--time-limit"]),
    (["solve", "--seed", "1", "--node-limit", "-5"], ["--node-limit", "-5"]),
    (["solve", "--seed", "1", "--node-limit", "0"], ["--node-limit"]),
    (["solve", "--seed", "1", "--memory-limit", "-1"], ["--memory-limit"]),
    (["solve", "--seed", "1", "--memory-limit", "inf"], ["--memory-limit"]),
    (["solve", "--seed", "١٢"], ["not a deal number"]),
    (["solve", "--seed", str(2**64)], ["too large"]),
    (["deal", "--seed", "１２"], ["not a deal number"]),
    (["deal", "--seed", "1_0"], ["not a deal number"]),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          words: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    one_line_error(err, *words)
    assert len(err) < 500


@pytest.mark.parametrize("seed", [str(2**63), str(2**64 - 1)])
def test_every_deal_number_on_the_command_line(capsys: pytest.CaptureFixture[str], seed: str) -> None:
    code, out, _ = run(capsys, "deal", "--seed", seed, "--text")
    assert code == 0 and Game.from_text(out.strip()) == Game.deal("yukon", seed=int(seed))
    code, out, _ = run(capsys, "solve", "--seed", seed, "--node-limit", "2000", "--json")
    assert code in (0, 1, 3) and json.loads(out)["position"] == Game.deal("yukon", seed=int(seed)).to_text()


def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["solve", "--no-such-option"])
    assert info.value.code == 2
    one_line_error(capsys.readouterr().err, "--no-such-option")


@pytest.mark.parametrize("argv, helped", [
    (["deal", "--bogus"], "yukon deal"),
    (["solve", "--seed", "3", "--text"], "yukon solve"),
    (["study", "report", "--seeds", "1-3", "--frob"], "yukon study report"),
    (["study", "--variant", "yukon", "--frob"], "yukon study"),
    (["--frob"], "yukon"),
])
def test_an_unknown_option_points_to_its_commands_help(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                       helped: str) -> None:
    """'yukon deal --bogus' said "see 'yukon --help'", which does not list deal's options."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    one_line_error(err, "unrecognized arguments", argv[-1])
    assert err.strip().endswith(f"(see '{helped} --help')"), err


def test_a_folder_that_is_not_there(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "study", "--seeds", "1", "--node-limit", "10", "--db",
                         str(tmp_path / "missing" / "s.sqlite3"))
    assert code == 2 and out == ""
    one_line_error(err, "missing")


def test_moves_of_a_position_with_full_width_digits_in_a_move_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from yukon import Move
    from yukon.errors import InvalidMoveError

    with pytest.raises(InvalidMoveError):
        Move.from_text("２:7H>5")


@pytest.mark.parametrize("argv", [["deal", "--seed", "1", "--json"], ["deal", "--seed", "1"]])
def test_a_reader_gone_ends_the_command_quietly(argv: list[str]) -> None:
    """'yukon deal --json | head -c 10' said 'yukon: error: Broken pipe' (exit 2): now it ends as a tool killed
    by SIGPIPE would, in silence (141; the coloured layout's Rich console ends with 1, as Rich does)."""
    import os

    read, write = os.pipe()
    os.close(read)  # (a reader that is gone before the first write: every write fails, deterministically)
    try:
        done = subprocess.run([sys.executable, "-m", "yukon", *argv], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == (141 if "--json" in argv else 1), done


@pytest.mark.parametrize(("text", "words"), [
    ("1" * 5000, "at most 100 digits"),  # (int() raised ValueError past 4,300 digits: a traceback)
    ("0", "positive whole number, not '0'"), ("-3", "not '-3'"), ("3.5", "not '3.5'"), ("١٢", "not '١٢'"),
])
def test_a_whole_number_option_of_any_text_is_one_line(text: str, words: str) -> None:
    from yukon.cli_common import CommandError, positive_int

    with pytest.raises(CommandError, match=words) as info:
        positive_int(text, "--node-limit")
    assert "--node-limit" in str(info.value) and len(str(info.value)) < 200
    assert positive_int(" 007 ", "--workers") == 7 and positive_int(10**30, "--node-limit") == 10**30



@pytest.mark.parametrize("argv", [["deal", "--seed", "1"], ["solve", "--seed", "1"],
                                  ["study", "run", "--seeds", "1-2"]])
def test_an_empty_variant_is_unknown_not_yukon(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               argv: list[str]) -> None:
    """'--variant "$V"' with V unset dealt, solved and studied Yukon without a word (a study of the wrong
    variant, mixed into Yukon's rows)."""
    db = tmp_path / "s.sqlite3"
    code, out, err = run(capsys, *argv, "--variant", "", *(["--db", str(db)] if argv[0] == "study" else []))
    assert code == 2 and out == ""
    one_line_error(err, "unknown variant ''")
    assert not db.exists()


@pytest.mark.parametrize("command", ["solve", "moves"])
@pytest.mark.parametrize("value, said", [
    ("", "the position is empty"),  # (it said "cannot read position file '': Is a directory")
    ("mypos", "invalid position: 'mypos' is no file, and a one-line position has 3 or 4 space-separated fields, "
              "not 1"),  # (it did not say that it looked for a file of that name)
])
def test_position_argument_empty_or_one_word(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch, command: str, value: str,
                                             said: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([command, value]) == 2
    assert capsys.readouterr().err == f"yukon: error: {said}\n"
