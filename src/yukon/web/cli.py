"""``yukon play``: start the web server on the loopback interface and open the browser."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import secrets
import signal
import socket
import sqlite3
import sys
import threading
from pathlib import Path
from types import FrameType
from urllib.parse import urlencode

from ..cli_common import CommandError, add_numbering_option, add_rules_options, check_saved_seed, game_from_args


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "play", help="play in the browser (starts a local web server)",
        description="Serve the card table on http://HOST:PORT/ and open it in the browser.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only; any other address asks "
                        "every visitor for the token printed at start)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another host name the server answers to (e.g. this machine's name on the network); "
                        "may be given more than once")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--db", type=Path, default=None, metavar="FILE",
                   help="the SQLite file for saved games and statistics (default: in the user data directory)")
    p.add_argument("--record", type=Path, default=None, metavar="FILE",
                   help="open this game record (docs/records.md) as the game to play: its moves are played, "
                        "each can be undone, and the replay steps through them")
    # a deal to open at start (otherwise the table resumes the last game or deals at random)
    add_rules_options(p, variant_default=None)
    p.add_argument("--seed", "-s", default=None, help="open this deal number at start (in --numbering's numbers)")
    add_numbering_option(p)
    p.set_defaults(func=run)


def _asks_for_a_deal(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) is not None
               for name in ("variant", "empty_column", "foundation_return", "seed", "numbering"))


def can_open_browser() -> bool:
    """A graphical browser is likely: macOS, Windows, a Linux desktop, or $BROWSER set.

    (Without a display, :mod:`webbrowser` would start a text browser in this terminal.)
    """
    env = os.environ
    return sys.platform in ("darwin", "win32") or any(env.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"))


def _open_browser(url: str) -> None:
    try:
        import webbrowser

        webbrowser.open(url, new=2)
    except Exception:
        pass


def free_port(host: str, port: int) -> int:
    """Check that ``host:port`` can be bound (``port`` 0: find a free one); return the port.

    uvicorn binds the port itself afterwards (a socket handed to it lacks TCP_NODELAY
    on its connections, which costs 40 ms per request).
    """
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        return int(sock.getsockname()[1])


def is_loopback(host: str) -> bool:
    """Does ``host`` (an address or name to listen on) reach this machine only?"""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def machine_address() -> str:
    """This machine's address on its network (what another machine would connect to)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            return str(probe.getsockname()[0])
    except OSError:
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return "127.0.0.1"


def served_names(host: str, extra: list[str]) -> set[str]:
    """The ``Host`` names to answer: loopback, the address listened on (for a wildcard: this machine's
    names and addresses), and ``extra``."""
    from .guard import LOOPBACK_NAMES

    names = set(LOOPBACK_NAMES) | set(extra)
    if is_wildcard(host):
        names |= {socket.gethostname(), socket.getfqdn(), machine_address()}
        with contextlib.suppress(OSError):
            names |= {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    else:
        names.add(host)
    return names


class _Terminated(Exception):
    """SIGTERM: stop like Ctrl+C does."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..errors import YukonError
    from ..record import GameRecord
    from ..store import Store, StoreError
    from .app import create_app

    record = None
    dealt = None
    if args.record is not None and _asks_for_a_deal(args):
        raise CommandError("give either --record or a deal (--variant/--seed/--numbering), not both")
    if _asks_for_a_deal(args):  # a bad deal is refused before anything starts
        if args.numbering not in (None, "yukon") and args.seed is None:
            raise CommandError("--numbering needs the deal number: give --seed N")
        dealt = game_from_args(args)
        check_saved_seed(dealt.seed)
    if args.record is not None:  # a bad record is refused before anything starts
        try:
            record = GameRecord.read(args.record)
        except YukonError as exc:
            raise CommandError(f"--record {args.record}: {exc}") from None
    try:
        port = free_port(args.host, args.port)
    except OverflowError:
        raise CommandError(f"--port must be from 0 to 65535, not {args.port}") from None
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    try:
        store = Store(args.db) if args.db is not None else Store()
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot open the store {args.db}: {exc.strerror or exc}") from None
    local = is_loopback(args.host)
    token = None if local else secrets.token_urlsafe(24)
    app = create_app(store, hosts=served_names(args.host, args.allow_host), port=port, token=token,
                     close_store=True, warm_solver=True)
    shown = machine_address() if is_wildcard(args.host) else args.host
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"http://{shown}:{port}/"
    query = {} if token is None else {"token": token}
    if record is not None:
        try:
            query["game"] = app.state.registry.import_record(record).id
        except sqlite3.Error as exc:
            store.close()
            raise CommandError(f"cannot save the game of --record {args.record}: {exc}") from None
    if dealt is not None:
        try:
            query["game"] = app.state.registry.new_game(
                dealt.rules.variant, dealt.rules.options(), dealt.seed, numbering=dealt.numbering).id
        except sqlite3.Error as exc:
            store.close()
            raise CommandError(f"cannot save the new game: {exc}") from None
    if query:
        url += "?" + urlencode(query)
    if token is not None:
        print(f"Warning: listening on {args.host}, beyond this machine: anyone who can reach port {port} may "
              "try to connect. Every visitor needs the token in the address below.", file=sys.stderr, flush=True)
    print(f"Yukon is being served at {url}  (Ctrl+C stops it)", flush=True)
    print(f"Saved games and statistics: {store.path}", flush=True)
    for game_id, reason in store.damaged_games():
        print(f"Damaged saved game {game_id} is skipped: {reason}", file=sys.stderr, flush=True)
    if not args.no_browser:
        if can_open_browser():
            threading.Timer(0.5, _open_browser, (url,)).start()
        else:
            print("No graphical browser found here: open the address above in one.", flush=True)
    # no proxy stands in front of this server: nothing is to be taken from X-Forwarded-* headers (and
    # looking for them costs every request)
    config = uvicorn.Config(app, host=args.host, port=port, log_level="warning", access_log=False,
                            proxy_headers=False)
    server = uvicorn.Server(config)
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        server.run()
    except (KeyboardInterrupt, _Terminated):  # pragma: no cover - interactive
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        store.close()
    print("Stopped.", file=sys.stderr)
    return 0
