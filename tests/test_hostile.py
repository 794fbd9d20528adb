"""A hostile generator over every route: odd query parameters, deep JSON, odd Host headers,
non-ASCII digits. No answer may be a server error.

The routes come from the app's URL map, so a new route is covered without touching this file;
each is filled with real values (a real game, entry, report, editor), so the views run for real
instead of stopping at a 404.
"""
from __future__ import annotations

import html
import itertools
import json
import re

import pytest
from werkzeug.test import EnvironBuilder

from app import ROOT
from apptools import make_app
from formtools_shared import EDITOR, PASSWORD, csrf_token, login
from rules_index.corrections import reports
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.web.state import library

GAME, FAQ = "ohne-furcht-und-adel", "warlord-destroy-cost"
# url_for's own options and names that routes use: each must be harmless as a query parameter.
URL_FOR_OPTIONS = ["_method", "_external", "_anchor", "_scheme"]
COMMON_NAMES = ["lang", "slug", "name", "q", "game", "next", "limit"]
HOSTILE_VALUES = ["", "POST\u202e\x00../"]
LONG_VALUE = "ja" * 2000
ODD_HOSTS = ["a" * 300, "exa mple.com", "ex\x00ample", "host:99999", "..", "a..b", "-bad-.com", "h\u00f6st.de\u202e",
             "[::1", "x" * 64 + ".com", "host:-1", "ho;st"]
NON_ASCII_DIGITS = ["\u00b3", "\u0663", "\u0b6b", "\uff15", "\u2464", "\U0001d7d9"]
DEPTH = 100_000


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory):
    """An app on the real content (read only) with one editor and one report; server errors are
    answered, not raised, so a crash shows as a 500 (as gunicorn would send it)."""
    application = make_app(tmp_path_factory.mktemp("hostile"), ROOT / "content", PROPAGATE_EXCEPTIONS=False)
    with application.app_context():
        add_editor(session(), EDITOR, PASSWORD)
        report = reports.store(session(), reports.validate_submission(library(), {
            "game": GAME, "faq": FAQ, "lang": "de", "message": "Stimmt das?"}))
        application.config["HOSTILE_VALUES"] = {
            "token": report.token, "report_id": report.id,
            "section_id": library().game(GAME).sections[0].id,
        }
    return application


def route_values(app) -> dict[str, object]:
    return {
        "lang": "de", "slug": GAME, "faq_id": FAQ, "name": "score", "calculator": "score",
        "kind": "faq", "target": FAQ, "flag_id": 1, "change_id": 1, "held_id": 1, "filename": "style.css",
        **app.config["HOSTILE_VALUES"],
    }


def routes(app, method: str) -> list[tuple[str, frozenset[str]]]:
    """Every route answering ``method``, as (a real path, the route's argument names)."""
    values = route_values(app)
    paths = []
    for rule in app.url_map.iter_rules():
        if method not in rule.methods:
            continue
        paths.append((app.url_map.bind("localhost").build(
            rule.endpoint, {arg: values[arg] for arg in rule.arguments}, method=method), frozenset(rule.arguments)))
    return sorted(set(paths))


def clients(app, path: str = "/editor/"):
    """An anonymous reader, and for the editor's pages a logged-in editor too."""
    reader = app.test_client()
    if not path.startswith("/editor/"):
        return [("reader", reader)]
    editor = app.test_client()
    assert login(editor).status_code == 302
    return [("reader", reader), ("editor", editor)]


def test_every_route_is_covered(hostile_app):
    # The generator really reaches the app's pages, not only a handful.
    assert len(routes(hostile_app, "GET")) >= 25
    assert len(routes(hostile_app, "POST")) >= 8


def test_get_routes_with_hostile_query_parameters(hostile_app):
    failures = []
    for path, own in routes(hostile_app, "GET"):
        names = sorted(own | set(COMMON_NAMES) | set(URL_FOR_OPTIONS))
        cases = [*itertools.product(names, HOSTILE_VALUES), *((name, LONG_VALUE) for name in own)]
        for who, client in clients(hostile_app, path):
            for name, value in cases:
                response = client.get(path, query_string={name: value})
                response.close()  # a file sent as is (the favicon) is closed with its response
                if response.status_code >= 500:
                    failures.append((who, path, name, value[:20], response.status_code))
    assert failures == []


def test_language_switch_keeps_the_query_but_not_as_route_arguments(hostile_app):
    client = hostile_app.test_client()
    page = client.get("/de/search", query_string={"q": "dieb", "lang": "it", "_external": "1"}).get_data(as_text=True)
    assert 'href="/en/search?q=dieb&amp;lang=it&amp;_external=1"' in page
    assert "http://localhosthttp" not in page


def test_deep_json_on_every_post_route(hostile_app):
    body = "[" * DEPTH + "]" * DEPTH
    failures = []
    for path, _own in routes(hostile_app, "POST"):
        for who, client in clients(hostile_app, path):
            for payload in (body, '{"a":' * DEPTH + "1" + "}" * DEPTH):
                response = client.post(path, data=payload, content_type="application/json")
                if response.status_code >= 500:
                    failures.append((who, path, response.status_code))
                if path.startswith("/api/") and response.status_code == 400:
                    assert "error" in response.get_json()
    assert failures == []


def test_json_with_a_valid_csrf_token_on_every_post_route(hostile_app):
    """Flask-WTF takes the token from an X-CSRFToken header and would read a JSON body as the
    form's fields: with a token anyone gets from the login page, a nested value or a body nested
    past the recursion limit must still be a clear answer, never a 500."""
    bodies = ["[" * DEPTH + "]" * DEPTH, '{"a":' * DEPTH + "1" + "}" * DEPTH,
              json.dumps({"name": {"a": 1}, "password": ["x"], "message": {"a": 1}, "reason": [1], "answer_en": {"x": 2}})]
    failures = []
    for path, _own in routes(hostile_app, "POST"):
        for who, client in clients(hostile_app, path):
            token = csrf_token(client.get("/editor/login" if who == "reader" else "/editor/").get_data(as_text=True))
            for payload in bodies:
                response = client.post(path, data=payload, content_type="application/json", headers={"X-CSRFToken": token})
                if response.status_code >= 500:
                    failures.append((who, path, payload[:12], response.status_code))
    assert failures == []


def test_deep_json_is_a_clear_400_on_the_api(hostile_app):
    response = hostile_app.test_client().post(
        "/api/v1/corrections", data="[" * DEPTH + "]" * DEPTH, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {"error": "body: the JSON is nested too deeply"}


def test_chunked_body_over_the_limit_is_413(hostile_app):
    big = json.dumps({"game": GAME, "faq": FAQ, "lang": "de", "message": "x" * (2 * 1024 * 1024)}).encode()
    response = hostile_app.test_client().post(
        "/api/v1/corrections", data=big, headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    assert response.status_code == 413
    assert "error" in response.get_json()


class BrokenChunks:
    """A server's reader of a chunked body whose chunk header is no size ("zz\\r\\nabc"): werkzeug's
    development server raises OSError("Invalid chunk header")."""

    def read(self, *_args):
        raise OSError("Invalid chunk header")


@pytest.mark.parametrize("path,lang,said", [
    ("/api/v1/corrections", None, "body: the chunked body cannot be read"),
    ("/de/ohne-furcht-und-adel/faq/thief-forbidden-targets/correction", "de", "konnte nicht gelesen werden"),
    ("/it/ohne-furcht-und-adel/faq/thief-forbidden-targets/correction", "it", "non si è potuto leggere"),
])
def test_a_chunked_body_that_cannot_be_read_is_400_in_the_readers_terms(hostile_app, path, lang, said):
    """It answered werkzeug's bare English 500, under /api/ too: the middleware read it outside Flask."""
    environ = EnvironBuilder(path=path, method="POST", headers={"Transfer-Encoding": "chunked"},
                             content_type="application/json" if lang is None else "application/x-www-form-urlencoded").get_environ()
    environ["wsgi.input"] = BrokenChunks()
    statuses = []
    body = b"".join(hostile_app.wsgi_app(environ, lambda status, headers, exc_info=None: statuses.append(status)))
    assert statuses[0].startswith("400")
    text = body.decode()
    if lang is None:
        assert json.loads(text) == {"error": "body: the chunked body cannot be read (a chunk header is no size); send it again"}
    else:
        assert f'<html lang="{lang}"' in text and said in text


def status_with_host(app, path: str, host: str) -> int:
    """Call the WSGI app directly: werkzeug's test client cannot itself parse some of these hosts."""
    environ = EnvironBuilder(path=path).get_environ()
    environ["HTTP_HOST"] = host
    statuses = []
    body = app.wsgi_app(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(body)
    return int(statuses[0].split()[0])


@pytest.mark.parametrize("host", ODD_HOSTS, ids=range(len(ODD_HOSTS)))
def test_odd_host_headers(hostile_app, host):
    for path in ["/de/", f"/de/{GAME}/faq/{FAQ}", "/api/v1/games", "/sitemap.xml", "/de/search?q=dieb", "/nowhere"]:
        assert status_with_host(hostile_app, path, host) < 500, (path, host)


def test_a_malformed_host_is_400_and_a_normal_one_is_served(hostile_app):
    assert status_with_host(hostile_app, "/de/", "a" * 300) == 400
    assert status_with_host(hostile_app, "/de/", "host:99999") == 400
    assert status_with_host(hostile_app, "/de/", "rules.example.org:8080") == 200


def numeric_form_fields(app) -> list[tuple[str, str, dict]]:
    """(calculator page, numeric field, the rest of a valid submission) for every numeric field."""
    fields = []
    for colour in ("yellow", "blue", "green", "red", "purple"):
        fields.append((f"/{{lang}}/{GAME}/calculators/score", f"{colour}0", {"name0": "Ada", "submit": "1"}))
    fields.append(("/{lang}/kardinal-und-koenig/calculators/monastery-score", "count0", {"name0": "Ada", "submit": "1"}))
    return fields


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_non_ascii_digits_in_numeric_form_fields(hostile_app, digit):
    client = hostile_app.test_client()
    for page, field, rest in numeric_form_fields(hostile_app):
        for lang in ("de", "en", "it"):
            response = client.get(page.format(lang=lang), query_string={**rest, field: digit})
            assert response.status_code == 200, (page, field)
            assert 'class="field-error"' in response.get_data(as_text=True), (page, field)


def test_field_error_is_in_the_readers_language(hostile_app):
    page = hostile_app.test_client().get(
        f"/it/{GAME}/calculators/score", query_string={"name0": "Ada", "yellow0": "\u00b3", "submit": "1"}).get_data(as_text=True)
    assert "I costi sono numeri interi da 1 a 6" in page


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_non_ascii_digits_in_api_numbers(hostile_app, digit):
    client = hostile_app.test_client()
    bodies = [
        (f"/api/v1/games/{GAME}/score", {"players": [{"name": "Ada", "districts": [{"color": "yellow", "cost": digit}]}]}),
        ("/api/v1/games/kardinal-und-koenig/monastery-score", {"monasteries": {"Ada": digit}}),
    ]
    for path, body in bodies:
        response = client.post(path, json=body)
        assert response.status_code == 400, path
        assert "error" in response.get_json()
    assert client.get("/api/v1/search", query_string={"q": "dieb", "limit": digit}).status_code < 500


@pytest.mark.parametrize("target", ["/de/\r\nSet-Cookie: x=1", "/de/\x00", "/de/\u2028x", "/editor/\x1b[31m"])
def test_control_characters_in_next_fall_back_to_the_queue(hostile_app, target):
    client = hostile_app.test_client()
    response = login(client, EDITOR, PASSWORD, next_url=target)
    assert response.status_code == 302
    assert response.headers["Location"] == "/editor/"


def test_numbers_too_large_for_a_row_are_missing_on_every_route(hostile_app):
    # A database's integers hold 64 bits: a larger number in an address is no row (404), never an
    # overflow in the driver (500), on every route that takes one, for a reader and an editor.
    failures, tried = [], 0
    for method in ("GET", "POST"):
        for rule in hostile_app.url_map.iter_rules():
            numbers = re.findall(r"<int:(\w+)>", rule.rule)
            if method not in rule.methods or not numbers:
                continue
            for number in (2**63, 10**20):
                values = {**route_values(hostile_app), **{arg: number for arg in numbers}}
                path = hostile_app.url_map.bind("localhost").build(rule.endpoint, {a: values[a] for a in rule.arguments}, method=method)
                for who, client in clients(hostile_app, path):
                    tried += 1
                    response = client.open(path, method=method)
                    if response.status_code != 404 or (path.startswith("/api/") and "error" not in (response.get_json() or {})):
                        failures.append((who, method, path, response.status_code))
    assert failures == []
    assert tried >= 16  # the editor's pages and the changes API take row numbers


@pytest.mark.parametrize("where", ["/api/v1/corrections/a\x00b", "/de/corrections/a\x00b", "/de/ohne-furcht-und-adel/faq/a\x00b",
                                   "/editor/reports/1\x00"])
def test_a_control_character_in_an_address_is_a_missing_page(hostile_app, where):
    response = hostile_app.test_client().get(where)
    assert response.status_code == 404
    if where.startswith("/api/"):
        assert "error" in response.get_json()


def test_no_text_with_nul_reaches_the_database(hostile_app):
    # Whatever path forgets to clean a text, the database never gets NUL (PostgreSQL cannot store
    # it: a 500; SQLite stores it and shows it to readers): the request gets a clear 400.
    from sqlalchemy import text

    from rules_index.corrections.db import UnstorableText, engine

    with hostile_app.app_context():
        with engine().connect() as connection:
            with pytest.raises(UnstorableText):
                connection.execute(text("SELECT :value"), {"value": "a\x00b"})
            assert connection.execute(text("SELECT :value"), {"value": "a b"}).scalar() == "a b"


def test_texts_of_editors_are_made_plain_before_they_are_stored(hostile_app):
    # The login name, a report's reject reason and a held change's note: NUL refused with a
    # message in the editor's language, reordering characters removed, nothing else stored.
    client = hostile_app.test_client()
    response = login(client, name="an\x00na")
    assert response.status_code in (200, 400, 401) and "U+0000" in response.get_data(as_text=True)
    assert login(client).status_code == 302
    report_id = hostile_app.config["HOSTILE_VALUES"]["report_id"]
    review = client.get(f"/editor/reports/{report_id}").get_data(as_text=True)
    response = client.post(f"/editor/reports/{report_id}", data={
        "csrf_token": csrf_token(review), "action": "reject", "reject-reason": "falsch\x00"})
    assert response.status_code in (200, 400) and "U+0000" in response.get_data(as_text=True)
    from rules_index.corrections.models import Report
    with hostile_app.app_context():
        assert session().get(Report, report_id).status == "pending"


def test_a_held_changes_note_is_made_plain_on_the_api(hostile_app):
    from rules_index.corrections.tokens import issue_token

    with hostile_app.app_context():
        token = issue_token(session(), EDITOR)
    client = hostile_app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    for note in ("a\x00b", "\x1b[31m"):
        response = client.post("/api/v1/changes/1/reject", json={"note": note}, headers=headers)
        assert response.status_code == 400 and response.get_json()["error"].startswith("note: "), note
    for body in ({"note": 5}, {"note": "x" * 2001}, {"why": "x"}):
        response = client.post("/api/v1/changes/1/reject", json=body, headers=headers)
        assert response.status_code in (400, 413) and "error" in response.get_json(), body
    assert client.post("/api/v1/changes/1/reject", json={"note": "fine\u202e"}, headers=headers).status_code == 404


RAW_QUERY_PAGES = ["/de/", "/de/search", f"/it/{GAME}/faq/{FAQ}", f"/de/{GAME}/calculators/score", "/opensearch.xml",
                   "/static/site.css", "/sitemap.xml", "/editor/login"]
RAW_QUERY_API = ["/api/v1/games", "/api/v1/search", f"/api/v1/games/{GAME}/faq/{FAQ}", "/oembed"]


def get_with_raw_query(app, path: str, query: str, **headers):
    """GET ``path`` with a QUERY_STRING of raw bytes (not percent-encoded), as PEP 3333 passes
    them to the app: each byte one latin-1 character ("\\xff" is the byte 0xff)."""
    response = app.test_client().get(path, headers=headers, environ_overrides={"QUERY_STRING": query})
    assert response.request.environ["QUERY_STRING"] == query  # what reached the app, unchanged
    return response


@pytest.mark.parametrize("query", ["q=\xff", "q=dieb&lang=\xe4", "\xed\xa0\x80"])
def test_a_query_string_of_raw_bytes_that_are_not_utf8_is_a_400_page_in_the_readers_language(hostile_app, query):
    for path in RAW_QUERY_PAGES:
        response = get_with_raw_query(hostile_app, path, query, **{"Accept-Language": "it"})
        assert response.status_code == 400, path
        page = html.unescape(response.get_data(as_text=True))
        lang = "de" if path.startswith("/de/") else "it"
        assert f'<html lang="{lang}">' in page and "<h1>" in page, path
        text = {"de": "Die Adresse enthält Zeichen, die kein Text sind.",
                "it": "L'indirizzo contiene caratteri che non sono testo."}[lang]
        assert text in page, path


@pytest.mark.parametrize("query", ["q=\xff", "url=http://localhost/de/\xc3(", "\xed\xa0\x80"])
def test_a_query_string_of_raw_bytes_that_are_not_utf8_is_a_400_with_error_on_the_api(hostile_app, query):
    for path in RAW_QUERY_API:
        response = get_with_raw_query(hostile_app, path, query)
        assert response.status_code == 400, path
        assert response.get_json() == {"error": "query: the query string is not UTF-8 text; percent-encode it"}, path


def test_raw_utf8_bytes_in_the_query_string_are_read_as_text(hostile_app):
    # What a server passes through unencoded but valid ("dieb" with an umlaut, as UTF-8 bytes): read as it is.
    response = get_with_raw_query(hostile_app, "/api/v1/search", "q=k\xc3\xb6nig")
    assert response.status_code == 200 and response.get_json()["query"] == "könig"



def test_with_trusted_hosts_another_sites_name_is_400_before_any_address_is_built(tmp_path):
    """``Host: evil.com`` was redirected to evil.com; Flask's own TRUSTED_HOSTS check failed inside
    the error page (a 500). Set as RULES_TRUSTED_HOSTS, a comma-separated list does too (without,
    any valid name is served: ``test_a_malformed_host_is_400_and_a_normal_one_is_served``)."""
    app = make_app(tmp_path / "instance", ROOT / "content", TRUSTED_HOSTS="rules.example.org, .example.net")
    assert app.config["TRUSTED_HOSTS"] == ["rules.example.org", ".example.net"]
    assert status_with_host(app, "/de", "evil.com") == 400
    assert status_with_host(app, "/de/", "evil.com:443") == 400
    assert status_with_host(app, "/de/", "rules.example.org") == 200
    assert status_with_host(app, "/de/", "www.example.net:8080") == 200
