"""An answer's history page: the reader's language first, each change as text with a word diff."""
from __future__ import annotations

import json
import re

import pytest
from markupsafe import Markup

from apptools import make_app
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.models import Change
from rules_index.html_diff import word_diff

URL = "/{lang}/tiny-game/faq/coin-count/history"
CITATION = {"source": "rulebook", "pages": 1, "section": {"de": "Material", "en": "Components", "it": "Materiale"}}


def entry(de_answer: str, en_answer: str, it_question: str, pages: int = 1) -> dict:
    return {
        "id": "coin-count",
        "citation": {**CITATION, "pages": pages},
        "de": {"question": "Wie viele Münzen gibt es?", "answer": de_answer},
        "en": {"question": "How many coins are there?", "answer": en_answer},
        "it": {"question": it_question, "answer": "Ci sono 12 monete."},
    }


@pytest.fixture()
def client(tmp_path, tiny_content):
    app = make_app(tmp_path / "instance", tiny_content)
    before = entry("Es gibt 12 Münzen.", "There are 12 coins.", "Quante monete ci sono?")
    after = entry(
        "Es gibt **zwölf** Münzen.\n\n- eine pro Runde",
        "There are **twelve** coins in the box.\n\n- one per round",
        "Quante monete ci sono in tutto?",
        pages=2,
    )
    with app.app_context():
        editor = add_editor(session(), "anna", "a-long-editor-password")
        session().add(Change(
            game="tiny-game", target_kind="faq", target_id="coin-count", editor_id=editor.id,
            before=json.dumps(before, ensure_ascii=False), after=json.dumps(after, ensure_ascii=False), patch="",
        ))
        session().commit()
    return app.test_client()


def sections(html: str) -> list[str]:
    return re.findall(r'<section class="change-text" lang="(\w+)">', html)


def test_reader_language_first_others_folded(client):
    html = client.get(URL.format(lang="en")).get_data(as_text=True)
    assert sections(html) == ["en", "de", "it"]
    own, _, others = html.partition('<details class="other-langs">')
    assert 'lang="en"' in own and 'lang="de"' in others and 'lang="it"' in others
    assert sections(client.get(URL.format(lang="it")).get_data(as_text=True)) == ["it", "de", "en"]
    assert sections(client.get(URL.format(lang="de")).get_data(as_text=True)) == ["de", "en", "it"]


def test_changes_are_rendered_text_with_a_word_diff(client):
    html = client.get(URL.format(lang="en")).get_data(as_text=True)
    assert "<pre" not in html and "**" not in html and "- one per round" not in html
    assert "There are <del>12</del> <strong><ins>twelve</ins></strong> coins <ins>in the box</ins>." in html
    assert "<li><ins>one per round</ins></li>" in html
    assert "Quante monete ci sono <ins>in tutto</ins>?" in html  # the question, word by word
    assert "Also changed: Source" in html
    de = client.get(URL.format(lang="de")).get_data(as_text=True)
    assert "Durchgestrichene Wörter wurden entfernt" in de and "Andere Sprachen" in de and "Quelle" in de


def test_history_of_an_unknown_entry_is_a_404(client):
    assert client.get("/en/tiny-game/faq/no-such-entry/history").status_code == 404


def test_word_diff_keeps_the_new_structure_and_marks_words():
    before = Markup("<p>The <strong>thief</strong> robs.</p><p>Gone.</p>")
    after = Markup("<p>The <strong>magician</strong> robs &amp; swaps.</p>")
    diff = str(word_diff(before, after))
    assert diff == "<p>The <strong><del>thief</del> <ins>magician</ins></strong> robs <ins>&amp; swaps</ins>.</p><del>Gone.</del>"
    assert word_diff(after, after) == after
    # Text stays escaped: a character reference is never split, markup in text never becomes a tag.
    assert str(word_diff(Markup("a &lt;b&gt; c"), Markup("a &lt;x&gt; c"))) == "a &lt;<del>b</del> <ins>x</ins>&gt; c"


def test_home_page_lists_each_other_title_once(client_real):
    # Adel Verpflichtet's other names: "Hoity Toity, Adel verpflichtet" (its own title in another
    # case) in German and Italian, "Adel Verpflichtet, Adel verpflichtet" in English.
    for lang, title, other in (("de", "Adel Verpflichtet", "Hoity Toity"), ("en", "Hoity Toity", "Adel Verpflichtet"),
                               ("it", "Adel Verpflichtet", "Hoity Toity")):
        html = client_real.get(f"/{lang}/").get_data(as_text=True)
        item = html[html.index(f">{title}</a>"):]
        alt = re.search(r'<p class="alt">([^<]*)</p>', item).group(1)
        assert alt.endswith(f" {other}") and "," not in alt, alt


@pytest.fixture()
def client_real(app):
    return app.test_client()
