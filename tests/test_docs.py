"""The examples in the documentation run as written (docs/contract.md, docs/solver.md)."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", ["contract.md", "solver.md"])
def test_examples_in_docs_run(name: str) -> None:
    path = DOCS / name
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 5, f"{name} lost its examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} fail (run: python -m doctest docs/{name})"


ROOT = DOCS.parent
#: What a clone of the repository holds that its text may name (caches and build output are not it).
SCANNED = ("README.md", "setup.py", "pyproject.toml", ".ci", "bench", "docs", "src", "tests", "tools")
TEXT_SUFFIXES = {".md", ".py", ".c", ".h", ".js", ".css", ".html", ".toml", ".txt", ""}


def _repository_text() -> dict[Path, str]:
    files: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        files.extend([path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()))
    return {
        p: p.read_text(encoding="utf-8") for p in files
        if p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts and "node_modules" not in p.parts
        and not any(part.endswith(".egg-info") for part in p.parts)  # (pip's build output, not the repository's)
    }


def test_no_file_names_a_file_outside_the_repository() -> None:
    # the first specification lived in files a clone does not have; docs/contract.md and docs/rules.md replace them
    outside = re.compile(r"\bCONTRACT\.md|\bRULES\.md|\.\./shared/|\bseeds/")
    offenders = [
        f"{p.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
        for p, text in _repository_text().items() for m in outside.finditer(text)
    ]
    assert not offenders, "files outside the repository named:\n" + "\n".join(offenders)


def test_cited_doc_sections_exist() -> None:
    """``docs/solver-design.md, "Sleep sets"`` in a comment: that page exists and has that heading."""
    cited = re.compile(r"docs/([\w-]+\.md)[,:]? \"([^\"\n]+)\"")
    headings = {
        p.name: [line.lstrip("#").strip().lower() for line in p.read_text(encoding="utf-8").splitlines()
                 if line.startswith("#")]
        for p in DOCS.glob("*.md")
    }
    seen, broken = 0, []
    for p, text in _repository_text().items():
        for m in cited.finditer(text):
            seen += 1
            page, section = m.group(1), m.group(2).lower()
            if page not in headings or not any(section in h for h in headings[page]):
                broken.append(f"{p.relative_to(ROOT)}: docs/{page} \"{m.group(2)}\"")
    assert seen > 10, "the section citations this test checks are gone: update its pattern"
    assert not broken, "citations of missing doc sections:\n" + "\n".join(broken)


def _console_sessions() -> list[tuple[str, list[tuple[list[str], str | None, list[str]]]]]:
    """Every ```console block of README.md and docs/*.md as (page, [(argv, redirect, shown output)])."""
    sessions = []
    for page in (ROOT / "README.md", *sorted(DOCS.glob("*.md"))):
        for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            steps: list[tuple[list[str], str | None, list[str]]] = []
            for line in block.splitlines():
                if line.startswith("$ "):
                    command = shlex.split(line[2:], comments=True)
                    redirect = None
                    if ">" in command:
                        redirect = command[command.index(">") + 1]
                        command = command[:command.index(">")]
                    steps.append((command, redirect, []))
                elif steps:
                    steps[-1][2].append(line)
            sessions.append((page.name, steps))
    return sessions


def test_shown_output_of_deal_and_moves_is_what_they_print(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The exact output the pages show for `yukon deal` and `yukon moves` (no timings in them): a line of
    '...' stands for any lines, '...' in a line for any text there. (The README once listed
    moves that `yukon moves deal.json` prints in another order.)"""
    from yukon.cli import main

    monkeypatch.chdir(tmp_path)
    checked = 0
    for page, steps in _console_sessions():
        for command, redirect, shown in steps:
            if command[:2] not in (["yukon", "deal"], ["yukon", "moves"]) or not (shown or redirect):
                continue
            capsys.readouterr()
            assert main(command[1:]) == 0, f"{page}: {' '.join(command)}"
            out = capsys.readouterr().out
            if redirect:
                (tmp_path / redirect).write_text(out, encoding="utf-8")
                continue
            printed = out.splitlines()
            for i, want in enumerate(shown):
                if want == "...":
                    break
                got = printed[i] if i < len(printed) else "<nothing>"
                ok = re.fullmatch(re.escape(want).replace(re.escape("..."), ".*"), got) is not None
                assert ok, f"{page}: `{' '.join(command)}` line {i + 1} prints {got!r}, the page shows {want!r}"
            checked += 1
    assert checked >= 2, "the pages' deal/moves examples this test checks are gone: update it"


def test_links_between_the_pages_resolve() -> None:
    """Every relative Markdown link of README.md and docs/*.md names a file of the repository (inside it), and an anchor
    one of that page's headings (GitHub's slugs)."""
    def slug(heading: str) -> str:
        return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

    pages = (ROOT / "README.md", *sorted(DOCS.glob("*.md")))
    anchors = {p.resolve(): {slug(line.lstrip("#")) for line in p.read_text(encoding="utf-8").splitlines()
                             if line.startswith("#")} for p in pages}
    broken, seen = [], 0
    for page in pages:
        for link in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", link):
                continue  # (https:, mailto:)
            seen += 1
            path, _, anchor = link.partition("#")
            target = (page.parent / path).resolve() if path else page.resolve()
            if not target.is_relative_to(ROOT.resolve()):
                broken.append(f"{page.name}: {link} (outside the repository: a clone has no such file)")
            elif not target.exists():
                broken.append(f"{page.name}: {link} (no such file)")
            elif anchor and target in anchors and anchor not in anchors[target]:
                broken.append(f"{page.name}: {link} (no such heading)")
    assert seen > 20, "the links this test checks are gone: update its pattern"
    assert not broken, "broken links:\n" + "\n".join(broken)


#: the modules a user imports (README.md, docs/*.md): their ``__all__`` is the public API
PUBLIC_MODULES = ("yukon", "yukon.env", "yukon.study", "yukon.honest", "yukon.solver", "yukon.record",
                  "yukon.analysis", "yukon.visible", "yukon.difficulty", "yukon.deal_data", "yukon.line_code",
                  "yukon.pysolfc", "yukon.autoplay", "yukon.game")


def _members(cls: type) -> list[tuple[str, object]]:
    """A class's own public methods and properties (the function behind each)."""
    import inspect

    out = []
    for attr, value in vars(cls).items():
        if attr.startswith("_"):
            continue
        if isinstance(value, property):
            out.append((attr, value.fget))
        elif isinstance(value, (classmethod, staticmethod)):
            out.append((attr, value.__func__))
        elif inspect.isfunction(value):
            out.append((attr, value))
    return out


def test_every_public_function_and_method_has_a_docstring() -> None:
    """``help()`` said nothing for Game.is_over, Game.variant, Rules.columns, GameRecord.write and some thirty
    more members of the public API (yukon.study, yukon.solver, yukon.honest too)."""
    import importlib
    import inspect

    bare, seen = [], 0
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for public in module.__all__:
            obj = getattr(module, public)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not obj.__module__.startswith("yukon"):
                continue
            members = [(public, obj)]
            if inspect.isclass(obj):
                members += [(f"{public}.{attr}", member) for attr, member in _members(obj)]
            for label, member in members:
                seen += 1
                if not (inspect.getdoc(member) or "").strip():
                    bare.append(f"{name}.{label}")
    assert seen > 200, "the public names this test checks are gone: update PUBLIC_MODULES"
    assert not bare, "public names without a docstring:\n" + "\n".join(sorted(set(bare)))


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| variant |")]


@pytest.fixture(scope="module")
def shipped_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A study file of every committed row of data/ (what tools/build_verdicts.py imports)."""
    from yukon.cli import main

    db = tmp_path_factory.mktemp("shipped") / "s.sqlite3"
    data = ROOT / "data"
    files = [data / "verdict-study.csv.gz", data / "honest-study.csv", data / "honest-variants-study.csv.gz"]
    assert main(["study", "import", *map(str, files), "--db", str(db)]) == 0
    return db


def test_the_shipped_verdicts_are_what_data_rebuilds(shipped_study: Path, tmp_path: Path) -> None:
    """docs/verdicts.md: the committed rows give the package's verdicts file byte for byte."""
    from yukon.cli import main

    out = tmp_path / "verdicts.csv.gz"
    assert main(["study", "export", "--verdicts", "--db", str(shipped_study), "--output", str(out)]) == 0
    shipped = ROOT / "src" / "yukon" / "data" / "verdicts.csv.gz"
    assert out.read_bytes() == shipped.read_bytes(), "run python tools/build_verdicts.py (or commit data/)"


def test_the_study_tables_are_what_the_report_makes_of_the_shipped_rows(shipped_study: Path, tmp_path: Path) -> None:
    """docs/winnability.md's results and its honest player's table, and docs/honest.md's, are `yukon study
    report` of data/ (the page says so: import the rows, report): a study added to data/ without the pages, or
    a row edited by hand, shows here."""
    from yukon.cli import main

    db = shipped_study
    assert main(["study", "report", "--db", str(db), "--output", str(tmp_path / "r.md"), "--plots", str(tmp_path)]) == 0
    report = (tmp_path / "r.md").read_text(encoding="utf-8")
    solver = _table_rows(report.split("## History")[0])
    honest = _table_rows(report.split("## The honest player beside the solver")[1])
    assert len(solver) > 10 and len(honest) > 10

    winnability = (DOCS / "winnability.md").read_text(encoding="utf-8")
    results = winnability.split("<!-- table -->")[1].split("<!-- /table -->")[0]
    assert _table_rows(results) == solver, "winnability.md's results are not the report's: paste it again"
    beside = winnability.split("## Without seeing the face-down cards")[1].split("`honest-2s` is the same player")[0]
    assert _table_rows(beside.split("the discussion")[1]) == honest, "winnability.md's honest table drifted"
    # the short table above it quotes the first row's solver column (it quoted solver 13's 852 of 927)
    cells = [c.strip() for c in honest[0].split("|")[1:-1]]
    won, decided = cells[9].replace(",", "").split(" / ")
    short = next(line for line in beside.splitlines() if line.startswith("| solver"))
    assert f"({won} won of {decided} decided) | 1000 | {won} | {cells[10]} of decided | {cells[11]} |" in short, short
    variants = (DOCS / "honest.md").read_text(encoding="utf-8").split("### Every variant and option, 200 deals each")[1]
    assert _table_rows(variants.split("(The median game time")[0]) == honest, "honest.md's table drifted"


def test_agents_page_quotes_the_shipped_verdicts() -> None:
    """docs/agents.md, "How far from perfect play": the solver column is the shipped verdicts' share of deals
    1-1000 proven winnable (with the undecided: all lost … all won), default rules."""
    import yukon

    text = (DOCS / "agents.md").read_text(encoding="utf-8").split("## How far from perfect play")[1]
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in _table_rows(text)}
    assert set(rows) == set(yukon.VARIANTS), rows
    for variant, shown in rows.items():
        rules = yukon.rules_for(variant)
        deals = [v for v in yukon.verdicts(variant=variant, empty_column=rules.empty_column,
                                           foundation_return=rules.foundation_return) if 1 <= v.seed <= 1000]
        assert len(deals) == 1000, variant
        won = sum(v.status == "won" for v in deals) / 10
        open_ = sum(v.status == "unknown" for v in deals) / 10
        want = f"{won:.1f}%" + (f" ({won:.1f}–{won + open_:.1f}%)" if open_ else "")
        assert shown == want, f"agents.md says {shown} for {variant}; the shipped verdicts say {want}"


def _a_lost_game(at_least: int) -> Any:
    """A Russian Solitaire game played by the first legal moves that never go back to a position, until
    none is left: lost, with its history, in at least ``at_least`` moves."""
    import yukon

    for seed in range(1, 500):
        game, seen = yukon.Game.deal("russian", seed=seed), set()
        while game.legal_moves():
            fresh = [m for m in game.legal_moves() if _after(game, m) not in seen]
            if not fresh:
                break
            game.push(fresh[0])
            seen.add(game.to_text())
        if game.is_lost() and len(game.move_stack) >= at_least:
            return game
    raise AssertionError("no such game in deals 1-499")


def _after(game: Any, move: Any) -> str:
    game.push(move)
    text = game.to_text()
    game.pop()
    return str(text)


def test_the_python_blocks_of_the_pages_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Every ```python block of README.md and docs/*.md runs as written, the blocks of a page in turn in one
    namespace (docs/records.md's is given its `game`, a lost one); a renamed call shows here. (verdicts.md's
    line code example used a `moves` that no block made.)"""

    monkeypatch.chdir(tmp_path)  # (records.md writes game.json)
    game = _a_lost_game(at_least=17)  # (records.md: a record that says "lost", and its position after move 17)
    ran = 0
    for page in (ROOT / "README.md", *sorted(DOCS.glob("*.md"))):
        namespace: dict[str, object] = {"game": game.copy(history=True)} if page.name == "records.md" else {}
        for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            exec(compile(block, f"{page.name} (a python block)", "exec"), namespace)
            ran += 1
    assert ran >= 6, "the pages' python blocks this test runs are gone: update it"


def _documented_commands() -> list[tuple[str, list[str]]]:
    """Every `yukon ...` command line of the pages' sh and console blocks (console: the `$ ` lines), as
    (page, argv after `yukon`), shell variables, redirections and comments left out."""
    found = []
    for page in (ROOT / "README.md", *sorted(DOCS.glob("*.md"))):
        for lang, block in re.findall(r"```(sh|console)\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                if lang == "console":
                    if not line.startswith("$ "):
                        continue
                    line = line[2:]
                for part in re.split(r"\s*(?:&&|;|\|)\s*", line.strip()):
                    m = re.search(r"(?:^|\s)yukon ((?:deal|moves|solve|analyze|study|play|tui)(?=\s|$).*)", part)
                    if not m:
                        continue
                    argv = shlex.split(m.group(1), comments=True)
                    for stop in (">", "<"):
                        argv = argv[:argv.index(stop)] if stop in argv else argv
                    found.append((page.name, [a for a in argv if "$" not in a]))
    return found


def test_every_documented_command_line_parses() -> None:
    """The pages' `yukon ...` lines name only options their command has (an option renamed in the code and
    not in a page shows here)."""
    from yukon.cli import build_parser

    commands = _documented_commands()
    assert len(commands) > 50, "the command lines this test checks are gone: update its pattern"
    bad = []
    for page, argv in commands:
        try:
            _, extra = build_parser().parse_known_args(argv)
        except SystemExit:
            extra = ["(refused)"]
        if extra:
            bad.append(f"{page}: yukon {' '.join(argv)}: {' '.join(extra)}")
    assert not bad, "documented commands that do not parse:\n" + "\n".join(bad)


def _documented_script_lines() -> list[tuple[str, str, list[str]]]:
    """Every `python bench/NAME.py ...` or `python tools/NAME.py ...` of README.md and docs/*.md, in code blocks
    and inline code, as (page, script, the options it names)."""
    found = []
    for page in (ROOT / "README.md", *sorted(DOCS.glob("*.md"))):
        text = page.read_text(encoding="utf-8")
        spans = re.findall(r"```[a-z]*\n(.*?)```", text, re.S) + re.findall(r"`([^`\n]+(?:\n[^`\n]+)?)`",
                                                                             re.sub(r"```.*?```", "", text, flags=re.S))
        for span in spans:
            for m in re.finditer(r"python3? ((?:bench|tools)/\w+\.py)((?:[ \t]+(?:\\\n\s*)?[^\s#`;&|>]+)*)", span):
                options = re.findall(r"(?:^|\s|\[)(--[a-z][a-z0-9-]*)", m.group(2))
                found.append((page.name, m.group(1), options))
    return found


def test_documented_bench_and_tool_commands_name_their_options() -> None:
    """The pages' `python bench/...` and `python tools/...` lines name scripts that exist and options that each
    script defines (an option renamed in a script and not in a page shows here)."""
    lines = _documented_script_lines()
    assert len(lines) > 50, "the script lines this test checks are gone: update its pattern"
    bad = []
    for page, script, options in lines:
        path = ROOT / script
        if not path.is_file():
            bad.append(f"{page}: {script} (no such script)")
            continue
        source = path.read_text(encoding="utf-8")
        defined = set(re.findall(r'"(--[a-z][a-z0-9-]*)"', source))
        defined |= {"--no-" + o[2:] for o in defined} if "BooleanOptionalAction" in source else set()
        bad += [f"{page}: python {script} {option}" for option in options if option not in defined]
    assert not bad, "documented script options that the scripts do not define:\n" + "\n".join(bad)
