"""The threads that do the requests' work on games (the engine, its state, SQLite)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class RequestThreads:
    """The threads that do the requests' work on games: an executor made when first needed, and
    :meth:`close` waits for the work under way (every change is saved before the store closes)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    async def run(self, work: Callable[[], T]) -> T:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="yukon-request")
            pool = self._pool
        return await asyncio.get_running_loop().run_in_executor(pool, work)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)


