"""Every per-process search cache stays within its bound, however many new words come in."""
from __future__ import annotations

import gc
import random
import sys
from array import array

import pytest

from apptools import real_library
from rules_index.caches import ENTRY_BYTES, ByteCache, entry_bytes, payload_bytes
from rules_index.search import SearchIndex
from rules_index.search import searcher as searcher_module

KiB = 1024


def made_up_words(count: int, seed: int = 3) -> list[str]:
    """Letter strings no content has (``q`` and ``x`` together are rare in de/en/it)."""
    rng = random.Random(seed)
    return ["qx" + "".join(rng.choice("abcdefghijklmnoprstuvw") for _ in range(rng.randint(5, 10))) for _ in range(count)]


# -- ByteCache --------------------------------------------------------------------------------

def test_byte_cache_evicts_by_bytes():
    cache = ByteCache(64 * KiB)
    page = "x" * 1000
    for i in range(500):  # about 1.4 kB each: 700 kB offered to a 64 KiB cache
        cache.put(i, page + str(i))
    assert cache.bytes <= 64 * KiB
    assert 20 < len(cache) < 64  # bounded by weight, not by a count of 500
    assert cache.get(499) == page + "499"  # the last stored is a hit
    assert cache.get(0) is None  # the first went out long ago


def test_byte_cache_keeps_what_is_read():
    cache = ByteCache(10 * (ENTRY_BYTES + 100))
    for i in range(8):
        cache.put(i, "v" * 20)
    assert cache.get(0) == "v" * 20  # read: the most recently used
    for i in range(8, 16):
        cache.put(i, "v" * 20)
    assert 0 in cache and 1 not in cache


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


# -- the searcher's caches ----------------------------------------------------------------------

SMALL = {"missed": 64, "analyses": 256, "lines": 16, "words": 64, "spans": 32, "snippets": 32, "documents": 64, "texts": 32, "results": 32}
SMALL_POSTINGS = 256 * KiB


@pytest.fixture()
def small(index, monkeypatch):
    """A second reader of the session's index, with small caches."""
    monkeypatch.setattr(searcher_module, "MAX_ENTRIES", SMALL)
    return SearchIndex(index.link, SMALL_POSTINGS)


def test_searcher_caches_stay_within_their_bounds(small):
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
    assert 0 < gen.postings_cache.cache.currsize <= SMALL_POSTINGS
    for cache, bound in ((gen.missed_terms, SMALL["missed"]), (gen.analyses.cache, SMALL["analyses"]),
                         (gen.analyses.lines, SMALL["lines"]),
                         (gen.words, SMALL["words"]), (gen.analyses.spans, SMALL["spans"]),
                         (gen.analyses.snippets, SMALL["snippets"]), (gen.documents, SMALL["documents"]),
                         (gen.texts, SMALL["texts"]), (small.results, SMALL["results"])):
        assert len(cache) == bound  # full, and no fuller


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
    assert len(gen.missed_terms) == SMALL["missed"]  # full, and no fuller
    assert len(gen.postings_cache) == 0  # unknown words never take room from real postings
    assert small.search(made_up_words(1, seed=9)[0], "de").hits == []


def test_postings_stay_a_hit_and_answers_do_not_change(small, index):
    gen = small.generation()
    first = small.search("Dieb bestehlen", "de")
    key = next(k for k in gen.postings_cache.cache if len(k) == 3 and k[1] == "dieb")  # a boosted one
    found = gen.postings_cache.get(key)
    assert found is not None and gen.postings(*key) is found  # served from the cache
    small.results.clear()
    again = small.search("Dieb bestehlen", "de")
    assert [(h.entry, h.score) for h in again.hits] == [(h.entry, h.score) for h in first.hits]
    assert [h.entry for h in index.search("Dieb bestehlen", "de").hits] == [h.entry for h in first.hits]


def test_postings_evict_by_bytes_not_by_count(index):
    gen = SearchIndex(index.link, 8 * KiB).generation()
    for word in ("Dieb", "Stadt", "Gold", "Karten", "König", "Baumeister", "thief", "district"):
        gen.postings_cache.clear()
        for term in index.terms(gen, word, "de"):
            gen.postings(*term)
        held = sum(sys.getsizeof(p.ids) + sys.getsizeof(p.scores) for p in gen.postings_cache.cache.values())
        assert 0 < held <= gen.postings_cache.cache.currsize <= 8 * KiB  # what the arrays hold is counted
    assert 0 < len(gen.postings_cache) < 8 * KiB // ENTRY_BYTES


def test_config_sets_the_postings_bound(tmp_path):
    from apptools import ROOT, make_app
    from rules_index.web.state import KEY

    app = make_app(tmp_path / "instance", ROOT / "content", SEARCH_POSTINGS_CACHE_BYTES="1048576")
    assert app.extensions[KEY].index.postings_bytes == 1048576


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


def test_a_search_reads_each_terms_postings_once_whatever_its_cache_lets_go(index, monkeypatch):
    """With a postings cache too small to keep anything (at 30,000 entries a common word's postings
    fill much of it), the ranking, the weighing and the card still read each term once per search:
    re-reading what the cache let go in the same search doubled its slowest searches."""
    tiny = SearchIndex(index.link, postings_bytes=1)
    gen = tiny.generation()
    reads: list[tuple[str, str]] = []
    read = gen._read_postings
    monkeypatch.setattr(gen, "_read_postings", lambda field, token: reads.append((field, token)) or read(field, token))
    result = tiny.search("Darf der Dieb den Baumeister bestehlen, wenn er Gold hat?", "de", limit=10)
    assert result.hits and len(reads) > 20
    assert len(reads) == len(set(reads)), sorted({r for r in reads if reads.count(r) > 1})
