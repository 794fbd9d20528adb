"""Rulings bite: every fact holds against the engine, and a ruling turned round, or a fact changed,
makes validation or the rule check fail."""
from __future__ import annotations

import re
import shutil

import pytest

from app import ROOT
from apptools import real_library
from rules_index.content import LANGS, load
from rules_index.content.bindings import answer_problems
from rules_index.verification import check_facts, run_check, verify

LIBRARY = real_library()
FACTS = [(g.slug, f.id, i) for g in LIBRARY for f in g.faq for i, _ in enumerate(f.ruling.facts)]
YES_NO = [(g.slug, f.id) for g in LIBRARY for f in g.faq if f.ruling.verdict in ("yes", "no")]


def test_every_fact_holds_and_every_entry_has_a_ruling():
    report = verify(LIBRARY)
    assert [f.message for f in report.facts if not f.ok] == []
    assert len(report.facts) > 100
    assert all(f.ruling.verdict is not None for g in LIBRARY for f in g.faq)


@pytest.mark.parametrize("game,faq,index", FACTS, ids=[f"{g}:{f}:{i}" for g, f, i in FACTS])
def test_a_changed_fact_fails_against_the_engine(game, faq, index):
    entry = LIBRARY.game(game).faq_entry(faq)
    fact = entry.ruling.facts[index]
    changed = fact.model_copy(update={"value": (not fact.value) if isinstance(fact.value, bool) else
                                      fact.value + 1 if isinstance(fact.value, int) else f"{fact.value}-not"})
    results = [run_check(LIBRARY.game(game), "faq", faq, check) for check in entry.checks]
    assert check_facts(game, "faq", faq, [fact], results)[0].ok
    assert not check_facts(game, "faq", faq, [changed], results)[0].ok


@pytest.mark.parametrize("game,faq", YES_NO, ids=[f"{g}:{f}" for g, f in YES_NO])
def test_a_verdict_turned_round_in_the_ruling_fails_validation(game, faq):
    found = LIBRARY.game(game)
    entry = found.faq_entry(faq)
    turned = entry.model_copy(update={"ruling": entry.ruling.model_copy(update={"verdict": "no" if entry.ruling.verdict == "yes" else "yes"})})
    pages = found.source(entry.citation.source).pages
    assert answer_problems(entry, found.glossary, pages, found.info.roles) == []
    problems = answer_problems(turned, found.glossary, pages, found.info.roles)
    assert {p.lang for p in problems} == set(LANGS)


def copy_content(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def edit_entry(content, game, faq, old, new):
    path = content / game / "faq.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"- id: {faq}\n")
    end = text.find("\n- id: ", start + 1)
    end = len(text) if end < 0 else end
    entry = text[start:end]
    assert old in entry, old
    path.write_text(text[:start] + entry.replace(old, new, 1) + text[end:], encoding="utf-8")


def test_flipping_a_verdict_in_the_yaml_fails_validation(tmp_path, runner):
    content = copy_content(tmp_path)
    edit_entry(content, "ohne-furcht-und-adel", "warlord-complete-city", "    verdict: no\n", "    verdict: yes\n")
    _, problems = load(content)
    assert [p.message for p in problems] == [
        'answer (de): opens with "Nein", but the ruling\'s verdict is yes',
        'answer (en): opens with "No", but the ruling\'s verdict is yes',
        'answer (it): opens with "No", but the ruling\'s verdict is yes',
    ]
    result = runner.invoke(args=["content", "validate", "--root", str(content)])
    assert result.exit_code == 1 and "content/ohne-furcht-und-adel/faq.yaml:" in result.output


def test_a_number_changed_in_text_and_ruling_together_fails_the_rule_check(tmp_path, runner):
    content = copy_content(tmp_path)
    game, faq = "ohne-furcht-und-adel", "warlord-complete-city"
    edit_entry(content, game, faq, "value: 8, check: 1, output: city_sizes.B}", "value: 9, check: 1, output: city_sizes.B}")
    for old, new in (("**8 oder mehr**", "**9 oder mehr**"), ("**8 or more**", "**9 or more**"), ("**8 o più**", "**9 o più**")):
        edit_entry(content, game, faq, old, new)
    _, problems = load(content)
    assert [p.message for p in problems if "warlord-complete-city" in p.file or "answer" in p.message] == []
    result = runner.invoke(args=["rules", "check", "--root", str(content)])
    assert result.exit_code == 1
    assert "ruling fact check 1 city_sizes.B: the answer says 9, the engine says 8" in result.output


def test_a_fact_naming_a_missing_check_fails_validation(tmp_path):
    content = copy_content(tmp_path)
    edit_entry(content, "ohne-furcht-und-adel", "warlord-complete-city", "value: 8, check: 1, output: city_sizes.B}", "value: 8, check: 9, output: city_sizes.B}")
    _, problems = load(content)
    assert any(re.search(r"ruling\.facts\.0: check 9 does not exist \(the entry has 5 check", p.message) for p in problems)


def test_rules_check_reports_an_answer_that_restates_a_mistake(tmp_path, runner):
    content = copy_content(tmp_path)
    answer = LIBRARY.game("ohne-furcht-und-adel").faq_entry("warlord-destroy-cost").de.answer
    last = answer.strip().split("\n\n")[-1]
    edit_entry(content, "ohne-furcht-und-adel", "warlord-destroy-cost",
               f"      {last}", f"      [Der Söldner zahlt den vollen Preis des Bauwerks, das er zerstört.]{{.editorial}}\n\n      {last}")
    result = runner.invoke(args=["rules", "check", "--root", str(content)])
    assert result.exit_code == 1
    assert "restates the common mistake 'warlord-pays-full-price'" in result.output
