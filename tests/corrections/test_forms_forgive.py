"""Forms that forgive: pages as players write them (one rule for the form, the API and its
schema), problems summarised at the top of the form, and the reader's Markdown rendered safely
on the tracking page."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from rules_index.corrections.db import session
from rules_index.corrections.models import Report
from rules_index.page_numbers import PATTERN, normalize
from rules_index.render import reader_markdown

from formtools_shared import csrf_token

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
URL = f"/de/{GAME}/faq/{FAQ}/correction"


@pytest.mark.parametrize("written,stored", [
    ("2", "2"), ("S. 2", "2"), ("s.2", "2"), ("p. 2", "2"), ("P.2", "2"), ("pag. 2", "2"), ("Seite 12", "12"),
    ("pagina 3", "3"), ("page 4", "4"), ("pp. 5-6", "5-6"), ("S. 5–6", "5-6"), ("5 - 6", "5-6"), ("pagg. 5-6", "5-6"),
    ("S.\u00a02", "2"), ("007", "7"),
])
def test_pages_as_players_write_them(written, stored):
    assert normalize(written) == stored


@pytest.mark.parametrize("written", ["two", "S.", "x. 2", "2a", "S. 2, 3", "1234", "p 2 p", "-2", "S. -2", ""])
def test_what_is_not_a_page(written):
    with pytest.raises(ValueError):
        normalize(written)


def test_the_pattern_reads_the_same_in_json_schema():
    import jsonschema_rs

    schema = jsonschema_rs.validator_for({"type": "string", "pattern": f"^(?:{PATTERN})$"})
    for text in ["2", "S. 2", "pag. 2", "pp. 5–6", "S.\u00a02", "two", "x. 2", "S. 2, 3", "1234"]:
        try:
            normalize(text)
            python = True
        except ValueError:
            python = False
        assert schema.is_valid(text) == python, text


def _latest(app) -> Report:
    with app.app_context():
        found = session().scalars(select(Report).order_by(Report.id.desc())).first()
        session().expunge(found)
        return found


@pytest.mark.parametrize("written", ["S. 2", "p. 2", "pag. 2", "2"])
def test_report_form_takes_the_page_as_written(site_client, written):
    token = csrf_token(site_client.get(URL).get_data(as_text=True))
    response = site_client.post(URL, data={"csrf_token": token, "message": f"Seite falsch ({written})", "page": written},
                                follow_redirects=True)
    assert response.status_code in (200, 201)
    stored = _latest(site_client.application)
    assert stored.message == f"Seite falsch ({written})" and stored.page == "2"


def test_api_takes_the_page_as_written(site_client):
    body = {"game": GAME, "faq": FAQ, "lang": "en", "message": "Wrong page.", "page": "p. 5–6"}
    assert site_client.post("/api/v1/corrections", json=body).status_code == 201
    assert _latest(site_client.application).page == "5-6"
    refused = site_client.post("/api/v1/corrections", json={**body, "page": "the second"})
    assert refused.status_code == 400 and "page" in refused.get_json()["error"]


@pytest.mark.parametrize("lang,heading,page_error", [
    ("de", "Bitte prüfe das Formular", "Eine Seite wie 2, S. 2 oder p. 2 oder ein Bereich wie 5-6."),
    ("en", "Please check the form", "A page like 2, S. 2 or p. 2, or a range like 5-6."),
    ("it", "Controlla il modulo", "Una pagina come 2, p. 2 o pag. 2, o un intervallo come 5-6."),
])
def test_problems_are_summarised_at_the_top_with_links_to_their_fields(site_client, lang, heading, page_error):
    url = f"/{lang}/{GAME}/faq/{FAQ}/correction"
    token = csrf_token(site_client.get(url).get_data(as_text=True))
    response = site_client.post(url, data={"csrf_token": token, "message": "", "page": "the second"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    summary = re.search(r'<div class="error-summary" id="error-summary" role="alert" tabindex="-1"[^>]*>(.*?)</div>', page, re.S)
    assert summary, "no error summary"
    # Before the quoted answer and the form: on the first screen of a phone.
    assert page.index('id="error-summary"') < page.index('<blockquote class="current">') < page.index('<form method="post"')
    assert f"<h2 id=\"error-summary-h\">{heading}</h2>" in summary.group(1)
    links = re.findall(r'<a href="#(\w+)">([^<]+)</a>', summary.group(1))
    assert [target for target, _ in links] == ["message", "page"]
    assert page_error in links[1][1]
    assert "error-summary.js" in page


def test_tracking_page_renders_the_readers_markdown_safely(site_client):
    token = csrf_token(site_client.get(URL).get_data(as_text=True))
    message = "Das ist **falsch**:\n\n- Punkt *eins*\n- <script>alert(1)</script> [hier](javascript:alert(2))"
    response = site_client.post(URL, data={"csrf_token": token, "message": message}, follow_redirects=True)
    assert response.status_code in (200, 201)
    tracking = _latest(site_client.application).token
    status = site_client.get(f"/de/corrections/{tracking}").get_data(as_text=True)
    assert "<strong>falsch</strong>" in status and "<li>Punkt <em>eins</em></li>" in status
    assert "**falsch**" not in status
    assert "<script>alert" not in status and "&lt;script&gt;alert(1)&lt;/script&gt;" in status
    assert 'href="javascript:' not in status  # the link is not made: its text stays as typed


def test_reader_markdown_keeps_html_as_text():
    assert str(reader_markdown("a <b>b</b> & **c**")) == "<p>a &lt;b&gt;b&lt;/b&gt; &amp; <strong>c</strong></p>"
    assert str(reader_markdown("> quoted")).startswith("<blockquote>")
