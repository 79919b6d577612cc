"""Training run for the profile-guided build of the solver's compiled core (see setup.py).

    python tools/pgo_train.py PATH/TO/_core.so

Loads the given (instrumented) extension in place of ``yukon.solver._core`` and runs
the compiled search, one thread, on a few deals of each kind of rules, so that GCC
sees which branches the search takes. Uses the engine from ``src/`` and nothing
outside the standard library.
"""

from __future__ import annotations

import importlib.util
import sys
from importlib.machinery import ExtensionFileLoader
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

#: (variant, seed, options, nodes): hard Yukon deals carry the weight, the rest keep
#: the other variants' paths (stock, suit building, Kings on Queens, any card into an
#: empty column, foundation return) from looking cold.
TRAINING = [
    ("yukon", 91, {}, 12_000_000),
    ("yukon", 64, {}, 6_000_000),
    ("alaska", 87, {}, 500_000),
    ("australian", 3, {}, 500_000),
    ("russian", 2, {}, 300_000),
    ("yukon", 5, {"empty_column": "any"}, 300_000),
    ("yukon", 5, {"foundation_return": True}, 300_000),
    ("milligan-yukon", 663, {}, 1_000_000),  # the two-deck search (core/two_deck.c)
    ("milligan-yukon", 8, {"empty_column": "any"}, 300_000),
]


def main(so_path: str) -> None:
    loader = ExtensionFileLoader("yukon.solver._core", so_path)
    spec = importlib.util.spec_from_loader("yukon.solver._core", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)

    from yukon import Game
    from yukon.solver import search

    search._core = module
    for variant, seed, options, nodes in TRAINING:
        game = Game.deal(variant, seed=seed, **options)
        if search.compiled_two_deck(game):
            search.run_two_deck(game, search.Limits(node_limit=nodes))
        else:
            search.Searcher(game, search.Limits(node_limit=nodes)).run_compiled()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/pgo_train.py PATH/TO/_core.so")
    main(sys.argv[1])
