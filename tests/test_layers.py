"""The package's layers, and that every import points down (README.md, "How the code is laid out").

The engine knows nothing of the solver, the players, storage or a user interface; the solver builds on the
engine alone; the honest player on the engine and the solver; the services (hints, analysis, sessions, storage,
the deal data) on those; and the thin layers people use (the web table, the terminal game, the studies, the
environment, the command line) on everything below. Each package's ``cli`` module is its subcommand: part of
the command line, whichever package holds it. Imports inside functions count as much as those at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: the layers, lowest first: a module may import its own layer and the layers below it
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("engine", frozenset({
        "yukon.errors", "yukon.cards", "yukon.rules", "yukon.notation", "yukon.deal", "yukon.pysolfc",
        "yukon.position", "yukon.game", "yukon.render", "yukon.record", "yukon.line_code", "yukon.visible",
        "yukon.autoplay", "yukon.interval",
    })),
    ("solver", frozenset({"yukon.solver"})),
    ("honest player", frozenset({"yukon.honest"})),
    ("services", frozenset({
        "yukon.analysis", "yukon.difficulty", "yukon.deal_data", "yukon.winnable_deals", "yukon.hinting",
        "yukon.advisor", "yukon.demo", "yukon.session", "yukon.store", "yukon.sqlite_ints", "yukon.sqlite_schema",
        "yukon",  # the package's own face: the public names, over the layers below
    })),
    ("interfaces", frozenset({
        "yukon.web", "yukon.tui", "yukon.study", "yukon.env", "yukon.cli", "yukon.cli_common", "yukon.__main__",
    })),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int:
    """The layer index of ``module``: its longest listed prefix decides; a package's ``cli`` modules are the
    command line's."""
    if module.rsplit(".", 1)[-1] in ("cli", "analyze_cli"):
        return len(LAYERS) - 1
    best, index = -1, None
    for i, (_, members) in enumerate(LAYERS):
        for member in members:
            if (module == member or module.startswith(member + ".")) and len(member) > best:
                best, index = len(member), i
    assert index is not None, f"{module} is in no layer of tests/test_layers.py: add it where it belongs"
    return index


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every ``yukon`` module ``path`` imports, anywhere in the file."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    return imports_in(path.read_text(), package)


def imports_in(source: str, package: str) -> list[tuple[int, str]]:
    """(line, module) of every ``yukon`` module ``source``, a module of ``package``, imports (``from . import
    x`` names ``x`` when it is a module, else the package)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "yukon"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "yukon":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                is_module = (SRC / sub.replace(".", "/")).with_suffix(".py").exists() or (
                    SRC / sub.replace(".", "/") / "__init__.py").exists()
                found.append((node.lineno, sub if is_module else target))
    return found


MODULES = sorted(SRC.joinpath("yukon").rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_every_import_points_down(path: Path) -> None:
    here = layer_of(module_name(path))
    upward = [f"line {line}: {target} ({LAYERS[layer_of(target)][0]})" for line, target in imports_of(path)
              if layer_of(target) > here]
    assert not upward, f"{module_name(path)} ({LAYERS[here][0]}) imports from a layer above it: {upward}"


def test_the_layers_name_only_modules_that_exist() -> None:
    names = {module_name(p) for p in MODULES}
    listed = {m for _, members in LAYERS for m in members}
    missing = sorted(m for m in listed if m not in names)
    assert not missing, f"tests/test_layers.py lists modules that do not exist: {missing}"


def test_an_upward_import_is_caught() -> None:
    """The check itself: an engine module importing the web table inside a function, or the terminal game's
    app by its full name, is reported; an import of its own layer is not."""
    source = "from .cards import KING\n\ndef f():\n    from .web import app\n    import yukon.tui.app\n"
    found = imports_in(source, "yukon")
    assert found == [(1, "yukon.cards"), (4, "yukon.web.app"), (5, "yukon.tui.app")]
    here = layer_of("yukon.game")
    assert [layer_of(t) > here for _, t in found] == [False, True, True]
