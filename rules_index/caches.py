"""Per-process caches bounded in bytes, on cachetools.

Every cache a process keeps across requests (term postings, word analyses, snippets, query
results, rendered pages) is a cachetools cache whose ``maxsize`` is a number of bytes and whose
``getsizeof`` weighs each entry once, when it is stored: ``payload_bytes`` of the value (its
``sys.getsizeof`` plus that of the strings, bytes, arrays, containers and attributes it holds)
plus ``ENTRY_BYTES`` for the key and the cache's own bookkeeping. The weights are estimates on
the safe side (an object shared by two entries is counted in both).

``ByteCache(max_bytes, policy)`` holds one such cache and the lock that guards it:
``"lru"`` evicts the least recently used entry (a hit reorders, under the lock); ``"lfu"`` the
least frequently used (a hit counts, under the lock; for entries some of which are asked for far
more often than others, such as a common word's postings); ``"fifo"`` the first stored (a hit is
one lookup without the lock, for tables read many times per request whose keys are the index's
own documents). ``memoize`` wraps a function with ``cachetools.cached`` over
it. A value larger than the whole cache is returned but not stored.
"""
from __future__ import annotations

import hashlib
import sys
import threading
from array import array

from cachetools import FIFOCache, LFUCache, LRUCache, cached

MiB = 1024 * 1024
# The key (a tuple of a few short strings) and the cache's dict slots and order per entry:
# about 210 bytes of bookkeeping measured with tracemalloc on cachetools 8, plus a typical key.
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
        if len(value) > SAMPLE:  # long sequences: weigh a sample, scale it (each entry is weighed once, cheaply)
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


class ByteCache:
    """A cachetools cache of at most ``max_bytes`` (by ``sizeof`` of each value) and its lock.

    ``policy`` is ``"lru"`` (a hit moves the entry to the back) or ``"fifo"`` (a hit changes
    nothing and takes no lock: for tables read many times per request). Several functions may
    share one cache through ``memoize`` if their keys cannot collide (e.g. a tag first).
    """

    def __init__(self, max_bytes: int, policy: str = "lru", sizeof=entry_bytes):
        kinds = {"lru": LRUCache, "lfu": LFUCache, "fifo": FIFOCache}
        if policy not in kinds:
            raise ValueError(f"policy: {policy!r} is not one of {', '.join(kinds)}")
        self.cache = kinds[policy](maxsize=max_bytes, getsizeof=sizeof)
        self.lock = threading.Lock()
        self._locked_reads = policy != "fifo"

    def get(self, key, default=None):
        # A membership test first: a miss raising KeyError through the cache costs several times
        # a hit, and the searcher asks for many terms that are not there.
        cache = self.cache
        if self._locked_reads:
            with self.lock:
                return cache[key] if key in cache else default
        if key not in cache:
            return default
        try:
            return cache[key]
        except KeyError:  # evicted by another thread since the test
            return default

    def put(self, key, value) -> None:
        """Store ``value`` (evicting as needed) unless it is larger than the whole cache."""
        with self.lock:
            try:
                self.cache[key] = value
            except ValueError:  # cachetools: "value too large"
                pass

    def remembered(self, key, make):
        """The value kept under ``key``, else ``make()`` kept there (None included). Unlike a
        function ``memoize`` wraps, it holds no reference to its caller: an object whose cached
        methods go through it is freed as soon as it is let go of, without the garbage
        collector."""
        found = self.get(key, _MISSING)
        if found is _MISSING:
            found = make()
            self.put(key, found)
        return found

    def memoize(self, key=None):
        """Decorator: the function's results kept here, keyed by ``key(*args)`` (by default the
        arguments' tuple); with hit and miss counts in ``cache_info()``."""
        return cached(self.cache, key=key or _arguments, lock=self.lock, info=True)

    def clear(self) -> None:
        with self.lock:
            self.cache.clear()

    def __len__(self) -> int:
        return len(self.cache)

    def __contains__(self, key) -> bool:
        return key in self.cache

    @property
    def bytes(self) -> int:
        """The weight of what is stored now (never more than ``max_bytes``)."""
        return self.cache.currsize

    @property
    def max_bytes(self) -> int:
        return self.cache.maxsize


def _arguments(*args):
    return args
