"""Postings kept per index segment across generations: a generation scores the kept postings with
its own statistics and gets exactly what Whoosh's matcher scores; only segments it has not seen
are read."""
from __future__ import annotations

import datetime as dt

import pytest

from rules_index.content.snapshot import read_content
from rules_index.content.writer import materialize, plan_faq_change
from rules_index.search import SearchIndex, build
from rules_index.search import scoring
from rules_index.search import schema as f
from rules_index.caches import ENTRY_BYTES
from rules_index.search.scoring import read_postings

TODAY = dt.date(2026, 12, 1)
SEARCHED = ("title_", "keywords_", "body_", f.PREFIXES)


def change_answer(content, words: str) -> None:
    updates = {"de": {"answer": f"Es gibt 12 Münzen, {words}."}, "en": {"answer": f"There are 12 coins, {words}."}}
    materialize(plan_faq_change(content, "tiny-game", "coin-count", updates, TODAY), content)


def publish(content, link, words: str) -> None:
    change_answer(content, words)
    build(read_content(content)[0], link, content, changed=[("tiny-game", "faq", "coin-count")])


def every_term(gen) -> list[tuple[str, str]]:
    reader = gen.searcher().reader()
    names = [n for n in gen.schema.names() if n.startswith(SEARCHED) and gen.schema[n].indexed]
    return [(name, raw.decode()) for name in names for raw in reader.lexicon(name)]


def as_matcher_scores(gen, field_name: str, token: str, boost: float):
    found = read_postings(gen.searcher(), field_name, token, boost)
    return None if found is None else (list(found.ids), list(found.scores))


def as_kept_scores(gen, field_name: str, token: str, boost: float):
    found = gen._read_postings(field_name, token, boost)
    return None if found is None else (list(found.ids), list(found.scores))


@pytest.fixture(params=["small segments known whole", "query fields known whole", "every segment looked up"])
def index(request, tiny_content, tmp_path, monkeypatch):
    if request.param != "small segments known whole":  # as for segments over SMALL_SEGMENT_DOCS
        monkeypatch.setattr("rules_index.search.searcher.SMALL_SEGMENT_DOCS", 0)
    if request.param == "every segment looked up":  # as for fields of too many terms
        monkeypatch.setattr("rules_index.search.searcher.QUERY_FIELDS", ())
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    return tiny_content, link, SearchIndex(link)


def test_scores_are_the_matchers_to_the_last_bit_across_updates(index):
    content, link, search = index
    for round_ in range(3):
        gen = search.generation()
        terms = every_term(gen)
        assert terms
        for field_name, token in terms:  # the first time from the segments, then as kept
            assert as_kept_scores(gen, field_name, token, 1.7) == as_matcher_scores(gen, field_name, token, 1.7)
        publish(content, link, f"{chr(97 + round_)}zzyqword frobnitz")
    gen = search.generation()
    leaves = gen.searcher().reader().leaf_readers()
    assert len(leaves) > 1 and any(leaf.has_deletions() for leaf, _ in leaves)  # what the kept postings must survive
    for field_name, token in every_term(gen):
        assert as_kept_scores(gen, field_name, token, 0.6) == as_matcher_scores(gen, field_name, token, 0.6)
    # A deleted document's words have no live posting left.
    assert as_kept_scores(gen, "body_en", "azzyqword", 1.0) is None


@pytest.fixture()
def segment_reads(monkeypatch) -> list[str]:
    """The segment ids the searcher reads a term's postings from, from now on."""
    reads = []
    real = scoring.read_segment_term

    def counted(leaf, field_name, token, table=None):
        reads.append(leaf.segment().segment_id())
        return real(leaf, field_name, token, table)

    monkeypatch.setattr("rules_index.search.searcher.read_segment_term", counted)
    return reads


def test_a_new_generation_reads_only_the_segments_it_has_not_seen(index, segment_reads):
    content, link, search = index
    gen = search.generation()
    terms = every_term(gen)
    for term in terms:
        gen.postings(*term, 1.0)
    publish(content, link, "bzzyqword")
    reads = segment_reads
    reads.clear()  # from here: the next generation's reads
    new = search.generation()
    assert new is not gen
    for term in terms:
        new.postings(*term, 1.0)
    leaves = [leaf for leaf, _ in new.searcher().reader().leaf_readers()]
    assert len(leaves) == 2
    assert set(reads) == {leaves[1].segment().segment_id()}  # the update's segment; the first one's postings were kept
    # The update's segment has its terms known whole: only those it has are read.
    assert len(reads) == (len(in_segment(leaves[1], terms)) if knows_segment_terms() else len(terms))
    # Next update: only its own segment is read, also for the terms the previous update lacks.
    publish(content, link, "czzyqword")
    reads.clear()
    newer = search.generation()
    for term in terms:
        newer.postings(*term, 1.0)
    leaves = [leaf for leaf, _ in newer.searcher().reader().leaf_readers()]
    assert len(leaves) == 3 and set(reads) == {leaves[2].segment().segment_id()}
    assert len(reads) == (len(in_segment(leaves[2], terms)) if knows_segment_terms() else len(terms))
    assert len(in_segment(leaves[2], terms)) < len(terms)


def knows_segment_terms() -> bool:
    """Whether segments keep the terms of the searched fields whole (``SEARCHED``)."""
    from rules_index.search import searcher

    return searcher.SMALL_SEGMENT_DOCS > 0 or bool(searcher.QUERY_FIELDS)


def in_segment(leaf, terms: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [t for t in terms if leaf.doc_frequency(*t)]


def test_a_small_segment_lacking_a_term_is_not_asked_for_it(index, monkeypatch):
    content, link, search = index
    terms = every_term(search.generation())
    publish(content, link, "dzzyqword")
    gen = search.generation()
    new_leaf = gen.searcher().reader().leaf_readers()[-1][0]
    if not knows_segment_terms():
        pytest.skip("every segment is looked up")
    lacking = [t for t in terms if not new_leaf.doc_frequency(*t)]
    expected = [as_matcher_scores(gen, *term, 1.0) for term in lacking]
    assert lacking and any(expected)
    asked = []
    real = type(new_leaf).doc_frequency
    monkeypatch.setattr(type(new_leaf), "doc_frequency", lambda self, *t: asked.append((self, t)) or real(self, *t))
    assert [as_kept_scores(gen, *term, 1.0) for term in lacking] == expected
    assert asked and not any(leaf is new_leaf for leaf, _t in asked)  # the other segment was asked


def test_unknown_words_take_no_room(index):
    _content, _link, search = index
    gen = search.generation()
    for word in ("qxzzv", "wubblefrotz", "zzzkeinwort"):
        assert gen.postings("body_de", word, 1.0) is None
    if knows_segment_terms():  # the segment's terms known whole: no word takes room of its own
        assert [key[0] for key in search.segments.held.cache] == ["lexicon"]
        assert len(search.segments.missing) == 0
    else:
        assert len(search.segments.held) == 0
        assert len(search.segments.missing) == 3 <= search.segments.missing.max_bytes // ENTRY_BYTES  # a key per word


def test_a_word_no_segment_had_is_looked_up_only_in_new_segments(index, segment_reads):
    content, link, search = index
    assert search.generation().postings("body_en", "wubblefrotz", 1.0) is None
    publish(content, link, "wubblefrotz")  # now the update's segment has it
    segment_reads.clear()
    gen = search.generation()
    assert as_kept_scores(gen, "body_en", "wubblefrotz", 1.0) == as_matcher_scores(gen, "body_en", "wubblefrotz", 1.0)
    assert as_kept_scores(gen, "body_en", "wubblefrotz", 1.0) is not None
    leaves = gen.searcher().reader().leaf_readers()
    assert segment_reads == [leaves[-1][0].segment().segment_id()]


def test_kept_postings_respect_the_cache_bound(tiny_content, tmp_path):
    from rules_index.search.searcher import CacheSizes

    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    search = SearchIndex(link, sizes=CacheSizes(segment_postings_bytes=16 * 1024))
    gen = search.generation()
    for term in every_term(gen):
        gen.postings(*term, 1.0)
    assert 0 < search.segments.held.bytes <= 16 * 1024


def test_a_term_many_searches_ask_for_outlasts_a_stream_of_others(tiny_content, tmp_path, segment_reads):
    from rules_index.search.searcher import CacheSizes

    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    everything = SearchIndex(link)
    gen = everything.generation()
    terms = [t for t in every_term(gen) if gen._read_postings(*t, 1.0)]
    room = everything.segments.held.bytes // 4  # a quarter of the terms' postings fit
    search = SearchIndex(link, sizes=CacheSizes(segment_postings_bytes=room))
    gen = search.generation()
    common = max(terms, key=lambda t: len(gen._read_postings(*t, 1.0).ids))
    for _ in range(3):  # asked for by several searches
        gen._read_postings(*common, 1.0)
    for term in terms:  # then every other term once, four times what the cache holds
        gen._read_postings(*term, 1.0)
    segment_reads.clear()
    gen._read_postings(*common, 1.0)
    assert segment_reads == []  # still held


def test_a_term_many_searches_ask_for_outlasts_others_in_the_generations_scored_postings(tiny_content, tmp_path):
    from rules_index.caches import payload_bytes
    from rules_index.search.searcher import CacheSizes

    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    gen = SearchIndex(link).generation()
    scored = {t: gen._read_postings(*t, 1.0) for t in every_term(gen)}
    terms = [t for t, found in scored.items() if found]
    room = sum(payload_bytes(scored[t]) + ENTRY_BYTES for t in terms) // 4
    gen = SearchIndex(link, sizes=CacheSizes(postings_bytes=room)).generation()
    common = max(terms, key=lambda t: len(scored[t].ids))
    for _ in range(3):
        gen.postings(*common, 1.0)
    for term in terms:
        gen.postings(*term, 1.0)
    reads = []
    real = gen._read_postings
    gen._read_postings = lambda *term: reads.append(term) or real(*term)
    gen.postings(*common, 1.0)
    assert reads == []


def test_what_is_held_for_segments_a_new_generation_lacks_is_let_go(index):
    content, link, search = index
    gen = search.generation()
    for term in every_term(gen):
        gen.postings(*term, 1.0)
    old = gen.segment_ids()
    assert {key[1] for key in search.segments.held.cache} == old
    change_answer(content, "qzzyqword")
    build(read_content(content)[0], link, content)  # rebuilt whole: new segments only
    new = search.generation()
    assert new is not gen and not new.segment_ids() & old
    assert all(key[1] in new.segment_ids() for key in search.segments.held.cache)
    assert as_kept_scores(new, "body_en", "qzzyqword", 1.0) == as_matcher_scores(new, "body_en", "qzzyqword", 1.0)


def test_postings_kept_under_other_deletions_are_read_again(index):
    from array import array

    from rules_index.search.scoring import SegmentTerm

    _content, _link, search = index
    gen = search.generation()
    field_name, token = next(t for t in every_term(gen) if as_matcher_scores(gen, *t, 1.0))
    leaf, _offset = gen.searcher().reader().leaf_readers()[0]
    # Kept under deletions this segment does not have: not the postings of this generation.
    stale = SegmentTerm(array("i", [0]), array("d", [9.0]), array("i", [1]), frozenset({12345}), 1)
    search.segments.held.put(("postings", leaf.segment().segment_id(), (field_name, token)), stale)
    assert as_kept_scores(gen, field_name, token, 1.0) == as_matcher_scores(gen, field_name, token, 1.0)


def test_spelling_words_of_every_segment_correct_as_whoosh_does(index, monkeypatch):
    from rules_index.search import spelling as spelling_module
    from rules_index.search.spelling import Spelling

    content, link, search = index
    search.generation().spelling("en")
    for round_, words in enumerate(("grobnik frobnitz", "grobnak plumbus", "frobnitzen")):
        publish(content, link, words)
        made = []
        real = spelling_module.SegmentWords.__init__

        def counted(self, leaf, field_name):
            made.append(leaf.segment().segment_id())
            real(self, leaf, field_name)

        monkeypatch.setattr(spelling_module.SegmentWords, "__init__", counted)
        gen = search.generation()
        kept = gen.spelling("en")
        monkeypatch.undo()
        leaves = gen.searcher().reader().leaf_readers()
        assert made == [leaves[-1][0].segment().segment_id()]  # only the update's own segment was read
        searcher, field = gen.searcher(), f.words_field("en")
        for typo in ("grobnok", "frobnits", "plumbis", "frobnitzn", "coinz", "grobni"):
            for maxdist in (1, 2):
                expected = searcher.suggest(field, typo, limit=8, maxdist=maxdist, prefix=1)
                assert kept.suggestions(searcher.reader(), typo, maxdist) == expected, (round_, typo)
                assert Spelling.read(searcher.reader(), field).suggestions(searcher.reader(), typo, maxdist) == expected


def test_keys_and_live_words_are_whooshs_across_updates(index):
    content, link, search = index
    publish(content, link, "grobnik")
    before = search.generation()
    reader = before.searcher().reader()
    for key in (raw.decode() for raw in reader.lexicon(f.KEY)):
        before.docnum(key)  # kept for the segments, to be used by the next generation
    for word in (raw.decode() for raw in reader.lexicon(f.words_field("en"))):
        before.live_word(f.words_field("en"), word)
    publish(content, link, "frobnitz plumbus")  # deletes documents of segments read before
    gen = search.generation()
    searcher = gen.searcher()
    reader = searcher.reader()
    assert reader.has_deletions()
    keys = [raw.decode() for raw in reader.lexicon(f.KEY)]
    # A replaced entry's key has a deleted document in an older segment and a live one in the newest.
    assert reader.doc_frequency(f.KEY, "faq:tiny-game:coin-count:en") == 3
    for key in keys:
        assert gen.docnum(key) == searcher.document_number(**{f.KEY: key}), key
    field = f.words_field("en")
    words = [raw.decode() for raw in reader.lexicon(field)]
    assert "grobnik" in words  # replaced: in the lexicon, with no live document
    for word in words + ["nowhere"]:
        whoosh_live = (field, word) in reader and reader.postings(field, word).is_active()
        assert gen.live_word(field, word) == whoosh_live, word
    assert not gen.live_word(field, "grobnik") and gen.live_word(field, "plumbus")


def test_stored_documents_are_whooshs_and_read_once_per_segment(index, monkeypatch):
    content, link, search = index
    before = search.generation()
    for docnum in before.searcher().reader().all_doc_ids():
        before.stored(docnum)
    publish(content, link, "quibblestone")
    gen = search.generation()
    searcher = gen.searcher()
    expected = {docnum: searcher.stored_fields(docnum) for docnum in searcher.reader().all_doc_ids()}
    leaves = searcher.reader().leaf_readers()
    read = []
    for leaf, _offset in leaves:
        real = leaf.stored_fields
        monkeypatch.setattr(leaf, "stored_fields", lambda local, real=real, leaf=leaf: read.append(leaf) or real(local))
    for docnum, stored in expected.items():
        assert gen.docinfo(docnum) == (stored[f.KIND], stored[f.GAME], stored[f.ENTRY], stored[f.LANG])
        assert gen.stored(docnum) == (stored[f.TITLE_TEXT], stored[f.BODY_TEXT])
    assert read and {id(leaf) for leaf in read} == {id(leaves[-1][0])}  # the older segments' were kept


def test_a_segment_keeps_the_terms_of_fields_within_its_bounds(tiny_content, tmp_path):
    from rules_index.search.scoring import SegmentLexicon
    from rules_index.search.searcher import QUERY_FIELDS

    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    leaf = SearchIndex(link).generation().searcher().reader().leaf_readers()[0][0]
    counts = {name: len(list(leaf.lexicon(name))) for name in QUERY_FIELDS}
    bound = sorted(counts.values())[len(counts) // 2]
    known = SegmentLexicon(leaf, QUERY_FIELDS, max_terms=bound)
    assert set(known.terms) == {name for name, count in counts.items() if count <= bound} != set(QUERY_FIELDS)
    for name in QUERY_FIELDS:
        terms = [raw.decode() for raw in leaf.lexicon(name)]
        assert not any(known.lacks(name, term) for term in terms)  # a field not kept lacks nothing
        assert known.lacks(name, "zzqxword") == (name in known.terms)
        assert all(known.has(name, term) for term in terms) == (name in known.terms)
    first = SegmentLexicon(leaf, QUERY_FIELDS, max_bytes=1)  # the first field already fills it
    assert list(first.terms) == [QUERY_FIELDS[0]]
