"""Readers first: work a process does beside its requests (following a published change,
publishing an accepted one) waits at its step boundaries while the process has requests in
flight, so that it runs in the gaps between them instead of sharing the interpreter with them.

A served worker answers a search in a few milliseconds of CPU, but one that overlapped a
content or index switch waited 20-60 ms for the interpreter lock. ``step_aside()`` between
steps bounds that overlap to the step under way when a request arrives.

``InFlight`` counts the requests of this process (``CountRequests`` wraps the WSGI app); a
thread in ``step_aside`` waits until no other thread has a request in flight, or ``longest``
seconds at most, so that background work still finishes under a steady stream of requests.
A request thread may call it too (an accept publishing its change): its own request does not
count, nor does that of a thread itself waiting in ``step_aside``. Outside a server (commands,
tests without requests) nothing is in flight and it returns at once.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from contextlib import contextmanager
from functools import partial

# How long one step waits for requests in flight at most: following a switch takes about 15
# steps, so under a load that never pauses it is late by a third of a second at most.
LONGEST_S = 0.02


class InFlight:
    """The requests in flight in a process, by thread, and the threads stepping aside for them."""

    def __init__(self):
        self._cond = threading.Condition()
        self._busy: Counter[int] = Counter()  # thread -> requests in flight (a thread has one at a time)
        self._waiting: set[int] = set()

    def begin(self) -> int:
        """A request starts on this thread; returns the token ``end`` takes."""
        me = threading.get_ident()
        with self._cond:
            self._busy[me] += 1
        return me

    def end(self, token: int) -> None:
        with self._cond:
            self._busy[token] -= 1
            if self._busy[token] <= 0:
                del self._busy[token]
            self._cond.notify_all()

    def others(self) -> int:
        """Requests in flight on other threads than this one, not waiting in ``step_aside``."""
        me = threading.get_ident()
        with self._cond:
            return self._others(me)

    def _others(self, me: int) -> int:
        return sum(n for thread, n in self._busy.items() if thread != me and thread not in self._waiting)

    def step_aside(self, longest: float | None = None) -> float:
        """Wait until no other thread has a request in flight, ``longest`` seconds at most
        (default ``LONGEST_S``); returns the seconds waited."""
        longest = LONGEST_S if longest is None else longest
        me = threading.get_ident()
        started = time.monotonic()
        deadline = started + longest
        with self._cond:
            if not self._others(me):
                return 0.0
            self._waiting.add(me)
            self._cond.notify_all()  # a thread waiting for this one's request can go on
            try:
                while self._others(me):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
            finally:
                self._waiting.discard(me)
        return time.monotonic() - started

    @contextmanager
    def standing_by(self):
        """While this thread waits for background work (a request waiting for a switch it needs),
        its request does not count: the work's steps do not wait for the request waiting for
        them."""
        me = threading.get_ident()
        with self._cond:
            added = me not in self._waiting
            self._waiting.add(me)
            self._cond.notify_all()
        try:
            yield
        finally:
            if added:
                with self._cond:
                    self._waiting.discard(me)


IN_FLIGHT = InFlight()


def step_aside() -> float:
    """``IN_FLIGHT.step_aside()``: called by background work between its steps."""
    return IN_FLIGHT.step_aside()


def standing_by():
    """``IN_FLIGHT.standing_by()``: around a request thread's wait for background work."""
    return IN_FLIGHT.standing_by()


class CountRequests:
    """WSGI middleware: a request is in flight from the app's call until its response has been
    sent (the body's last part taken, or the body closed, as a server does; or, where a test's
    client does neither, the body let go of). A file the server sends itself
    (``wsgi.file_wrapper``) ends it once the app has returned."""

    def __init__(self, app, in_flight: InFlight = IN_FLIGHT):
        self.app = app
        self.in_flight = in_flight

    def __call__(self, environ, start_response):
        token = self.in_flight.begin()
        try:
            body = self.app(environ, start_response)
        except BaseException:
            self.in_flight.end(token)
            raise
        file_wrapper = environ.get("wsgi.file_wrapper")
        if isinstance(file_wrapper, type) and isinstance(body, file_wrapper):
            self.in_flight.end(token)
            return body
        return _Sending(body, partial(self.in_flight.end, token))


class _Sending:
    """A response body being sent; ``ended`` is called once, when it is over."""

    def __init__(self, body, ended):
        self.body = body
        self._ended = ended

    def _end(self) -> None:
        ended, self._ended = self._ended, None
        if ended is not None:
            ended()

    def __iter__(self):
        try:
            yield from self.body
        finally:
            self._end()

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self._end()

    def __del__(self):
        self._end()
