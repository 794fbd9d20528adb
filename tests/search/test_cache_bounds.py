"""Every per-process search cache stays within its bound in bytes, however many new words come in."""
from __future__ import annotations

import gc
import random
import sys
from array import array

import pytest

from apptools import real_library
from rules_index.caches import ENTRY_BYTES, ByteCache, entry_bytes, payload_bytes
from rules_index.search import CacheSizes, SearchIndex

KiB = 1024


def made_up_words(count: int, seed: int = 3) -> list[str]:
    """Letter strings no content has (``q`` and ``x`` together are rare in de/en/it)."""
    rng = random.Random(seed)
    return ["qx" + "".join(rng.choice("abcdefghijklmnoprstuvw") for _ in range(rng.randint(5, 10))) for _ in range(count)]


# -- ByteCache --------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["lru", "fifo"])
def test_byte_cache_evicts_by_bytes(policy):
    cache = ByteCache(64 * KiB, policy)
    page = "x" * 1000
    for i in range(500):  # about 1.4 kB each: 700 kB offered to a 64 KiB cache
        cache.put(i, page + str(i))
    assert cache.bytes <= 64 * KiB
    assert 20 < len(cache) < 64  # bounded by weight, not by a count of 500
    assert cache.get(499) == page + "499"  # the last stored is a hit
    assert cache.get(0) is None  # the first went out long ago


def test_lru_keeps_what_is_read_and_fifo_does_not():
    for policy, kept in (("lru", True), ("fifo", False)):
        cache = ByteCache(10 * (ENTRY_BYTES + 100), policy)
        for i in range(8):
            cache.put(i, "v" * 20)
        assert cache.get(0) == "v" * 20  # read: most recently used for an LRU only
        for i in range(8, 16):
            cache.put(i, "v" * 20)
        assert (0 in cache) is kept, policy


def test_byte_cache_weighs_the_payload():
    cache = ByteCache(1024 * KiB)
    cache.put("small", "a")
    small = cache.bytes
    cache.put("large", "a" * 100_000)
    assert cache.bytes - small >= 100_000
    assert entry_bytes(array("d", [0.0] * 1000)) >= 8000 + ENTRY_BYTES
    assert payload_bytes(("a" * 500, ("b" * 500,), frozenset({"c" * 500}))) > 1500


def test_a_value_larger_than_the_cache_is_not_stored():
    cache = ByteCache(4 * KiB)
    cache.put("kept", "k")
    cache.put("huge", "h" * 10_000)
    assert "huge" not in cache and cache.get("kept") == "k"

    @cache.memoize()
    def huge(n):
        return "h" * n

    assert huge(10_000) == "h" * 10_000  # answered, not stored
    assert cache.bytes <= 4 * KiB


def test_memoize_hits_and_shared_caches_keep_keys_apart():
    cache = ByteCache(64 * KiB)
    calls = []

    @cache.memoize(key=lambda word: ("upper", word))
    def upper(word):
        calls.append(word)
        return word.upper()

    @cache.memoize(key=lambda word: ("lower", word))
    def lower(word):
        return word.lower()

    assert upper("Dieb") == "DIEB" and upper("Dieb") == "DIEB"
    assert lower("Dieb") == "dieb"
    assert calls == ["Dieb"]
    assert upper.cache_info().hits == 1


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="policy"):
        ByteCache(1024, "random")


# -- the searcher's caches ----------------------------------------------------------------------

SMALL = CacheSizes(postings_bytes=256 * KiB, segment_postings_bytes=256 * KiB, analyses_bytes=128 * KiB,
                   snippets_bytes=32 * KiB, missed_terms=64, words_bytes=128 * KiB, texts_bytes=256 * KiB, documents_bytes=32 * KiB, results_bytes=32 * KiB)


@pytest.fixture()
def small(index):
    """A second reader of the session's index, with small caches."""
    return SearchIndex(index.link, SMALL)


def test_searcher_caches_stay_within_their_bytes(small):
    gen = small.generation()
    rng = random.Random(5)
    real = ["Dieb", "Baumeister", "Söldner", "Stadt", "thief", "warlord", "district", "architetto", "corona",
            "Kloster", "Kardinal", "auction", "detective", "Meuchler", "Gold", "Karten", "König", "quartiere"]
    games = [None, *(game.slug for game in real_library())]
    for word in made_up_words(300):
        lang = rng.choice(("de", "en", "it"))
        result = small.search(f"{word} {rng.choice(real)}", lang, game=rng.choice(games), limit=20)
        for hit in result.hits[:2]:  # a page's related entries, as the results link to them
            small.related(hit.kind, hit.game, hit.entry, lang)
    for cache, bound in ((gen.postings_cache, SMALL.postings_bytes), (small.segments.held, SMALL.segment_postings_bytes),
                         (gen.analyses.cache, SMALL.analyses_bytes), (gen.analyses.snippets, SMALL.snippets_bytes),
                         (gen.words, SMALL.words_bytes),
                         (gen.texts, SMALL.texts_bytes), (gen.documents, SMALL.documents_bytes),
                         (small.results, SMALL.results_bytes)):
        assert 0 < cache.bytes <= bound
    assert len(gen.missed_terms) <= SMALL.missed_terms
    assert len(small.results) < 300  # results were evicted by weight


def test_snippet_keys_are_left_out_of_the_collectors_passes(small):
    """A snippet's key holds the matched terms as a sorted tuple of strings, which the garbage
    collector stops tracking: a full cache is then no more objects for each of its passes to walk.
    The same texts and terms, asked for in another order, are one entry."""
    gen = small.generation()
    first = small.search("Dieb bestehlen Meuchler", "de")
    assert first.hits and len(gen.analyses.snippets) > 0
    gc.collect()
    gc.collect()
    assert not any(gc.is_tracked(key) for key in gen.analyses.snippets.cache)
    entries = len(gen.analyses.snippets)
    small.results.clear()
    again = small.search("Meuchler bestehlen Dieb", "de")
    assert len(gen.analyses.snippets) == entries
    assert [h.snippet for h in again.hits] == [h.snippet for h in SearchIndex(small.link).search("Meuchler bestehlen Dieb", "de").hits]


def test_misses_do_not_grow_without_bound(small):
    gen = small.generation()
    for word in made_up_words(400, seed=9):
        small.search(word, "de")
    assert len(gen.missed_terms) == SMALL.missed_terms  # full, and no fuller
    assert gen.missed_terms.bytes <= SMALL.missed_terms * ENTRY_BYTES
    assert len(gen.postings_cache) == 0  # unknown words never take room from real postings
    # spelling words and the terms a segment keeps whole only, no postings
    assert all(key[0] in ("words", "lexicon") for key in small.segments.held.cache)
    assert small.search(made_up_words(1, seed=9)[0], "de").hits == []


def test_postings_stay_a_hit_and_answers_do_not_change(small, index):
    gen = small.generation()
    first = small.search("Dieb bestehlen", "de")
    key = next(k for k in gen.postings_cache.cache if k[1] == "dieb")
    found = gen.postings_cache.get(key)
    assert found is not None and gen.postings(*key) is found  # served from the cache
    small.results.clear()
    again = small.search("Dieb bestehlen", "de")
    assert [(h.entry, h.score) for h in again.hits] == [(h.entry, h.score) for h in first.hits]
    assert [h.entry for h in index.search("Dieb bestehlen", "de").hits] == [h.entry for h in first.hits]


def test_postings_evict_by_bytes_not_by_count(index):
    tiny = SearchIndex(index.link, CacheSizes(postings_bytes=8 * KiB))
    gen = tiny.generation()
    for word in ("Dieb", "Stadt", "Gold", "Karten", "König", "Baumeister", "thief", "district"):
        tiny.search(word, "de")
        held = sum(sys.getsizeof(p.ids) + sys.getsizeof(p.scores) for p in gen.postings_cache.cache.values())
        assert 0 < held <= gen.postings_cache.bytes <= 8 * KiB  # what the arrays hold is counted
    assert 0 < len(gen.postings_cache) < 8 * KiB // ENTRY_BYTES


def test_config_sets_the_sizes():
    sizes = CacheSizes.from_config({"SEARCH_POSTINGS_CACHE_BYTES": "1048576", "SEARCH_MISSED_TERMS": 10, "OTHER": 1})
    assert sizes.postings_bytes == 1048576 and sizes.missed_terms == 10
    assert sizes.words_bytes == CacheSizes().words_bytes


def test_analyzers_keep_no_words_of_their_own(small):
    """Stemming holds no memory per word (PyStemmer's word cache is off): the generation caches
    whole analyses, bounded in bytes, and nothing else grows with the words readers type."""
    import gc
    import tracemalloc

    gen = small.generation()
    analyzers = [analyzer for analyzer in gen.analyses.by_id.values() if analyzer is not None]
    words = made_up_words(6000, seed=13)
    for analyzer in analyzers:  # every stemmer of this thread made once
        list(analyzer(" ".join(words[:10])))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for analyzer in analyzers:
            for word in words:
                for _token in analyzer(word):
                    pass
        gc.collect()
        grown = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(before, "filename"))
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024  # a cache of the words would hold about a megabyte


@pytest.mark.parametrize("words", [0, 1, 7, 400])
def test_a_texts_spans_weigh_what_a_walk_through_them_weighs(words):
    from rules_index.caches import ByteCache
    from rules_index.search.analysis import language_analyzer
    from rules_index.search.snippets import CachedTokens

    text = " ".join(f"Wörter{i % 37} Spielende" for i in range(words))
    value = CachedTokens(language_analyzer("de"), "de", ByteCache(1 << 20)).spans(text)
    seen: set[int] = set()

    def walk(item) -> int:  # every distinct object once (the terms are the set's strings)
        if id(item) in seen:
            return 0
        seen.add(id(item))
        inner = item if isinstance(item, (tuple, frozenset)) else ()
        return sys.getsizeof(item) + sum(walk(x) for x in inner)

    assert payload_bytes(value) == walk(value)


@pytest.mark.parametrize(("query", "lang"), [("dieb mörder gold", "de"), ("zzzqqq", "en"), ("warlord destroy", "en")])
def test_a_search_result_weighs_what_a_walk_through_it_weighs(index, query, lang):
    result = index.search(query, lang)

    def walk(item) -> int:
        size = sys.getsizeof(item)
        if isinstance(item, (list, tuple)):
            return size + sum(map(walk, item))
        if isinstance(item, dict):
            return size + sum(walk(k) + walk(v) for k, v in item.items())
        return size + walk(vars(item)) if hasattr(item, "__dict__") else size

    assert payload_bytes(result) == walk(result)
