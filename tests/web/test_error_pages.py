"""Error pages say what happened, in the reader's language: a text too long (413), too many
requests (429); the API names the same in its ``field: what`` form."""
from __future__ import annotations

import html
import re

import pytest

from app import ROOT
from apptools import make_app
from formtools_shared import csrf_token

FORM = "/{lang}/ohne-furcht-und-adel/faq/tie-break/correction"
REPORT = {"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de", "message": "Bitte prüfen"}


@pytest.mark.parametrize("lang,heading,text", [
    ("de", "Text zu lang", "Der gesendete Text ist zu lang."),
    ("en", "Text too long", "The text you sent is too long."),
    ("it", "Testo troppo lungo", "Il testo che hai inviato è troppo lungo."),
])
def test_a_body_over_the_limit_gets_a_page_saying_the_text_is_too_long(site_client, lang, heading, text):
    response = site_client.post(FORM.format(lang=lang), data={"message": "x" * (1024 * 1024 + 1)})
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html and text in html


def test_the_api_names_a_body_over_the_limit(site_client):
    response = site_client.post("/api/v1/corrections", data="{" + " " * (1024 * 1024) + "}", content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == "body: the text you sent is too long (at most 1048576 bytes)"


@pytest.mark.parametrize("lang,heading,text", [
    ("de", "Dein Hinweis ist noch nicht gesendet", "Bitte sende ihn in einer Minute noch einmal."),
    ("en", "Your report was not sent yet", "please send it again in a minute."),
    ("it", "La tua segnalazione non è ancora stata inviata", "inviala di nuovo tra un minuto."),
])
def test_a_report_sent_too_often_comes_back_with_the_readers_text(tmp_path, lang, heading, text):
    app = make_app(tmp_path / "instance", ROOT / "content", SUBMISSION_RATE_LIMIT="1 per minute")
    client = app.test_client()
    form = {"csrf_token": csrf_token(client.get(FORM.format(lang=lang)).get_data(as_text=True)), "message": "Bitte prüfen"}
    assert client.post(FORM.format(lang=lang), data=form).status_code == 303
    kept = {**form, "message": "Die Seite stimmt <nicht>", "page": "2"}
    response = client.post(FORM.format(lang=lang), data=kept)
    assert response.status_code == 429 and response.headers["Retry-After"] == "60"
    html = response.get_data(as_text=True)
    assert f"<h2>{heading}</h2>" in html and text in html
    assert "Die Seite stimmt &lt;nicht&gt;</textarea>" in html and 'value="2"' in html
    assert csrf_token(html)  # a fresh token: the kept text can be sent as it is


@pytest.mark.parametrize("body", ["large", "parts"])
def test_a_report_sent_too_often_and_too_large_is_told_it_is_too_large(tmp_path, body):
    """The 429 page keeps the reader's text, which it reads: a body over the limit, or of too many
    parts, raised while the error page was made (a 500)."""
    app = make_app(tmp_path / "instance", ROOT / "content", SUBMISSION_RATE_LIMIT="1 per minute")
    client = app.test_client()
    form = {"csrf_token": csrf_token(client.get(FORM.format(lang="de")).get_data(as_text=True)), "message": "Bitte prüfen"}
    assert client.post(FORM.format(lang="de"), data=form).status_code == 303
    if body == "large":
        response = client.post(FORM.format(lang="de"), data={**form, "message": "x" * (2 * 1024 * 1024)})
    else:
        parts = "".join(f'--x\r\nContent-Disposition: form-data; name="f{i}"\r\n\r\nv\r\n' for i in range(1200)) + "--x--\r\n"
        response = client.post(FORM.format(lang="de"), data=parts, content_type="multipart/form-data; boundary=x")
    assert response.status_code == 413
    assert '<html lang="de"' in response.get_data(as_text=True)


@pytest.mark.parametrize("lang,heading,text,back", [
    ("de", "Zu viele Anfragen", "Bitte versuche es später noch einmal.", "Zurück zum Formular"),
    ("en", "Too many requests", "Please try again later.", "Back to the form"),
    ("it", "Troppe richieste", "Riprova più tardi.", "Torna al modulo"),
])
def test_too_many_logins_get_a_page_saying_when_and_leading_back(tmp_path, lang, heading, text, back):
    app = make_app(tmp_path / "instance", ROOT / "content", LOGIN_RATE_LIMIT="1 per hour")
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    page = client.get("/editor/login").get_data(as_text=True)
    sent = {"csrf_token": csrf_token(page), "name": "nobody", "password": "wrong"}
    assert client.post("/editor/login", data=sent).status_code == 401
    response = client.post("/editor/login", data=sent)
    assert response.status_code == 429 and response.headers["Retry-After"] == "3600"
    html = response.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html and text in html
    assert f'<a href="/editor/login">{back}</a>' in html and "wrong" not in html


def test_the_api_says_too_many_requests(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content", SUBMISSION_RATE_LIMIT="1 per minute")
    client = app.test_client()
    assert client.post("/api/v1/corrections", json=REPORT).status_code == 201
    response = client.post("/api/v1/corrections", json=REPORT)
    assert response.status_code == 429
    assert response.get_json()["error"] == "rate limit: too many requests, try again in a minute"


GAME, FAQ = "ohne-furcht-und-adel", "warlord-destroy-cost"


@pytest.mark.parametrize("path", ["/api/v1/games", f"/api/v1/games/{GAME}/faq/{FAQ}", "/api/v1/search?q=dieb"])
def test_an_if_match_no_current_version_fits_is_a_412_with_error_on_the_api(client, path):
    # RFC 9110 13.1.1: the server evaluates If-Match on a GET too, and must not answer as if it
    # held; the 412 says so, without the document.
    response = client.get(path, headers={"If-Match": '"nope"'})
    assert response.status_code == 412
    assert response.get_json() == {"error": "If-Match: the current version of this resource has none of the entity tags given"}
    for fitting in (client.get(path).headers["ETag"], "*"):
        assert client.get(path, headers={"If-Match": fitting}).status_code == 200, fitting


@pytest.mark.parametrize("path,lang", [
    ("/de/", "de"), (f"/it/{GAME}/faq/{FAQ}", "it"), (f"/en/{GAME}/", "en"), ("/de/preview.png", "de"),
    ("/robots.txt", "it"), ("/sitemap.xml", "it"), ("/sw.js", "it"), ("/static/site.css", "it"), ("/favicon.ico", "it"),
])
def test_an_if_match_no_current_version_fits_is_a_412_page_in_the_readers_language(client, path, lang):
    heading, text = {
        "de": ("Version nicht verfügbar", "Dein Browser hat eine Version dieser Seite angefordert, die nicht die aktuelle ist."),
        "en": ("Version not available", "Your browser asked for a version of this page that is not the current one."),
        "it": ("Versione non disponibile", "Il tuo browser ha chiesto una versione di questa pagina che non è quella attuale."),
    }[lang]
    for method in ("GET", "HEAD"):
        response = client.open(path, method=method, headers={"If-Match": '"nope"', "Accept-Language": "it"})
        response.close()
        assert response.status_code == 412 and response.mimetype == "text/html", (path, method)
        assert "public" not in response.headers.get("Cache-Control", "") and "ETag" not in response.headers
        assert response.headers["Content-Security-Policy"]
    page = client.get(path, headers={"If-Match": '"nope"', "Accept-Language": "it"}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page and f"<h1>{heading}</h1>" in page and text in page
    # "*" holds for any page there is (RFC 9110 13.1.1).
    response = client.get(path, headers={"If-Match": "*"})
    response.close()
    assert response.status_code == 200


@pytest.mark.parametrize("method,path,lang,allowed", [
    ("PUT", "/de/", "de", {"GET", "HEAD", "OPTIONS"}),
    ("POST", "/robots.txt", "it", {"GET", "HEAD", "OPTIONS"}),
    ("DELETE", f"/en/{GAME}/faq/{FAQ}", "en", {"GET", "HEAD", "OPTIONS"}),
    ("PATCH", f"/it/{GAME}/faq/{FAQ}/correction", "it", {"GET", "HEAD", "OPTIONS", "POST"}),
])
def test_a_method_an_address_does_not_take_is_a_405_page_that_lists_the_allowed_ones(client, method, path, lang, allowed):
    heading, text = {
        "de": ("Methode nicht erlaubt", f"Diese Adresse nimmt diese Art von Anfrage ({method}) nicht an"),
        "en": ("Method not allowed", f"This address does not accept this kind of request ({method})"),
        "it": ("Metodo non consentito", f"Questo indirizzo non accetta questo tipo di richiesta ({method})"),
    }[lang]
    response = client.open(path, method=method, headers={"Accept-Language": "it"})
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) == allowed  # RFC 9110 15.5.6: a 405 lists them
    page = html.unescape(response.get_data(as_text=True))
    assert f'<html lang="{lang}">' in page and f"<h1>{heading}</h1>" in page and text in page
    # A request that can never succeed is not told to try again in a moment.
    assert not any(later in page for later in ("gleich noch einmal", "in a moment", "Riprova tra un momento"))


@pytest.mark.parametrize("method,path,allowed", [
    ("DELETE", "/api/v1/games", "GET, HEAD, OPTIONS"),
    ("GET", "/api/v1/corrections", "OPTIONS, POST"),
    ("PUT", f"/api/v1/games/{GAME}/score", "OPTIONS, POST"),
    ("POST", "/oembed", "GET, HEAD, OPTIONS"),
])
def test_a_method_an_address_does_not_take_is_a_405_with_error_and_allow_on_the_api(client, method, path, allowed):
    response = client.open(path, method=method)
    assert response.status_code == 405
    assert sorted(response.headers["Allow"].split(", ")) == allowed.split(", ")
    assert response.get_json() == {"error": f"method: {method} is not allowed here (allowed: {response.headers['Allow']})"}


@pytest.mark.parametrize("path", ["/editor/logout", "/editor/language"])
def test_a_get_of_an_editor_address_that_only_takes_posts_is_a_405_not_a_redirect_to_nowhere(client, path):
    # Before, "/editor/logout" matched a game page's address but for its trailing slash: a 308 to
    # "/editor/logout/", a page of no game (404).
    response = client.get(path)
    assert response.status_code == 405 and "Location" not in response.headers
    assert set(response.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}


@pytest.mark.parametrize("lang,path,title", [
    ("en", "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets/correction", "Found a mistake? · Who can&#39;t the Thief steal from?"),
    ("de", "/de/ohne-furcht-und-adel/rules/goal/correction", "Fehler entdeckt? · Spielziel"),
])
def test_the_report_forms_title_names_what_is_reported(tmp_path, lang, path, title):
    """The tab read "Found a mistake? · Rules Reference" for every answer and section."""
    client = make_app(tmp_path / "instance", ROOT / "content").test_client()
    html = client.get(path).get_data(as_text=True)
    shown = re.search(r"<title>(.*?)</title>", html).group(1)
    assert shown.startswith(title) and shown.count(" · ") == 2, shown
