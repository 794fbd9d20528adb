"""The static export is a complete offline site: every language in its own words, a front door,
links that resolve from any folder, share links only to a given base URL, never the live cache."""
from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from babel.messages.pofile import read_po

from app import ROOT
from apptools import make_app
from rules_index.export import export_site

FIXTURES = Path(__file__).parents[1] / "fixtures" / "content"
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
LIVE_ONLY = "Found a mistake?"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The real content exported without a base URL, after the live app served a FAQ page twice."""
    base = tmp_path_factory.mktemp("export")
    app = make_app(base / "instance", ROOT / "content")
    client = app.test_client()
    live = [client.get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True) for _ in range(2)]
    assert all(LIVE_ONLY in page for page in live)  # the second one came from the page cache
    out = base / "site"
    # Through the command as `make export` runs it: the flask command pushes an application
    # context first, so every page is rendered inside that one context.
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["export", str(out)])
    assert result.exit_code == 0, result.output
    return {"app": app, "out": out}


def html_files(out: Path):
    return sorted(out.rglob("*.html"))


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "action") and value is not None:
                self.links.append(value)


def broken_links(out: Path) -> list[str]:
    """Links of the exported pages that are root-relative or lead to no file of the export."""
    broken = []
    for page in html_files(out):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        here = page.parent.relative_to(out).as_posix()
        for link in parser.links:
            if re.match(r"^[a-z]+:", link) or link.startswith("#"):
                continue
            path = unquote(link.split("#", 1)[0].split("?", 1)[0])
            target = posixpath.normpath(posixpath.join(here, path))
            if link.startswith("/") or target.startswith("..") or not (out / target).is_file():
                broken.append(f"{page.relative_to(out)}: {link}")
    return broken


def test_export_ignores_the_live_page_cache(site):
    page = (site["out"] / "en" / GAME / "faq" / FAQ / "index.html").read_text(encoding="utf-8")
    assert LIVE_ONLY not in page and "/correction" not in page
    # The live app serves its own pages again afterwards.
    assert LIVE_ONLY in site["app"].test_client().get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)


def test_front_door_links_each_language(site):
    front = (site["out"] / "index.html").read_text(encoding="utf-8")
    for lang, name in (("de", "Deutsch"), ("en", "English"), ("it", "Italiano")):
        assert f'<a href="{lang}/index.html" hreflang="{lang}">{name}</a>' in front
    assert "Regelauskunft" in front and "Rules Reference" in front and "Prontuario delle regole" in front
    # Each language's games in the order of its home page: by their title there (Cittadelle under C).
    italian = front[front.index('hreflang="it"'):]
    assert italian.index("Cittadelle") < italian.index("Kardinal") < italian.index("Keine Ehre")


def test_every_link_resolves_inside_the_export(site):
    assert len(html_files(site["out"])) > 280
    assert broken_links(site["out"]) == []


def test_offline_search_pages_link_each_other(site):
    page = (site["out"] / "en" / "search" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../de/search/index.html"' in page and 'href="../../it/search/index.html"' in page
    kinds = json.loads(re.search(r"data-kinds='([^']*)'", page).group(1))
    assert kinds == {"faq": "Question", "fact": "At a glance", "section": "Rule", "mistake": "Common mistake", "glossary": "Glossary"}


def test_search_index_carries_text_for_snippets(site):
    script = (site["out"] / "static" / "search-index.js").read_text(encoding="utf-8")
    data = json.loads(script.removeprefix("window.RULES_INDEX = ").rstrip().removesuffix(";"))
    doc = next(d for d in data["docs"] if d["kind"] == "faq" and d["game"] == GAME and d["entry"] == FAQ and d["lang"] == "en")
    assert doc["url"] == f"en/{GAME}/faq/{FAQ}/index.html"
    assert "districts alone" in doc["s"]


def test_search_index_carries_the_servers_words(site):
    script = (site["out"] / "static" / "search-index.js").read_text(encoding="utf-8")
    words = json.loads(script.removeprefix("window.RULES_INDEX = ").rstrip().removesuffix(";"))["words"]
    assert {"der", "the", "il", "darf", "fur"} <= set(words["stop"])  # every language's, folded too
    assert words["players"]["geklaut"] == ["gestohlen"] and "verloren" in words["players"]["hinuber"]
    assert words["compounds"]["bauwerkkarten"] == ["bauwerk", "karten"]
    assert words["weights"]["title"] > words["weights"]["keywords"] > words["weights"]["body"]
    assert words["order"]["faq"] < words["order"]["section"]


def test_the_offline_search_library_is_the_pinned_one():
    """static/vendor/minisearch.js is the build of the version package.json pins (README: the export)."""
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["minisearch"]
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))["packages"]["node_modules/minisearch"]
    vendored = (ROOT / "static" / "vendor" / "minisearch.js").read_text(encoding="utf-8")
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned) and lock["version"] == pinned
    assert vendored.startswith(f"/*!\n * MiniSearch {pinned} ") and "Permission is hereby granted" in vendored[:2000]


def test_without_base_url_no_share_links(site):
    for page in html_files(site["out"]):
        html = page.read_text(encoding="utf-8")
        assert "localhost" not in html, page
        assert 'rel="canonical"' not in html and 'hreflang="x-default"' not in html and "og:url" not in html, page
        assert 'id="link"' not in html and "application/ld+json" not in html, page


# -- German interface text on English and Italian pages ------------------------------------------

_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
MIN_LENGTH = 5  # shorter German words ("Ende", "und") also occur in names and other languages


def own_names() -> set[str]:
    """Names a page shows in every language as they are: the games' titles (Keine Ehre unter
    Dieben has no other) and slugs (a calculator's script finds it by its slug), and the lands of
    the Kardinal & König engine, which scenarios name by their identifiers."""
    from rules_index.content import load_library
    from rules_index.web.calculator_forms import LANDS

    words = set(LANDS)
    for game in load_library(ROOT / "content"):
        words.update(game.slug.split("-"))
        for lang in ("de", "en", "it"):
            words.update(game.title(lang).split())
    return words


def german_interface_phrases() -> list[str]:
    """The German catalog's phrases that differ from their English msgid, split at placeholders
    (the games' own names left out: they are no interface text)."""
    with (ROOT / "translations" / "de" / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh)
    phrases = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            for part in _PLACEHOLDER.split(string or ""):
                part = part.strip(" :·,.–-()")
                if len(part) >= MIN_LENGTH and not any(part in msgid for msgid in ids):
                    phrases.add(part)
    return sorted(phrases - own_names(), key=len, reverse=True)


def content_corpus() -> str:
    """Every content file's text, whitespace collapsed: a text node found in it is content, not interface."""
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "content").rglob("*")) if p.suffix in (".yaml", ".md") and p.name != "README.md"]
    return " ".join(" ".join(texts).split())


class _VisibleText(HTMLParser):
    """Text nodes and the attributes a reader sees or hears (labels, placeholders, meta, data-*),
    leaving out elements marked as written in another language than the page (``lang``)."""

    ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "value", "content"}

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0
        self._page_lang = None
        self._foreign: list[str] = []  # open elements from the first one in another language

    def handle_starttag(self, tag, attrs):
        lang = dict(attrs).get("lang")
        if tag == "html":
            self._page_lang = lang
        elif self._foreign or (lang and self._page_lang and lang != self._page_lang):
            self._foreign.append(tag)
            return
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in self.ATTRIBUTES or name.startswith("data-")):
                self.texts.append(value)

    def handle_endtag(self, tag):
        if self._foreign:
            if tag in self._foreign:
                del self._foreign[len(self._foreign) - 1 - self._foreign[::-1].index(tag):]
            return
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and not self._foreign:
            self.texts.append(data)


def german_interface_text(html: str, phrases: re.Pattern, corpus: str) -> set[str]:
    parser = _VisibleText()
    parser.feed(html)
    found = set()
    for text in parser.texts:
        text = " ".join(text.split())
        hits = phrases.findall(text)
        if hits and text not in corpus:
            found.update(hits)
    return found


def phrase_pattern(phrases: list[str]) -> re.Pattern:
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(p) for p in phrases) + r")(?!\w)")


def test_the_scan_finds_german_interface_text():
    phrases = german_interface_phrases()
    for known in ("Regelauskunft", "Suchen", "Nicht von der Engine geprüft", "Häufige Irrtümer"):
        assert known in phrases
    pattern, corpus = phrase_pattern(phrases), content_corpus()
    leaked = '<title>Who wins? · Regelauskunft</title><h2>Häufige Irrtümer</h2><button>Suchen</button>'
    assert german_interface_text(leaked, pattern, corpus) == {"Regelauskunft", "Häufige Irrtümer", "Suchen"}
    marked = '<html lang="en"><p lang="de"><a>Suchen</a></p><p>Regelauskunft</p></html>'
    assert german_interface_text(marked, pattern, corpus) == {"Regelauskunft"}


def test_english_and_italian_pages_carry_no_german_interface_text(site):
    pattern, corpus = phrase_pattern(german_interface_phrases()), content_corpus()
    leaks = {}
    pages = [p for lang in ("en", "it") for p in html_files(site["out"] / lang)]
    assert len(pages) > 180
    for page in pages:
        found = german_interface_text(page.read_text(encoding="utf-8"), pattern, corpus)
        if found:
            leaks[page.relative_to(site["out"]).as_posix()] = sorted(found)
    assert leaks == {}


# -- A base URL with a path, on the small fixture game ---------------------------------------------

def test_share_links_use_the_base_url_and_links_stay_relative(tmp_path):
    app = make_app(tmp_path / "instance", FIXTURES)
    out = tmp_path / "site"
    export_site(app, out, "https://example.org/rules/")
    page = (out / "en" / "tiny-game" / "faq" / "coin-count" / "index.html").read_text(encoding="utf-8")
    url = "https://example.org/rules/en/tiny-game/faq/coin-count"
    assert f'<link rel="canonical" href="{url}">' in page
    assert f'<meta property="og:url" content="{url}">' in page
    assert f'<link rel="alternate" hreflang="it" href="https://example.org/rules/it/tiny-game/faq/coin-count">' in page
    assert f'id="link" type="text" readonly value="{url}"' in page
    assert f'"url": "{url}"' in page  # schema.org data
    assert f'<meta property="og:image" content="{url}/preview.png?v=' in page
    assert 'type="application/json+oembed" href="https://example.org/rules/oembed?url=' in page
    assert 'href="/' not in page and 'src="/' not in page and "/rules/rules" not in page
    assert broken_links(out) == []


def test_cli_prints_what_to_open_and_refuses_bad_input(tmp_path):
    app = make_app(tmp_path / "instance", FIXTURES)
    runner = app.test_cli_runner()
    out = tmp_path / "site"
    result = runner.invoke(args=["export", str(out)])
    assert result.exit_code == 0, result.output
    assert f"open {out.resolve() / 'index.html'}" in result.output
    assert "file://" in result.output
    bad = runner.invoke(args=["export", str(tmp_path / "other"), "--base-url", "ftp://example.org"])
    assert bad.exit_code == 2 and "--base-url" in bad.output
    # A folder that holds something else is never replaced.
    precious = tmp_path / "notes"
    precious.mkdir()
    (precious / "todo.txt").write_text("keep me")
    refused = runner.invoke(args=["export", str(precious)])
    assert refused.exit_code == 1 and "not an earlier export" in refused.output
    assert (precious / "todo.txt").read_text() == "keep me"
    # An earlier export is replaced.
    assert runner.invoke(args=["export", str(out)]).exit_code == 0
