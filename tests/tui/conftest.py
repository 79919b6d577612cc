"""The terminal game's tests: their shared positions in tui_helpers.py beside this file (the store and
clock fixtures are the suite's, in tests/conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

# The tests import their shared positions from tui_helpers.py, next to this file, whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).parent))
