"""An entry's history as plain data: which languages changed, in which order, what else changed."""
from __future__ import annotations

from rules_index.corrections.history import history_item
from rules_index.corrections.models import Change


def texts(de: str, en: str, it: str) -> dict:
    return {lang: {"question": "Q?", "answer": answer} for lang, answer in (("de", de), ("en", en), ("it", it))}


def items(pairs: list[tuple[dict, dict]], lang: str, kind: str = "faq") -> list:
    return [history_item(Change(target_kind=kind), lang, before, after) for before, after in pairs]


def test_the_readers_language_comes_first_and_unchanged_languages_are_left_out():
    before = {**texts("Zwölf.", "Twelve.", "Dodici."), "citation": {"pages": 1}}
    after = {**texts("Zwölf.", "Twelve coins.", "Dodici monete."), "citation": {"pages": 2}}
    [item] = items([(before, after)], "it")
    assert item.own.lang == "it" and item.own.question is None
    assert str(item.own.answer) == "<p>Dodici <ins>monete</ins>.</p>"
    assert [t.lang for t in item.others] == ["en"]
    assert item.other_fields == ["citation"]


def test_a_reader_whose_language_did_not_change_sees_only_the_others():
    before, after = texts("A.", "B.", "C."), texts("A.", "B b.", "C.")
    shown = items([(before, after), (after, after)], "de")
    assert [(i.own, [t.lang for t in i.others]) for i in shown] == [(None, ["en"]), (None, [])]


def test_a_rules_section_shows_its_title_and_text_changed():
    before = {lang: {"title": "Ziel", "body": "Baue die Stadt."} for lang in ("de", "en", "it")}
    after = {**before, "en": {"title": "Goal", "body": "Build the finest city."}}
    [item] = items([(before, after)], "en", "section")
    assert str(item.own.question) == "<del>Ziel</del> <ins>Goal</ins>"
    assert str(item.own.answer) == "<p><del>Baue die Stadt</del> <ins>Build the finest city</ins>.</p>"
    assert item.others == []


def test_the_public_history_of_a_rules_section(tmp_path):
    from apptools import make_editor_site

    site = make_editor_site(tmp_path)
    game, section = "ohne-furcht-und-adel", "characters"
    client = site.test_client()
    shown = client.get(f"/api/v1/games/{game}/sections/{section}?lang=de").get_json()
    with site.app_context():
        from rules_index.web.state import library
        body = library().game(game).section(section).body("de")
    change = {"game": game, "kind": "section", "id": section, "base_version": shown["version"], "dry_run": False,
              "text": {"de": {"body": body.replace("Wählt eine von 2", "Wählt eine von zwei")}}}
    assert client.post("/api/v1/changes", json=change, headers={"Authorization": f"Bearer {site.config['TEST_TOKEN']}"}).status_code == 201
    page = client.get(f"/de/{game}/rules/{section}/history").get_data(as_text=True)
    assert "<ins>zwei</ins>" in page and "Die acht Charaktere" in page
    assert f'href="/de/{game}/rules/{section}/history"' in client.get(f"/de/{game}/").get_data(as_text=True)
    assert client.get(f"/de/{game}/rules/no-such-section/history").status_code == 404
