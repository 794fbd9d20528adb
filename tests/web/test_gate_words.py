"""The gate's findings in the editor's language: every code of bindings.py, claims.py, reversals.py,
gate.py and holds.py has its
sentence in de, en and it, with the text, the engine's value and the way to fix it."""
from __future__ import annotations

import pytest
from flask_babel import force_locale

from rules_index.content.bindings import BindingProblem
from rules_index.web.gate_words import gate_text

PARAMS = {"words": "Wörterx", "fact": "factx", "expected": "Wertx", "check": 3, "subject": "Subjektx", "text": "Satzx",
          "numbers": "7, 9", "page": "S. 9", "cited": "S. 2", "mark": "[Markex]", "field": "answer", "fields": "ruling",
          "facts": "a, b", "said": "Gesagtx", "checked": "Geprüftx",
          "verdict": "Urteilx", "first": "5", "mistake": "Irrtumx", "scenario": "Szenariox."}
CODES = ["value", "opposite", "obligation", "no-words", "unknown-fact", "subject", "unbound", "loose-number", "page", "mark", "span-lines", "question",
         "reversed-denied", "reversed-affirmed", "reversed-word",
         "verdict-opens", "verdict-open", "verdict-missing", "verdict-number", "verdict-phrase", "mistake", "new", "dropped", "structured", "diverging"]


@pytest.mark.parametrize("locale", ["de", "en", "it"])
@pytest.mark.parametrize("code", CODES)
def test_every_code_is_said_in_every_language(app, code, locale):
    problem = BindingProblem("it", "the English message", code, tuple(PARAMS.items()))
    with app.test_request_context(), force_locale(locale):
        said = gate_text(problem)
        stored = gate_text({"message": "the English message", "lang": "it", "code": code, "params": PARAMS})
    assert said == stored and said != "the English message"
    assert not any(mark in said for mark in ("%(", "%s"))
    if code not in ("structured",):
        assert {"de": "Italiano", "en": "Italiano", "it": "Italiano"}[locale] in said
    if code in ("value", "opposite", "unbound", "loose-number"):
        # What the text says, and how to fix it (a verb of the fixing sentence).
        assert any(word in said for word in ("Wörterx", "Satzx"))
        assert any(word in said for word in ("Bind", "Binde", "Lega", "Turn", "Dreh", "Capovolgi", "Write", "Schreib", "Scrivi"))


def test_a_problem_without_a_code_keeps_its_message(app):
    with app.test_request_context(), force_locale("de"):
        assert gate_text({"message": "check faq:x (steps) FAILED"}) == "check faq:x (steps) FAILED"


@pytest.mark.parametrize("locale,said", [("de", "Seite 99 liegt jenseits der 2 Seiten"), ("en", "page 99 is beyond the 2 pages"),
                                         ("it", "la pagina 99 va oltre le 2 pagine")])
def test_a_page_beyond_the_source_is_said_in_the_editors_language_without_a_file_line(app, locale, said):
    """The editor's page showed "validation content/…/faq.yaml:1: page 99 is beyond the 2 pages …" in
    English, with a file and a line the change in memory does not have."""
    from apptools import real_library
    from rules_index.corrections.gate import review_faq

    game = real_library().game("ohne-furcht-und-adel")
    stored = game.faq_entry("thief-forbidden-targets")
    citation = {**stored.citation.model_dump(mode="json", exclude_none=True), "pages": [1, 99]}
    problems, _ = review_faq(game, stored, {"citation": citation})
    found = [p for p in problems if dict(p.params).get("type") == "page_beyond"]
    assert found and ".yaml" not in found[0].message
    with app.test_request_context(), force_locale(locale):
        assert said in gate_text(found[0])
