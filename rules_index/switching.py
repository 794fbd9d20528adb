"""Following a new version of something in a background thread while readers answer from the
one they have (the search index's next generation, the content of it).

``BackgroundSwitch(prepare, name)``: ``follow(version, wait)`` starts ``prepare(version)`` in a
thread unless it already runs for that version, then waits up to ``wait`` seconds for it
(``None``: until it is done; ``0``: not at all). ``prepare`` installs what it made itself and
handles its own failures (keeping what serves is its choice); anything it lets through is
logged, and the next ``follow`` of the same version starts it again.

A process runs one preparation at a time, whatever it follows: a published change brings a new
content and a new index generation together, and their two threads running side by side both
competed with the readers for the interpreter (a served worker's p99 while switching fell by a
tenth to a sixth when they took turns).
"""
from __future__ import annotations

import logging
import threading
from typing import Callable, Hashable

_ONE_AT_A_TIME = threading.Lock()


class BackgroundSwitch:
    def __init__(self, prepare: Callable[[Hashable], None], name: str):
        self.prepare = prepare
        self.name = name
        self._lock = threading.Lock()
        self._running: tuple[Hashable, threading.Event] | None = None

    def follow(self, version: Hashable, wait: float | None) -> bool:
        """Prepare ``version`` in the background (once at a time); whether it is done after ``wait``."""
        with self._lock:
            if self._running is not None and self._running[0] == version:
                ready = self._running[1]
            else:
                ready = threading.Event()
                self._running = (version, ready)
                threading.Thread(target=self._run, args=(version, ready), daemon=True, name=self.name).start()
        if wait == 0:
            return ready.is_set()
        return ready.wait(wait)

    def running(self) -> Hashable | None:
        """The version being prepared now, if any."""
        running = self._running
        return None if running is None else running[0]

    def _run(self, version: Hashable, ready: threading.Event) -> None:
        try:
            with _ONE_AT_A_TIME:
                self.prepare(version)
        except Exception:
            logging.getLogger(__name__).exception("%s: preparing %s failed", self.name, version)
        finally:
            with self._lock:
                if self._running is not None and self._running[0] == version:
                    self._running = None
            ready.set()
