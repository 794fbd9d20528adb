"""An answer outside the site: link-preview texts, picture, oEmbed card, quotes, language hints,
and calculator results that keep their result in their link and preview. Over every answer in
every language where the check is cheap."""
from __future__ import annotations

import html as html_lib
import json
import io
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image

from apptools import real_library
from rules_index.content import LANGS
from rules_index.render import plain_text
from rules_index.previews import answer_preview, quote_markdown, quote_text, verdict_sentence

ANSWERS = [(game.slug, faq.id) for game in real_library() for faq in game.faq]
BARE_VERDICTS = {"ja", "nein", "yes", "no", "sì", "si", "doch"}
PAGE_WORD = {"de": "S.", "en": "p.", "it": "p."}


def meta(page: str, attr: str, name: str) -> str | None:
    found = re.search(rf'<meta {attr}="{re.escape(name)}" content="([^"]*)"', page)
    return html_lib.unescape(found.group(1)) if found else None


def link_href(page: str, type_: str) -> str | None:
    found = re.search(rf'<link rel="alternate" type="{re.escape(type_)}" href="([^"]*)"', page)
    return html_lib.unescape(found.group(1)) if found else None


def local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def check_oembed(card: dict, max_width: int | None = None, max_height: int | None = None) -> None:
    """The oEmbed 1.0 rules (oembed.com, section 2.3.4) for a ``rich`` answer."""
    assert card["version"] == "1.0"
    assert card["type"] == "rich"
    assert isinstance(card["html"], str) and card["html"].strip()
    for key in ("width", "height"):
        assert isinstance(card[key], int) and not isinstance(card[key], bool) and card[key] > 0
    assert isinstance(card["provider_name"], str) and card["provider_name"]
    assert urlsplit(card["provider_url"]).scheme in ("http", "https")
    assert isinstance(card.get("cache_age", 0), int)
    thumbnail = [key in card for key in ("thumbnail_url", "thumbnail_width", "thumbnail_height")]
    assert all(thumbnail) or not any(thumbnail), "thumbnail_url, _width and _height come together"
    if max_width is not None:
        assert card["width"] <= max_width and card.get("thumbnail_width", 0) <= max_width
    if max_height is not None:
        assert card["height"] <= max_height and card.get("thumbnail_height", 0) <= max_height
    assert "<script" not in card["html"].lower() and "<iframe" not in card["html"].lower()


@pytest.mark.parametrize("lang", LANGS)
def test_every_answer_previews_with_question_verdict_page_and_oembed(client, lang):
    library = real_library()
    for slug, faq_id in ANSWERS:
        game = library.game(slug)
        entry = game.faq_entry(faq_id)
        page = client.get(f"/{lang}/{slug}/faq/{faq_id}").get_data(as_text=True)
        description = meta(page, "name", "description")
        where = f"{lang}/{slug}/{faq_id}"
        assert description == meta(page, "property", "og:description") == meta(page, "name", "twitter:description"), where
        assert len(description) >= 30, where
        preview = answer_preview(game, entry, lang)
        # The question is the title: the description gives the answer, not the question again.
        assert description == f"{preview.verdict} ({preview.citation})" and preview.question not in description, where
        assert len(description) <= 300, where
        verdict = preview.verdict
        assert len(verdict.split()) > 3 and verdict.strip(" .!,:").lower() not in BARE_VERDICTS, (where, verdict)
        if entry.citation.pages:
            assert f"{PAGE_WORD[lang]} {entry.citation.pages[0]}" in description, where
        assert meta(page, "property", "og:type") == "article", where
        image = meta(page, "property", "og:image")
        assert image and urlsplit(image).path == f"/{lang}/{slug}/faq/{faq_id}/preview.png", where
        assert parse_qs(urlsplit(image).query)["v"], where
        assert meta(page, "name", "twitter:card") == "summary_large_image"
        check_oembed_of(client, page, (lang, slug, faq_id))


def check_oembed_of(client, page: str, where) -> None:
    """The answer page's oEmbed discovery link leads to a valid rich card of that answer."""
    discovery = link_href(page, "application/json+oembed")
    assert discovery, where
    response = client.get(local(discovery))
    assert response.status_code == 200 and response.mimetype == "application/json"
    card = response.get_json()
    check_oembed(card)
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', page).group(1)
    assert f'href="{canonical}"' in card["html"]
    assert html_lib.escape(card["title"]) in card["html"]
    assert card["thumbnail_url"] == meta(page, "property", "og:image")


def _png(client, url: str) -> Image.Image:
    response = client.get(local(url))
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("lang", LANGS)
def test_og_image_is_a_1200_by_630_png_for_each_game(client, lang):
    for game in real_library():
        faq = game.faq[0]
        page = client.get(f"/{lang}/{game.slug}/faq/{faq.id}").get_data(as_text=True)
        image = _png(client, meta(page, "property", "og:image"))
        assert image.size == (1200, 630)
        assert len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 2  # drawn, not blank


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_og_image_of_every_answer_is_a_1200_by_630_png(client, lang):
    for slug, faq_id in ANSWERS:
        page = client.get(f"/{lang}/{slug}/faq/{faq_id}").get_data(as_text=True)
        assert _png(client, meta(page, "property", "og:image")).size == (1200, 630)


def test_og_image_is_cached_by_content_version(client):
    page = client.get("/de/ohne-furcht-und-adel/faq/thief-forbidden-targets").get_data(as_text=True)
    url = local(meta(page, "property", "og:image"))
    first = client.get(url)
    assert "immutable" in first.headers["Cache-Control"] and "max-age=31536000" in first.headers["Cache-Control"]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # An address of an earlier version gets today's picture, to be checked again next time.
    stale = client.get(url.split("?")[0] + "?v=0000")
    assert stale.status_code == 200 and "no-cache" in stale.headers["Cache-Control"] and stale.data == first.data
    other = meta(client.get("/en/ohne-furcht-und-adel/faq/thief-forbidden-targets").get_data(as_text=True), "property", "og:image")
    assert parse_qs(urlsplit(other).query)["v"] != parse_qs(urlsplit(url).query)["v"]
    assert client.get("/de/ohne-furcht-und-adel/faq/no-such-entry/preview.png").status_code == 404
    assert client.get("/xx/ohne-furcht-und-adel/faq/thief-forbidden-targets/preview.png").status_code == 404


def test_oembed_bounds_and_errors(client):
    url = "http://localhost/en/ohne-furcht-und-adel/faq/thief-forbidden-targets"
    small = client.get("/oembed", query_string={"url": url, "maxwidth": 320, "maxheight": 200})
    assert small.status_code == 200
    check_oembed(small.get_json(), 320, 200)
    assert "thumbnail_url" not in small.get_json()
    assert client.get("/oembed", query_string={"url": url, "maxwidth": "wide"}).get_json()["error"]
    assert client.get("/oembed", query_string={"url": url, "maxwidth": "wide"}).status_code == 400
    assert client.get("/oembed").status_code == 400
    assert client.get("/oembed", query_string={"url": url, "format": "xml"}).status_code == 501
    # The addresses the site leads to the answer name it too: a trailing slash, the edition's name.
    for alias in (url + "/", "http://localhost/en/citadels/faq/thief-forbidden-targets", url.upper().replace("HTTP://LOCALHOST", "http://localhost")):
        card = client.get("/oembed", query_string={"url": alias})
        assert card.status_code == 200 and card.get_json()["title"] == small.get_json()["title"], alias
    for other in ("http://localhost/en/ohne-furcht-und-adel/", "http://localhost/en/ohne-furcht-und-adel/faq/nothing",
                  "http://elsewhere.example/en/ohne-furcht-und-adel/faq/thief-forbidden-targets", "javascript:alert(1)"):
        response = client.get("/oembed", query_string={"url": other})
        assert response.status_code == 404 and response.get_json()["error"], other


@pytest.mark.parametrize("url", ["http://[::1/de/x", "//[/x", "https://[v1.x", "http://localhost:port/de/x"])
def test_oembed_of_an_address_that_cannot_be_read_is_not_an_answer(client, url):
    # The oEmbed consumer reads JSON: an address urlsplit refuses (an unbalanced "[", a port that
    # is no number) is an address of no answer, as any other.
    response = client.get("/oembed", query_string={"url": url}, headers={"Accept-Language": "it"})
    assert response.status_code == 404
    assert response.get_json() == {"error": "not an answer of this site"}


def test_oembed_errors_made_outside_its_view_are_json_too(client):
    # The consumer reads JSON whatever went wrong: a method the endpoint does not take is no page.
    response = client.post("/oembed", query_string={"url": "http://localhost/en/ohne-furcht-und-adel/faq/tie-break"},
                           headers={"Accept-Language": "it"})
    assert response.status_code == 405 and response.is_json and response.get_json()["error"]


def test_quote_holds_question_short_answer_page_and_link(client):
    page = client.get("/de/ohne-furcht-und-adel/faq/thief-forbidden-targets").get_data(as_text=True)
    text = html_lib.unescape(re.search(r'data-quote-text="([^"]*)"', page).group(1))
    markdown = html_lib.unescape(re.search(r'data-quote-markdown="([^"]*)"', page).group(1))
    link = "http://localhost/de/ohne-furcht-und-adel/faq/thief-forbidden-targets"
    assert text.splitlines() == ["Wen darf der Dieb nicht bestehlen?",
                                 "Tabu sind der Meuchler selbst und das Opfer des Meuchlers aus der laufenden Runde: "
                                 "Der Dieb darf weder den Meuchler noch dessen Opfer nennen.",
                                 "— Regelheft S. 2 · Ohne Furcht und Adel", link]
    assert markdown.splitlines()[0] == "> **Wen darf der Dieb nicht bestehlen?**"
    assert markdown.splitlines()[-1] == f"> — [Regelheft S. 2]({link}) · Ohne Furcht und Adel"
    assert all(line.startswith("> ") for line in markdown.splitlines())


def test_markdown_quote_shows_text_as_written():
    from rules_index.previews import Preview

    preview = Preview(game="G", question="Is *this* [a] link?", verdict="No_way <b>", citation="Rulebook p. 2")
    markdown = quote_markdown(preview, "https://x.example/a")
    assert r"Is \*this\* \[a\] link?" in markdown and r"No\_way \<b\>" in markdown
    assert quote_text(preview, None).splitlines() == ["Is *this* [a] link?", "No_way <b>", "— Rulebook p. 2 · G"]


@pytest.mark.parametrize("answer,expected", [
    ("Nein. Der Dieb geht leer aus. Mehr dazu.", "Nein. Der Dieb geht leer aus."),
    ("**Sì.** Il Ladro prende tutto.", "Sì. Il Ladro prende tutto."),
    ("The Assassin and the victim. Nothing else.", "The Assassin and the victim."),
    ("No.", "No."),
    # A page reference does not end the sentence: the preview keeps what the verdict says.
    ("Nein: beide im selben Zug (S. 1–2) nicht. Sonst.", "Nein: beide im selben Zug (S. 1–2) nicht."),
    ("That depends on the players (p. 1): with 4, two. Then more.", "That depends on the players (p. 1): with 4, two."),
])
def test_verdict_sentence_takes_the_sentence_after_a_bare_verdict(answer, expected):
    assert verdict_sentence(answer) == expected


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_verdict_is_cut_after_a_whole_word_or_item(lang):
    """"… Or he disca…": the link preview cut the verdict inside a word."""
    library = real_library()
    cut = 0
    for game in library:
        for entry in game.faq:
            said = " ".join(plain_text(entry.text(lang).answer, item_end=";").split())
            verdict = verdict_sentence(entry.text(lang).answer)
            if not verdict.endswith("…"):
                continue
            cut += 1
            kept = " ".join(verdict[:-1].split())
            assert said.startswith(kept) and said[len(kept):len(kept) + 1] in (" ", ";", ":", ","), (game.slug, entry.id, lang, verdict)
            assert not kept.endswith((" ", ",", ";", ":"))
    assert cut > 0


def test_language_hint_offers_each_other_language_in_its_own_words(client):
    page = client.get("/en/ohne-furcht-und-adel/faq/thief-forbidden-targets").get_data(as_text=True)
    hints = re.findall(r'<p class="language-hint" data-hint-lang="(\w+)" lang="\w+" hidden><a href="([^"]+)" hreflang="\w+">([^<]+)</a>', page)
    assert hints == [("de", "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets", "Diese Antwort auf Deutsch lesen"),
                     ("it", "/it/ohne-furcht-und-adel/faq/thief-forbidden-targets", "Leggi questa risposta in italiano")]
    assert "language-hint.js" in page


@pytest.mark.parametrize("path,result", [
    ("/en/ohne-furcht-und-adel/calculators/score?name0=Anna&yellow0=3+5&blue0=2&green0=1&red0=1+1+1&purple0=6&first=0&name1=Ben&yellow1=6+6&submit=1",
     "Winner: Anna · Anna 27 points, Ben 12 points"),
    ("/de/adel-verpflichtet/calculators/exhibition?cards=AABBC", "AABBC ist eine gültige Ausstellung."),
    ("/it/kardinal-und-koenig/calculators/monastery-score?name0=Ada&count0=3&name1=Bea&count1=1&submit=1", "Ada 4 punti, Bea 3 punti"),
])
def test_calculator_result_link_and_preview_keep_the_result(client, path, result):
    page = client.get(path).get_data(as_text=True)
    og_url = meta(page, "property", "og:url")
    share = html_lib.unescape(re.search(r'<input id="link" type="text" readonly value="([^"]+)"', page).group(1))
    assert og_url == share and urlsplit(og_url).query
    assert client.get(local(og_url)).get_data(as_text=True).count(result) >= 1
    assert result in meta(page, "property", "og:description") and result in meta(page, "name", "description")
    blank = client.get(urlsplit(path).path).get_data(as_text=True)
    assert result not in meta(blank, "property", "og:description")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_edition_of_the_page_numbers_stands_next_to_the_citation(client, lang):
    library = real_library()
    shown = 0
    for slug, faq_id in ANSWERS:
        game = library.game(slug)
        entry = game.faq_entry(faq_id)
        source = game.source(entry.citation.source)
        edition = next(e for e in game.info.editions if e.id == source.edition)
        page = client.get(f"/{lang}/{slug}/faq/{faq_id}").get_data(as_text=True)
        cited = re.search(r'<div class="cited">(.*?)</div>', page, re.S)
        assert cited and 'class="citation"' in cited.group(1) and 'class="editions"' in cited.group(1), (slug, faq_id)
        # The edition whose rules the answer states, not one it holds "only for" ("Vale per:
        # Edizione tedesca" read to a holder of Cittadelle as "not for you").
        editions = html_lib.unescape(re.search(r'<p class="editions">(.*?):', cited.group(1), re.S).group(1))
        assert editions == {"en": "Rules edition", "it": "Regole dell'edizione"}[lang], editions
        note = re.search(r'<span class="page-edition">([^<]+)</span>', cited.group(1))
        # The link preview, outside the page, names the edition too: a reader of another
        # edition's rulebook would look on the wrong page.
        described = meta(page, "property", "og:description")
        data = json.loads(html_lib.unescape(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1)))
        cited = data["mainEntity"]["acceptedAnswer"]["citation"]
        if entry.citation.pages and edition.language != lang:
            assert note and html_lib.escape(edition.name.get(lang)) in note.group(1), (slug, faq_id)
            assert described.endswith(f", {edition.publisher} {edition.year})"), (slug, faq_id)
            assert cited.endswith(f" · {edition.name.get(lang)}"), (slug, faq_id)  # what a search engine reads
            shown += 1
        else:
            assert note is None
            assert edition.name.get(lang) not in described and edition.name.get(lang) not in cited
            assert not (edition.publisher and f", {edition.publisher}" in described)
    assert shown > 30  # the note is there wherever it applies (43 answers today)


@pytest.mark.parametrize("lang", LANGS)
def test_start_and_game_pages_preview_with_their_own_picture(client, lang):
    # A link to a game or to the site pasted into a chat shows a picture of what it is, like an answer's.
    library = real_library()
    pages = {f"/{lang}/": [game.title(lang) for game in library]}
    pages.update({f"/{lang}/{game.slug}/": [game.title(lang)] for game in library})
    pictures = set()
    for path, titles in pages.items():
        page = client.get(path).get_data(as_text=True)
        image = meta(page, "property", "og:image")
        assert image and meta(page, "name", "twitter:image") == image, path
        assert meta(page, "name", "twitter:card") == "summary_large_image", path
        assert all(title in meta(page, "property", "og:image:alt") for title in titles), path
        picture = _png(client, image)
        assert picture.size == (1200, 630), path
        pictures.add(picture.tobytes())
        assert parse_qs(urlsplit(image).query)["v"], path
    assert len(pictures) == len(pages)  # each page its own picture
    for missing in (f"/{lang}/no-such-game/preview.png", "/xx/preview.png"):
        assert client.get(missing).status_code == 404


@pytest.mark.parametrize("lang", LANGS)
def test_a_listed_answer_keeps_its_items_apart_in_the_preview(lang):
    # "4 players: 2 face up 5 players: 1 face up" reads as one count; each item ends in a sign.
    from rules_index.render import plain_text

    library = real_library()
    checked = 0
    for slug, faq_id in ANSWERS:
        game = library.game(slug)
        answer = game.faq_entry(faq_id).text(lang).answer
        items = [plain_text(m.group(1)) for m in re.finditer(r"^\s*(?:[-*+]|\d+[.)])\s+(.+)$", answer, re.M)]
        verdict = answer_preview(game, game.faq_entry(faq_id), lang).verdict
        for item in items:
            if item and f"{item} " in verdict:
                checked += 1
                # ... or runs on into the next by its last word ("take 2 gold, or draw 2 cards").
                assert item[-1] in ".;:!?," or item.split()[-1] in ("or", "oder", "oppure"), (slug, faq_id, item)
            elif item and item in verdict and not verdict.endswith(item):
                checked += 1
                assert verdict[verdict.index(item) + len(item)] in ".;:!?,…", (slug, faq_id, item)  # or cut after it
    assert checked >= 5


def test_the_pictures_citation_is_whole():
    # The foot of the picture names the page and another language's edition: never cut short
    # ("Regolamento p. 1 · Edizione" said nothing about which edition).
    from PIL import Image, ImageDraw

    from rules_index.previews.card import CITATION_SIZES, MARGIN, WIDTH, _fit

    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    library = real_library()
    for lang in LANGS:
        for slug, faq_id in ANSWERS:
            game = library.game(slug)
            citation = answer_preview(game, game.faq_entry(faq_id), lang).citation
            _font, lines = _fit(draw, citation, True, CITATION_SIZES, WIDTH - 2 * MARGIN - 360, 2)
            assert " ".join(lines) == citation, (lang, slug, faq_id, lines)



@pytest.mark.parametrize("lang", LANGS)
def test_every_other_page_shared_shows_the_picture_of_what_it_is_about(client, lang):
    # A search, a calculator result, an answer's or a section's history pasted into a chat:
    # the start page's, the game's or the answer's own picture, never none.
    game = "ohne-furcht-und-adel"
    pictures = {
        f"/{lang}/search?q=dieb": f"/{lang}/preview.png",
        f"/{lang}/{game}/calculators/score?name0=Anna&yellow0=3&submit=1": f"/{lang}/{game}/preview.png",
        f"/{lang}/{game}/faq/tie-break/history": f"/{lang}/{game}/faq/tie-break/preview.png",
        f"/{lang}/{game}/rules/characters/history": f"/{lang}/{game}/preview.png",
    }
    for path, picture in pictures.items():
        page = client.get(path).get_data(as_text=True)
        image = meta(page, "property", "og:image")
        assert image and urlsplit(image).path == picture, path
        assert meta(page, "name", "twitter:card") == "summary_large_image", path


@pytest.mark.parametrize("lang", LANGS)
def test_the_sites_picture_names_the_games_as_the_home_page_lists_them(app, client, lang):
    """The Italian picture listed "… Keine Ehre unter Dieben · Cittadelle" (by folder), the home
    page "Adel Verpflichtet, Cittadelle, …" (by the title a reader of the language knows)."""
    from rules_index.web.previews import _site_preview
    home = client.get(f"/{lang}/").get_data(as_text=True)
    titles = [html_lib.unescape(title) for title in re.findall(rf'<a href="/{lang}/[a-z-]+/">([^<]+)</a>', home)]
    with app.test_request_context(f"/{lang}/"):
        listed = _site_preview(lang).verdict.split(" · ")
    assert len(listed) == 4 and listed == [title for title in titles if title in listed], (listed, titles)
