"""The rendered-page cache never serves a stale FAQ page: another process's commit invalidates it."""
from __future__ import annotations

from app import ROOT
from apptools import make_app
from rules_index.corrections import db
from rules_index.web.page_cache import KEY

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
