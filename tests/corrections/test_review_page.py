"""The review of a report shows, first, the texts as readers read them: the question, the answer
now and as proposed, both rendered from Markdown (no marks), and a word diff between them; the
entry's YAML (citation, ruling, check) stays in the form for the accept, in a closed <details>."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from sqlalchemy import select

from apptools import real_library
from rules_index.content.marks import unmarked
from rules_index.corrections.db import session
from rules_index.corrections.models import Report
from rules_index.render import markdown_html

from formtools_shared import csrf_token, form_values, login

GAME, FAQ = "ohne-furcht-und-adel", "final-scoring-bonuses"
FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check",
          "base_version", "base_entry"]
YAML_FIELDS = ("citation", "ruling", "check")
# A word replaced and a sentence added, in words that state no fact of the ruling.
EDITS = {
    "de": ("Jedes Bauwerk zählt", "Jedes Bauwerk bringt", "zählt", "bringt", "Das steht auf Seite 2."),
    "en": ("Each district scores", "Each district earns", "scores", "earns", "See page 2."),
    "it": ("Ogni quartiere vale", "Ogni quartiere conta", "vale", "conta", "Vedi pagina 2."),
}
ACCEPT_LANGUAGE = {"de": "de-DE", "en": "en-GB", "it": "it-IT"}
# Raw Markdown marks: "[words]{fact=…}", "{.unchecked}", "{.editorial}".
MARK = re.compile(r"\]\{|\{fact=|\{\.(?:unchecked|editorial)\}")


class ShownClosed(HTMLParser):
    """What a page shows before any <details> is opened: the start tags and the text outside
    every closed <details> (a closed one's <summary> shows, the rest of it does not)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.closed_depth = 0  # inside this many <details> that are closed (counting from the first)
        self.in_summary = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "details" and (self.closed_depth or "open" not in attrs):
            self.closed_depth += 1
            return
        if tag == "summary" and self.closed_depth == 1:
            self.in_summary = True
        if not self.closed_depth or self.in_summary:
            self.tags.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag == "details" and self.closed_depth:
            self.closed_depth -= 1
        elif tag == "summary":
            self.in_summary = False

    def handle_data(self, data):
        if not self.closed_depth or self.in_summary:
            self.text.append(data)


def shown_closed(html: str) -> ShownClosed:
    parser = ShownClosed()
    parser.feed(html)
    return parser


def first_part(html: str) -> str:
    """The page from its heading to the accept form."""
    start, end = html.index("<h1"), html.index('<form method="post" class="entry-form"')
    return html[start:end]


def entry(lang: str):
    return real_library().game(GAME).faq_entry(FAQ).text(lang)


def proposed(lang: str) -> str:
    """A reader's proposal: the answer as readers read it, one word replaced and a sentence added."""
    old, new, _, _, added = EDITS[lang]
    return unmarked(entry(lang).answer).replace(old, new).rstrip() + " " + added


def open_review(site, lang: str, **target) -> tuple:
    client = site.test_client()
    token = client.post("/api/v1/corrections", json={
        "game": GAME, "lang": lang, "message": "Die Seitenzahl fehlt.",
        **(target or {"faq": FAQ, "proposed_answer": proposed(lang)})}).get_json()["token"]
    with site.app_context():
        rid = session().scalar(select(Report).where(Report.token == token)).id
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = ACCEPT_LANGUAGE[lang]
    assert login(client).status_code == 302
    response = client.get(f"/editor/reports/{rid}")
    assert response.status_code in (200, 400)
    return client, rid, response.get_data(as_text=True)


def blocks(html) -> list[str]:
    """The paragraphs and lists of a rendered answer (its lists are not nested)."""
    return re.findall(r"<p>.*?</p>|<ul>.*?</ul>", str(html), re.S)


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_review_shows_rendered_texts_and_a_word_diff_first(site, lang):
    _, _, html = open_review(site, lang)
    assert f'<html lang="{lang}">' in html
    part = first_part(html)
    assert entry(lang).question in part
    # The answer now and as proposed, rendered as readers read them (the list and the bold words
    # as HTML, the marks gone): the blocks both share once, then the paragraph now and proposed.
    now, proposal = markdown_html(entry(lang).answer), markdown_html(proposed(lang))
    assert len(blocks(now)) == 3 and "<li><strong>" in blocks(now)[1]
    for block in blocks(now) + blocks(proposal):
        assert block in part
    assert part.count(blocks(now)[1]) == 1 and part.count(blocks(now)[2]) == 1 and part.count(blocks(proposal)[2]) == 1
    assert not MARK.search(part)
    # The word diff: the replaced word struck, the new ones inserted.
    _, _, removed, inserted, added = EDITS[lang]
    diff = re.search(r'<div class="answer rendered diff"[^>]*>(.*?)</div>', part, re.S).group(1)
    assert f"<del>{removed}</del>" in diff and f"<ins>{inserted}</ins>" in diff
    assert re.search(rf"<ins>[^<]*{re.escape(added.split()[0])}[^<]*</ins>", diff)
    # Each text as a whole comes before the form.
    assert html.index(blocks(now)[0]) < html.index('class="entry-form"')


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_no_yaml_shows_outside_a_closed_details(site, lang):
    _, _, html = open_review(site, lang)
    shown = shown_closed(html)
    names = {attrs.get("name") for tag, attrs in shown.tags if tag in ("textarea", "input")}
    assert not names & set(YAML_FIELDS)
    text = "".join(shown.text)
    for yaml_text in ("probe: final_score", "source: rulebook", "facts:", "output: scores"):
        assert yaml_text not in text
    assert not MARK.search(text)
    # The YAML is still in the form, for editors who need it and for the accept to post.
    values = form_values(html, FIELDS)
    assert "probe: final_score" in values["check"] and "source: rulebook" in values["citation"]


def test_the_accept_posts_the_same_fields_and_works(site):
    client, rid, html = open_review(site, "de")
    values = form_values(html, FIELDS)
    assert all(values[name] for name in FIELDS)
    # The proposal is in the German answer with the stored marks back on its words.
    assert "{fact=colour-bonus}" in values["answer_de"] and "bringt" in values["answer_de"]
    response = client.post(f"/editor/reports/{rid}", data={"csrf_token": csrf_token(html), "action": "check", **values})
    assert response.status_code == 200
    checked = response.get_data(as_text=True)
    assert form_values(checked, FIELDS) == values
    assert "<del>zählt</del>" in first_part(checked)


def test_a_section_report_shows_the_section_rendered(site):
    body = real_library().game(GAME).section("goal").body("en")
    _, _, html = open_review(site, "en", section="goal", proposed_answer=body.rstrip() + "\n\nSee page 2.")
    part = first_part(html)
    assert blocks(markdown_html(body))[0] in part
    diff = re.search(r'<div class="answer rendered diff"[^>]*>(.*?)</div>', part, re.S).group(1)
    assert re.search(r"<ins>[^<]*page 2[^<]*</ins>", diff)
    assert "See page 2." in form_values(html, ["body_en"])["body_en"]  # in the form, closed
    assert "body_en" not in {attrs.get("name") for _, attrs in shown_closed(html).tags}


def test_a_report_without_a_proposal_shows_the_text_now(site):
    _, _, html = open_review(site, "it", faq=FAQ)
    part = first_part(html)
    assert blocks(markdown_html(entry("it").answer))[1] in part
    assert "Nessuna formulazione proposta." in part and 'class="answer rendered diff"' not in part
