"""Held changes over the API, with two editors: what the engine cannot judge stays out of sight
(answer page, FAQ API, search) until another editor confirms it; nobody confirms their own."""
from __future__ import annotations

import pytest

from apptools import make_editor_site
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.tokens import issue_token

GAME, FAQ = "ohne-furcht-und-adel", "thief-forbidden-targets"
ADDED = {
    "de": "[Zum Vergleich: Den Baumeister darf der Dieb bestehlen.]{.editorial}",
    "en": "[For comparison: the Thief may rob the Architect.]{.editorial}",
    "it": "[Per confronto: il Ladro può derubare l'Architetto.]{.editorial}",
}


@pytest.fixture()
def app(tmp_path):
    app = make_editor_site(tmp_path)
    with app.app_context():
        add_editor(session(), "bert", "another-long-editor-password")
        app.config["SECOND_TOKEN"] = issue_token(session(), "bert")
    return app


def headers(app, second=False):
    return {"Authorization": f"Bearer {app.config['SECOND_TOKEN' if second else 'TEST_TOKEN']}"}


def stored(app) -> dict:
    return app.test_client().get(f"/api/v1/games/{GAME}/faq/{FAQ}?lang=de").get_json()


def answers(app) -> dict:
    with app.app_context():
        from rules_index.web.state import library
        entry = library().game(GAME).faq_entry(FAQ)
        return {lang: entry.text(lang).answer for lang in ("de", "en", "it")}


def submit(app, texts, dry_run=False, second=False):
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": texts, "dry_run": dry_run,
            "base_version": stored(app)["version"]}
    return app.test_client().post("/api/v1/changes", json=body, headers=headers(app, second))


def added_statement(app) -> dict:
    return {lang: {"answer": text.rstrip() + "\n\n" + ADDED[lang]} for lang, text in answers(app).items()}


def reader_sees(app, words: str) -> dict:
    client = app.test_client()
    return {
        "page": words in client.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True),
        "api": words in stored(app)["answer_html"],
        "search": any(words in (hit.get("snippet") or "") for hit in
                      client.get("/api/v1/search", query_string={"q": "Baumeister bestehlen Dieb", "lang": "de"}).get_json()["hits"]),
    }


def test_a_dry_run_says_it_would_be_held(app):
    response = submit(app, added_statement(app), dry_run=True)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["outcome"], body["accepted"], body["held"]) == ("held", False, None)
    assert {reason.get("lang") for reason in body["reasons"]} == {"de", "en", "it"}


def test_a_held_change_is_out_of_sight_until_another_editor_confirms_it(app):
    words = "Den Baumeister darf der Dieb bestehlen"
    before = stored(app)["version"]
    response = submit(app, added_statement(app))
    assert response.status_code == 202
    body = response.get_json()
    assert body["outcome"] == "held" and body["change"] is None and body["published"] is False
    held = body["held"]
    assert reader_sees(app, words) == {"page": False, "api": False, "search": False}
    assert stored(app)["version"] == before

    own = app.test_client().post(f"/api/v1/changes/{held}/confirm", headers=headers(app))
    assert own.status_code == 403 and "another editor" in own.get_json()["error"]
    assert reader_sees(app, words)["page"] is False

    confirmed = app.test_client().post(f"/api/v1/changes/{held}/confirm", headers=headers(app, second=True))
    assert confirmed.status_code == 201, confirmed.get_json()
    assert confirmed.get_json()["outcome"] == "accepted" and confirmed.get_json()["change"]
    seen = reader_sees(app, words)
    assert seen["page"] and seen["api"]
    again = app.test_client().post(f"/api/v1/changes/{held}/confirm", headers=headers(app, second=True))
    assert again.status_code == 409


def test_a_rejected_change_never_shows(app):
    held = submit(app, added_statement(app)).get_json()["held"]
    rejected = app.test_client().post(f"/api/v1/changes/{held}/reject", json={"note": "says more than the answer needs"},
                                      headers=headers(app, second=True))
    assert rejected.status_code == 200 and rejected.get_json() == {"outcome": "rejected", "held": held}
    assert app.test_client().post(f"/api/v1/changes/{held}/confirm", headers=headers(app, second=True)).status_code == 409
    assert reader_sees(app, "Den Baumeister darf der Dieb bestehlen")["page"] is False
    assert app.test_client().post("/api/v1/changes/999999/confirm", headers=headers(app, second=True)).status_code == 404


def test_a_span_that_contradicts_the_engine_is_refused_and_a_typo_fix_goes_live(app):
    texts = answers(app)
    wrong = {"de": {"answer": texts["de"].replace("[geht er leer aus]{fact=nobody-holds-it}", "[bekommt er 2 Gold]{fact=nobody-holds-it}")}}
    refused = submit(app, wrong)
    assert refused.status_code == 422 and refused.get_json()["outcome"] == "refused"
    assert any("nobody-holds-it" in p["message"] for p in refused.get_json()["problems"])

    # A typo that a second editor let through is then fixed by one editor alone.
    typo = {"de": {"answer": texts["de"].replace("verdeckt", "verdekct")}}
    held = submit(app, typo).get_json()
    assert held["outcome"] == "held"
    assert app.test_client().post(f"/api/v1/changes/{held['held']}/confirm", headers=headers(app, second=True)).status_code == 201
    fixed = submit(app, {"de": {"answer": texts["de"]}})
    assert fixed.status_code == 201 and fixed.get_json()["outcome"] == "accepted", fixed.get_json()


SECTION = "characters"
# Wrong rules written into a rules section in every way the words allow: a permission turned,
# a number, a colour, an order, a quantifier, a sentence added or dropped, the text replaced.
SECTION_WRONG = [
    ("Verboten sind der Meuchler selbst", "Erlaubt sind auch der Meuchler selbst"),
    ("sein ganzes Gold geben", "sein halbes Gold geben"),
    ("1 Gold pro blauem Bauwerk", "2 Gold pro blauem Bauwerk"),
    ("für jedes grüne Bauwerk", "für jedes rote Bauwerk"),
    ("bis zu 3 Bauwerke", "mindestens 3 Bauwerke"),
    ("Zu Beginn der nächsten Runde", "Am Ende der nächsten Runde"),
    ("bekommt er nichts.", "bekommt er nichts. Er darf dann einen zweiten Charakter nennen."),
    (" Verboten sind der Meuchler selbst und das Opfer des Meuchlers aus der laufenden Runde.", ""),
]


def section_body(app, lang="de") -> str:
    return app.test_client().get(f"/api/v1/games/{GAME}/sections/{SECTION}?lang={lang}").get_json()


def submit_section(app, body: str, dry_run=True):
    shown = section_body(app)
    request = {"game": GAME, "kind": "section", "id": SECTION, "text": {"de": {"body": body}},
               "dry_run": dry_run, "base_version": shown["version"]}
    return app.test_client().post("/api/v1/changes", json=request, headers=headers(app))


def stored_section(app) -> str:
    with app.app_context():
        from rules_index.web.state import library
        return library().game(GAME).section(SECTION).body("de")


@pytest.mark.parametrize("old,new", SECTION_WRONG)
def test_a_rules_section_reworded_waits_for_a_second_editor(app, old, new):
    # A section binds no statement to the engine, so one editor alone cannot put a new rule
    # in front of readers: every reworded, added or dropped statement is held.
    body = stored_section(app)
    assert old in body
    response = submit_section(app, body.replace(old, new), dry_run=False)
    assert response.status_code == 202 and response.get_json()["outcome"] == "held", response.get_json()
    assert stored_section(app) == body


def test_a_section_whose_text_is_replaced_waits_too(app):
    assert submit_section(app, "Wort " * 4000).get_json()["outcome"] == "held"


def test_a_section_with_a_number_written_out_goes_live(app):
    # What the words still say the same goes live at once, as in an answer.
    old, new = "Wählt eine von 2 Möglichkeiten", "Wählt eine von zwei Möglichkeiten"
    body = stored_section(app)
    assert old in body
    response = submit_section(app, body.replace(old, new), dry_run=False)
    assert response.status_code == 201 and response.get_json()["outcome"] == "accepted", response.get_json()
    assert new in stored_section(app)


def test_a_held_section_goes_live_once_another_editor_confirms_it(app):
    body = stored_section(app)
    old, new = SECTION_WRONG[6]
    held = submit_section(app, body.replace(old, new), dry_run=False).get_json()["held"]
    assert app.test_client().post(f"/api/v1/changes/{held}/confirm", headers=headers(app)).status_code == 403  # not one's own
    confirmed = app.test_client().post(f"/api/v1/changes/{held}/confirm", headers=headers(app, second=True))
    assert confirmed.status_code == 201
    assert "zweiten Charakter" in stored_section(app)
