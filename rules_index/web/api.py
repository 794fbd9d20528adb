"""JSON API v1: games, FAQ entries, rules sections, search and the engines' calculators.

Query parameters are validated with the models the OpenAPI document states them with
(``api_models``); a calculator validates its body with its own request model.
"""
from __future__ import annotations

from typing import TypeVar

from flask import Blueprint, jsonify, request
from pydantic import ValidationError

from rules_index import present
from rules_index.corrections import availability
from rules_index.content import Game
from rules_index.engines import InputError, calculators_for
from rules_index.engines.calculator_models import input_error

from .api_models import ApiModel, LangQuery, SearchQuery
from .bodies import json_object
from .errors import ApiError
from .state import library, related_faq, search_results, served, verification, version

bp = Blueprint("api", __name__, url_prefix="/api/v1")


Query = TypeVar("Query", bound=ApiModel)


def query_params(model: type[Query]) -> Query:
    """The request's query parameters as ``model``, or ApiError 400 naming the first bad one."""
    try:
        return model.model_validate(request.args.to_dict())
    except ValidationError as exc:
        raise ApiError(400, str(input_error(exc))) from None


def lang_param() -> str:
    return query_params(LangQuery).lang


def game_or_404(slug: str) -> Game:
    game = library().game(slug)
    if game is None:
        raise ApiError(404, f"game: no game '{slug}'")
    return game


@bp.get("/health")
def health():
    """For a load balancer or a monitor: 200 while this process answers pages and searches (a
    search is run), 503 when its search index cannot be read. The database is reported, not
    required: reading never depends on it. ``status`` is "stale" (still 200: readers are served)
    while the content as it stands cannot be published, with its first problems: every accept
    after it waits for a commit that mends them."""
    search_results("Regeln", "de", limit=1)  # an index that cannot be read raises: 503
    body = {"status": "ok", "content": version(), "database": "ok" if availability.usable() else "unavailable"}
    stuck = served().unpublishable
    if stuck:
        body.update(status="stale", unpublished={"problems": len(stuck), "first": stuck[:3]})
    return jsonify(body)


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
    body["sections"] = [
        {"id": s.id, "title": s.title(lang), "url": present.entry_url("section", lang, slug, s.id)}
        for s in found.sections
    ]
    return jsonify(body)


@bp.get("/games/<slug>/faq/<faq_id>")
def faq(slug: str, faq_id: str):
    lang = lang_param()
    found = game_or_404(slug)
    entry = found.faq_entry(faq_id)
    if entry is None:
        raise ApiError(404, f"faq: game '{slug}' has no FAQ entry '{faq_id}'")
    report = verification()
    body = present.faq_json(found, entry, lang, report.for_entry(slug, "faq", faq_id), report.facts_for(slug, "faq", faq_id))
    body["related"] = [
        {"id": r.id, "question": r.text(lang).question, "url": present.permalink(lang, slug, r.id)}
        for r in related_faq(found, entry, lang)
    ]
    return jsonify(body)


@bp.get("/games/<slug>/sections/<section_id>")
def section(slug: str, section_id: str):
    lang = lang_param()
    found = game_or_404(slug)
    entry = found.section(section_id)
    if entry is None:
        raise ApiError(404, f"section: game '{slug}' has no rules section '{section_id}'")
    return jsonify(present.section_json(found, entry, lang))


@bp.get("/search")
def search():
    params = query_params(SearchQuery)
    lang, game_filter, games = params.lang, params.game or None, library()
    if game_filter is not None and games.game(game_filter) is None:
        raise ApiError(400, f"game: no game '{game_filter[:80]}'")
    result = search_results(params.q, lang, game=game_filter, limit=params.limit)
    return jsonify(
        query=result.query, lang=lang, hits=[present.hit_json(h, lang, games.game(h.game)) for h in result.hits],
        suggestion=result.suggestion, corrected=result.corrected,
    )


@bp.post("/games/<slug>/<calculator>")
def calculate(slug: str, calculator: str):
    """A rule calculator of the game's engine, e.g. POST /api/v1/games/ohne-furcht-und-adel/score."""
    game_or_404(slug)
    compute = calculators_for(slug).get(calculator)
    if compute is None:
        raise ApiError(404, f"calculator: game '{slug}' has no calculator '{calculator}'")
    payload = json_object()
    try:
        return jsonify(compute(payload))
    except InputError as exc:
        raise ApiError(400, str(exc)) from None
