"""Recognising common mistakes in answers, calibrated on the real content.

Every mistake pasted into the FAQ entry it is linked to (in each language, as the whole answer,
after a verdict word, or added to the real answer) is recognised; no shipped answer is taken for
a mistake, and neither are the mistakes' own corrections or their denials.
"""
from __future__ import annotations

import pytest

from apptools import real_library
from rules_index.content import LANGS
from rules_index.restatements import THRESHOLD, Comparer, comparer, negated, sentences

LIBRARY = real_library()
VERDICT = {"de": "Ja", "en": "Yes", "it": "Sì"}
DENY = {
    "de": ("Nein, er zahlt nicht den vollen Preis.", "Der Söldner zahlt nicht den vollen Preis des Bauwerks, das er zerstört."),
    "en": ("No, he does not pay the full price.", "The Warlord doesn't pay the full price of the district he destroys."),
    "it": ("No, non paga il prezzo pieno.", "Il Condottiero non paga il prezzo pieno del quartiere che distrugge."),
}


def pasted_variants(mistake, lang):
    text = mistake.text(lang).mistake
    variants = {
        "pasted": text,
        "after a verdict word": f"{VERDICT[lang]}, {text[0].lower()}{text[1:]}",
        "own paragraph": f"{VERDICT[lang]}.\n\n{text}",
    }
    faq = LIBRARY.game(mistake_game(mistake)).faq_entry(mistake.faq) if mistake.faq else None
    if faq is not None:
        variants["added to the answer"] = f"{faq.text(lang).answer.rstrip()}\n\n{text}"
    return variants


def mistake_game(mistake):
    return next(g.slug for g in LIBRARY if mistake in g.mistakes)


def test_no_shipped_answer_restates_a_mistake():
    found = []
    for game in LIBRARY:
        for faq in game.faq:
            for lang in LANGS:
                found += [(faq.id, lang, r.mistake.id, r.sentence) for r in comparer(game).restatements(faq.text(lang).answer, lang)]
    assert found == []


def test_every_mistake_pasted_is_recognised():
    missed, total = [], 0
    for game in LIBRARY:
        compare = comparer(game)
        for mistake in game.mistakes:
            for lang in LANGS:
                for name, text in pasted_variants(mistake, lang).items():
                    total += 1
                    if mistake.id not in {r.mistake.id for r in compare.restatements(text, lang)}:
                        missed.append((mistake.id, lang, name))
    assert total > 500
    assert missed == []


def test_corrections_are_not_taken_for_their_mistakes():
    wrong = []
    for game in LIBRARY:
        for mistake in game.mistakes:
            for lang in LANGS:
                found = comparer(game).restatements(mistake.text(lang).correction, lang)
                wrong += [(mistake.id, lang, r.mistake.id) for r in found]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_denied_mistake_is_no_restatement(lang):
    compare = comparer(LIBRARY.game("ohne-furcht-und-adel"))
    for text in DENY[lang]:
        assert compare.restatements(text, lang) == [], text


@pytest.mark.parametrize("lang,text", [
    ("de", "Der Söldner muss den vollen Preis des zerstörten Bauwerks zahlen."),
    ("de", "Zerstört der Söldner ein Bauwerk, zahlt er den vollen Preis."),
    ("en", "When the Warlord destroys a district he pays its full price."),
    ("it", "Il Condottiero paga il prezzo pieno dei quartieri che distrugge."),
])
def test_paraphrases_in_other_word_forms_are_recognised(lang, text):
    found = comparer(LIBRARY.game("ohne-furcht-und-adel")).restatements(text, lang)
    assert [r.mistake.id for r in found] == ["warlord-pays-full-price"]


def test_a_different_number_of_the_same_thing_is_no_restatement():
    compare = comparer(LIBRARY.game("kardinal-und-koenig"))
    said = "Ein Joker-Paar aus 2 gleichfarbigen Karten bringt 1 Stein."
    assert compare.restatements(said, "de") == []
    assert [r.mistake.id for r in compare.restatements(said.replace("1 Stein", "2 Steine"), "de")] == ["joker-pair-two-pieces"]


def test_negation_and_sentences():
    assert negated("Nein, er zahlt nicht den vollen Preis", "de")
    assert not negated("Nein. Er zahlt den vollen Preis", "de")
    assert negated("He doesn't pay", "en") and not negated("No, he pays", "en")
    assert sentences("Ja. Er zahlt 8. Bauwerke.\n\n- eins\n- zwei") == ["Ja.", "Er zahlt 8. Bauwerke.", "eins", "zwei"]


def test_the_comparer_follows_a_reloaded_game():
    game = LIBRARY.game("ohne-furcht-und-adel")
    assert comparer(game) is comparer(game)
    assert isinstance(comparer(game), Comparer) and 0.5 < THRESHOLD < 1
