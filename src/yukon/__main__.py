"""``python -m yukon``: the same command line as ``yukon``."""

import sys

from .startup import command_runs

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line loads: quietly, as once it runs (128 + SIGINT)
    sys.exit(130)  # (under the package's startup handler it exits so by itself; this is for any other way)

if __name__ == "__main__":
    try:
        command_runs()
        code = main()
    except KeyboardInterrupt:  # (between the two)
        code = 130
    raise SystemExit(code)
