"""Publishing a change: a generation made from the current one answers as a full build does;
the old generation's files stay as they were; builds are serialised and never go backwards."""
from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from apptools import answer_with_aside, seed_index
from rules_index.content import load_library
from rules_index.content.writer import materialize, plan_faq_change, plan_section_change
from rules_index.search import SearchIndex, build, is_stale
from rules_index.search.build import CHECKS, MARKER, RETIRED, build_lock, current_generation
from rules_index.content.snapshot import content_fingerprint, read_content

ROOT = Path(__file__).resolve().parents[2]
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
TODAY = dt.date(2026, 12, 1)
# The old words "ohne die Boni" / "without the bonuses" give way to new ones; the bound spans stay.
NEW = {
    "de": {"answer": answer_with_aside(GAME, FAQ, "de", "Sonst Losentscheid mit Würfeln.").replace("ohne die Boni", "nach der Quetzalregel")},
    "en": {"answer": answer_with_aside(GAME, FAQ, "en", "Otherwise roll dice.").replace("without the bonuses", "the zorblax rule")},
}
QUERIES = [("Quetzalregel", "de"), ("zorblax", "en"), ("Gleichstand Bauwerke Punkte", "de"), ("tied on points winner", "en"),
           ("ohne die Boni", "de"), ("Würfeln Sieger", "de"), ("parità punti", "it"), ("bonuses tie", "en")]


def hits(index: SearchIndex, query: str, lang: str) -> list[tuple]:
    return [(h.kind, h.game, h.entry, h.title, h.snippet) for h in index.search(query, lang, limit=8).hits]


def file_hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The real content, a full build, one FAQ answer changed in de and en, then an incremental
    publication (``link``) and a full build of the changed content (``full``)."""
    base = tmp_path_factory.mktemp("incremental")
    content = base / "content"
    shutil.copytree(ROOT / "content", content)
    link, full = base / "index", base / "full"
    assert seed_index(base, content)  # the first full build, from the per-process template
    first = link.resolve()
    before = file_hashes(first)
    materialize(plan_faq_change(content, GAME, FAQ, NEW, TODAY), content)
    changed, _ = read_content(content)
    second = build(changed, link, content, changed=[(GAME, "faq", FAQ)])
    build(changed, full, content)
    return {"content": content, "link": link, "full": full, "first": first, "second": second, "before": before}


def test_update_is_made_from_the_current_generation(published):
    info = json.loads((published["second"] / MARKER).read_text())
    assert info["base"] == published["first"].name
    assert info["fingerprint"] == content_fingerprint(published["content"])


# Deleted documents stay in Whoosh's statistics until their segment is merged, so a generation
# made by an update scores a little differently from a full build (incremental.py). One change of
# the real content moved a hit's score by at most 2.8 %; the bound leaves room for content to come.
# Hits whose scores lie that close may change places: no test here depends on their order.
BOUND = 0.05


def scored(index: SearchIndex, query: str, lang: str) -> dict[tuple, tuple]:
    return {(h.kind, h.game, h.entry): (h.score, h.title, h.snippet) for h in index.search(query, lang, limit=50).hits}


@pytest.mark.parametrize("query,lang", QUERIES)
def test_incremental_answers_as_a_full_build_within_the_bound(published, query, lang):
    update, full = scored(SearchIndex(published["link"]), query, lang), scored(SearchIndex(published["full"]), query, lang)
    assert update and full
    both = update.keys() & full.keys()
    for key in both:
        assert update[key][1:] == full[key][1:]  # title and snippet
        assert abs(update[key][0] / full[key][0] - 1) <= BOUND, (key, update[key][0], full[key][0])
    place_update, place_full = ({key: i for i, key in enumerate(hits)} for hits in (update, full))
    for a, b in itertools.combinations(sorted(both), 2):  # two hits change places only when their scores are close
        if (place_update[a] < place_update[b]) != (place_full[a] < place_full[b]):
            assert abs(full[a][0] / full[b][0] - 1) <= 2 * BOUND, (a, b, full[a][0], full[b][0])
    for key in update.keys() ^ full.keys():  # a hit only one has lies at the bottom of the other
        other = full if key in update else update
        assert (update.get(key) or full.get(key))[0] <= min(v[0] for v in other.values()) * (1 + 2 * BOUND), key


def test_deleted_documents_stay_few(tiny_content, tmp_path, monkeypatch):
    """Updates go on until deleted documents would pass their share; then a full build drops them."""
    from rules_index.search import incremental

    monkeypatch.setattr(incremental, "MIN_DELETED", 1)
    monkeypatch.setattr(incremental, "MAX_DELETED_SHARE", 0.5)
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    kinds = []
    for i in range(4):
        change_answer(tiny_content, f"{chr(97 + i)}zzyqword")
        generation = build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
        kinds.append("base" in json.loads((generation / MARKER).read_text()))
        deleted, live = incremental.deleted_documents(generation)
        assert deleted <= 0.5 * live
    assert True in kinds and False in kinds, kinds  # some updates, and a full build once they were too many
    assert [h.entry for h in SearchIndex(link).search("dzzyqword", "en").hits] == ["coin-count"]


def test_changed_text_is_found_and_old_text_is_not(published):
    index = SearchIndex(published["link"])
    assert [h.entry for h in index.search("zorblax", "en").hits] == [FAQ]
    assert FAQ in [h.entry for h in index.search("Quetzalregel", "de").hits]
    result = index.search("tied on points winner", "en")
    assert "zorblax" in next(h.snippet for h in result.hits if (h.game, h.entry) == (GAME, FAQ))  # each game has a "tie-break"
    # The German answer of the old text is gone from the entry's document.
    assert "ohne die Boni" not in next(h.snippet for h in index.search("Punktgleichheit", "de").hits if (h.game, h.entry) == (GAME, FAQ))


def test_spelling_corrects_to_words_of_the_new_text(published):
    result = SearchIndex(published["link"]).search("zorblx", "en")
    assert result.suggestion == "zorblax"


def test_a_switch_reads_only_the_new_segments_words(published):
    """A process following the update takes the words of the segments it read already from the
    generation it served, reads the new segment's, and corrects as a fresh read of all does."""
    index = SearchIndex(published["link"])
    old = index.open(str(published["first"]))
    index.install(old)
    old.warm()
    new = index.open(str(published["second"]))
    new.warm()
    fresh = SearchIndex(published["link"]).open(str(published["second"]))
    for lang in ("de", "en", "it"):
        earlier = {id(words) for words in old.spelling(lang).segments}
        segments = new.spelling(lang).segments
        assert len(segments) >= 2
        shared = [words for words in segments if id(words) in earlier]
        assert len(shared) == len(segments) - 1, lang  # all but the segment the update wrote
        reader = new.searcher().reader()
        for word in ("zorblx", "Quetzalregl".casefold(), "lador", "assasin", "meucler", "gleichstan"):
            assert new.spelling(lang).suggestions(reader, word, 2) == fresh.spelling(lang).suggestions(reader, word, 2), (lang, word)
    assert new.suggest("zorblx", "en", 2) == "zorblax"


def test_old_generation_files_are_untouched(published):
    # Only the marker of the moment the link left it is added.
    after = file_hashes(published["first"])
    assert after.pop(RETIRED, None) is not None
    assert after == published["before"]
    old = SearchIndex(published["first"].parent.parent / "old-view")
    os.symlink(published["first"], old.link)
    assert not old.search("zorblax", "en").hits


def test_checks_of_the_update_equal_a_full_run(published):
    from rules_index.verification import load_report, verify

    generation, info = current_generation(published["link"])
    assert info["fingerprint"] == content_fingerprint(published["content"])
    stored = load_report(generation / CHECKS)
    fresh = verify(load_library(published["content"]))
    assert stored is not None
    assert [(r.game, r.kind, r.entry, r.ok, r.output) for r in stored.results] == \
        [(r.game, r.kind, r.entry, r.ok, r.output) for r in fresh.results]
    assert [(f.entry, f.ok) for f in stored.facts] == [(f.entry, f.ok) for f in fresh.facts]
    assert stored.missing == fresh.missing


# -- the tiny fixture game: quick builds ------------------------------------------------------
def change_answer(content: Path, words: str) -> None:
    updates = {"de": {"answer": f"Es gibt 12 Münzen, {words}."}, "en": {"answer": f"There are 12 coins, {words}."}}
    materialize(plan_faq_change(content, "tiny-game", "coin-count", updates, TODAY), content)


def test_section_change_and_fallbacks(tiny_content, tmp_path):
    link = tmp_path / "index"
    library, _ = read_content(tiny_content)
    build(library, link, tiny_content)
    sections = load_library(tiny_content).game("tiny-game").sections
    plans = plan_section_change(tiny_content, "tiny-game", sections[0].id, {"en": "Flimflam pieces everywhere."}, TODAY)
    materialize(plans, tiny_content)
    generation = build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "section", sections[0].id)])
    assert json.loads((generation / MARKER).read_text()).get("base")
    # The material section, and the game's components (made from the material sections).
    assert sections[0].meta.kind == "material"
    assert [h.entry for h in SearchIndex(link).search("flimflam", "en").hits] == ["components", sections[0].id]
    # A file the named entries do not live in changed too: everything is indexed again.
    glossary = tiny_content / "tiny-game" / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    change_answer(tiny_content, "grobnik")
    generation = build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    assert "base" not in json.loads((generation / MARKER).read_text())
    assert [h.entry for h in SearchIndex(link).search("grobnik", "en").hits] == ["coin-count"]


def test_new_german_words_mark_the_vocabulary_behind(tiny_content, tmp_path):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    assert not is_stale(link, tiny_content)
    change_answer(tiny_content, "Drachenschatz")
    build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    assert is_stale(link, tiny_content)  # so that ``index build --if-stale`` builds it all again


def test_an_older_build_never_takes_the_link_back(tiny_content, tmp_path):
    link = tmp_path / "index"
    older, _ = read_content(tiny_content)  # a build starts: content read
    change_answer(tiny_content, "snarfle")  # an accept writes its change
    newer, _ = read_content(tiny_content)
    published = build(newer, link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])  # ...and publishes first
    late = build(older, link, tiny_content)  # the first build ends last
    assert late == published
    assert current_generation(link)[0] == published
    assert [h.entry for h in SearchIndex(link).search("snarfle", "en").hits] == ["coin-count"]


def test_fingerprint_is_of_the_bytes_loaded(tiny_content):
    calls = []

    def load_then_change(root):
        library = load_library(root)
        if not calls:  # a change lands while the content is being read
            change_answer(tiny_content, "wibble")
        calls.append(library)
        return library

    library, snapshot = read_content(tiny_content, load_then_change)
    assert len(calls) == 2 and library is calls[1]
    assert "wibble" in library.game("tiny-game").faq_entry("coin-count").en.answer
    assert snapshot.fingerprint == content_fingerprint(tiny_content)


def test_builds_wait_for_the_build_lock(tiny_content, tmp_path):
    link = tmp_path / "index"
    library, _ = read_content(tiny_content)
    done = []
    with build_lock(link):
        worker = threading.Thread(target=lambda: done.append(build(library, link, tiny_content)))
        worker.start()
        time.sleep(1.0)
        assert worker.is_alive() and not os.path.lexists(link)
    worker.join(timeout=60)
    assert done and current_generation(link)[0] == done[0]


def test_words_only_a_replaced_text_had_are_gone(tiny_content, tmp_path):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    for words in ("quorblin", "shiny"):  # the word comes with one change and goes with the next
        change_answer(tiny_content, words)
        build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    index = SearchIndex(link)
    assert not index.search("quorblin", "en").hits
    assert index.search("quorblim", "en").suggestion is None
    assert index.search("shiiny", "en").suggestion == "shiny"


NEW_ENTRY = """- id: coin-extra
  editions: [test-2020]
  section: scoring
  citation: {source: review, section: {de: Wertung, en: Scoring, it: Punteggio}}
  basis: editorial
  de: {question: Gibt es Sondermünzen?, answer: Die Regel nennt keine Blubberdukaten.}
  en: {question: Are there special coins?, answer: The rules name no blubberducats.}
  it: {question: Ci sono monete speciali?, answer: Il regolamento non nomina blubberducati.}
  ruling: {verdict: none}
"""


def test_entries_added_and_removed(tiny_content, tmp_path):
    link = tmp_path / "index"
    faq = tiny_content / "tiny-game" / "faq.yaml"
    original = faq.read_text(encoding="utf-8")
    build(read_content(tiny_content)[0], link, tiny_content)
    faq.write_text(original + NEW_ENTRY, encoding="utf-8")
    generation = build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-extra")])
    assert json.loads((generation / MARKER).read_text()).get("base")
    assert [h.entry for h in SearchIndex(link).search("blubberducats", "en").hits] == ["coin-extra"]
    faq.write_text(original, encoding="utf-8")
    build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-extra")])
    assert not SearchIndex(link).search("blubberducats", "en").hits


def test_every_changed_entry_is_indexed_whatever_was_named(tiny_content, tmp_path):
    # Two accepts wrote before one publication ran; it names only its own entry.
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    change_answer(tiny_content, "frobnitz")
    entry = load_library(tiny_content).game("tiny-game").faq_entry("coin-value")
    materialize(plan_faq_change(tiny_content, "tiny-game", "coin-value",
                                {"en": {"answer": f"{entry.en.answer} Plumbus."}}, TODAY), tiny_content)
    generation = build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    assert json.loads((generation / MARKER).read_text()).get("base")
    index = SearchIndex(link)
    assert [h.entry for h in index.search("frobnitz", "en").hits] == ["coin-count"]
    assert [h.entry for h in index.search("plumbus", "en").hits] == ["coin-value"]


def test_a_run_of_updates_keeps_few_segments(tiny_content, tmp_path):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    for i in range(12):
        change_answer(tiny_content, f"{chr(97 + i)}zzyqword")
        generation = build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    assert len(list(generation.glob("*.seg"))) <= 8  # small segments are merged past MAX_SEGMENTS
    index = SearchIndex(link)
    assert [h.entry for h in index.search("lzzyqword", "en").hits] == ["coin-count"]
    assert not index.search("azzyqword", "en").hits
