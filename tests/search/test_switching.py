"""A published change is followed in the background: readers answer from the previous snapshot
(library, checks and search of one generation) while the next one is opened and warmed, and
switch to all of it at once when it is ready."""
from __future__ import annotations

import datetime as dt
import gc
import shutil
import threading
import time
import weakref
from pathlib import Path

import pytest

from apptools import answer_with_aside, seed_index
from rules_index.content.snapshot import read_content
from rules_index.content.writer import materialize, plan_faq_change
from rules_index.search import IndexLink, SearchIndex, build
from rules_index.search.searcher import _Generation
from rules_index.search import searcher as searcher_module
from rules_index.web.state import Served

ROOT = Path(__file__).resolve().parents[2]
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
WORD = "quorblax"


@pytest.fixture()
def site(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    link = tmp_path / "index"
    assert seed_index(tmp_path, content)  # as build() would make it, from the per-process template
    return content, link


def publish_change(content: Path, link: Path, extra: str = "") -> None:
    answer = answer_with_aside(GAME, FAQ, "en", f"{WORD}.{extra}")
    plans = plan_faq_change(content, GAME, FAQ, {"en": {"answer": answer}}, dt.date(2026, 12, 1))
    materialize(plans, content)
    build(read_content(content)[0], link, content, changed=[(GAME, "faq", FAQ)])


def serving(content: Path, link: Path, wait: float | None = 0) -> Served:
    """A process's snapshot owner, as the app makes it."""
    shared = IndexLink(link)
    return Served(content, shared, SearchIndex(shared), wait)


def finds(served: Served) -> bool:
    """Whether the current snapshot's search finds the changed entry."""
    return any(h.entry == FAQ for h in served.index.search(WORD, "en", gen=served.current().search).hits)


def shows(snapshot) -> bool:
    """Whether the snapshot's library holds the changed answer."""
    return WORD in snapshot.library.game(GAME).faq_entry(FAQ).en.answer


def wait_for_switch(served: Served, old) -> None:
    for _ in range(400):
        if served.current() is not old:
            return
        time.sleep(0.05)


class Gate:
    """Holds a background step until the test lets it go."""

    def __init__(self):
        self.entered, self.go = threading.Event(), threading.Event()

    def hold(self):
        self.entered.set()
        assert self.go.wait(20)


def test_readers_answer_from_the_previous_snapshot_until_the_next_is_warm(site, monkeypatch):
    content, link = site
    served = serving(content, link, wait=0)
    old = served.current()
    gate = Gate()
    warm = searcher_module._Generation.warm

    def held_warm(self):
        gate.hold()
        warm(self)

    monkeypatch.setattr(searcher_module._Generation, "warm", held_warm)
    publish_change(content, link)
    assert not finds(served)  # the next snapshot is being made: the previous one answers
    assert gate.entered.wait(20)
    assert served.current() is old and not finds(served) and not shows(old)
    gate.go.set()
    wait_for_switch(served, old)
    new = served.current()
    assert new is not old and finds(served)
    # Library, checks, search and version switch together: all of the new generation.
    assert shows(new) and new.path == IndexLink(link).generation() != old.path and new.version != old.version
    assert new.checks.for_entry(GAME, "faq", FAQ) is not None
    assert set(new.search._spellings) == {"de", "en", "it"}  # read before it served


def test_a_snapshot_is_one_generation_whatever_the_content_files_hold(site):
    """A process serves what the generation keeps, never the files: a file changed on disk but
    not published is not served, not even by a process that starts afresh."""
    content, link = site
    publish_change(content, link)
    faq_file = content / GAME / "faq.yaml"
    faq_file.write_text(faq_file.read_text(encoding="utf-8").replace(WORD, "zzyzxword"), encoding="utf-8")
    snapshot = serving(content, link).current()
    assert shows(snapshot) and "zzyzxword" not in snapshot.library.game(GAME).faq_entry(FAQ).en.answer


def searching_at_once(index: SearchIndex, gen, words: list[str], monkeypatch) -> None:
    """One thread per word, their searches all under way at the same moment (each waits inside
    the ranking until all have got there)."""
    together = threading.Barrier(len(words), timeout=20)
    top = _Generation.top

    def waiting_top(self, *args):
        if threading.current_thread().name.startswith("together-"):
            together.wait()
        return top(self, *args)

    monkeypatch.setattr(_Generation, "top", waiting_top)
    index.results.clear()  # every search ranks
    threads = [threading.Thread(target=index.search, args=(word, "de"), kwargs={"gen": gen}, name=f"together-{word}")
               for word in words]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    monkeypatch.setattr(_Generation, "top", top)


def one_after_another(index: SearchIndex, gen, words: list[str]) -> None:
    for word in words:
        thread = threading.Thread(target=index.search, args=(word, "en"), kwargs={"gen": gen})
        thread.start()
        thread.join()


def test_a_switch_opens_as_many_searchers_as_were_lent_at_once(site, monkeypatch):
    """Searches borrow a searcher from the generation's pool: however many threads searched, a
    switch opens ahead as many as were lent at the same time, and readers take those."""
    content, link = site
    served = serving(content, link, wait=5)
    index, old = served.index, served.current().search
    searching_at_once(index, old, ["Dieb", "Meuchler", "Gold"], monkeypatch)
    one_after_another(index, old, ["Baumeister", "König", "Krone", "Karten", "Bischof"])
    assert old.peak == 3 and len(old._idle) == 3  # eight threads searched, three at once
    publish_change(content, link)
    opened = []
    real = searcher_module.whoosh_index.FileIndex.searcher
    monkeypatch.setattr(searcher_module.whoosh_index.FileIndex, "searcher",
                        lambda self, **kw: opened.append(threading.current_thread().name) or real(self, **kw))
    new = served.current().search  # opened and warmed in the background
    assert new is not old and len(new._idle) == 3 and opened == ["snapshot-switch"] * 3  # in the switch's thread
    opened.clear()
    searching_at_once(index, new, ["Dieb", "Gold", "Meuchler"], monkeypatch)
    one_after_another(index, new, ["thief", "assassin", "gold", "crown", "bishop", "cards"])
    assert opened == [] and len(new._idle) == 3  # each search took one opened ahead and gave it back
    searching_at_once(index, new, ["Magier", "Kaufmann", "Söldner", "Baumeister"], monkeypatch)
    assert len(opened) == 1 and new.peak == 4  # a fourth at once: one more, opened for it
    assert finds(served)


def test_waiting_readers_see_the_switch_at_once(site):
    content, link = site
    served = serving(content, link, wait=None)
    old = served.current()
    publish_change(content, link)
    assert served.current() is not old and finds(served) and shows(served.current())


def test_a_generation_that_cannot_be_opened_leaves_the_previous_snapshot_serving(site, monkeypatch, caplog):
    content, link = site
    served = serving(content, link, wait=5.0)
    old = served.current()

    def broken(self):
        raise OSError("files gone")

    monkeypatch.setattr(searcher_module._Generation, "warm", broken)
    publish_change(content, link)
    assert served.current() is old
    assert "could not switch to the index generation" in caplog.text
    assert served.current() is old  # not tried again for the same generation
    assert caplog.text.count("could not switch to the index generation") == 1


def test_catching_up_joins_the_switch_a_request_started(site, monkeypatch):
    """The publishing thread waits for the switch a reader of its process set off (held here in
    its warm-up) instead of making the snapshot a second time; it gets it warm."""
    content, link = site
    served = serving(content, link, wait=0)
    old = served.current()
    gate, opened = Gate(), []
    warm, init = _Generation.warm, _Generation.__init__

    def held_warm(self):
        gate.hold()
        warm(self)

    def counted_init(self, path, *args, **kwargs):
        opened.append(path)
        init(self, path, *args, **kwargs)

    monkeypatch.setattr(_Generation, "warm", held_warm)
    monkeypatch.setattr(_Generation, "__init__", counted_init)
    publish_change(content, link)
    assert not finds(served) and gate.entered.wait(20)  # a reader set the switch off
    caught: list = []
    publisher = threading.Thread(target=lambda: caught.append(served.catch_up()))
    publisher.start()
    publisher.join(0.3)
    assert publisher.is_alive() and served.current() is old  # waiting for the switch under way
    gate.go.set()
    publisher.join(20)
    new = caught[0]
    assert new is served.current() and new is not old and finds(served) and shows(new)
    assert opened == [new.path]  # opened once
    assert set(new.search._spellings) == {"de", "en", "it"}  # warm before it served
    assert served.catch_up() is new and opened == [new.path]  # nothing to catch up with


def test_catching_up_starts_the_switch_when_none_runs(site):
    content, link = site
    served = serving(content, link, wait=0)
    old = served.current()
    publish_change(content, link)
    new = served.catch_up()  # no reader has seen the new link yet
    assert new is not old and new is served.current() and finds(served) and shows(new)
    assert set(new.search._spellings) == {"de", "en", "it"}


def test_a_generation_the_link_left_stays_on_disk_for_a_while(site, monkeypatch):
    """Workers answer from the generation they hold until the next is warm: however many builds
    follow, the generation the link left stays for PRUNE_GRACE_S, then goes."""
    import importlib
    import os

    build_module = importlib.import_module("rules_index.search.build")
    content, link = site
    first = Path(os.path.realpath(link))
    for number in range(4):
        publish_change(content, link, f" Change {'abcd'[number]}.")
    assert len(list(build_module.generations_dir(link).iterdir())) == 5
    assert first.is_dir() and (first / build_module.RETIRED).exists()
    monkeypatch.setattr(build_module, "PRUNE_GRACE_S", 0.0)
    publish_change(content, link, " The last change.")
    assert not first.exists()
    assert len(list(build_module.generations_dir(link).iterdir())) == build_module.KEEP_GENERATIONS


def test_a_reader_whose_generation_was_removed_switches_at_once(site):
    content, link = site
    served = serving(content, link, wait=0)
    old = served.current()
    publish_change(content, link)
    shutil.rmtree(old.path)
    assert served.current() is not old and finds(served) and shows(served.current())


def test_after_a_switch_answers_are_those_of_a_fresh_process(site):
    content, link = site
    served = serving(content, link, wait=None)
    index, old = served.index, served.current().search
    queries = [("Dieb Meuchler", "de"), ("thief assassin", "en"), ("ladro assassino", "it")]
    for text, lang in queries:
        index.search(text, lang, gen=old)
    publish_change(content, link)
    new = served.current().search
    assert new is not old
    fresh = SearchIndex(link)
    for text, lang in [*queries, (WORD, "en")]:
        index.results.clear()
        assert index.search(text, lang, gen=new) == fresh.search(text, lang)


def test_a_switch_frees_what_the_previous_generation_cached_at_once(site):
    """What a generation cached is let go at the switch, by reference counting, even while a
    search still holds the generation."""
    content, link = site
    served = serving(content, link, wait=None)
    old = served.current().search
    served.index.search("Dieb Meuchler", "de", gen=old)
    scored = next(iter(old.postings_cache.cache.values()))
    freed = weakref.ref(scored.ids)
    del scored
    assert len(old.words) > 0 and freed() is not None
    gc.disable()
    try:
        publish_change(content, link)
        assert served.current().search is not old
        assert freed() is None
        assert all(len(cache) == 0 for cache in (old.postings_cache, old.words, old.texts, old.documents, old.missed_terms))
    finally:
        gc.enable()
    served.index.results.clear()
    assert finds(served)


def test_a_previous_generation_and_its_searchers_are_freed_without_the_collector(site):
    """Nothing a generation holds refers back to it: once readers have the next one, the
    previous one, with the searchers it opened and their files, is freed at once by reference
    counting. Left to the collector, a served worker's passes had tens of thousands of such
    objects to walk and free while each of its threads waited."""
    content, link = site
    served = serving(content, link, wait=None)
    index = served.index

    def search():
        index.search("Dieb Meuchler", "de", gen=served.current().search)
        index.search("kign crown", "en", gen=served.current().search)  # a correction too

    threads = [threading.Thread(target=search) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    gen = served.current().search
    generation_freed, searcher_freed = weakref.ref(gen), weakref.ref(gen.searcher())
    del gen
    gc.collect()
    gc.disable()
    try:
        publish_change(content, link)
        assert finds(served)  # the next snapshot serves
        assert generation_freed() is None and searcher_freed() is None
    finally:
        gc.enable()


def test_a_published_change_keeps_the_word_analyses_and_snippets_made_before(site):
    """A change keeps the analysers: the next generation takes over what the previous one worked
    out from them alone, so the searches right after a switch do not analyse every word again."""
    content, link = site
    served = serving(content, link, wait=None)
    old = served.current().search
    served.index.search("Dieb Meuchler", "de", gen=old)
    analysed = len(old.analyses.cache)
    assert analysed > 0
    publish_change(content, link)
    new = served.current().search
    assert new is not old and new.analyses is old.analyses
    served.index.results.clear()
    served.index.search("Dieb Meuchler", "de", gen=new)
    assert len(new.analyses.cache) == analysed  # nothing analysed again


def test_analyses_are_shared_only_by_schemas_that_analyse_alike(site):
    from whoosh.fields import TEXT, Schema

    content, link = site
    gen = serving(content, link, wait=None).current().search
    assert gen.analyses.fits(gen.schema)
    assert not gen.analyses.fits(Schema(**{name: TEXT() for name in gen.schema.names()}))


def test_generation_names_sort_as_the_builds_were_made_across_a_seconds_turn(tmp_path, monkeypatch):
    """The second and its nanoseconds were read from the clock apart: a build at a second's turn
    got the next second's nanoseconds under the last second's name and sorted before a build made
    earlier in that second, and pruning kept the wrong generations."""
    import importlib
    import time as real_time

    build_module = importlib.import_module("rules_index.search.build")
    # A clock that moves 0.3 s between readings, from 0.1 s into a second: read twice a build, the
    # second build's readings fall either side of the second's turn.
    readings = iter(range(1_800_000_000 * 10**9 + 100_000_000, 1_900_000_000 * 10**9, 300_000_000))

    class Clock:
        @staticmethod
        def time_ns():
            return next(readings)

        @staticmethod
        def localtime(seconds=None):
            return real_time.localtime(next(readings) // 10**9 if seconds is None else seconds)

        @staticmethod
        def strftime(fmt, moment=None):
            return real_time.strftime(fmt, Clock.localtime() if moment is None else moment)

    monkeypatch.setattr(build_module, "time", Clock)
    first = build_module.new_generation_dir(tmp_path / "index")
    second = build_module.new_generation_dir(tmp_path / "index")
    assert first.name < second.name, (first.name, second.name)


def test_a_process_that_froze_what_it_loaded_freezes_each_snapshot_it_serves(site):
    """A gunicorn worker keeps what it loaded out of the collector (``gc.freeze``); each snapshot
    it then serves is kept out too, and the previous one is still freed by reference counting.
    A process that froze nothing (these tests, the CLI) freezes nothing."""
    content, link = site
    assert gc.get_freeze_count() == 0
    plain = serving(content, link, wait=None)
    plain.current()
    publish_change(content, link)
    assert finds(plain) and gc.get_freeze_count() == 0
    gc.collect()
    gc.freeze()  # as gunicorn.conf.py's post_worker_init does
    try:
        served = serving(content, link, wait=None)
        first = served.current()
        frozen = gc.get_freeze_count()
        previous = weakref.ref(first)
        del first
        publish_change(content, link, extra=" Again.")
        served.index.results.clear()
        assert finds(served)
        # The new snapshot's library alone is thousands of objects, all frozen with it.
        assert gc.get_freeze_count() > frozen + 1000, (frozen, gc.get_freeze_count())
        assert previous() is None
    finally:
        gc.unfreeze()
