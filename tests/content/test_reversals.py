"""A bound statement turned into its opposite is refused, whatever the value it still states:
every bound span of every checked answer, in every language, denied where it was affirmed,
affirmed where it was denied, or given the opposite of a claim word of its clause."""
from __future__ import annotations

import re

import pytest

from apptools import real_library
from rules_index.content.bindings import answer_word, is_checked, negative, own_clause, statements
from rules_index.content.bindings import Vocabulary
from rules_index.content.reversals import _PATTERNS, OPPOSITE, OPPOSITES, reading, readings, reversal_problems
from rules_index.corrections.gate import updated_faq

NOT = {"de": "nicht", "en": "not", "it": "non"}
LIBRARY = real_library()
CHECKED = [(game, faq) for game in LIBRARY for faq in game.faq if is_checked(faq)]


@pytest.mark.parametrize("text,lang,denied,words", [
    ("he may build up to 3 districts", "en", False, {"max"}),
    ("he may not build up to 3 districts", "en", True, {"max"}),
    ("no more than 1 district", "en", False, {"max"}),  # a bound from above, not a denial
    ("nicht mehr als 1 Bauwerk", "de", False, {"max"}),
    ("mindestens 2 Karten", "de", False, {"min"}),
    ("il Re precedente perde la corona", "it", False, {"lose"}),
    ("der bisherige König behält die Krone", "de", False, {"keep"}),
    ("can't name the Assassin", "en", True, set()),
])
def test_a_clause_is_read_for_its_denial_and_its_claim_words(text, lang, denied, words):
    found = reading(text, lang)
    assert (found.denied, found.words) == (denied, frozenset(words))


def _changed(faq, lang: str, answer: str):
    return updated_faq(faq, {lang: {"answer": answer}})


def _spans(faq, lang):
    text = faq.text(lang).answer
    for statement in statements(text):
        for mark in statement.marks:
            if mark.facts and re.search(r"[^\W\d_]", mark.words):
                yield text, statement, mark


def test_an_unchanged_answer_and_one_set_in_bold_say_nothing_reversed():
    for game, faq in CHECKED:
        assert reversal_problems(faq, faq, game.glossary) == []
        for lang in ("de", "en", "it"):
            first, sep, rest = faq.text(lang).answer.partition("\n")
            bold = _changed(faq, lang, f"**{first.strip()}**{sep}{rest}")
            assert reversal_problems(faq, bold, game.glossary) == [], (faq.id, lang)


def test_every_bound_span_denied_or_affirmed_the_other_way_is_refused():
    tried = missed = 0
    for game, faq in CHECKED:
        for lang in ("de", "en", "it"):
            for text, statement, mark in _spans(faq, lang):
                own = own_clause(statement, mark)
                span = f"[{mark.words}]"
                if answer_word(mark.words, lang) is not None:
                    continue  # the verdict word: the verdict's own check turns it round
                if negative(own, lang):
                    # Take the denial out of the span's words, where it stands there.
                    words = re.sub(rf"(?i)\b{NOT[lang]}\b\s*", "", mark.words, count=1)
                    if words == mark.words or not words.strip() or negative(words, lang):
                        continue
                else:
                    words = f"{NOT[lang]} {mark.words}"
                    if not negative(words, lang):
                        continue  # "nicht nur", "not only": no denial
                new = text.replace(statement.source, statement.source.replace(span, f"[{words}]", 1), 1)
                tried += 1
                if not reversal_problems(faq, _changed(faq, lang, new), game.glossary):
                    missed += 1
                    print("missed:", game.slug, faq.id, lang, words)
    assert tried > 300 and missed == 0, (tried, missed)


def test_every_claim_word_turned_into_its_opposite_is_refused():
    tried = missed = 0
    for game, faq in CHECKED:
        facts = {fact.name: fact for fact in faq.ruling.facts}
        for lang in ("de", "en", "it"):
            said = readings(faq.text(lang).answer, lang, facts, Vocabulary(game.glossary))
            for text, statement, mark in _spans(faq, lang):
                # Where the checked text says both ("first" here, "last" there), neither is turned round.
                both = frozenset().union(*(r.words for name in mark.facts for r in said.get(name, ())))
                for pattern, word_class in _PATTERNS[lang]:
                    if not pattern.search(mark.words) or OPPOSITE[word_class] in both:
                        continue
                    words = pattern.sub(OPPOSITES[OPPOSITE[word_class]][lang][0], mark.words, count=1)
                    turned = statement.source.replace(f"[{mark.words}]", f"[{words}]", 1)
                    tried += 1
                    new = _changed(faq, lang, text.replace(statement.source, turned, 1))
                    if not reversal_problems(faq, new, game.glossary):
                        missed += 1
                        print("missed:", game.slug, faq.id, lang, turned)
                    break
    assert tried > 50 and missed == 0, (tried, missed)


def test_a_span_setting_two_claims_against_each_other_is_read_part_by_part():
    """"may name neither the Assassin nor the character he took out" turned into "may name the
    Assassin but not the character he took out": the span still holds a denial, but not for the
    Assassin."""
    game = LIBRARY.game("ohne-furcht-und-adel")
    faq = game.faq_entry("thief-forbidden-targets")
    text = faq.text("en").answer
    assert "may name neither the Assassin nor the character" in text
    turned = _changed(faq, "en", text.replace("may name neither the Assassin nor", "may name the Assassin but not"))
    found = reversal_problems(faq, turned, game.glossary)
    assert [(p.code, dict(p.params)["fact"]) for p in found] == [("reversed-affirmed", "rob-assassin")]
