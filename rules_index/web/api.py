"""JSON API v1: games, FAQ entries (and search, once the index exists)."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from rules_index import present
from rules_index.content import DEFAULT_LANG, LANGS, Game

from .errors import ApiError
from .state import library

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def lang_param() -> str:
    lang = request.args.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        raise ApiError(400, f"lang: unknown language '{lang}', use one of {', '.join(LANGS)}")
    return lang


def game_or_404(slug: str) -> Game:
    game = library().game(slug)
    if game is None:
        raise ApiError(404, f"game: no game '{slug}'")
    return game


@bp.get("/games")
def games():
    lang = lang_param()
    return jsonify(games=[present.game_summary_json(g, lang) for g in library()])


@bp.get("/games/<slug>")
def game(slug: str):
    lang = lang_param()
    found = game_or_404(slug)
    body = present.game_summary_json(found, lang)
    body["faq"] = [
        {"id": f.id, "question": f.text(lang).question, "url": present.permalink(lang, slug, f.id)}
        for f in found.faq
    ]
    return jsonify(body)


@bp.get("/games/<slug>/faq/<faq_id>")
def faq(slug: str, faq_id: str):
    lang = lang_param()
    found = game_or_404(slug)
    entry = found.faq_entry(faq_id)
    if entry is None:
        raise ApiError(404, f"faq: game '{slug}' has no FAQ entry '{faq_id}'")
    return jsonify(present.faq_json(found, entry, lang))
