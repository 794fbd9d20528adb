"""The editors' API: POST /api/v1/changes through the same gate as the review page.

Wrong edits generated from the content (edit_sets.py) are refused as dry runs with problems that
name the cause; right edits are never refused: plain ones go live, new words wait for a second
editor (test_held_changes.py, gate_edits.py).
"""
from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import select

from apptools import answer_with_aside, make_editor_site, read_first
from rules_index.corrections.db import session
from rules_index.corrections.models import EditorToken, TranslationFlag
from rules_index.corrections.editors import add_editor
from rules_index.corrections.tokens import issue_token, revoke_tokens
from rules_index.web.state import library

from edit_sets import right_edits, wrong_edits
from formtools_shared import EDITOR

GAME = "ohne-furcht-und-adel"
PROPOSAL = "Der Söldner zahlt den vollen Preis des Bauwerks. Ein Bauwerk mit Wert 1 kostet ihn 1 Gold."
# A change every dry run accepts or holds (an editorial aside): for the tests of access and versions.
ASIDE = {"en": {"answer": answer_with_aside(GAME, "tie-break", "en", "Ask the table before you start.")}}


@pytest.fixture(scope="module")
def dry_app(tmp_path_factory):
    """One app for dry runs only (they write nothing, so the tests can share it)."""
    return make_editor_site(tmp_path_factory.mktemp("changes-dry"))


@pytest.fixture()
def write_app(tmp_path):
    return make_editor_site(tmp_path)


def post(app, body, token=None):
    token = app.config["TEST_TOKEN"] if token is None else token
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = app.test_client()
    return client.post("/api/v1/changes", json=read_first(client, body), headers=headers)


def change(faq, text, game=GAME, **extra):
    return {"game": game, "kind": "faq", "id": faq, "text": text, "dry_run": True, **extra}


def version_of(app, faq, game=GAME):
    return app.test_client().get(f"/api/v1/games/{game}/faq/{faq}").get_json()["version"]


# ----------------------------------------------------------------------------------- access


@pytest.mark.parametrize("header", [None, "Basic YW5uYTpwdw==", "Bearer ", "Bearer not-a-token"])
def test_a_valid_token_is_required(dry_app, header):
    headers = {"Authorization": header} if header else {}
    response = dry_app.test_client().post("/api/v1/changes", json=change("tie-break", {"de": {"answer": "x"}}), headers=headers)
    assert response.status_code == 401
    assert "token" in response.get_json()["error"]


def test_tokens_are_stored_hashed_and_revocable(write_app):
    token = write_app.config["TEST_TOKEN"]
    with write_app.app_context():
        stored = session().scalars(select(EditorToken.token_hash)).all()
    assert stored and token not in stored and all(len(h) == 64 for h in stored)
    body = change("tie-break", ASIDE)
    assert post(write_app, body).status_code == 200
    with write_app.app_context():
        revoke_tokens(session(), EDITOR)
    assert post(write_app, body).status_code == 401
    with write_app.app_context():
        fresh = issue_token(session(), EDITOR)
    assert post(write_app, body, token=fresh).status_code == 200


def test_cli_prints_a_token_and_revokes_it(write_app):
    runner = write_app.test_cli_runner()
    printed = runner.invoke(args=["editors", "token", EDITOR])
    assert printed.exit_code == 0
    token = printed.output.strip()
    assert len(token) >= 40 and " " not in token
    body = change("tie-break", ASIDE)
    assert post(write_app, body, token=token).status_code == 200
    assert post(write_app, body).status_code == 401  # the earlier token stopped working
    assert runner.invoke(args=["editors", "revoke", EDITOR]).exit_code == 0
    assert post(write_app, body, token=token).status_code == 401
    assert runner.invoke(args=["editors", "token", "nobody"]).exit_code != 0


@pytest.mark.parametrize("body,status,field", [
    ({"game": "nope", "kind": "faq", "id": "x", "text": {"de": {"answer": "x"}}, "base_version": "v"}, 404, "game"),
    ({"game": GAME, "kind": "faq", "id": "nope", "text": {"de": {"answer": "x"}}, "base_version": "v"}, 404, "id"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"answer": "x"}}, "base_version": ""}, 400, "base_version"),
    ({"game": GAME, "kind": "glossary", "id": "tie-break", "text": {"de": {"answer": "x"}}}, 400, "kind"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"fr": {"answer": "x"}}}, 400, "text"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"body": "x"}}}, 400, "text.de"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"answer": 3}}}, 400, "text.de.answer"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {}}, 400, "text"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"answer": "x\u0007"}}}, 400, "text.de.answer"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"answer": "x"}}, "dry_run": "yes"}, 400, "dry_run"),
    ({"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"answer": "x"}}, "base_version": 7}, 400, "base_version"),
])
def test_bad_requests_get_clear_errors(dry_app, body, status, field):
    response = post(dry_app, body)
    assert response.status_code == status
    assert response.get_json()["error"].startswith(f"{field}:")
    assert "{{" not in response.get_json()["error"]  # an example in the message reads as JSON


# ------------------------------------------------------------------------------ the gate


def test_the_warlord_proposal_is_refused(dry_app):
    response = post(dry_app, change("warlord-destroy-cost", {"de": {"answer": PROPOSAL}}))
    assert response.status_code == 422
    body = response.get_json()
    mistakes = [p for p in body["problems"] if p["kind"] == "mistake"]
    assert [p["mistake"] for p in mistakes] == ["warlord-pays-full-price"]
    assert mistakes[0]["check"].startswith("mistakes.yaml warlord-pays-full-price, check 1 (steps)")
    assert "zahlt den vollen Preis" in mistakes[0]["message"] and mistakes[0]["lang"] == "de"
    assert any(p["kind"] == "claim" and "\"weniger\"" in p["message"] for p in body["problems"])


def test_an_english_only_rewording_waits_for_a_second_editor(dry_app):
    """New words in one language: nothing contradicts the engine, but it cannot judge them."""
    entry = library_entry(dry_app, "warlord-complete-city")
    answer = entry.en.answer.replace("In a city of", "Inside a city of")
    assert answer != entry.en.answer
    response = post(dry_app, change("warlord-complete-city", {"en": {"answer": answer}}))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert (body["outcome"], body["accepted"], body["change"], body["held"]) == ("held", False, None, None)
    assert [reason["lang"] for reason in body["reasons"]] == ["en", "en"]
    assert body["version"] == version_of(dry_app, "warlord-complete-city")


def test_a_contradicting_english_only_fix_is_refused(dry_app):
    entry = library_entry(dry_app, "warlord-complete-city")
    answer = entry.en.answer.replace("**8 or more**", "**7 or more**")
    response = post(dry_app, change("warlord-complete-city", {"en": {"answer": answer}}))
    assert response.status_code == 422 and response.get_json()["outcome"] == "refused"
    messages = [p["message"] for p in response.get_json()["problems"]]
    assert any(m.startswith('answer (en): "**7 or more** districts" does not state 8 (fact \'complete-size\'') for m in messages), messages


@pytest.mark.parametrize("lang,allowed,obliged", [
    ("en", "the Warlord may destroy the districts", "the Warlord must destroy the districts"),
    ("de", "darf der Söldner dagegen", "muss der Söldner dagegen"),
    ("it", "il Condottiero può distruggere", "il Condottiero deve distruggere"),
])
def test_may_turned_into_must_is_refused(dry_app, lang, allowed, obliged):
    """The engine checked that the Warlord may destroy them; that he must is a claim it never
    checked, so a second editor cannot approve it into a statement shown as checked."""
    entry = library_entry(dry_app, "warlord-complete-city")
    text = entry.text(lang).answer
    assert allowed in text
    response = post(dry_app, change("warlord-complete-city", {lang: {"answer": text.replace(allowed, obliged)}}))
    body = response.get_json()
    assert response.status_code == 422 and body["outcome"] == "refused", body
    assert any("must be done" in p["message"] and "destroy-assassinated" in p["message"] for p in body["problems"]), body["problems"]


def test_a_stale_base_version_is_a_conflict(dry_app):
    current = version_of(dry_app, "tie-break")
    body = change("tie-break", ASIDE, base_version="0" * 20)
    response = post(dry_app, body)
    assert response.status_code == 409
    assert response.get_json()["version"] == current
    assert post(dry_app, {**body, "base_version": current}).status_code == 200


def test_a_plain_fix_is_written_at_once_and_versioned(write_app):
    """A page reference added (the citation's page): nothing the engine cannot judge, so it goes
    live at once, and flags no translation (it says nothing new)."""
    before = version_of(write_app, "tie-break")
    faq_file = write_app.content_dir / GAME / "faq.yaml"
    entry = library_entry(write_app, "tie-break")
    answer = entry.en.answer.rstrip() + " (p. 2)"
    dry = post(write_app, change("tie-break", {"en": {"answer": answer}}, base_version=before))
    assert dry.status_code == 200 and dry.get_json()["outcome"] == "accepted"
    assert "(p. 2)" not in faq_file.read_text(encoding="utf-8")
    written = post(write_app, change("tie-break", {"en": {"answer": answer}}, base_version=before, dry_run=False))
    assert written.status_code == 201, written.get_json()
    body = written.get_json()
    assert body["outcome"] == "accepted" and body["accepted"] is True and isinstance(body["change"], int) and body["flags"] == []
    assert body["version"] != before and body["version"] == version_of(write_app, "tie-break")
    assert "(p. 2)" in faq_file.read_text(encoding="utf-8")
    with write_app.app_context():
        assert session().scalars(select(TranslationFlag).where(TranslationFlag.target_id == "tie-break")).all() == []
    again = post(write_app, change("tie-break", {"en": {"answer": answer}}, base_version=before, dry_run=False))
    assert again.status_code == 409


def test_a_section_change_goes_through_the_same_api(write_app):
    # A rules section binds nothing to the engine: a new statement waits for a second editor
    # (test_held_changes.py), a page that breaks the section's layout is refused.
    response = post(write_app, {"game": GAME, "kind": "section", "id": "goal", "text": {"en": {"body": "Build the most valuable city.\n\nZanzibarword."}}, "dry_run": True})
    assert response.status_code == 200 and response.get_json()["outcome"] == "held"
    assert any(reason["message"].startswith("body (en)") for reason in response.get_json()["reasons"])
    refused = post(write_app, {"game": GAME, "kind": "section", "id": "goal", "text": {"en": {"body": "## Not a section\n\nText"}}, "dry_run": True})
    assert refused.status_code == 422 and refused.get_json()["problems"][0]["kind"] == "validation"


def test_a_section_change_carries_the_version_the_api_shows(write_app):
    with write_app.app_context():
        add_editor(session(), "bert", "another-long-editor-password")
        second = issue_token(session(), "bert")
    client = write_app.test_client()
    shown = client.get(f"/api/v1/games/{GAME}/sections/goal?lang=en").get_json()
    assert shown["version"] == client.get(f"/api/v1/games/{GAME}/sections/goal?lang=de").get_json()["version"]
    body = {"game": GAME, "kind": "section", "id": "goal", "text": {"en": {"body": "Build the most valuable city.\n\nZanzibarword."}},
            "base_version": shown["version"], "dry_run": False}
    held = post(write_app, body)
    assert held.status_code == 202 and held.get_json()["outcome"] == "held", held.get_json()
    written = client.post(f"/api/v1/changes/{held.get_json()['held']}/confirm", headers={"Authorization": f"Bearer {second}"})
    assert written.status_code == 201, written.get_json()
    now = client.get(f"/api/v1/games/{GAME}/sections/goal?lang=en").get_json()
    assert now["version"] == written.get_json()["version"] != shown["version"]
    assert "Zanzibarword" in now["body_html"]
    assert post(write_app, body).status_code == 409  # the same base again: the section changed since


def library_entry(app, faq, game=GAME):
    with app.app_context():
        return library().game(game).faq_entry(faq)


# -------------------------------------------------------------------- the generated sets


def test_wrong_edits_are_refused_naming_the_cause(dry_app, capsys):
    """Each wrong edit is refused with the cause named, or at least held for a second editor;
    none would go live."""
    with dry_app.app_context():
        edits = wrong_edits(library())
    refused, held, live, unnamed = Counter(), Counter(), [], []
    for edit in edits:
        response = post(dry_app, change(edit.faq, edit.text, game=edit.game))
        if response.status_code == 422:
            refused[edit.kind] += 1
            kinds = {p["kind"] for p in response.get_json()["problems"]}
            if not edit.expect <= kinds:
                unnamed.append((edit.kind, edit.game, edit.faq, edit.label, kinds))
        else:
            assert response.status_code == 200, response.get_json()
            if response.get_json()["outcome"] == "held":
                held[edit.kind] += 1
            else:
                live.append((edit.kind, edit.game, edit.faq, edit.label))
    totals = Counter(edit.kind for edit in edits)
    with capsys.disabled():
        print(f"\nwrong edits refused: {sum(refused.values())}/{len(edits)}, held: {sum(held.values())} "
              + ", ".join(f"{kind} {refused[kind]}+{held[kind]}/{count}" for kind, count in sorted(totals.items())))
    assert set(totals) == {"verdict, all languages", "number, all languages", "mistake pasted as the answer", "one language contradicts"}
    assert totals["mistake pasted as the answer"] == sum(1 for g in library_games(dry_app) for m in g.mistakes if m.faq)
    assert live == [] and unnamed == []
    assert sum(refused.values()) / len(edits) >= 0.85


def test_right_edits_are_never_refused(dry_app, capsys):
    with dry_app.app_context():
        edits = right_edits(library())
    refused, outcomes, bold_held = [], Counter(), []
    for edit in edits:
        response = post(dry_app, change(edit.faq, edit.text, game=edit.game))
        if response.status_code != 200:
            refused.append((edit.kind, edit.game, edit.faq, response.get_json()))
            continue
        outcomes[(edit.kind, response.get_json()["outcome"])] += 1
        if edit.kind == "markup (bold)" and response.get_json()["outcome"] == "held":
            bold_held.append(edit)
    with capsys.disabled():
        print(f"\nright edits not refused: {len(edits) - len(refused)}/{len(edits)} {sorted(outcomes.items())}")
    assert len(edits) == 3 * sum(len(g.faq) for g in library_games(dry_app))
    assert refused == []
    # Bold type changes no word: it goes live at once, unless the line held bold already (the
    # stars then toggle: "**The **current King**…" shows "The" bold alone and the King no longer
    # bold). New words wait for a second editor.
    assert all(any("**" in text["answer"][2:].partition("\n")[0] for text in edit.text.values()) for edit in bold_held)
    assert outcomes[("markup (bold)", "accepted")] > 0.9 * len(edits) / 3 and outcomes[("neutral sentence", "accepted")] == 0


def library_games(app):
    with app.app_context():
        return list(library())
