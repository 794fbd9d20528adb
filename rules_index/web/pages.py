"""Reader-facing pages, server-rendered and usable without JavaScript."""
from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from rules_index.content import DEFAULT_LANG, LANGS

from .state import library

bp = Blueprint("pages", __name__)


@bp.get("/")
def root():
    lang = request.accept_languages.best_match(LANGS) or DEFAULT_LANG
    return redirect(url_for("pages.home", lang=lang))


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        abort(404)


@bp.get("/<lang>/")
def home(lang: str):
    _check_lang(lang)
    return render_template("home.html", lang=lang, games=list(library()))
