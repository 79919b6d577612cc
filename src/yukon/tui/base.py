"""What the parts of the terminal game's app share: the state set by :class:`~yukon.tui.app.YukonApp` and
the methods its parts call on one another.

The app is one class made of parts by job (:mod:`yukon.tui.keys`: the bindings and which keys work;
:mod:`yukon.tui.layout`: the widgets, the top and status lines; :mod:`yukon.tui.picking`: the cursor, picking and
putting down; :mod:`yukon.tui.playing`: the moves, undo and redo; :mod:`yukon.tui.gameover`: the won/lost box;
:mod:`yukon.tui.jobs`: the solver's worker threads, hints and the still-winnable indicator;
:mod:`yukon.tui.replaying`: records, replay and the analysis' keys; :mod:`yukon.tui.newgames`: new games), each
a mixin over :class:`TableApp`, which declares what they use of one another and of
:class:`~yukon.tui.app.YukonApp`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App

from ..advisor import Advisor
from ..analysis import Analysis
from ..game import Game
from ..notation import Move
from ..store import Store
from .demo import Demo
from .replay import Replay
from .session import Session
from .widgets import TableState


class TableApp(App[None]):
    """The app as its parts see it (the attributes are set, and the methods defined, by YukonApp)."""

    store: Store | None
    session: Session
    state: TableState
    #: the replay shown (None: the game in play)
    replay: Replay | None
    #: the game's clock ran when the replay began (it runs again after)
    _clock_before_replay: bool
    #: the last analysis of this game (``W``), for ``b``
    analysis: Analysis | None
    #: where ``x`` writes records (None: the current directory), and the last record it wrote
    export_dir: Path | None
    exported: Path | None
    advisor: Advisor
    hint_time: float
    winnable_time: float
    show_winnable: bool
    winnable_text: str
    #: the kind of the hint on the table (state.hint)
    _hint_shown_kind: str
    #: the solver's jobs running, by name: (token, stop event)
    _jobs: dict[str, tuple[int, threading.Event]]
    _job_counter: int
    #: new games are deals the solver proved winnable (chosen in the new-game screen)
    winnable_only: bool
    #: the new-game screen's other choices: a deal proven lost, or a winnable deal of a difficulty
    deal_kind: str
    deal_difficulty: str | None
    #: what the deal search said of the deal it found, for the new game's first status line
    _deal_note: str
    #: the deal numbers of new games, and the playing time's clock
    _new_seed: Callable[[], int]
    _time_source: Callable[[], float]
    #: the game's end was announced; the cards whose holding back by auto-play was explained
    _announced: bool
    _explained: set[int]
    #: the computer playing this table ("watch the computer play")
    demo: Demo
    #: the variant and whether d may deal, when the key bindings were last refreshed
    _bindings_for: tuple[str, bool]

    if TYPE_CHECKING:
        @property
        def game(self) -> Game: ...

        def set_status(self, text: str, kind: str = "", *, width: int | None = None,
                       shorter: tuple[str, ...] = ()) -> None: ...

        def refresh_table(self) -> None: ...

        def _update_info(self) -> None: ...

        def play(self, move: Move, prefix: str = "") -> bool: ...

        def _after_change(self) -> None: ...

        def _leaving(self) -> str: ...

        def _confirm_then(self, question: str, then: Callable[[], None]) -> None: ...

        def _analyze(self) -> None: ...

        def _free_index(self, column: int) -> int: ...

        def _new_advisor(self) -> Advisor: ...

        def _cancel(self, name: str) -> None: ...

        def _start_job(self, name: str, work: Callable[[threading.Event], Any],
                       done: Callable[[Any], None]) -> None: ...

        def _start_winnable(self) -> None: ...

        def _check_over(self) -> None: ...

        def _take_up(self, session: Session) -> None: ...

        def _clamp_cursor(self) -> None: ...

        def _can_deal(self) -> bool: ...

        def leave_replay(self) -> None: ...

        def action_deal(self) -> None: ...

        def action_undo(self) -> None: ...

        def action_restart(self) -> None: ...

        def action_stats(self) -> None: ...

        def action_new_game(self) -> None: ...

        def action_export(self) -> None: ...

        def action_analyze(self) -> None: ...


__all__ = ["TableApp"]
