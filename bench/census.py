"""Where lost proofs spend their nodes: the census of the compiled search (docs/solver-design.md, "Where lost
proofs spend their nodes"), deal by deal under a node limit (deterministic).

    python bench/census.py --seeds 20,121 --node-limit 200000000
    python bench/census.py --seeds 78,91 --node-limit 150000000 --levels

Builds the core once more with ``-DYUKON_CENSUS`` into a temporary directory (the normal build has none of the
census: it costs time and memory) and runs the compiled depth-first search alone with it, one thread (both
searches taking turns, as in a study's worker), without sleep sets unless ``--sleep`` (a move a sleep set
skips leads where a finished class leads, a class the census cannot name: without them every move is looked
up, and the classes stored are the same, docs/solver-design.md "Sleep sets"). Per deal: the verdict, the
nodes, the classes finished, how many of them a perfect test would have proved lost at entry and the share of
the nodes it would have saved, for kinds of dead end ("stalled": no card is ever turned or played up again;
"column": some column is never turned again; "suit": some suit's foundation never rises; "locked": either of
the last two), the classes per signature (which face-up cards still lie where they were dealt, the
foundations, the face-down counts), and the share of the nodes by kind of child. ``--levels`` adds the new
classes by face-down cards left, and the finished classes by how many face-down cards their subtree turns at
most.
Exit status 0.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from yukon.cli_common import run_script

ROOT = Path(__file__).resolve().parent.parent
#: the kinds of dead end the census counts (src/yukon/solver/core/census.c)
DEAD_KINDS = ("stalled", "column", "suit", "locked")


def build_census_core(into: Path) -> Path:
    """The core built with the census, in ``into``; the path of the extension."""
    env = dict(os.environ, CFLAGS="-DYUKON_CENSUS", YUKON_PGO="0")
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(into / "lib"), "--build-temp",
         str(into / "tmp")],
        cwd=ROOT, env=env, check=True, capture_output=True,
    )
    found = sorted((into / "lib").rglob("_core*.so")) + sorted((into / "lib").rglob("_core*.pyd"))
    if not found:
        raise SystemExit("census: the build made no extension")
    return found[0]


def load_as_core(path: Path) -> None:
    """Makes ``path`` the module ``yukon.solver._core`` before yukon is imported (so the search uses it)."""
    spec = importlib.util.spec_from_file_location("yukon.solver._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"census: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["yukon.solver._core"] = module


def read_census(path: Path) -> tuple[dict[str, int], dict[str, list[int]], dict[str, dict[int, int]]]:
    """The counts; the nodes by kind of child (new, known and skipped, known and entered); the histograms
    ("down": new classes by face-down cards, "found": by cards up, "ahead": finished classes by how many
    face-down cards their subtree turns at most)."""
    values: dict[str, int] = {}
    kinds: dict[str, list[int]] = {}
    histograms: dict[str, dict[int, int]] = {"down": {}, "found": {}, "ahead": {}}
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts[0] == "kind":
            kinds[parts[1]] = [int(p) for p in parts[2:]]
        elif parts[0] in histograms:
            histograms[parts[0]][int(parts[1])] = int(parts[2])
        else:
            values[parts[0]] = int(parts[1])
    return values, kinds, histograms


def cpu_seconds() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--seeds", required=True, help="e.g. 20,121 or 1-10")
    parser.add_argument("--node-limit", type=int, default=200_000_000)
    parser.add_argument("--alone", action="store_true", help="the first search alone (no second one taking turns)")
    parser.add_argument("--no-relax", action="store_true",
                        help="without rule 4 at every class (the search of solver 14: what rule 4 was chosen by)")
    parser.add_argument("--sleep", action="store_true",
                        help="keep sleep sets (their skipped moves then count as able to do anything: lower bounds)")
    parser.add_argument("--levels", action="store_true", help="also the new classes by face-down cards left")
    parser.add_argument("--json", type=Path, help="also write every count, deal by deal, to this file")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="yukon-census-") as tmp:
        load_as_core(build_census_core(Path(tmp)))
        from yukon import Game, deal
        from yukon.solver.search import Limits, Searcher

        seeds = deal.parse_seeds(args.seeds)
        Searcher.compiled_threads = 1
        Searcher.compiled_interleave = not args.alone
        Searcher.compiled_sleep = args.sleep
        Searcher.compiled_relax = not args.no_relax
        out_file = Path(tmp) / "census.txt"
        os.environ["YUKON_CENSUS"] = str(out_file)
        print(f"{'seed':>4} {'verdict':>7} {'nodes':>13} {'classes':>11} "
              + " ".join(f"{k:>9} {'saves':>6}" for k in DEAD_KINDS)
              + f" {'per sig':>7} {'swaps':>6} {'table':>6} {'forced':>6} {'again':>6} {'cpu s':>6}")
        for seed in seeds:
            game = Game.deal(args.variant, seed=seed)
            cpu = cpu_seconds()
            outcome = Searcher(game, Limits(node_limit=args.node_limit)).run()
            cpu = cpu_seconds() - cpu
            values, kinds, histograms = read_census(out_file)
            rows.append({"seed": seed, "status": outcome.status, "search_nodes": outcome.stats.nodes, **values,
                         "kinds": kinds, **histograms})
            levels, ahead = histograms["down"], histograms["ahead"]
            nodes = max(values["nodes"], 1)
            new = kinds["table"][0]

            def share(count: int) -> str:
                return f"{100 * count / nodes:5.1f}%"  # noqa: B023 (used at once)

            print(f"{seed:>4} {outcome.status:>7} {values['nodes']:>13,} {values['finished']:>11,} "
                  + " ".join(f"{values[k]:>9,} {share(values['saved_' + k])}" for k in DEAD_KINDS)
                  + f" {new / max(values['signatures'], 1):7.1f} "
                  f"{share(sum(kinds['swap']))} {share(sum(kinds['table']))} {share(sum(kinds['forced']))} "
                  f"{share(kinds['table'][2])} {cpu:6.1f}", flush=True)
            if values.get("map_full"):
                print("      (the census's map filled up: the dead-end counts are lower bounds)")
            if args.levels:
                total = max(sum(levels.values()), 1)
                print("      new classes by face-down cards left: " + ", ".join(
                    f"{d}: {100 * c / total:.1f}%" for d, c in sorted(levels.items()) if c * 200 >= total))
                total = max(sum(ahead.values()), 1)
                print("      finished classes by face-down cards their subtree turns at most: " + ", ".join(
                    f"{d}: {100 * c / total:.1f}%" for d, c in sorted(ahead.items()) if c * 200 >= total))
        print("classes: finished (searched to the end); stalled, column, suit, locked: of those, proved lost at "
              "entry by a perfect test of that kind, and the share of all nodes it would save; per sig: new "
              "classes per signature; swaps / table / forced: nodes by kind of child; again: known classes "
              "entered again (unfinished, by the other search)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    run_script(main)
