"""``python -m yukon``: the same command line as ``yukon``."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
