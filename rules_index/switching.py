"""Following a new version of something in a background thread while readers answer from the
one they have (the process's next snapshot, ``rules_index.web.state``).

``BackgroundSwitch(prepare, name)``: ``follow(version, wait)`` starts ``prepare(version)`` in a
thread unless it already runs for that version, then waits up to ``wait`` seconds for it
(``None``: until it is done; ``0``: not at all). ``prepare`` installs what it made itself and
handles its own failures (keeping what serves is its choice); anything it lets through is
logged, and the next ``follow`` of the same version starts it again. One preparation runs at a
time (a later version waits for the one under way): each competes with the readers.
"""
from __future__ import annotations

import logging
import threading
from typing import Callable, Hashable


class BackgroundSwitch:
    def __init__(self, prepare: Callable[[Hashable], None], name: str):
        self.prepare = prepare
        self.name = name
        self._lock = threading.Lock()
        self._preparing = threading.Lock()  # one preparation at a time: each competes with readers
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
            with self._preparing:
                self.prepare(version)
        except Exception:
            logging.getLogger(__name__).exception("%s: preparing %s failed", self.name, version)
        finally:
            with self._lock:
                if self._running is not None and self._running[0] == version:
                    self._running = None
            ready.set()
