"""A static copy of the whole site for a USB stick at the game table: ``flask --app app export OUT``.

Every reader page of every game and language is rendered by the app itself and written as
``<path>/index.html`` with relative links, so it opens from ``file://``. Search works offline
through a prebuilt index (``search-index.js``) and a small script on a static search page.
Pages that need the server (report forms, calculators, history, editors) are left out.
"""
from __future__ import annotations

import json
import posixpath
import re
import shutil
from pathlib import Path

from flask import Flask

from .content import LANGS
from .present import entry_url
from .search.analysis import fold_accents
from .search.documents import library_documents

_LINK = re.compile(r'(href|src|action)="(/[^"]*)"')


def page_paths(library) -> list[str]:
    paths = [f"/{lang}/" for lang in LANGS] + [f"/{lang}/engine" for lang in LANGS]
    for game in library:
        for lang in LANGS:
            paths.append(f"/{lang}/{game.slug}/")
            paths.append(f"/{lang}/{game.slug}/coverage")
            paths += [f"/{lang}/{game.slug}/faq/{faq.id}" for faq in game.faq]
    return paths


def file_for(path: str) -> str:
    """The file a site path is written to: directories and pages become ``…/index.html``."""
    clean = path.split("?", 1)[0].split("#", 1)[0].strip("/")
    if clean.startswith("static/"):
        return clean
    return f"{clean}/index.html" if clean else "index.html"


def relative_links(html: str, page_path: str) -> str:
    here = posixpath.dirname(file_for(page_path))

    def rewrite(match: re.Match) -> str:
        attr, target = match.groups()
        path, _, fragment = target.partition("#")
        if re.match(r"^/(de|en|it)/search$", path.split("?", 1)[0]):
            path = path.split("?", 1)[0]
        rel = posixpath.relpath(file_for(path), here or ".")
        return f'{attr}="{rel}{"#" + fragment if fragment else ""}"'

    return _LINK.sub(rewrite, html)


def _export_url(url: str) -> str:
    path, _, fragment = url.partition("#")
    return file_for(path) + (f"#{fragment}" if fragment else "")


def search_index_js(library) -> str:
    """Every document (all kinds, all languages) with folded words, for the offline search page."""
    docs = []
    for doc in library_documents(library):
        words = " ".join([doc.title, *doc.keywords, doc.body])
        docs.append({
            "lang": doc.lang, "kind": doc.kind, "game": doc.game, "title": doc.title,
            "url": _export_url(entry_url(doc.kind, doc.lang, doc.game, doc.entry)),
            "entry": doc.entry,
            "t": fold_accents(doc.title.lower()),
            "w": fold_accents(words.lower()),
        })
    games = {g.slug: {lang: g.title(lang) for lang in LANGS} for g in library}
    return "window.RULES_INDEX = " + json.dumps({"docs": docs, "games": games}, ensure_ascii=False) + ";\n"


def export_site(app: Flask, out: Path, base_url: str = "http://localhost") -> int:
    """Write the static site into ``out`` (replaced if it exists); returns the number of pages.

    ``base_url`` is where the live site is: canonical links and alternates point there.
    """
    from .web.state import library

    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    app.config["STATIC_EXPORT"] = True
    client = app.test_client()
    with app.app_context():
        lib = library()
        paths = page_paths(lib)
        for path in paths:
            response = client.get(path, base_url=base_url)
            if response.status_code != 200:
                raise RuntimeError(f"{path}: {response.status_code}")
            target = out / file_for(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(relative_links(response.get_data(as_text=True), path), encoding="utf-8")
        for lang in LANGS:
            path = f"/{lang}/search"
            html = client.get(f"/{lang}/offline-search", base_url=base_url).get_data(as_text=True)
            target = out / file_for(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(relative_links(html, path), encoding="utf-8")
        shutil.copytree(app.static_folder, out / "static")
        (out / "static" / "search-index.js").write_text(search_index_js(lib), encoding="utf-8")
    return len(paths) + len(LANGS)
