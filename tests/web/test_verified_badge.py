"""The honest badge: verified / partial / assumption / editorial in the API, in a player's words
on the page (collapsed), and a page on what the engine is and cannot know."""
from __future__ import annotations

import re

import pytest

from apptools import real_library
from rules_index.content.versions import faq_version, stored_faq
from rules_index.present import verification_status
from rules_index.web.state import content_dir, library

GAMES = {
    "ohne": "ohne-furcht-und-adel", "adel": "adel-verpflichtet",
    "kardinal": "kardinal-und-koenig", "keine": "keine-ehre-unter-dieben",
}
# Every entry the review found promising more than was checked: none may claim "verified".
NOT_VERIFIED = {
    ("adel", "game-end-winner"): "editorial",
    ("adel", "player-count"): "editorial",
    ("keine", "majority-tie"): "assumption",
    ("keine", "collections-visible"): "partial",
    ("keine", "reserve-pile"): "partial",
    ("ohne", "purple-districts"): "partial",
    ("kardinal", "china-iwari-different-games"): "editorial",
}


def api(client, game, faq, lang="de"):
    response = client.get(f"/api/v1/games/{GAMES[game]}/faq/{faq}?lang={lang}")
    assert response.status_code == 200
    return response.get_json()


@pytest.mark.parametrize("game,faq", sorted(NOT_VERIFIED), ids=[f for _, f in sorted(NOT_VERIFIED)])
def test_entries_the_review_flagged_are_not_verified(client, game, faq):
    assert api(client, game, faq)["verified"]["status"] == NOT_VERIFIED[(game, faq)]


def test_a_fully_checked_answer_is_verified_with_its_facts(client):
    verified = api(client, "ohne", "warlord-complete-city")["verified"]
    assert verified["status"] == "verified" and verified["unchecked"] == [] and verified["basis"] == "rule"
    assert {"value": 8, "check": 1, "where": "check 1 city_sizes.B", "ok": True} in verified["facts"]
    assert len(verified["checks"]) == 5 and all(c["ok"] for c in verified["checks"])


def test_partial_says_which_statements_are_not_checked(client):
    for lang, word in (("de", "violett"), ("en", "purple"), ("it", "viola")):
        verified = api(client, "ohne", "purple-districts", lang)["verified"]
        assert verified["status"] == "partial"
        assert verified["unchecked"] and any(word in claim for claim in verified["unchecked"])
        counted = verified["statements"]
        assert counted["checked"] + len(verified["unchecked"]) == counted["total"] and counted["checked"] > 0


def test_every_entry_has_one_of_the_four_statuses(app):
    from rules_index.web.state import verification

    with app.app_context():
        report = verification()
        statuses = {
            (g.slug, f.id): verification_status(f, report.for_entry(g.slug, "faq", f.id), report.facts_for(g.slug, "faq", f.id))
            for g in library() for f in g.faq
        }
    assert set(statuses.values()) <= {"verified", "partial", "assumption", "editorial"}
    assert sum(1 for s in statuses.values() if s == "verified") > 60


@pytest.mark.parametrize("slug", [game.slug for game in real_library()])
def test_every_answer_page_shows_the_status_of_its_entry(client, slug):
    for entry in real_library().game(slug).faq:
        status = client.get(f"/api/v1/games/{slug}/faq/{entry.id}?lang=en").get_json()["verified"]["status"]
        assert status in {"verified", "partial", "assumption", "editorial"}, (entry.id, status)
        page = client.get(f"/en/{slug}/faq/{entry.id}").get_data(as_text=True)
        assert f'<details class="verified verified-{status}">' in page, entry.id


def test_the_version_is_the_hash_of_the_stored_entry(client, app):
    body = api(client, "ohne", "tie-break")
    with app.app_context():
        stored = stored_faq(content_dir(), GAMES["ohne"], "tie-break")
    assert body["version"] == faq_version(stored)
    assert api(client, "ohne", "tie-break", "it")["version"] == body["version"]
    assert api(client, "ohne", "warlord-complete-city")["version"] != body["version"]


def test_status_follows_basis_unchecked_and_verdict(app):
    with app.app_context():
        entry = library().game(GAMES["ohne"]).faq_entry("warlord-complete-city")
    ok = [type("R", (), {"ok": True})()]
    failed = [type("R", (), {"ok": False})()]
    assert verification_status(entry, ok) == "verified"
    assert verification_status(entry.model_copy(update={"basis": "assumption"}), ok) == "assumption"
    assert verification_status(entry.model_copy(update={"basis": "editorial"}), ok) == "editorial"
    assert verification_status(entry, []) == "editorial"
    open_question = entry.de.model_copy(update={"answer": entry.de.answer + "\n\n[Was sonst gilt, sagt die Regel nicht.]{.unchecked}"})
    assert verification_status(entry.model_copy(update={"de": open_question}), ok) == "partial"
    assert verification_status(entry.model_copy(update={"ruling": entry.ruling.model_copy(update={"verdict": "none"})}), ok) == "editorial"
    assert verification_status(entry, failed) == "failed"


@pytest.mark.parametrize("lang,summary", [
    ("de", r"✓ (\d+) von \1 Aussagen in 5 Spielsituationen geprüft"),
    ("en", r"✓ (\d+) of \1 statements checked in 5 game situations"),
    ("it", r"✓ Affermazioni verificate: (\d+) su \1, in 5 situazioni di gioco"),
])
def test_the_page_says_it_in_words_collapsed(client, lang, summary):
    html = client.get(f"/{lang}/{GAMES['ohne']}/faq/warlord-complete-city").get_data(as_text=True)
    details = re.search(r'<details class="verified verified-verified">(.*?)</details>', html, re.S)
    assert details and re.search(summary, details.group(1))
    assert "<details open" not in html
    assert f'href="/{lang}/engine"' in details.group(1)


@pytest.mark.parametrize("game,faq,phrase", [
    ("ohne", "purple-districts", "Nicht von der Engine geprüft:"),
    ("keine", "majority-tie", "Die Quellen schweigen"),
    ("adel", "game-end-winner", "Redaktionelle Angabe"),
])
def test_the_other_statuses_in_words(client, game, faq, phrase):
    html = client.get(f"/de/{GAMES[game]}/faq/{faq}").get_data(as_text=True)
    assert phrase in html and "In 0 Spielsituationen" not in html
    assert "Von der Regel-Engine geprüft" not in html


@pytest.mark.parametrize("lang,summary", [
    ("de", r"◐ (\d+) von (\d+) Aussagen in \d+ Spielsituationen? geprüft, nicht alle"),
    ("en", r"◐ (\d+) of (\d+) statements checked in \d+ game situations?, not all"),
    ("it", r"◐ Affermazioni verificate: (\d+) su (\d+), in \d+ situazion[ei] di gioco; non tutte"),
])
def test_a_partly_checked_answer_does_not_wear_the_tick(client, lang, summary):
    """The tick is for answers checked whole, on the page and on the search card alike."""
    page = client.get(f"/{lang}/{GAMES['ohne']}/faq/purple-districts").get_data(as_text=True)
    found = re.search(summary, page)
    assert found and int(found.group(1)) < int(found.group(2)) and "✓" not in page.split("</main>")[0].split("<main")[-1]
    search = client.get(f"/{lang}/search", query_string={"q": "lila bauwerke sonderfähigkeit"}).get_data(as_text=True)
    for card in re.findall(r'<p class="badge card-badge verified-partial">(.*?)</p>', search, re.S):
        assert card.strip().startswith("◐"), card


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_statements_not_checked_are_shown_as_text_not_markdown(client, lang):
    """The list under "Not checked by the engine" showed "**special ability**" with its stars."""
    html = client.get(f"/{lang}/{GAMES['ohne']}/faq/purple-districts").get_data(as_text=True)
    listed = re.search(r'<ul class="unchecked">(.*?)</ul>', html, re.S)
    assert listed and "<li>" in listed.group(1)
    assert "**" not in listed.group(1) and "<strong>" in listed.group(1)


@pytest.mark.parametrize("lang,title", [
    ("de", "Die Regel-Engine: was sie prüft und was sie nicht wissen kann"),
    ("en", "The rules engine: what it checks, and what it cannot know"),
    ("it", "Il motore delle regole: che cosa verifica e che cosa non può sapere"),
])
def test_the_engine_page(client, lang, title):
    response = client.get(f"/{lang}/engine")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f"<h1>{title}</h1>" in html.replace("&#39;", "'")
    assert client.get("/xx/engine").status_code == 404


@pytest.mark.parametrize("lang,back", [("de", "Zurück zur Antwort"), ("en", "Back to the answer"), ("it", "Torna alla risposta")])
def test_each_situation_a_statement_leads_to_leads_back_to_the_answer(client, lang, back):
    page = client.get(f"/{lang}/ohne-furcht-und-adel/faq/thief-forbidden-targets").get_data(as_text=True)
    assert '<div class="answer" id="answer">' in page
    targets = set(re.findall(r'<a class="bound" href="#([^"]+)"', page))
    assert targets
    for anchor in targets:
        item = re.search(rf'<li id="{re.escape(anchor)}">(.*?)</li>', page, re.S)
        assert item, anchor
        assert re.search(rf'<a class="to-answer" href="#answer">.*{back}</a>', item.group(1)), item.group(1)
