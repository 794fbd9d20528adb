"""Per-process caches on cachetools, each with the lock that guards it.

``ByteCache`` is bounded in bytes, for values whose sizes differ a lot (pages, rendered texts,
pictures): each entry is weighed once, when stored, on the safe side (an object shared by two
entries counts in both). A value larger than the whole cache is returned but not stored.
"""
from __future__ import annotations

import hashlib
import sys
import threading
from array import array

from cachetools import LRUCache, cached
from cachetools.keys import hashkey

MiB = 1024 * 1024
# A typical key (a tuple of a few short strings) plus the cache's own bookkeeping per entry.
ENTRY_BYTES = 320

SAMPLE = 32  # items of a long sequence that are weighed
_LEAVES = (str, bytes, bytearray, array, int, float, complex, bool, type(None))


def payload_bytes(value) -> int:
    """An estimate of the memory ``value`` holds: its size and that of everything inside it (or
    what its ``cache_bytes()`` says, for values that would be slow to walk)."""
    size = sys.getsizeof(value)
    if isinstance(value, _LEAVES):
        return size
    weigh = getattr(value, "cache_bytes", None)
    if weigh is not None:
        return weigh()
    if isinstance(value, (set, frozenset)):  # of strings or numbers (hashable, seldom nested)
        return size + sum(map(sys.getsizeof, value))
    if isinstance(value, (tuple, list)):
        if len(value) > SAMPLE:  # long sequences: weigh a sample and scale it, to stay cheap
            sample = value[:: max(1, len(value) // SAMPLE)][:SAMPLE]
            return size + sum(map(payload_bytes, sample)) * len(value) // len(sample)
        return size + sum(map(payload_bytes, value))
    if isinstance(value, dict):
        return size + sum(payload_bytes(k) + payload_bytes(v) for k, v in value.items())
    if hasattr(value, "__dict__"):
        size += payload_bytes(vars(value))
    for name in getattr(type(value), "__slots__", ()):
        size += payload_bytes(getattr(value, name, None))
    return size


def entry_bytes(value) -> int:
    """What one cache entry holding ``value`` weighs."""
    return payload_bytes(value) + ENTRY_BYTES


def text_key(text: str) -> bytes:
    """A small key for a text of any length (a cache's weights count values, not keys)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


_MISSING = object()


class Cache:
    """A cachetools cache and its lock. Several functions may share one through ``memoize`` if
    their keys cannot collide (e.g. a tag first)."""

    def __init__(self, cache):
        self.cache = cache
        self.lock = threading.Lock()

    def get(self, key, default=None):
        # A membership test first: a miss raising KeyError through the cache costs several times
        # a hit, and the searcher asks for many terms that are not there.
        with self.lock:
            return self.cache[key] if key in self.cache else default

    def put(self, key, value) -> None:
        """Store ``value`` (evicting as needed) unless it is larger than the whole cache."""
        with self.lock:
            try:
                self.cache[key] = value
            except ValueError:  # cachetools: "value too large"
                pass

    def remembered(self, key, make):
        """The value kept under ``key``, else ``make()`` kept there (None included). Unlike
        ``memoize`` it holds no reference to its caller, so objects using it are freed promptly."""
        found = self.get(key, _MISSING)
        if found is _MISSING:
            found = make()
            self.put(key, found)
        return found

    def memoize(self, key=None):
        """Decorator: the function's results kept here, keyed by ``key(*args)`` (by default the
        arguments' tuple); with hit and miss counts in ``cache_info()``."""
        return cached(self.cache, key=key or hashkey, lock=self.lock, info=True)

    def clear(self) -> None:
        with self.lock:
            self.cache.clear()

    def __len__(self) -> int:
        return len(self.cache)

    def __contains__(self, key) -> bool:
        return key in self.cache


class ByteCache(Cache):
    """A least-recently-used cache of at most ``max_bytes`` (by ``sizeof`` of each value)."""

    def __init__(self, max_bytes: int, sizeof=entry_bytes):
        super().__init__(LRUCache(maxsize=max_bytes, getsizeof=sizeof))

    @property
    def bytes(self) -> int:
        """The weight of what is stored now (never more than ``max_bytes``)."""
        return self.cache.currsize

    @property
    def max_bytes(self) -> int:
        return self.cache.maxsize
