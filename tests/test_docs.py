"""The examples in the documentation run as written (docs/contract.md, docs/solver.md)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", ["contract.md", "solver.md"])
def test_examples_in_docs_run(name: str) -> None:
    path = DOCS / name
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 5, f"{name} lost its examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} fail (run: python -m doctest docs/{name})"
