"""The JSON API v1: games, FAQ entries in every language, search, and errors as JSON."""
from __future__ import annotations

import pytest
from app import ROOT
from apptools import real_library
from rules_index.content.yaml12 import load_text

CATALOG = load_text((ROOT / "content" / "faq-catalog.yaml").read_text(encoding="utf-8"))
CATALOG_ENTRIES = [(slug, faq_id) for slug, game in CATALOG.items() for faq_id in game["faq"]]
LABEL_PREFIX = {"de": "Regelheft: S. ", "en": "German rulebook: p", "it": "Regolamento tedesco: p"}


def test_games(client):
    body = client.get("/api/v1/games").get_json()
    slugs = [g["slug"] for g in body["games"]]
    assert slugs and slugs == sorted(game.slug for game in real_library())
    assert all(g["url"] == f"/de/{g['slug']}/" for g in body["games"])


def test_game_lists_its_faq(client):
    body = client.get("/api/v1/games/ohne-furcht-und-adel?lang=en").get_json()
    assert body["title"] == "Citadels"
    ids = [f["id"] for f in body["faq"]]
    assert "thief-forbidden-targets" in ids


@pytest.mark.parametrize("lang", ["de", "en", "it"])
@pytest.mark.parametrize("slug,faq_id", CATALOG_ENTRIES, ids=[f"{s}/{i}" for s, i in CATALOG_ENTRIES])
def test_every_catalog_entry_is_served(client, slug, faq_id, lang):
    response = client.get(f"/api/v1/games/{slug}/faq/{faq_id}?lang={lang}")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["game"], body["id"], body["lang"]) == (slug, faq_id, lang)
    assert body["question"] and body["answer_html"].startswith("<")
    assert body["url"] == f"/{lang}/{slug}/faq/{faq_id}"
    citation = body["citation"]
    assert set(citation) >= {"source", "pages", "section", "label"}
    cite = CATALOG[slug]["faq"][faq_id]["cite"]
    expected_pages = None if cite["page"] is None else str(cite["page"])
    assert citation["pages"] == expected_pages
    if expected_pages:
        assert citation["label"].startswith(LABEL_PREFIX[lang])
    else:
        assert " S. " not in citation["label"] and " p. " not in citation["label"]
    assert isinstance(body["related"], list)


def test_citation_label_renders_like_the_rulebook(client):
    de = client.get("/api/v1/games/ohne-furcht-und-adel/faq/thief-forbidden-targets?lang=de").get_json()
    en = client.get("/api/v1/games/ohne-furcht-und-adel/faq/thief-forbidden-targets?lang=en").get_json()
    it = client.get("/api/v1/games/ohne-furcht-und-adel/faq/thief-forbidden-targets?lang=it").get_json()
    assert de["citation"]["label"] == "Regelheft: S. 2 · Dieb"
    assert en["citation"]["label"] == "German rulebook: p. 2 · Thief"
    assert it["citation"]["label"] == "Regolamento tedesco: p. 2 · Ladro"


def test_page_range_label(client):
    body = client.get("/api/v1/games/kardinal-und-koenig/faq/monastery-scoring-ranks?lang=de").get_json()
    assert body["citation"]["pages"] == "5-6"
    assert "S. 5–6" in body["citation"]["label"]


@pytest.mark.parametrize("url,status,field", [
    ("/api/v1/games/nope", 404, "game"),
    ("/api/v1/games/nope/faq/tie-break", 404, "game"),
    ("/api/v1/games/ohne-furcht-und-adel/faq/nope", 404, "faq"),
    ("/api/v1/games/ohne-furcht-und-adel/faq/tie-break?lang=fr", 400, "lang"),
    ("/api/v1/search", 400, "q"),
    ("/api/v1/search?q=Dieb&limit=abc", 400, "limit"),
    ("/api/v1/search?q=Dieb&limit=0", 400, "limit"),
    ("/api/v1/search?q=Dieb&limit=5000", 400, "limit"),
    ("/api/v1/search?q=Dieb&game=nope", 400, "game"),
    ("/api/v1/search?q=Dieb&lang=xx", 400, "lang"),
    ("/api/v1/nothing-here", 404, None),
])
def test_errors_are_json(client, url, status, field):
    response = client.get(url)
    assert response.status_code == status
    body = response.get_json()
    assert isinstance(body["error"], str) and body["error"]
    if field:
        assert body["error"].startswith(field)


def test_search(client):
    body = client.get("/api/v1/search?q=Dieb+Meuchler&lang=de&limit=5").get_json()
    assert body["query"] == "Dieb Meuchler" and body["lang"] == "de"
    assert 0 < len(body["hits"]) <= 5
    hit = body["hits"][0]
    assert set(hit) == {"type", "game", "id", "title", "snippet", "url", "score", "best", "close"}
    assert [h["best"] for h in body["hits"]].count(True) <= 1
    faq = [h for h in body["hits"] if h["type"] == "faq"]
    assert faq[0]["url"] == f"/de/{faq[0]['game']}/faq/{faq[0]['id']}"
    assert "suggestion" in body and body["corrected"] is False


def test_search_marks_a_best_answer_only_when_it_clearly_leads(client):
    sure = client.get("/api/v1/search?q=can+the+thief+steal+from+the+assassin&lang=en").get_json()
    assert [(h["id"], h["best"]) for h in sure["hits"] if h["best"]] == [("thief-forbidden-targets", True)]
    assert not any(h["close"] for h in sure["hits"])
    # "game end" names no game: each game's answer is listed as close, none is best.
    unsure = client.get("/api/v1/search?q=game+end&lang=en").get_json()
    close = [h for h in unsure["hits"] if h["close"]]
    assert not any(h["best"] for h in unsure["hits"]) and 2 <= len(close) <= 3
    assert unsure["hits"][:len(close)] == close and all(h["type"] in ("faq", "fact") for h in close)


def test_search_shows_the_corrected_question_when_it_scores_better(client):
    body = client.get("/api/v1/search?q=Kommisar+ertappt+Anf%C3%BChrer&lang=de").get_json()
    assert body["suggestion"] == "Kommissar ertappt Anführer" and body["corrected"] is True
    assert body["hits"][0]["id"] == "commissar-catches-leader"
    typed = client.get("/api/v1/search?q=max+R%C3%A4te+pro+Land&lang=de").get_json()
    assert typed["suggestion"] is None and typed["corrected"] is False


def test_search_filter_by_game(client):
    body = client.get("/api/v1/search?q=Dieb&lang=de&game=keine-ehre-unter-dieben").get_json()
    assert body["hits"] and {h["game"] for h in body["hits"]} == {"keine-ehre-unter-dieben"}
