"""YAML typed by an editor (citation and check): anchors, aliases and deep nesting are refused
with a form error before the content lock is taken, and nothing is written."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_index.content.submitted_yaml import MAX_DEPTH, SubmittedYamlError, parse_submitted_yaml

from formtools_shared import csrf_token, form_values, login

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check", "version"]
LAUGHS = "\n".join(
    ["probe: play", "given:", "  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
    + ["expect: {}"]
)


def test_plain_yaml_is_read():
    assert parse_submitted_yaml("probe: play\ngiven: {players: [a, b]}\n") == {"probe": "play", "given": {"players": ["a", "b"]}}


@pytest.mark.parametrize("text", [LAUGHS, "a: &x 1\nb: *x\n", "a: &x 1\n", "base: &b {x: 1}\nother:\n  <<: *b\n"])
def test_anchors_and_aliases_are_refused(text):
    with pytest.raises(SubmittedYamlError) as info:
        parse_submitted_yaml(text)
    assert info.value.reason == "alias"


def test_deep_nesting_is_refused():
    assert parse_submitted_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(SubmittedYamlError) as info:
        parse_submitted_yaml("[" * 5000 + "]" * 5000)
    assert info.value.reason == "depth"


def test_syntax_errors_are_reported():
    with pytest.raises(SubmittedYamlError) as info:
        parse_submitted_yaml("a: [1, 2\n")
    assert info.value.reason == "syntax" and info.value.detail


@pytest.mark.parametrize("field,text,said", [
    ("check", LAUGHS, "YAML-Anker und -Aliase"),
    ("citation", "source: &s Regelheft\npages: *s\n", "YAML-Anker und -Aliase"),
    ("check", "[" * 1000 + "]" * 1000, f"tiefer als {MAX_DEPTH} Ebenen"),
])
def test_direct_edit_refuses_before_the_lock(site, field, text, said):
    client = site.test_client()
    login(client)
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    faq_file = site.content_dir / GAME / "faq.yaml"
    before = faq_file.read_bytes()
    response = client.post(url, data={"csrf_token": csrf_token(page), **form_values(page, FIELDS), field: text})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert said in html
    assert len(html) < 200_000  # the refusal, not the expansion
    assert faq_file.read_bytes() == before
    assert not (Path(site.instance_path) / "content.lock").exists()  # refused before the lock


@pytest.mark.parametrize("accept,field,text,said", [
    ("de", "citation", "source: rulebook\npages: 2\nsection: Spielende: Sieger\n",
     "Kein gültiges YAML in Zeile 3, Spalte 19: ein Doppelpunkt mit Leerzeichen beginnt hier einen Schlüssel"),
    ("it", "citation", "source: rulebook\n\tpages: 2\n", "YAML non valido nella riga 2, colonna 1: un carattere di tabulazione"),
    ("en", "check", "- probe: play\n  given: {players: [a, b}\n", "Not valid YAML in line 2, column 25: a list or mapping in brackets"),
    ("en", "citation", "source: 2001-13-45\npages: 2\n", "Not valid YAML in line 1, column 9: &#39;2001-13-45&#39; reads as a date"),
    ("de", "check", "- probe: play\n  given: {players: !!bool maybe}\n", "Kein gültiges YAML in Zeile 2, Spalte 20:"),
    ("de", "citation", "source: 7\npages: 2\nsection: {de: Spielende, en: End, it: Fine}\n", "citation.source: Schreib einen Text."),
    ("it", "citation", "source: rulebook\npages: 2\nsection: {de: Spielende, en: End, it: Fine}\nseite: 2\n",
     "citation.seite non è un campo previsto qui"),
    ("en", "citation", "pages: 2\nsection: {de: Spielende, en: End, it: Fine}\n", "citation.source is missing."),
    ("de", "citation", "source: rulebook\npages: zwei\nsection: {de: Spielende, en: End, it: Fine}\n",
     "citation.pages: eine Seite ist eine Zahl oder ein Bereich wie 5-6"),
    ("it", "citation", "source: rulebook\npages: 2-1\nsection: {de: Spielende, en: End, it: Fine}\n",
     "citation.pages: un intervallo di pagine va in avanti, come 5-6"),
    ("de", "ruling", "verdict: no\nfacts:\n  - {name: a, value: 1, check: 1, output: x}\n  - {name: a, value: 2, check: 1, output: y}\n",
     "ruling: jeder Fakt braucht einen eigenen Namen; mehrfach vergeben: a"),
])
def test_a_refused_yaml_field_is_explained_in_the_editors_language(site, accept, field, text, said):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    login(client)
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    response = client.post(url, data={"csrf_token": csrf_token(page), **form_values(page, FIELDS), field: text})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert said in html
    assert "Input should be" not in html and "unknown FAQ entry" not in html
