"""The browser's language: the first of its Accept-Language choices, in its order of preference,
that the site speaks ("en-US" is English, "de-CH" German), else German."""
from __future__ import annotations

from babel.core import negotiate_locale
from flask import request

from rules_index.content import DEFAULT_LANG, LANGS


def browser_lang() -> str:
    # Werkzeug's best_match prefers any exact tag to a region of an earlier choice: "en-US,de;q=0.8"
    # gave German. Babel's negotiation takes the choices in order, each with its language alone.
    chosen = negotiate_locale([tag.lower() for tag in request.accept_languages.values()], LANGS, sep="-")
    return chosen if chosen in LANGS else DEFAULT_LANG
