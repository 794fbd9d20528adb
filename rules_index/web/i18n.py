"""Interface words in de/en/it (gettext catalogs in ``translations/``, Flask-Babel)."""
from __future__ import annotations

import os

from flask import Flask, request
from flask_babel import Babel, refresh

from rules_index.content import DEFAULT_LANG, LANGS

from .browser_lang import browser_lang


def page_lang() -> str:
    """The reader's language: the page's first path segment (in any case: "/EN/…"), or ?lang= on
    the API; where the address names none (a missing page), the browser's; in the editors' area
    the editor's own choice."""
    if request.blueprint == "editor":
        from .editor_lang import editor_lang

        return editor_lang()
    first = request.path.strip("/").split("/", 1)[0].lower()
    if first in LANGS:
        return first
    lang = request.args.get("lang")
    if lang in LANGS:
        return lang
    return browser_lang()


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANG)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", os.path.join(app.root_path, "translations"))
    Babel(app, locale_selector=page_lang)
    # Flask-Babel keeps the chosen locale on ``g``. Requests made inside an application context
    # that is already active (the static export, test clients) share that ``g``, so without this
    # every page would be in the language of the first one.
    app.before_request(refresh)
