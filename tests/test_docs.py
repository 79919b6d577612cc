"""The examples in the documentation run as written (docs/contract.md, docs/solver.md)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

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
