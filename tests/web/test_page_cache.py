"""The rendered-page cache never serves a stale FAQ page: another process's commit invalidates it."""
from __future__ import annotations

from app import ROOT
from apptools import make_app
from rules_index.corrections import db
from rules_index.web.page_cache import KEY, PageCache

URL = "/de/ohne-furcht-und-adel/faq/tie-break"


def test_second_request_is_served_from_the_cache(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content")
    client = app.test_client()
    client.get("/api/v1/search?q=Dieb")  # builds the index first
    cache = app.extensions[KEY]
    first = client.get(URL).get_data(as_text=True)
    stored = len(cache)
    assert stored >= 1
    assert client.get(URL).get_data(as_text=True) == first
    assert len(cache) == stored
    client.get(URL + "?x=1")  # with a query string the page is rendered, never stored
    assert len(cache) == stored


def test_a_commit_in_another_process_invalidates(tmp_path):
    writer = make_app(tmp_path / "instance", ROOT / "content")
    reader = make_app(tmp_path / "instance", ROOT / "content")
    client = reader.test_client()
    client.get(URL)
    cache = reader.extensions[KEY]
    with reader.app_context():
        before = cache.corrections_stamp()
    with writer.app_context():
        session = writer.extensions[db.KEY]["sessions"]()
        session.commit()  # any commit of the other app writes a new stamp
        session.close()
    with reader.app_context():
        assert cache.corrections_stamp() != before
    assert client.get(URL).status_code == 200


def page_key(i: int) -> tuple:
    return ("http", "localhost", "", f"/de/game/faq/entry-{i}", "generation", "stamp")


def test_pages_are_bounded_in_bytes():
    cache = PageCache(64 * 1024, None)
    page = b"<!doctype html>" + b"x" * 8000
    for i in range(100):  # 800 kB of pages offered to a 64 KiB cache
        cache.put(page_key(i), page + str(i).encode())
        assert cache.pages.bytes <= 64 * 1024
    assert 3 <= len(cache) < 8
    assert cache.get(page_key(99)) == page + b"99"  # the page stored last is a hit
    assert cache.get(page_key(0)) is None


def test_the_bound_comes_from_the_config(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content", PAGE_CACHE_BYTES=123_456)
    assert app.extensions[KEY].pages.max_bytes == 123_456
    off = make_app(tmp_path / "off", ROOT / "content", PAGE_CACHE_BYTES=0)
    assert KEY not in off.extensions
