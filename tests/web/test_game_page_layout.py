"""Game pages as served: collapsible entries, a labelled contents list, back-to-top links, quick
links to the characters from game.yaml, and the scripts that open entries and copy links."""
from __future__ import annotations

import re

import pytest

GAME = "ohne-furcht-und-adel"
CHARACTERS = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]


def html(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_every_entry_is_a_closed_details_with_its_anchor(client, app):
    page = html(client, f"/en/{GAME}/")
    with app.app_context():
        from rules_index.web.state import library

        game = library().game(GAME)
    for prefix, entries in (("faq-", game.faq), ("rule-", game.sections), ("mistake-", game.mistakes), ("term-", game.glossary)):
        for entry in entries:
            assert re.search(rf'<details class="entry [a-z]+" id="{prefix}{entry.id}">\s*<summary>', page), prefix + entry.id
    assert "<details open" not in page and " open>" not in page
    question = game.faq_entry("tie-break").en.question
    assert f"<summary><h3>{question}</h3></summary>" in page


@pytest.mark.parametrize("lang,heading", [("de", "Inhalt"), ("en", "Contents"), ("it", "Indice")])
def test_contents_list_is_a_labelled_nav_with_a_heading(client, lang, heading):
    page = html(client, f"/{lang}/{GAME}/")
    nav = re.search(r'<nav class="toc" aria-labelledby="toc-h">\s*<h2 id="toc-h">([^<]+)</h2>(.*?)</nav>', page, re.S)
    assert nav and nav.group(1) == heading
    assert 'href="#faq"' in nav.group(2) and 'href="#glossary"' in nav.group(2)
    # Every part of the page ends with a way back up.
    assert page.count('<p class="to-top"><a href="#top">') == 5


@pytest.mark.parametrize("lang,heading,first", [("de", "Charaktere und Rollen", "Meuchler"), ("en", "Characters and roles", "Assassin"), ("it", "Personaggi e ruoli", "Assassino")])
def test_quick_links_to_each_character(client, lang, heading, first):
    page = html(client, f"/{lang}/{GAME}/")
    nav = re.search(r'<nav class="roles" aria-labelledby="roles-h">\s*<h2 id="roles-h">([^<]+)</h2>(.*?)</nav>', page, re.S)
    assert nav and nav.group(1) == heading
    links = re.findall(r'<a href="#term-([a-z-]+)">([^<]+)</a>', nav.group(2))
    assert [target for target, _ in links] == CHARACTERS
    assert links[0][1] == first
    for target in CHARACTERS:
        assert f'id="term-{target}"' in page


def test_no_quick_links_for_a_game_without_roles(client):
    assert 'class="roles"' not in html(client, "/en/kardinal-und-koenig/")


def test_game_page_loads_the_disclosure_script(client):
    page = html(client, f"/de/{GAME}/")
    script = re.search(r'<script src="(/static/disclosure\.js\?v=[0-9a-f]+)" defer></script>', page)
    assert script
    with client.get(script.group(1)) as response:
        assert response.status_code == 200 and b"beforeprint" in response.get_data()


@pytest.mark.parametrize("lang,copy,copied", [("de", "Link kopieren", "Kopiert"), ("en", "Copy link", "Copied"), ("it", "Copia link", "Copiato")])
def test_faq_page_keeps_the_field_and_loads_the_copy_button(client, lang, copy, copied):
    page = html(client, f"/{lang}/{GAME}/faq/tie-break")
    assert re.search(r'<input id="link" type="text" readonly value="http://localhost/', page)
    assert re.search(rf'<script src="/static/copy-link\.js\?v=[0-9a-f]+" data-copy="{copy}" data-copied="{copied}"[^>]* defer></script>', page)


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_glossary_shows_a_terms_names_not_what_players_say(client, app, lang):
    """"Dieb (Räuber, Langfinger)", not "Dieb (Räuber, Langfinger, klauen, geklaut)": the players'
    words for a term are searched, not shown as its other names."""
    with app.app_context():
        from rules_index.web.state import library

        games = list(library())
    shown_said = 0
    for game in games:
        page = client.get(f"/{lang}/{game.slug}/").get_data(as_text=True)
        for term in game.glossary:
            text = term.text(lang)
            entry = re.search(rf'<details class="entry [a-z]+" id="term-{term.id}">\s*<summary>(.*?)</summary>', page, re.S)
            assert entry, term.id
            shown = re.search(r'<span class="aliases">\((.*?)\)</span>', entry.group(1))
            names = shown.group(1).split(", ") if shown else []
            assert [n.replace("&#39;", "'") for n in names] == text.aliases, (game.slug, term.id)
            shown_said += bool(set(text.said) & set(names))
    assert shown_said == 0 and any(t.text(lang).said for g in games for t in g.glossary)
