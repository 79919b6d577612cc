"""``yukon play``: start the web server on the loopback interface and open the browser."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

from ..cli_common import CommandError


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "play", help="play in the browser (starts a local web server)",
        description="Serve the card table on http://HOST:PORT/ and open it in the browser.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--db", type=Path, default=None, metavar="FILE",
                   help="the SQLite file for saved games and statistics (default: in the user data directory)")
    p.set_defaults(func=run)


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


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..store import Store, StoreError
    from .app import create_app

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
    app = create_app(store)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    if args.host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    url = f"http://{shown}:{port}/"
    print(f"Yukon is being served at {url}  (Ctrl+C stops it)", flush=True)
    print(f"Saved games and statistics: {store.path}", flush=True)
    if not args.no_browser:
        if can_open_browser():
            threading.Timer(0.5, _open_browser, (url,)).start()
        else:
            print("No graphical browser found here: open the address above in one.", flush=True)
    config = uvicorn.Config(app, host=args.host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    try:
        server.run()
    except KeyboardInterrupt:  # pragma: no cover - interactive
        pass
    finally:
        store.close()
    print("Stopped.", file=sys.stderr)
    return 0
