"""Findable and shareable: structured data, alternates, sitemap, robots, OpenSearch, headers, caching."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

GAME = "ohne-furcht-und-adel"


def jsonld(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S).group(1))


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_game_page_has_faqpage(client, lang):
    data = jsonld(client.get(f"/{lang}/{GAME}/").get_data(as_text=True))
    assert data["@context"] == "https://schema.org" and data["@type"] == "FAQPage"
    questions = data["mainEntity"]
    assert len(questions) >= 16
    for q in questions:
        assert q["@type"] == "Question" and q["name"] and q["acceptedAnswer"]["@type"] == "Answer" and q["acceptedAnswer"]["text"]
        assert "<" not in q["acceptedAnswer"]["text"]


def test_permalink_has_qapage(client):
    html = client.get(f"/en/{GAME}/faq/thief-forbidden-targets").get_data(as_text=True)
    data = jsonld(html)
    assert data["@type"] == "QAPage"
    question = data["mainEntity"]
    assert question["@type"] == "Question" and question["answerCount"] == 1
    assert question["acceptedAnswer"]["citation"] == "German rulebook: p. 2 · Thief · German edition (Hans im Glück, 2000)"
    first_sentence = question["acceptedAnswer"]["text"].split(". ")[0]
    description = re.search(r'<meta property="og:description" content="([^"]+)"', html).group(1)
    assert description.startswith(first_sentence[:30])  # the answer: the question is the title
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert '<meta property="og:title" content="' in html


def test_every_page_links_opensearch_and_alternates(client):
    for url in ["/de/", f"/it/{GAME}/", f"/en/{GAME}/faq/tie-break", "/de/search?q=Dieb"]:
        html = client.get(url).get_data(as_text=True)
        assert 'type="application/opensearchdescription+xml"' in html
        assert 'hreflang="x-default"' in html and html.count('rel="alternate" hreflang=') == 4
        assert '<link rel="canonical" href="http://localhost/' in html


def test_sitemap_lists_every_page_in_every_language(client, app):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200 and response.mimetype == "application/xml"
    root = ET.fromstring(response.data)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = {el.text for el in root.findall("s:url/s:loc", ns)}
    with app.app_context():
        from rules_index.web.state import library
        faq_count = sum(len(g.faq) for g in library())
        games = len(library().games)
        from rules_index.web.calculator_forms import calculator_pages
        calculators = len(calculator_pages(library()))
    # Start pages, game pages, answers, calculators and each game's rule coverage.
    assert len(locs) == 3 * (1 + 2 * games + faq_count) + calculators
    assert f"http://localhost/it/{GAME}/faq/tie-break" in locs and f"http://localhost/en/{GAME}/calculators/score" in locs
    for url in sorted(locs):
        page = client.get(url.replace("http://localhost", ""))
        assert page.status_code == 200 and "noindex" not in page.get_data(as_text=True).split("<body", 1)[0], url
    assert all(url.findall("{http://www.w3.org/1999/xhtml}link[@hreflang='x-default']") for url in root.findall("s:url", ns))


def test_robots(client):
    body = client.get("/robots.txt").get_data(as_text=True)
    assert "Disallow: /editor/" in body and "Sitemap: http://localhost/sitemap.xml" in body


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_opensearch(client, lang):
    response = client.get(f"/opensearch.xml?lang={lang}")
    assert response.mimetype == "application/opensearchdescription+xml"
    root = ET.fromstring(response.data)
    templates = [el.get("template") for el in root if el.tag.endswith("Url")]
    assert f"http://localhost/{lang}/search?q={{searchTerms}}" in templates


def test_security_headers_on_every_response(client):
    for url in ["/de/", "/api/v1/games", "/nope", "/editor/login", "/static/site.css"]:
        with client.get(url) as response:
            headers = response.headers
            csp = headers["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert headers["Referrer-Policy"] and headers["X-Frame-Options"] == "DENY"


def test_hsts_only_over_tls(client):
    assert "Strict-Transport-Security" not in client.get("/de/").headers
    assert "max-age" in client.get("/de/", base_url="https://localhost").headers["Strict-Transport-Security"]


def test_pages_revalidate_with_etag(client):
    first = client.get(f"/de/{GAME}/")
    etag = first.headers["ETag"]
    again = client.get(f"/de/{GAME}/", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data


def test_static_assets_are_hashed_and_cached_long(client):
    html = client.get("/de/").get_data(as_text=True)
    href = re.search(r'href="(/static/site\.css\?v=[0-9a-f]{12})"', html).group(1)
    with client.get(href) as response:
        assert response.status_code == 200
        assert "max-age=31536000" in response.headers["Cache-Control"] and "immutable" in response.headers["Cache-Control"]


def test_no_external_resources(client):
    for url in ["/de/", f"/en/{GAME}/", f"/it/{GAME}/faq/tie-break"]:
        html = client.get(url).get_data(as_text=True)
        for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert ref.startswith(("/", "#", "http://localhost")), ref


def test_search_results_are_not_indexed_but_the_search_page_is(client):
    results = client.get("/en/search", query_string={"q": "thief"}).get_data(as_text=True)
    start = client.get("/en/search").get_data(as_text=True)
    assert '<meta name="robots" content="noindex">' in results
    assert 'name="robots"' not in start


def test_a_shared_search_previews_as_its_results(client):
    """A link to results keeps its question in its address (a chat that follows og:url shows the
    same results, not an empty search) and previews the best answer; its tracking is left out."""
    page = client.get("/it/search?q=il+re+assassinato+prende+la+corona%3F&utm_source=x").get_data(as_text=True)
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', page).group(1)
    assert canonical == "http://localhost/it/search?q=il+re+assassinato+prende+la+corona?"
    description = re.search(r'<meta property="og:description" content="([^"]+)"', page).group(1)
    card = re.search(r'<h2 id="best-q"><a href="[^"]+">([^<]+)</a>', page).group(1)
    assert description.startswith(f"Risposta migliore: {card} ")
    nothing = client.get("/it/search?q=zzzzqqq").get_data(as_text=True)
    said = re.search(r'<meta name="description" content="([^"]+)"', nothing).group(1)
    assert "Risposta migliore" not in said and "zzzzqqq" in said  # says that nothing matched, not the site's blurb


def test_a_shared_search_with_a_card_shows_the_answers_picture(client):
    """The site's picture was described as "Suche: …"; a search with a card shows what the answer's
    own page shows, and any other the site's picture, described as on the home page."""
    page = client.get("/it/search?q=il+re+assassinato+prende+la+corona%3F").get_data(as_text=True)
    card = re.search(r'<h2 id="best-q"><a href="/it/([^/]+)/faq/([^"]+)">', page)
    answer = client.get(f"/it/{card.group(1)}/faq/{card.group(2)}").get_data(as_text=True)
    for tag in ("og:image", "og:image:alt"):
        shown = re.search(rf'<meta property="{tag}" content="([^"]+)"', page).group(1)
        assert shown == re.search(rf'<meta property="{tag}" content="([^"]+)"', answer).group(1), tag
    none = client.get("/it/search?q=zzzzqqq").get_data(as_text=True)
    alt = re.search(r'<meta property="og:image:alt" content="([^"]+)"', none).group(1)
    assert re.search(r'<meta property="og:image" content="[^"]+/it/preview.png', none) and "zzzzqqq" not in alt


@pytest.mark.parametrize("lang,question,fit", [
    ("en", "game end", {2: "Two answers fit:", 3: "Three answers fit:"}),
    ("de", "Ende des Spiels", {2: "Zwei Antworten passen:", 3: "Drei Antworten passen:"}),
])
def test_a_shared_search_of_close_answers_previews_them(client, lang, question, fit):
    """A link to results with no single answer previewed as the site's blurb, as a search with no hits did."""
    page = client.get(f"/{lang}/search?q={question}").get_data(as_text=True)
    titles = re.findall(r'<li class="answer-card close-card">.*?<a href="[^"]+">([^<]+)</a>', page, re.S)
    description = re.search(r'<meta property="og:description" content="([^"]+)"', page).group(1)
    assert len(titles) >= 2 and description == f"{fit[len(titles)]} " + " · ".join(titles), (description, titles)


@pytest.mark.parametrize("lang,question", [("en", "how do you set up web of power"), ("it", "preparazione cittadelle")])
def test_a_shared_search_of_the_rules_at_large_previews_the_section(client, lang, question):
    """A question about the rules at large leads with the rules section: its link previews that
    section, not the site's blurb."""
    page = client.get(f"/{lang}/search?q={question}").get_data(as_text=True)
    first = re.search(r'<li class="hit ([^"]*)">.*?<a href="([^"]+)">([^<]+)</a>', page, re.S)
    description = re.search(r'<meta property="og:description" content="([^"]+)"', page).group(1)
    assert first.group(1) == "hit-section" and "#rule-" in first.group(2), first.group(0)
    assert description.startswith(f"{first.group(3)} · "), description


def test_a_shared_links_tracking_leaves_the_other_languages_clean(client):
    # hreflang and the language switch point to the page, not to a chat's utm_* parameters; a
    # missing page names no canonical address and no other languages of itself.
    page = client.get("/de/ohne-furcht-und-adel/faq/tie-break?utm_source=whatsapp&fbclid=x").get_data(as_text=True)
    alternates = re.findall(r'<link rel="alternate" hreflang="[^"]+" href="([^"]+)"', page)
    assert alternates and not any("utm_" in href or "fbclid" in href for href in alternates)
    missing = client.get("/de/ohne-furcht-und-adel/faq/no-such-entry").get_data(as_text=True)
    assert 'rel="canonical"' not in missing and 'hreflang="en"' not in missing.split("<body", 1)[0]


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_offline_page_is_not_for_search_engines(client, lang):
    page = client.get(f"/{lang}/offline").get_data(as_text=True)
    assert '<meta name="robots" content="noindex">' in page


@pytest.mark.parametrize("lang,start", [("de", "Regelfragen: Adel Verpflichtet, Kardinal"), ("en", "Rules questions: Citadels, Hoity Toity"),
                                         ("it", "Domande sulle regole: Adel Verpflichtet, Cittadelle")])
def test_the_home_pages_preview_names_the_games(client, lang, start):
    """A link to the site in a chat says what it is about: the games, each by its name there."""
    page = client.get(f"/{lang}/").get_data(as_text=True)
    og_title = re.search(r'<meta property="og:title" content="([^"]+)"', page).group(1)
    assert og_title.replace("&amp;", "&").startswith(start)
    assert re.search(r"<title>([^<]+)</title>", page).group(1).startswith(start.replace("&", "&amp;"))


@pytest.mark.parametrize("path,says", [
    ("/en/ohne-furcht-und-adel/calculators/score", "Final score pad for Citadels: enter the numbers of your game"),
    ("/it/kardinal-und-koenig/calculators/monastery-score", "per Kardinal &amp; König: inserisci i numeri della tua partita"),
    ("/de/ohne-furcht-und-adel/coverage", "Ohne Furcht und Adel: Jeder Abschnitt der Regelübersicht"),
])
def test_a_calculator_or_coverage_link_says_what_it_is(client, path, says):
    """Shared, a score pad's link previewed as the whole site's line ("Short answers to board game
    rules questions…"): it says what the page is, for which game."""
    page = client.get(path).get_data(as_text=True)
    for name in ("description", "og:description"):
        attribute = "name" if name == "description" else "property"
        assert says in re.search(rf'<meta {attribute}="{name}" content="([^"]+)"', page).group(1)
