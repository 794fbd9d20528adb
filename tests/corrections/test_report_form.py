"""The report form starts from the current text, says what happens to the e-mail address, leads
back to the answer, and the tracking page repeats what was sent (never the e-mail address)."""
from __future__ import annotations

import re

import pytest

from rules_index.content.marks import unmarked
from rules_index.render import typed_text
from sqlalchemy import select

from rules_index.corrections.db import session
from rules_index.corrections.models import Report

from formtools_shared import csrf_token, form_values

GAME, FAQ, SECTION = "ohne-furcht-und-adel", "tie-break", "characters"
PRIVACY = {
    "de": "Nur für eine Antwort zu dieser Meldung",
    "en": "Only for a reply about this report: it is stored with the report and never shown on this site or passed on.",
    "it": "Solo per risponderti su questa segnalazione",
}


def entry(app, lang: str):
    with app.app_context():
        from rules_index.web.state import library

        game = library().game(GAME)
        return game.faq_entry(FAQ).text(lang), game.section(SECTION).body(lang)


def report(app, token: str) -> Report:
    with app.app_context():
        found = session().scalar(select(Report).where(Report.token == token))
        session().expunge(found)
        return found


def send(client, url: str, **fields) -> str:
    token = csrf_token(client.get(url).get_data(as_text=True))
    response = client.post(url, data={"csrf_token": token, **fields})
    assert response.status_code == 303  # post/redirect/get: a reload of the thanks page sends nothing
    thanks = client.get(response.headers["Location"])
    assert thanks.status_code == 200
    return thanks.get_data(as_text=True)


def tracking_token(thanks: str, lang: str) -> str:
    return re.search(rf'href="/{lang}/corrections/([\w-]+)"', thanks).group(1)


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_proposal_starts_with_the_current_answer_in_the_readers_language(site_client, lang):
    html = site_client.get(f"/{lang}/{GAME}/faq/{FAQ}/correction").get_data(as_text=True)
    answer, _ = entry(site_client.application, lang)
    # As readers read it: the words, without the marks that bind them to the engine and without
    # Markdown's signs ("Non l'**Assassino**" means nothing to a reader who edits it).
    prefilled = form_values(html, ["proposed_answer"])["proposed_answer"]
    assert prefilled == typed_text(unmarked(answer.answer))
    assert "]{fact=" not in html and "**" not in prefilled
    assert all(word in prefilled for word in re.findall(r"\*\*([^*]+)\*\*", unmarked(answer.answer)))
    assert PRIVACY[lang] in html
    # The privacy line and the hint are tied to their fields for screen readers.
    assert re.search(r'<input[^>]*aria-describedby="email-hint"[^>]*name="email"', html)
    assert 'id="email-hint"' in html


def test_section_report_starts_with_the_sections_text(site_client):
    html = site_client.get(f"/en/{GAME}/rules/{SECTION}/correction").get_data(as_text=True)
    _, body = entry(site_client.application, "en")
    assert form_values(html, ["proposed_answer"])["proposed_answer"] == typed_text(body)


def test_thanks_page_leads_back_to_the_answer(site_client):
    thanks = send(site_client, f"/it/{GAME}/faq/{FAQ}/correction", message="Pagina sbagliata")
    answer, _ = entry(site_client.application, "it")
    back = re.search(r'<p class="back"><a href="([^"]+)">([^<]+)</a>', thanks)
    assert back.group(1) == f"/it/{GAME}/faq/{FAQ}"
    assert answer.question.replace("'", "&#39;") in back.group(2)
    assert f'href="/it/{GAME}/"' not in thanks


def test_thanks_page_leads_back_to_the_rules_section(site_client):
    thanks = send(site_client, f"/de/{GAME}/rules/{SECTION}/correction", message="Tippfehler")
    assert re.search(rf'<p class="back"><a href="/de/{GAME}/#rule-{SECTION}">', thanks)


def test_unchanged_proposal_is_no_proposal(site_client):
    url = f"/en/{GAME}/faq/{FAQ}/correction"
    prefilled = form_values(site_client.get(url).get_data(as_text=True), ["proposed_answer"])["proposed_answer"]
    # As a browser sends it back: CRLF line ends.
    thanks = send(site_client, url, message="The page number is wrong.", proposed_answer=prefilled.replace("\n", "\r\n"))
    assert report(site_client.application, tracking_token(thanks, "en")).proposed_answer is None


def test_tracking_page_repeats_what_was_sent_but_not_the_email(site_client):
    url = f"/en/{GAME}/faq/{FAQ}/correction"
    thanks = send(site_client, url, message="Ties are <b>settled</b> differently.",
                  proposed_answer="The player with more gold wins.", page="2", email="reader@example.org")
    token = tracking_token(thanks, "en")
    stored = report(site_client.application, token)
    assert stored.proposed_answer == "The player with more gold wins." and stored.email == "reader@example.org"
    status = site_client.get(f"/en/corrections/{token}").get_data(as_text=True)
    assert "What you sent" in status
    assert "Ties are &lt;b&gt;settled&lt;/b&gt; differently." in status
    assert "The player with more gold wins." in status
    assert "reader@example.org" not in status and "example.org" not in status


def test_a_link_with_a_language_the_site_lacks_leads_to_the_report(site_client):
    thanks = send(site_client, f"/it/{GAME}/faq/{FAQ}/correction", message="La pagina è sbagliata.")
    token = tracking_token(thanks, "it")
    for path in (f"/xx/corrections/{token}", f"/fr/corrections/{token}/thanks"):
        moved = site_client.get(path)
        assert moved.status_code == 302, path
        assert moved.headers["Location"] == path.replace(path.split("/")[1], "it", 1)
        assert site_client.get(moved.headers["Location"]).status_code == 200
    unknown = site_client.get("/xx/corrections/no-such-token")
    assert unknown.status_code == 404


EXPIRED = {"de": "Das Formular war abgelaufen", "en": "The form had expired", "it": "Il modulo era scaduto"}


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_a_stale_form_comes_back_with_the_readers_text(site_client, lang):
    # A phone's browser restarted, cookies cleared: the form's token no longer fits. The reader
    # gets the form again with what they wrote and a fresh token, in their language; one report.
    url = f"/{lang}/{GAME}/faq/{FAQ}/correction"
    site_client.get(url)
    words = "Die Seite nennt 3 statt 2 Gold \u2013 bitte prüfen."
    response = site_client.post(url, data={"csrf_token": "stale", "message": words, "page": "2"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and EXPIRED[lang] in page and "CSRF" not in page
    assert form_values(page, ["message"])["message"] == words
    again = site_client.post(url, data={"csrf_token": csrf_token(page), **form_values(page, ["message", "page", "form_token"])})
    assert again.status_code == 303
    thanks = site_client.get(again.headers["Location"]).get_data(as_text=True)
    assert report(site_client.application, tracking_token(thanks, lang)).message == words


@pytest.mark.parametrize("lang", ["de", "it"])
def test_the_form_summary_reads_as_a_sentence(site_client, lang):
    url = f"/{lang}/{GAME}/faq/{FAQ}/correction"
    page = site_client.get(url).get_data(as_text=True)
    summary = site_client.post(url, data={"csrf_token": csrf_token(page), "message": " "}).get_data(as_text=True)
    assert "?:" not in summary and "error-summary" in summary


@pytest.mark.parametrize("lang,words", [("de", "Das Formular war abgelaufen"), ("it", "Il modulo era scaduto")])
def test_a_form_posted_without_its_token_says_what_to_do_in_the_readers_language(site_client, lang, words):
    # The editor's login and the other forms: Flask-WTF's English reason is not shown.
    site_client.get(f"/{lang}/")
    for path in ("/editor/login", f"/{lang}/{GAME}/faq/{FAQ}/correction"):
        response = site_client.post(path, data={"name": "anna", "password": "x", "message": "x"},
                                    headers={"Accept-Language": lang})
        page = response.get_data(as_text=True)
        assert response.status_code == 400 and words in page and "CSRF" not in page, path


@pytest.mark.parametrize("lang,words", [("de", "Dein Browser hat ein Feld ausgefüllt"), ("it", "Il browser ha compilato un campo")])
def test_a_filled_honeypot_gives_the_text_back_to_send_again(site_client, lang, words):
    # A browser's autofill may fill the field people never see: nothing is stored, the reader
    # keeps the text, in their language, and the next send (the field empty again) is stored.
    url = f"/{lang}/{GAME}/faq/{FAQ}/correction"
    page = site_client.get(url).get_data(as_text=True)
    text = "Seite 3 sagt etwas anderes."
    response = site_client.post(url, data={"csrf_token": csrf_token(page), "message": text, "website": "https://example.org",
                                           **form_values(page, ["form_token"])})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and words in page and "The browser (or proxy)" not in page
    assert form_values(page, ["message", "website"]) == {"message": text, "website": ""}
    again = site_client.post(url, data={"csrf_token": csrf_token(page), **form_values(page, ["message", "form_token"])})
    assert again.status_code == 303
    thanks = site_client.get(again.headers["Location"]).get_data(as_text=True)
    assert report(site_client.application, tracking_token(thanks, lang)).message == text


@pytest.mark.parametrize("lang,words", [("de", "Bitte beschreibe, was falsch ist."), ("it", "Descrivi che cosa è sbagliato.")])
def test_a_body_no_browser_form_sends_is_told_in_the_readers_language(site_client, lang, words):
    """JSON, plain text or a field sent as a file: no field of the form was sent as text."""
    url = f"/{lang}/{GAME}/faq/{FAQ}/correction"
    token = csrf_token(site_client.get(url).get_data(as_text=True))
    import io
    for kwargs in ({"json": {"csrf_token": token, "message": {"a": 1}}},
                   {"data": "message=x", "content_type": "text/plain"},
                   {"data": {"csrf_token": token, "message": (io.BytesIO(b"x"), "m.txt")}, "content_type": "multipart/form-data"}):
        response = site_client.post(url, **kwargs)
        page = response.get_data(as_text=True)
        assert response.status_code == 400 and words in page, kwargs
        assert "The browser (or proxy)" not in page and "Input should be" not in page
