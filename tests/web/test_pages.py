"""Reader pages through the test client: every page type in every language, and the 404s."""
from __future__ import annotations

import re

import pytest
from markupsafe import escape

from apptools import real_library

LANGS = ["de", "en", "it"]
GAME = "ohne-furcht-und-adel"


def html(response) -> str:
    return response.get_data(as_text=True)


@pytest.mark.parametrize("accept,expected", [
    ("it-IT,it;q=0.9", "/it/"), ("en-GB,en;q=0.8", "/en/"), ("fr", "/de/"), (None, "/de/"),
    # The first choice wins though only its region is given: "de;q=0.8" once beat "en-US".
    ("en-US,de;q=0.8", "/en/"), ("de-CH,en;q=0.5", "/de/"), ("en-US,it;q=0.5", "/en/"), ("fr-FR,it-CH;q=0.7,en;q=0.3", "/it/"),
])
def test_root_redirects_by_accept_language(client, accept, expected):
    headers = {"Accept-Language": accept} if accept else {}
    response = client.get("/", headers=headers)
    assert response.status_code == 302 and response.headers["Location"] == expected


@pytest.mark.parametrize("lang", LANGS)
def test_home_lists_games(client, lang):
    page = html(client.get(f"/{lang}/"))
    assert f'<html lang="{lang}">' in page
    for game in real_library():
        assert f'href="/{lang}/{game.slug}/"' in page and str(escape(game.title(lang))) in page
    assert f'action="/{lang}/search"' in page


@pytest.mark.parametrize("lang,title,stand", [("de", "Ohne Furcht und Adel", "Stand"), ("en", "Citadels", "Last checked"), ("it", "Cittadelle", "Aggiornato al")])
def test_game_page(client, lang, title, stand):
    page = html(client.get(f"/{lang}/{GAME}/"))
    assert f"<h1>{title}</h1>" in page
    assert stand in page
    assert 'id="faq-thief-forbidden-targets"' in page
    assert 'id="rule-' in page and 'id="mistake-' in page and 'id="term-' in page
    assert f'href="/{lang}/{GAME}/faq/warlord-destroy-cost"' in page
    assert 'id="note-' in page  # the Italian source's deviations


@pytest.mark.parametrize("lang,label", [("de", "Regelheft: S. 2 · Dieb"), ("en", "German rulebook: p. 2 · Thief"), ("it", "Regolamento tedesco: p. 2 · Ladro")])
def test_faq_permalink(client, lang, label):
    page = html(client.get(f"/{lang}/{GAME}/faq/thief-forbidden-targets"))
    assert label in page
    assert f'<link rel="canonical" href="http://localhost/{lang}/{GAME}/faq/thief-forbidden-targets">' in page
    for other in LANGS:
        assert f'<link rel="alternate" hreflang="{other}" href="http://localhost/{other}/{GAME}/faq/thief-forbidden-targets">' in page
        if other != lang:  # the language switch stays on the entry
            assert f'<a href="/{other}/{GAME}/faq/thief-forbidden-targets" hreflang="{other}" lang="{other}">' in page
    assert f'hreflang="x-default" href="http://localhost/de/{GAME}/faq/thief-forbidden-targets"' in page
    assert re.search(rf'href="/{lang}/{GAME}/#rule-[a-z0-9-]+"', page)
    assert 'readonly value="http://localhost/' in page


@pytest.mark.parametrize("lang,query,expected", [
    ("de", "Darf der Söldner eine fertige Stadt angreifen?", "warlord-complete-city"),
    ("en", "can the thief rob the assassin", "thief-forbidden-targets"),
    ("it", "il re assassinato prende la corona", "assassinated-king-crown"),
])
def test_search_page(client, lang, query, expected):
    page = html(client.get(f"/{lang}/search", query_string={"q": query}))
    assert f'href="/{lang}/{GAME}/faq/{expected}"' in page
    assert "<mark" in page


def test_search_page_shows_the_corrected_question_and_offers_the_words_as_typed(client):
    page = html(client.get("/de/search?q=Baumiester"))
    assert "Ergebnisse für" in page and "Baumeister" in page and "Meintest du" not in page
    assert "stattdessen suchen nach" in page and "as_typed=1" in page
    as_typed = html(client.get("/de/search?q=Baumiester&as_typed=1"))
    assert "Meintest du" in as_typed and "Baumeister" in as_typed and "Ergebnisse für" not in as_typed


@pytest.mark.parametrize("lang,words", [("de", "Zum Beispiel"), ("en", "For example"), ("it", "Per esempio")])
def test_an_empty_search_shows_the_search_page_with_examples(client, lang, words):
    for url in (f"/{lang}/search", f"/{lang}/search?q=", f"/{lang}/search?q=+++"):
        response = client.get(url)
        assert response.status_code == 200
        page = html(response)
        assert words in page and 'class="examples"' in page and 'id="q-page"' in page


@pytest.mark.parametrize("lang,query,words", [("en", "Citadels", "All its questions and the rules summary"),
                                              ("de", "wie spielt man ohne furcht und adel", "Alle Fragen und die Regelübersicht"),
                                              ("it", "cittadelle ladro", "Tutte le domande e il riassunto delle regole")])
def test_a_question_naming_a_game_leads_to_the_games_page(client, lang, query, words):
    """A game's name typed alone gave its facts and nothing more: no way on to its questions."""
    page = html(client.get(f"/{lang}/search", query_string={"q": query}))
    assert re.search(rf'<p class="picked">.*<a href="/{lang}/{GAME}/">{words}</a>', page, re.S), page


@pytest.mark.parametrize("lang,query,words", [("de", "Regeln", "Welches Spiel meinst du?"), ("en", "rules", "Which game do you mean?"),
                                              ("it", "ladro", "Quale gioco intendi?")])
def test_a_word_alone_asks_which_game_is_meant(client, lang, query, words):
    """A word alone that names no game ("Regeln", "ladro") is no question of one game: the page
    offers the word asked of each game."""
    page = html(client.get(f"/{lang}/search", query_string={"q": query}))
    line = re.search(r'<p class="which-game">(.*?)</p>', page, re.S)
    assert line and words in line.group(1), page
    assert f'href="/{lang}/search?q={query}&amp;game={GAME}"' in line.group(1)
    listed = set(re.findall(rf'href="/{lang}/search\?q={query}&amp;game=([a-z-]+)"', line.group(1)))
    results = re.search(r'<ol class="results">(.*?)</ol>', page, re.S).group(1)
    shown = set(re.findall(rf'href="/{lang}/([a-z-]+)/', results))
    assert len(listed) >= 2 and listed == shown  # each game the results come from
    picked = html(client.get(f"/{lang}/search", query_string={"q": query, "game": GAME}))
    assert 'class="which-game"' not in picked
    asked = html(client.get(f"/{lang}/search", query_string={"q": "darf der Dieb den Meuchler bestehlen"}))
    assert 'class="which-game"' not in asked


@pytest.mark.parametrize("lang,query", [("en", "Händler"), ("de", "Händler"), ("it", "Mercante")])
def test_a_word_of_one_game_alone_asks_no_game(client, lang, query):
    """"Händler" asked which game: Citadels or Hoity Toity, whose "Handlungskarte" shares only
    the word's first letters. A game is offered only where its texts hold the word itself."""
    page = html(client.get(f"/{lang}/search", query_string={"q": query}))
    assert 'class="which-game"' not in page and f"/{lang}/{GAME}/" in page


@pytest.mark.parametrize("lang,query", [("de", "söldner"), ("en", "warlord"), ("it", "condottiero")])
def test_a_word_of_one_game_alone_does_not_ask_which_game(client, lang, query):
    page = html(client.get(f"/{lang}/search", query_string={"q": query}))
    assert set(re.findall(rf'href="/{lang}/([a-z-]+)/(?:faq|rules)/', page)) == {GAME}
    assert 'class="which-game"' not in page


def test_search_page_without_match_helps(client):
    page = html(client.get("/en/search?q=xylophon+quokka"))
    assert "No answer matches" in page
    assert 'href="/en/kardinal-und-koenig/"' in page


def test_search_page_game_filter(client):
    page = html(client.get("/de/search?q=Dieb&game=adel-verpflichtet"))
    links = re.findall(r'<li class="hit[^"]*">.*?<a href="/de/([a-z-]+)/', page, re.S)
    assert links and set(links) == {"adel-verpflichtet"}


def test_search_page_has_one_form_and_leads_with_the_answer(client):
    page = html(client.get("/it/search", query_string={"q": "il re assassinato prende la corona?"}))
    assert page.count("<form") == 1
    main = page[page.index("<main"):]
    card = main.index('class="answer-card"')
    assert card < main.index('class="hit hit-faq"') if 'class="hit hit-faq"' in main else True
    assert "/it/ohne-furcht-und-adel/faq/assassinated-king-crown" in main[card:card + 600]
    assert "Sì" in main[card:card + 1200]  # the verdict is kept in the snippet


def test_a_mistake_is_shown_refuted(client):
    page = html(client.get("/en/search", query_string={"q": "thief steal assassin"}))
    item = re.search(r'<li class="hit hit-mistake">(.*?)</li>', page, re.S)
    assert item is not None
    assert "✗ Mistake:" in item.group(1) and "✓ Correct:" in item.group(1)
    assert 'href="/en/ohne-furcht-und-adel/faq/' in item.group(1)


def test_search_page_escapes_the_query(client):
    page = html(client.get("/de/search", query_string={"q": "<script>alert(1)</script>"}))
    assert "<script>alert(1)</script>" not in page


@pytest.mark.parametrize("url,accept,lang,text", [
    ("/xx/", "en-GB,en;q=0.8", "en", "Page not found"),
    ("/fr/search?q=x", "it-IT,it;q=0.9,en;q=0.5", "it", "Pagina non trovata"),
    ("/EN/nope/", "de", "en", "Page not found"),
    ("/xx/", "fr", "de", "Seite nicht gefunden"),
])
def test_a_missing_page_outside_a_language_speaks_the_browsers_language_and_offers_every_game(client, app, url, accept, lang, text):
    response = client.get(url, headers={"Accept-Language": accept})
    page = html(response)
    assert response.status_code == 404 and f'<html lang="{lang}">' in page and text in page
    assert "Accept-Language" in response.headers.get("Vary", "")
    with app.app_context():
        from rules_index.web.state import library
        games = list(library())
    assert games and all(f'href="/{lang}/{game.slug}/"' in page and str(escape(game.title(lang))) in page for game in games)


@pytest.mark.parametrize("url,lang,text", [
    ("/xx/", "de", "Seite nicht gefunden"),
    ("/de/nope/", "de", "Seite nicht gefunden"),
    ("/en/nope/", "en", "Page not found"),
    ("/it/nope/", "it", "Pagina non trovata"),
    (f"/en/{GAME}/faq/nope", "en", "Page not found"),
    (f"/it/{GAME}/faq/nope", "it", "Pagina non trovata"),
    ("/fr/search?q=x", "de", "Seite nicht gefunden"),
])
def test_not_found_pages_in_readers_language(client, url, lang, text):
    response = client.get(url)
    assert response.status_code == 404
    page = html(response)
    assert f'<html lang="{lang}">' in page and text in page


@pytest.mark.parametrize("lang,heading", [("de", "Regelabdeckung"), ("en", "Rule coverage"), ("it", "Copertura delle regole")])
def test_coverage_page_lists_every_section(client, app, lang, heading):
    with app.app_context():
        from rules_index.web.state import library
        game = library().game(GAME)
    page = html(client.get(f"/{lang}/{GAME}/coverage"))
    assert f"<h1>{heading}</h1>" in page
    for section in game.sections:
        assert f"#rule-{section.id}" in page
    assert f'href="/{lang}/{GAME}/coverage"' in html(client.get(f"/{lang}/{GAME}/"))


@pytest.mark.parametrize("lang,question,note", [
    ("en", "game end", "These answers come from different games"),
    ("de", "Gleichstand", "Diese Antworten stammen aus verschiedenen Spielen"),
    ("it", "fine della partita", "Queste risposte vengono da giochi diversi"),
])
def test_close_answers_of_different_games_ask_for_the_game(client, lang, question, note):
    page = html(client.get(f"/{lang}/search", query_string={"q": question}))
    assert note in page and "close-card" in page


def test_close_answers_of_one_game_ask_for_the_situation(client, app):
    with app.test_request_context():
        from rules_index.web.state import search_results
        questions = ["wie viele räte max in einem land", "zwei detektive im schloss", "thief gold", "council limit"]
        one_game = next((q for q in questions if len({h.game for h in search_results(q, "de").hits if h.close}) == 1), None)
    assert one_game is not None
    page = html(client.get("/de/search", query_string={"q": one_game}))
    assert "close-card" in page and "verschiedenen Spielen" not in page


def test_an_address_pasted_with_a_trailing_slash_leads_to_the_page(client):
    page = f"/en/{GAME}/faq/tie-break"
    response = client.get(f"{page}/", query_string={"utm": "chat"})
    assert response.status_code == 308 and response.headers["Location"] == f"{page}?utm=chat"
    assert client.post(f"/en/{GAME}/faq/tie-break/").status_code in (404, 405)
    for missing in ("/en/no/such/page/", "/api/v1/games/"):
        assert client.get(missing).status_code == 404


def test_an_address_with_another_name_of_the_game_leads_to_the_game(client):
    # Readers type the name of the edition they own: Citadels, Cittadelle, Kardinal & König.
    cases = {
        "/en/citadels": f"/en/{GAME}/",
        "/it/Cittadelle/": f"/it/{GAME}/",
        "/en/citadels/faq/tie-break": f"/en/{GAME}/faq/tie-break",
        "/en/citadels/faq/tie-break/": f"/en/{GAME}/faq/tie-break",
        "/de/kardinal-koenig": "/de/kardinal-und-koenig/",
        "/en/hoity-toity/": "/en/adel-verpflichtet/",
        # Capitals, the sign of the sentence the link was copied from, no language at all.
        f"/en/{GAME.upper()}/faq/TIE-BREAK": f"/en/{GAME}/faq/tie-break",
        f"/EN/{GAME}/faq/tie-break": f"/en/{GAME}/faq/tie-break",
        f"/en/{GAME}/faq/tie-break.": f"/en/{GAME}/faq/tie-break",
        f"/en/{GAME}/faq/tie-break)": f"/en/{GAME}/faq/tie-break",
        f"/{GAME}/faq/tie-break": f"/de/{GAME}/faq/tie-break",  # the browser says no language: German
        "/citadels": f"/de/{GAME}/",
    }
    for typed, page in cases.items():
        response = client.get(typed, follow_redirects=True)
        assert response.status_code == 200 and response.request.path == page, typed
        assert all(step.status_code == 308 for step in response.history), typed
    for missing in ("/en/citadel", "/en/citadels/faq/no-such-entry", "/xx/citadels", "/no/such/page"):
        assert client.get(missing, follow_redirects=True).status_code == 404, missing
    # Without a language, the browser's.
    response = client.get(f"/{GAME}/faq/tie-break", headers={"Accept-Language": "it-IT,it;q=0.9"}, follow_redirects=True)
    assert response.request.path == f"/it/{GAME}/faq/tie-break"


def test_a_missing_answers_suggestions_are_of_the_game_in_its_address(client):
    page = client.get(f"/it/{GAME}/faq/ladro").get_data(as_text=True)
    suggested = re.findall(r'href="/it/([a-z-]+)/(?:faq/|#)', page.split("<main", 1)[1])
    assert suggested and set(suggested) == {GAME}


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_games_are_listed_by_their_title_in_the_readers_language(client, lang):
    """An English reader looks for Citadels under C, not under O for its German title."""
    from html import unescape

    from rules_index.folding import fold

    for url in (f"/{lang}/", f"/{lang}/search?q=qqqxzzv", f"/{lang}/no-such-page/"):
        page = client.get(url).get_data(as_text=True)
        main = page[page.index("<main"):]
        titles = re.findall(r'<a href="/%s/([a-z-]+)/">([^<]+)</a>' % lang, main)
        titles = [unescape(t) for _slug, t in titles]
        assert len(titles) >= 4, url
        assert titles == sorted(titles, key=fold), (url, titles)
