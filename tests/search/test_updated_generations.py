"""A generation updated in place of a rebuild (``incremental``: new segments, documents of the
older ones deleted) answers as Whoosh does: scores, keys, live words, stored documents, spelling;
and the postings cache keeps a term many searches ask for."""
from __future__ import annotations

import datetime as dt

import pytest

from rules_index.content.snapshot import read_content
from rules_index.content.writer import materialize, plan_faq_change
from rules_index.search import SearchIndex, build
from rules_index.search import schema as f
from rules_index.search.scoring import ENTRY_BYTES, postings_bytes, read_postings

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


@pytest.fixture()
def index(tiny_content, tmp_path):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    return tiny_content, link, SearchIndex(link)


def test_scores_are_the_matchers_to_the_last_bit_across_updates(index):
    content, link, search = index
    publish(content, link, "grobnik frobnitz")
    publish(content, link, "plumbus")
    gen = search.generation()
    searcher = gen.searcher()
    assert len(searcher.reader().leaf_readers()) > 1 and searcher.reader().has_deletions()
    compared = 0
    for field_name, token in every_term(gen):
        for boost in (1.0, 4.0 * 1.15, 0.6):
            expected = read_postings(searcher, field_name, token, boost)  # the matcher's score() per posting
            found = gen.postings(field_name, token, boost)
            assert (found is None) == (expected is None), (field_name, token)
            if found is not None:
                assert (list(found.ids), list(found.scores)) == (list(expected.ids), list(expected.scores)), (field_name, token)
                compared += 1
    assert compared > 100


def test_a_term_many_searches_ask_for_outlasts_others_in_the_postings_cache(tiny_content, tmp_path):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    gen = SearchIndex(link).generation()
    scored = {t: gen._read_postings(*t) for t in every_term(gen)}
    terms = [t for t, found in scored.items() if found]
    room = sum(postings_bytes(scored[t]) for t in terms) // 4  # a quarter of the terms' postings fit
    gen = SearchIndex(link, postings_bytes=room).generation()
    common = max(terms, key=lambda t: len(scored[t].ids))
    for _ in range(3):
        gen.postings(*common, 1.0)
    for term in terms:
        gen.postings(*term, 1.0)
    assert 0 < gen.postings_cache.cache.currsize <= room and len(gen.postings_cache) < len(terms)
    reads = []
    real = gen._read_postings
    gen._read_postings = lambda *term: reads.append(term) or real(*term)
    gen.postings(*common, 1.0)
    assert reads == []
    assert postings_bytes(scored[common]) > ENTRY_BYTES


def test_spelling_corrects_as_whoosh_does_across_updates(index):
    content, link, search = index
    for round_, words in enumerate(("grobnik frobnitz", "grobnak plumbus", "frobnitzen")):
        publish(content, link, words)
        gen = search.generation()
        kept = gen.spelling("en")
        searcher, field = gen.searcher(), f.words_field("en")
        for typo in ("grobnok", "frobnits", "plumbis", "frobnitzn", "coinz", "grobni"):
            for maxdist in (1, 2):
                expected = searcher.suggest(field, typo, limit=8, maxdist=maxdist, prefix=1)
                assert kept.suggestions(searcher.reader(), typo, maxdist) == expected, (round_, typo)


def test_keys_and_live_words_are_whooshs_across_updates(index):
    content, link, search = index
    publish(content, link, "grobnik")
    publish(content, link, "frobnitz plumbus")  # deletes documents of segments read before
    gen = search.generation()
    searcher = gen.searcher()
    reader = searcher.reader()
    assert reader.has_deletions()
    keys = [raw.decode() for raw in reader.lexicon(f.KEY)]
    # A replaced entry's key has a deleted document in an older segment and a live one in the newest.
    assert reader.doc_frequency(f.KEY, "faq:tiny-game:coin-count:en") == 3
    for key in keys:  # each key's live document
        docnum = gen.docnum(key)
        assert docnum is not None and not reader.is_deleted(docnum) and ":".join(gen.docinfo(docnum)) == key
    field = f.words_field("en")
    assert "grobnik" in [raw.decode() for raw in reader.lexicon(field)]  # replaced: in the lexicon, with no live document
    assert not gen.live_word(field, "grobnik") and gen.live_word(field, "plumbus") and not gen.live_word(field, "nowhere")


def test_stored_documents_are_whooshs_across_updates(index):
    content, link, search = index
    publish(content, link, "quibblestone")
    gen = search.generation()
    searcher = gen.searcher()
    expected = {docnum: searcher.stored_fields(docnum) for docnum in searcher.reader().all_doc_ids()}
    assert len(searcher.reader().leaf_readers()) > 1
    for docnum, stored in expected.items():
        assert gen.docinfo(docnum) == (stored[f.KIND], stored[f.GAME], stored[f.ENTRY], stored[f.LANG])
        assert gen.stored(docnum) == (stored[f.TITLE_TEXT], stored[f.BODY_TEXT])
