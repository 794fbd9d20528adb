"""Pages named by the site's version: a client holding a page gets a 304 without any rendering,
the page cache answers a repeated request without rendering, and a published change or a commit
(in this process or another) makes new tags, so neither a client nor the cache keeps a stale page."""
from __future__ import annotations

import datetime as dt
import shutil
import threading
import time
from contextlib import contextmanager

import pytest
from flask import template_rendered

from app import ROOT
from apptools import submit_and_confirm, make_app, make_editor_site
from rules_index.content.snapshot import read_content
from rules_index.content.writer import materialize, plan_faq_change
from rules_index.corrections import db
from rules_index.web.page_cache import KEY, PageCache
from rules_index.web.publishing import publish
from rules_index.web.state import served

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
URL = f"/de/{GAME}/faq/{FAQ}"


@contextmanager
def renders(app):
    """The names of the templates rendered inside the block."""
    names: list[str] = []

    def record(_sender, template, context, **_extra):
        names.append(template.name)

    with template_rendered.connected_to(record, app):
        yield names


@pytest.fixture()
def app(tmp_path):
    application = make_app(tmp_path / "instance", ROOT / "content")
    application.test_client().get("/api/v1/search?q=Dieb")  # builds the index first
    return application


def test_a_repeated_request_is_a_hit_and_renders_nothing(app):
    client, cache = app.test_client(), app.extensions[KEY]
    with renders(app) as first_renders:
        first = client.get(URL)
    assert first_renders == ["faq.html"] and (cache.hits, cache.misses) == (0, 1)
    with renders(app) as second_renders:
        second = client.get(URL)
    assert second_renders == [] and (cache.hits, cache.misses) == (1, 1)
    assert second.get_data() == first.get_data() and second.headers["ETag"] == first.headers["ETag"]
    stored = len(cache)
    with renders(app) as query_renders:
        client.get(URL + "?x=1")  # with a query string the page is rendered, never stored
    assert query_renders == ["faq.html"] and len(cache) == stored and (cache.hits, cache.misses) == (1, 1)


@pytest.mark.parametrize("url", [URL, "/de/", f"/en/{GAME}/", f"/it/{GAME}/coverage", "/en/search?q=thief", "/de/engine"])
def test_a_client_holding_the_page_gets_304_before_rendering(app, url):
    client = app.test_client()
    first = client.get(url)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag
    hits = app.extensions[KEY].hits
    with renders(app) as rendered:
        again = client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.data and rendered == []
    assert again.headers["ETag"] == tag and "no-cache" in again.headers["Cache-Control"]
    assert app.extensions[KEY].hits == hits  # answered before the page cache was asked
    other_lang = url.replace(url[1:3], "en" if url[1:3] != "en" else "it", 1)
    assert client.get(other_lang, headers={"If-None-Match": tag}).status_code == 200


def test_another_host_or_scheme_is_another_page(app):
    client = app.test_client()
    tag = client.get(URL).headers["ETag"]
    for base in ("https://localhost", "http://example.org"):
        response = client.get(URL, base_url=base, headers={"If-None-Match": tag})
        assert response.status_code == 200 and response.headers["ETag"] != tag


def test_the_tag_changes_when_an_accepted_change_is_published(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    client = app.test_client()
    url = f"/en/{GAME}/faq/{FAQ}"
    before = client.get(url)
    tag = before.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    entry = read_content(content)[0].game(GAME).faq_entry(FAQ)
    updates = {"en": {"answer": f"{entry.en.answer.rstrip()}\n\n[Flumphtastic.]{{.editorial}}"}}
    materialize(plan_faq_change(content, GAME, FAQ, updates, dt.date(2026, 12, 1)), content)
    with app.app_context():
        publish(changed=[(GAME, "faq", FAQ)])
    with renders(app) as rendered:
        after = client.get(url, headers={"If-None-Match": tag})
    assert after.status_code == 200 and rendered == ["faq.html"]
    assert after.headers["ETag"] != tag and "Flumphtastic" in after.get_data(as_text=True)
    assert client.get("/en/", headers={"If-None-Match": client.get("/en/").headers["ETag"]}).status_code == 304


def test_a_change_accepted_through_the_api_makes_new_tags(tmp_path):
    app = make_editor_site(tmp_path)
    client = app.test_client()
    url = f"/en/{GAME}/faq/{FAQ}"
    tag = client.get(url).headers["ETag"]
    home_tag = client.get("/en/").headers["ETag"]
    entry = read_content(app.content_dir)[0].game(GAME).faq_entry(FAQ)
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"en": {"answer": f"{entry.en.answer.rstrip()}\n\n[Flumphtastic.]{{.editorial}}"}}}
    accepted = submit_and_confirm(app, body)  # new words: a second editor confirms them
    assert accepted.status_code == 201, accepted.get_json()
    after = client.get(url, headers={"If-None-Match": tag})
    assert after.status_code == 200 and "Flumphtastic" in after.get_data(as_text=True)
    assert client.get("/en/", headers={"If-None-Match": home_tag}).status_code == 200  # a new generation


def test_a_page_rendered_while_the_process_switches_is_all_of_the_previous_version(tmp_path, monkeypatch):
    """Another process published; this one is still making its next snapshot: the page it
    renders meanwhile is the previous version's, whole (its text, its ETag, its
    X-Content-Version), and the next request after the switch is all of the new one."""
    from rules_index.search import searcher as searcher_module

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    writer = make_app(tmp_path / "instance", content)
    reader = make_app(tmp_path / "instance", content, SWITCH_WAIT_MS=0)
    client = reader.test_client()
    url = f"/en/{GAME}/faq/{FAQ}"
    first = client.get(url)
    go, warm = threading.Event(), searcher_module._Generation.warm

    def held_warm(self):
        assert go.wait(20)
        warm(self)

    monkeypatch.setattr(searcher_module._Generation, "warm", held_warm)
    entry = read_content(content)[0].game(GAME).faq_entry(FAQ)
    updates = {"en": {"answer": f"{entry.en.answer.rstrip()}\n\n[Flumphtastic.]{{.editorial}}"}}
    materialize(plan_faq_change(content, GAME, FAQ, updates, dt.date(2026, 12, 1)), content)
    with writer.app_context():
        publish(changed=[(GAME, "faq", FAQ)])
        published = served().current().version
    during = client.get(url)
    assert "Flumphtastic" not in during.get_data(as_text=True)
    assert during.headers["ETag"] == first.headers["ETag"] and during.headers["X-Content-Version"] == first.headers["X-Content-Version"]
    go.set()
    with reader.app_context():
        owner = served()
        for _ in range(400):
            if owner.current().version == published:
                break
            time.sleep(0.05)
    after = client.get(url, headers={"If-None-Match": during.headers["ETag"]})
    assert after.status_code == 200 and "Flumphtastic" in after.get_data(as_text=True)
    assert after.headers["X-Content-Version"] == published != first.headers["X-Content-Version"]
    assert after.headers["ETag"].strip('"').startswith(published[:12])


def test_a_commit_in_another_process_makes_new_tags(tmp_path):
    writer = make_app(tmp_path / "instance", ROOT / "content")
    reader = make_app(tmp_path / "instance", ROOT / "content")
    client, cache = reader.test_client(), reader.extensions[KEY]
    tag = client.get(URL).headers["ETag"]
    client.get(URL)
    assert (cache.hits, cache.misses) == (1, 1)
    with writer.app_context():
        session = writer.extensions[db.KEY]["sessions"]()
        session.commit()  # any commit of the other app writes a new stamp
        session.close()
    with renders(reader) as rendered:
        response = client.get(URL, headers={"If-None-Match": tag})
    assert response.status_code == 200 and rendered == ["faq.html"] and cache.misses == 2
    assert response.headers["ETag"] != tag


def test_without_the_page_cache_the_304s_stay(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content", PAGE_CACHE_BYTES=0)
    client = app.test_client()
    tag = client.get(URL).headers["ETag"]
    with renders(app) as rendered:
        assert client.get(URL).status_code == 200
        assert client.get(URL, headers={"If-None-Match": tag}).status_code == 304
    assert rendered == ["faq.html"]


def test_pages_are_bounded_in_bytes():
    cache = PageCache(64 * 1024)
    page = b"<!doctype html>" + b"x" * 8000
    for i in range(100):  # 800 kB of pages offered to a 64 KiB cache
        cache.put(f"tag-{i}", page + str(i).encode())
        assert cache.bytes <= 64 * 1024
    assert 3 <= len(cache) < 8
    assert cache.get("tag-99") == page + b"99"  # the page stored last is a hit
    assert cache.get("tag-0") is None
    assert (cache.hits, cache.misses) == (1, 1)


def test_the_bound_comes_from_the_config(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content", PAGE_CACHE_BYTES=123_456)
    assert app.extensions[KEY].max_bytes == 123_456
    off = make_app(tmp_path / "off", ROOT / "content", PAGE_CACHE_BYTES=0)
    assert KEY not in off.extensions
