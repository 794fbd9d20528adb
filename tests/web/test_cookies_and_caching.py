"""Cookies behind HTTPS, logins through a forwarding proxy, private pages and a small accept journal.

The session cookie is ``Secure`` whenever the request came over HTTPS (behind a trusted proxy:
its X-Forwarded-Proto) or RULES_HTTPS says yes in any usual spelling; a login over forwarded HTTPS
works without a Referer while posts from other origins are still refused; the tracking page of a
report is never kept by a cache; a finished accept keeps no copies of whole content files.
"""
from __future__ import annotations

import pytest

from app import ROOT
from apptools import make_app, make_editor_site

from formtools_shared import EDITOR, PASSWORD, csrf_token

HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.4"}
GAME = "ohne-furcht-und-adel"
REPORT = {"game": GAME, "faq": "tie-break", "lang": "de", "message": "Meine eigene Nachricht"}


def session_cookie(response) -> str:
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert cookies, "no session cookie set"
    return cookies[0]


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    return make_editor_site(tmp_path_factory.mktemp("proxied"), PROXY_HOPS=1)


def login(app, headers: dict, password: str = PASSWORD):
    client = app.test_client()
    token = csrf_token(client.get("/editor/login", headers=headers).get_data(as_text=True))
    return client.post("/editor/login", headers=headers,
                       data={"csrf_token": token, "name": EDITOR, "password": password, "next": "/editor/"})


def test_the_session_cookie_is_secure_over_forwarded_https_only(proxied):
    over_https = proxied.test_client().get("/editor/login", headers=HTTPS)
    assert "; Secure" in session_cookie(over_https)
    plain = proxied.test_client().get("/editor/login", headers={"X-Forwarded-For": "198.51.100.4"})
    assert "; Secure" not in session_cookie(plain)


@pytest.mark.parametrize("value,secure", [("1", True), ("true", True), ("TRUE", True), ("yes", True), ("on", True),
                                          ("0", False), ("false", False), ("off", False), ("", False)])
def test_rules_https_understands_the_usual_words(tmp_path, monkeypatch, value, secure):
    monkeypatch.setenv("RULES_HTTPS", value)
    app = make_app(tmp_path / "instance", ROOT / "content")
    response = app.test_client().get("/editor/login")
    assert ("; Secure" in session_cookie(response)) is secure


def test_a_rules_https_value_it_cannot_read_stops_the_start(tmp_path, monkeypatch):
    monkeypatch.setenv("RULES_HTTPS", "maybe")
    with pytest.raises(ValueError, match="RULES_HTTPS"):
        make_app(tmp_path / "instance", ROOT / "content")


def test_login_over_forwarded_https_works_without_a_referer(proxied):
    response = login(proxied, HTTPS)  # the test client sends neither Referer nor Origin
    assert response.status_code == 302 and response.headers["Location"].endswith("/editor/")
    assert "; Secure" in session_cookie(response)
    own = login(proxied, {**HTTPS, "Origin": "https://localhost"})
    assert own.status_code == 302


@pytest.mark.parametrize("header,value", [
    ("Origin", "https://evil.example"), ("Origin", "null"), ("Origin", "http://localhost"),
    ("Referer", "https://evil.example/login"),
    # Addresses urlsplit cannot read (an unbalanced "["): refused as any other origin, never a 500.
    ("Origin", "https://[::1"), ("Referer", "https://[localhost/editor/login"),
])
def test_posts_from_elsewhere_are_still_refused_over_https(proxied, header, value):
    response = login(proxied, {**HTTPS, header: value})
    assert response.status_code == 400


def test_a_post_without_its_csrf_token_is_refused_over_https(proxied):
    client = proxied.test_client()
    client.get("/editor/login", headers=HTTPS)
    response = client.post("/editor/login", headers={**HTTPS, "Origin": "https://localhost"},
                           data={"name": EDITOR, "password": PASSWORD})
    assert response.status_code == 400


def test_the_tracking_page_is_private_and_not_stored(proxied):
    client = proxied.test_client()
    token = client.post("/api/v1/corrections", json=REPORT).get_json()["token"]
    page = client.get(f"/de/corrections/{token}")
    assert page.status_code == 200 and "Meine eigene Nachricht" in page.get_data(as_text=True)
    for response in (page, client.get(f"/api/v1/corrections/{token}")):
        cache = response.headers["Cache-Control"]
        assert "private" in cache and "no-store" in cache and "public" not in cache
        assert "ETag" not in response.headers
    assert "public" in client.get(f"/de/{GAME}/faq/tie-break").headers["Cache-Control"]  # reader pages stay cacheable
