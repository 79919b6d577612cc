"""The ``yukon`` command: ``deal``, ``moves`` and the subcommands of the other layers.

Each layer (solver, web, terminal, study) contributes its subcommand through
an ``add_parser(subparsers)`` function in its own ``cli`` module, so this file
stays a thin dispatcher.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from . import __version__
from .cli_common import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    CommandError,
    OneLineParser,
    add_deal_options,
    game_from_args,
    read_position_arg,
    stdout_to_devnull,
)
from .errors import YukonError, shown
from .startup import command_runs

#: (module, its purpose) of the layers that add subcommands; a missing optional layer is skipped.
SUBCOMMAND_MODULES = (
    "yukon.solver.cli",
    "yukon.web.cli",
    "yukon.tui.cli",
    "yukon.study.cli",
)


def _cmd_deal(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    if args.seed is None and (args.json or args.text):
        # the position formats have no place for a deal number (a position is any position, not only a deal):
        # say it beside them, so that a random deal can be dealt again, and stdout stays the position alone
        again = f"--seed {game.seed}" + (f" --numbering {game.numbering}" if game.numbering != "yukon" else "")
        print(f"yukon: a random deal, number {game.seed} ({again} deals it again)", file=sys.stderr)
    if args.json:
        print(game.to_json())
    elif args.text:
        print(game.to_text())
    else:
        from rich.console import Console

        from .render import layout_rich

        Console().print(layout_rich(game))
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    game = read_position_arg(args.position)
    moves = game.legal_moves()
    if args.json:
        print(json.dumps([str(m) for m in moves]))
        return 0
    for m in moves:
        print(m)
    if not moves:
        print("won" if game.is_won() else "no legal move: the game is lost", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="yukon", description="Yukon Solitaire and its family: play, solve, study."
    )
    parser.add_argument("--version", action="version", version=f"yukon {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("deal", help="print a deal")
    add_deal_options(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the JSON position")
    fmt.add_argument("--text", action="store_true", help="the one-line position")
    p.set_defaults(func=_cmd_deal)

    p = sub.add_parser("moves", help="list the legal moves of a position")
    p.add_argument("position", help="a JSON file, - for standard input, or the one-line form")
    p.add_argument("--json", action="store_true", help="a JSON list of moves")
    p.set_defaults(func=_cmd_moves)

    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            if exc.name and (exc.name == name or name.startswith(exc.name + ".")):
                continue  # this layer is not installed
            raise
        module.add_parser(sub)
    return parser


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command that ``args`` ran, e.g. ``yukon study report``'s (argparse has no public
    way to reach a subparser: its ``_actions`` and ``_SubParsersAction``)."""
    for dest in ("command", "action"):  # (the action: study's run, report, export, import)
        choices = next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, dest, None)
        if not isinstance(choices, dict) or name not in choices:
            break
        parser = choices[name]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``yukon`` command: its exit status. Ctrl-C ends it quietly with :data:`EXIT_INTERRUPTED` at any
    time, also while the subcommands' modules load (``yukon tui`` then Ctrl-C at once printed a traceback)."""
    # (the console script calls main straight after its import, under yukon.startup's exit-at-once handler: from
    # here on Ctrl-C is ours to answer)
    command_runs()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, whose --help lists the options it takes ('yukon --help' does not)
        _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # (a reader gone is found here, not in the interpreter's last flush at exit)
        return code
    except BrokenPipeError:
        # the reader of stdout stopped early ('yukon study export | head'): as a tool killed by SIGPIPE, end
        # quietly with 141, not 'yukon: error: Broken pipe'; stdout goes to devnull so that the exit's flush
        # of what is left in its buffer says nothing either
        stdout_to_devnull()
        return EXIT_BROKEN_PIPE
    except (CommandError, YukonError) as exc:
        print(f"yukon: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file or folder named on the command line that cannot be used
        where = f" {shown(exc.filename)}" if exc.filename else ""
        print(f"yukon: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
