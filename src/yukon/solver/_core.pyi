"""Types of the compiled search (``_core.c``); search.py is its one caller and documents the arguments."""

def search(
    *args: object, **kwargs: object
) -> tuple[str, list[tuple[int, int, int, int]], int, int, float, str]:
    """One depth-first search: ``(status, line, nodes, peak_table, seconds, reason)``; each move of
    ``line`` is ``(src, dst, card, count)``."""

def search_two_deck(
    *args: object, **kwargs: object
) -> tuple[str, list[tuple[int, int, int, int]], int, int, float, str]:
    """The two-deck search (``core/two_deck.c``; search.run_two_deck calls it): ``(status, line, nodes,
    peak_table, seconds, reason)`` as :func:`search`."""

def release_memory() -> None:
    """Unmap the table memory kept from the last search for the next one."""

def relaxed_lost(
    columns: list[list[int]], down: list[int], heights: list[int], fits: bytes, kings_only: bool,
    foundation_return: bool,
) -> bool:
    """Rule 4 (``relaxed_lost`` in ``core/position.c``) on this position alone, as the search asks it at every
    class it enters: does the relaxation prove it lost?"""
