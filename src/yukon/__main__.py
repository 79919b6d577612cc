"""``python -m yukon``: the same command line as ``yukon``."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line loads: quietly, as once it runs (128 + SIGINT)
    sys.exit(130)

if __name__ == "__main__":
    raise SystemExit(main())
