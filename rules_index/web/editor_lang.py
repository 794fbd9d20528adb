"""The editors' interface language: their own choice, kept in the session cookie, else the
browser's Accept-Language, else German. It is independent of the content language being edited."""
from __future__ import annotations

from flask import session as cookie

from rules_index.content import LANGS

from .browser_lang import browser_lang

COOKIE_KEY = "editor_lang"


def editor_lang() -> str:
    chosen = cookie.get(COOKIE_KEY)
    if chosen in LANGS:
        return chosen
    return browser_lang()


def choose(lang: str) -> bool:
    """Keep ``lang`` as the editor's interface language; False (nothing kept) if it is none of LANGS."""
    if lang not in LANGS:
        return False
    cookie[COOKIE_KEY] = lang
    return True
