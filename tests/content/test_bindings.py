"""Bound statements, on an entry made here: each span says its fact's value about its subject,
every statement of a checked answer is bound or an aside, no loose number, no page beyond the
citation. Each test states a right text and breaks one binding of it."""
from __future__ import annotations

import pytest

from rules_index.content.bindings import Vocabulary, binding_problems, statements, tally
from rules_index.content.marks import marked_like, marks, unmarked
from rules_index.content.schema import Faq, GlossaryEntry
from rules_index.render import markdown_html, marked_answer_html, plain_text

GLOSSARY = [
    GlossaryEntry.model_validate({"id": id_, "section": "characters", **{
        lang: {"term": term, "aliases": aliases, "definition": "x"} for lang, (term, aliases) in words.items()}})
    for id_, words in {
        "king": {"de": ("König", []), "en": ("King", []), "it": ("Re", ["sovrano"])},
        "bishop": {"de": ("Prediger", []), "en": ("Bishop", []), "it": ("Vescovo", [])},
    }.items()
]
VOCABULARY = Vocabulary(GLOSSARY)
FACTS = [
    {"name": "yellow", "subject": {"de": "Gelb", "en": "Yellow", "it": "Giallo"}, "value": "king", "check": 1, "output": "pays.yellow"},
    {"name": "blue", "subject": {"de": "Blau", "en": "Blue", "it": "Blu"}, "value": "bishop", "check": 1, "output": "pays.blue"},
    {"name": "may-rob", "value": False, "check": 1, "output": "legal.2"},
    {"name": "gold", "subject": 4, "value": 2, "check": 1, "output": "gold"},
]
RIGHT = {
    "de": "[Nein]{fact=may-rob}. Gelb: [König]{fact=yellow}, Blau: [Prediger]{fact=blue}.\n\nBei 4 Spielern gibt es [2 Gold]{fact=gold}.",
    "en": "[No]{fact=may-rob}. Yellow: [King]{fact=yellow}, Blue: [Bishop]{fact=blue}.\n\nWith 4 players there are [two gold]{fact=gold}.",
    "it": "[No]{fact=may-rob}. Giallo: [Re]{fact=yellow}, Blu: [Vescovo]{fact=blue}.\n\nCon 4 giocatori ci sono [2 monete]{fact=gold}.",
}


def entry(answers=None, **ruling) -> Faq:
    answers = {**RIGHT, **(answers or {})}
    return Faq.model_validate({
        "id": "colours", "editions": ["e"], "section": "s",
        "citation": {"source": "rulebook", "pages": [2, 3], "section": {"de": "x", "en": "x", "it": "x"}},
        **{lang: {"question": "Wer?", "answer": answer} for lang, answer in answers.items()},
        "ruling": {"verdict": "no", "facts": FACTS, **ruling},
        "check": [{"probe": "p", "expect": {"ok": True}}],
    })


def problems(answers=None, **ruling) -> list[str]:
    """The problems of one language's text, less the others' counting its statements otherwise (a
    test changes one language: ``test_a_language_that_counts_its_statements_otherwise_is_a_problem``)."""
    return [p.message for p in binding_problems(entry(answers, **ruling), VOCABULARY, source_pages=4)
            if p.code != "statement-count"]


def test_the_right_text_has_no_problem_and_counts_its_statements():
    assert problems() == []
    counted = tally(RIGHT["de"])
    assert (counted.bound, counted.claims) == (3, 3)


@pytest.mark.parametrize("lang,old,new,says", [
    ("de", "[König]{fact=yellow}", "[Prediger]{fact=yellow}", "does not name König"),     # another character
    ("en", "[two gold]{fact=gold}", "[three gold]{fact=gold}", "does not state 2"),         # another number
    ("it", "[No]{fact=may-rob}", "[Sì]{fact=may-rob}", "says the opposite"),               # the verdict turned
    ("de", "[Nein]{fact=may-rob}", "[Nein]{fact=nope}", "no fact of the ruling"),          # a fact that is not there
])
def test_a_span_that_says_another_value_is_a_problem(lang, old, new, says):
    answer = RIGHT[lang].replace(old, new)
    assert answer != RIGHT[lang]
    found = problems({lang: answer})
    assert found and says in found[0], found


@pytest.mark.parametrize("lang,old,new", [
    ("de", "[Nein]{fact=may-rob}. Gelb", "[Nein]{fact=may-rob}. Bestehlen ist [untersagt]{fact=may-rob}. Gelb"),
    ("en", "[No]{fact=may-rob}. Yellow", "[No]{fact=may-rob}. Robbing is [prohibited]{fact=may-rob}. Yellow"),
    ("it", "[No]{fact=may-rob}. Giallo", "[No]{fact=may-rob}. Derubare è [proibito]{fact=may-rob}. Giallo"),
    ("en", "[No]{fact=may-rob}. Yellow", "[No]{fact=may-rob}. It is [impossible]{fact=may-rob}. Yellow"),
    ("it", "[No]{fact=may-rob}. Giallo", "[No]{fact=may-rob}. Si gioca al massimo in [sei]{fact=six}. Giallo"),
])
def test_a_true_rewording_in_other_words_of_the_language_binds(lang, old, new):
    """What is barred, said with a word of prohibition; a count in a word that is a number only
    where it is bound ("sei", also "you are")."""
    facts = [*FACTS, {"name": "six", "value": 6, "check": 1, "output": "players"}]
    answer = RIGHT[lang].replace(old, new)
    assert answer != RIGHT[lang]
    assert problems({lang: answer}, facts=facts) == []
    if "[sei]" in new:  # bound to another count, the same word is refused; beside a number it is a word
        beside = answer.replace("[sei]{fact=six}", "[secondo il regolamento 7]{fact=two}")
        assert any("does not state 2" in p for p in problems({lang: beside}, facts=[*facts, {"name": "two", "value": 2, "check": 1, "output": "players"}]))
        wrong = answer.replace("{fact=six}", "{fact=seven}")
        assert any("does not state 7" in p for p in problems({lang: wrong}, facts=[*facts, {"name": "seven", "value": 7, "check": 1, "output": "players"}]))


def test_swapping_two_pairs_in_a_list_breaks_the_pairing():
    # Both spans still say values of the ruling, but each stands with the other's colour.
    swapped = RIGHT["de"].replace("Gelb: [König]{fact=yellow}, Blau: [Prediger]{fact=blue}",
                                  "Gelb: [Prediger]{fact=blue}, Blau: [König]{fact=yellow}")
    found = problems({"de": swapped})
    assert any("stands apart from its subject \"Gelb\"" in p for p in found), found


def test_a_negation_in_the_clause_of_a_true_statement_turns_it():
    facts = [*FACTS[:2], {**FACTS[2], "value": True}, FACTS[3]]
    right = "[Ja]{fact=may-rob}. Der Dieb [darf]{fact=may-rob} das. Gelb: [König]{fact=yellow}, Blau: [Prediger]{fact=blue}. Bei 4 Spielern [2 Gold]{fact=gold}."
    others = {"en": RIGHT["en"].replace("[No]", "[Yes]"), "it": RIGHT["it"].replace("[No]", "[Sì]")}
    assert problems({"de": right, **others}, verdict="yes", facts=facts) == []
    wrong = right.replace("[darf]{fact=may-rob} das", "[darf]{fact=may-rob} das nicht")
    assert any("says the opposite" in p for p in problems({"de": wrong}, verdict="yes", facts=facts))


@pytest.mark.parametrize("lang,wrong,right", [
    # A denial in another claim of the statement, before a colon or a joining word, denies nothing here.
    ("en", "Not the Bishop: the Thief [may rob the King]{fact=may-rob}.",
     "Not the Bishop: the Thief [may not rob the King]{fact=may-rob}."),
    ("de", "Den Prediger nicht, aber der Dieb [darf den König bestehlen]{fact=may-rob}.",
     "Den Prediger nicht, aber der Dieb [darf den König nicht bestehlen]{fact=may-rob}."),
    ("it", "Non il Vescovo; il Ladro [può derubare il Re]{fact=may-rob}.",
     "Non il Vescovo; il Ladro [non può derubare il Re]{fact=may-rob}."),
])
def test_a_false_statement_must_be_denied_in_its_own_clause(lang, wrong, right):
    said = {text: problems({lang: RIGHT[lang].replace(". ", f". {text} ", 1)}) for text in (wrong, right)}
    assert any("says the opposite" in p for p in said[wrong]), said[wrong]
    assert not any("says the opposite" in p for p in said[right]), said[right]


def with_true_statement(lang: str, said: str) -> tuple[dict, list]:
    """The right answers with "may rob" made true (verdict yes), and ``said`` after the verdict in
    ``lang``; and the facts that go with them."""
    facts = [*FACTS[:2], {**FACTS[2], "value": True}, FACTS[3]]
    yes = {"de": "[Ja]", "en": "[Yes]", "it": "[Sì]"}
    answers = {code: RIGHT[code].replace("[Nein]", yes[code]).replace("[No]", yes[code]) for code in RIGHT}
    answers[lang] = answers[lang].replace(". ", f". {said} ", 1)
    return answers, facts


@pytest.mark.parametrize("lang,said", [
    ("en", "The Thief [may rob a character that has no gold yet]{fact=may-rob}."),
    ("it", "Il Ladro [può derubare un personaggio che non ha ancora oro]{fact=may-rob}."),
    ("de", "Der Dieb [darf ihn bestehlen, obwohl er noch kein Gold hat]{fact=may-rob}."),
    ("en", "Nothing stops him: the Thief [may rob]{fact=may-rob} him."),  # a denial in another clause
    ("de", "Sein Gold ist nicht sicher und der Dieb [darf ihn bestehlen]{fact=may-rob}."),
    ("it", "Passare è vietato e il Ladro [può derubarlo]{fact=may-rob}."),
])
def test_a_negation_inside_a_subordinate_clause_does_not_turn_a_true_statement(lang, said):
    answers, facts = with_true_statement(lang, said)
    assert problems(answers, verdict="yes", facts=facts) == []
    # Denied in its main clause, it says the opposite.
    denied = {"en": ("may rob", "may not rob"), "it": ("può deruba", "non può deruba"), "de": ("darf ihn", "darf ihn nicht")}[lang]
    wrong = {**answers, lang: answers[lang].replace(*denied)}
    assert any("says the opposite" in p for p in problems(wrong, verdict="yes", facts=facts))


@pytest.mark.parametrize("lang,said", [
    ("de", "Der Dieb [darf nicht nur den König, sondern auch ihn bestehlen]{fact=may-rob}."),
    ("en", "The Thief [may rob not only the King but also him]{fact=may-rob}."),
    ("en", "The Thief [may no doubt rob him]{fact=may-rob}."),
    ("it", "Il Ladro [può derubare non solo il Re ma anche lui]{fact=may-rob}."),
    ("it", "Il Ladro [può derubarlo non appena è chiamato]{fact=may-rob}."),
])
def test_a_negation_word_that_denies_nothing_does_not_turn_a_true_statement(lang, said):
    answers, facts = with_true_statement(lang, said)
    assert problems(answers, verdict="yes", facts=facts) == []


@pytest.mark.parametrize("lang,said", [
    ("de", "Den Meuchler zu bestehlen, [verbietet die Regel]{fact=may-rob}."),
    ("en", "The rules [forbid the Thief to rob him]{fact=may-rob}."),
    ("it", "Il regolamento [vieta al Ladro di derubarlo]{fact=may-rob}."),
])
def test_a_rule_that_forbids_denies(lang, said):
    answers = {**RIGHT, lang: RIGHT[lang].replace(". ", f". {said} ", 1)}
    assert problems(answers) == []
    allows = {"de": ("verbietet", "erlaubt"), "en": ("forbid", "allow"), "it": ("vieta", "permette")}[lang]
    assert any("says the opposite" in p for p in problems({lang: answers[lang].replace(*allows)}))


@pytest.mark.parametrize("lang,said,obliged", [
    ("de", "Der Dieb [darf ihn bestehlen]{fact=may-rob}.", ("darf ihn", "muss ihn")),
    ("de", "Der Dieb [darf ihn bestehlen]{fact=may-rob}.", ("darf ihn bestehlen", "ist verpflichtet, ihn zu bestehlen")),
    ("en", "The Thief [may rob him]{fact=may-rob}.", ("may rob", "must rob")),
    ("en", "The Thief [may rob him]{fact=may-rob}.", ("may rob", "has to rob")),
    ("en", "The Thief [may rob him]{fact=may-rob}.", ("may rob", "need not rob")),
    ("en", "The Thief [may rob him]{fact=may-rob}.", ("may rob", "should rob")),
    ("de", "Der Dieb [darf ihn bestehlen]{fact=may-rob}.", ("darf ihn bestehlen", "braucht ihn nicht zu bestehlen")),
    ("en", "The Thief [can rob him]{fact=may-rob}.", ("can rob", "is required to rob")),
    ("it", "Il Ladro [può derubarlo]{fact=may-rob}.", ("può", "deve")),
    ("it", "Il Ladro [può derubarlo]{fact=may-rob}.", ("può derubarlo", "è obbligato a derubarlo")),
])
def test_a_yes_no_fact_never_says_that_something_must_be_done(lang, said, obliged):
    """The engine shows what it allows; "may" turned into "must" claims more than the check shows."""
    answers, facts = with_true_statement(lang, said)
    assert problems(answers, verdict="yes", facts=facts) == []
    wrong = {**answers, lang: answers[lang].replace(*obliged)}
    assert wrong[lang] != answers[lang]
    assert any("must be done" in p for p in problems(wrong, verdict="yes", facts=facts))
    # Denied, it is no better: "muss ihn nicht bestehlen" (need not) says he may.
    if lang == "de":
        denied = {**answers, "de": answers["de"].replace("darf ihn", "muss ihn nicht")}
        assert any("must be done" in p for p in problems(denied, verdict="yes", facts=facts))


@pytest.mark.parametrize("lang,said", [
    ("en", "The Thief [may rob the player with the cards he needs]{fact=may-rob}."),
    ("it", "Il Ladro [può derubare chi ha la carta tenuta in mano]{fact=may-rob}."),
    ("de", "Der Dieb [darf ihn bestehlen, auch wenn das Auktionshaus schon zu hat]{fact=may-rob}."),
    ("de", "Der Dieb [darf ihn bestehlen und das Auktionshaus hat zu]{fact=may-rob}."),
])
def test_a_word_that_only_looks_like_an_obligation_is_none(lang, said):
    answers, facts = with_true_statement(lang, said)
    assert problems(answers, verdict="yes", facts=facts) == []


def test_an_obligation_binds_through_the_facts_own_words():
    """An editor who names what a check shows ("muss bestehlen" beside a refused alternative)
    binds the obligation; the words then bind it both ways."""
    said = "Der Dieb [muss ihn bestehlen]{fact=must-rob}."
    answers, facts = with_true_statement("de", said)
    plain = [*facts, {"name": "must-rob", "value": True, "check": 1, "output": "legal.3"}]
    assert any("must be done" in p for p in problems(answers, verdict="yes", facts=plain))
    worded = [*facts, {"name": "must-rob", "value": True, "check": 1, "output": "legal.3",
                       "says": {"de": "muss bestehlen", "en": "must rob", "it": "deve derubare"}}]
    assert problems(answers, verdict="yes", facts=worded) == []
    back = {**answers, "de": answers["de"].replace("muss ihn", "darf ihn")}
    assert any('does not say "muss bestehlen"' in p for p in problems(back, verdict="yes", facts=worded))


def test_an_unbound_statement_and_a_loose_number_are_problems():
    added = RIGHT["en"] + " The King also takes 3 gold."
    found = problems({"en": added})
    assert any("states something no fact binds" in p for p in found)
    assert any("states 3, which no check counts" in p for p in found)


@pytest.mark.parametrize("lang,said", [
    ("de", "[Nein]{fact=may-rob}, [auch mit 3 Karten nicht]{fact=may-rob}."),
    ("en", "[No]{fact=may-rob}, [not even with three cards]{fact=may-rob}."),
    ("it", "[No]{fact=may-rob}, [nemmeno con 3 carte]{fact=may-rob}."),
])
def test_a_number_in_a_yes_no_statement_is_counted_by_no_check(lang, said):
    """A yes/no fact checks what is allowed, not the numbers its span names: "[not even with 3
    cards]" and "[… 5 cards]" pass the same check. Such a number is declared with its reason
    (``other_numbers``), so that another number there is a problem."""
    answers = {lang: RIGHT[lang].replace(RIGHT[lang].split(".")[0], said[:-1], 1)}
    assert any("states 3, which no check counts" in p for p in problems(answers))
    assert problems(answers, other_numbers={3: "the cards of check 1"}) == []
    changed = {lang: answers[lang].replace("3", "5").replace("three", "five")}
    assert any("states 5, which no check counts" in p for p in problems(changed, other_numbers={3: "the cards of check 1"}))


def test_an_aside_must_cover_its_statement():
    covered = RIGHT["it"] + "\n\n[Vale anche nelle partite a due.]{.unchecked}"
    assert problems({"it": covered}) == []
    half = RIGHT["it"] + "\n\n[Vale anche]{.unchecked} nelle partite a due."
    assert any("states something no fact binds" in p for p in problems({"it": half}))


def test_pages_must_be_the_citations():
    cited = RIGHT["de"].replace("[Prediger]{fact=blue}.", "[Prediger]{fact=blue} (Regelheft S. {page}).")
    assert problems({"de": cited.replace("{page}", "2")}) == []
    assert any("names page 'S. 7', but the citation gives pp. 2–3" in p for p in problems({"de": cited.replace("{page}", "7")}))
    # Emphasis in a page reference hides nothing: the page shows "S. 7".
    for written in ("*7*", "**7**", "_7_"):
        assert any("but the citation gives pp. 2–3" in p for p in problems({"de": cited.replace("{page}", written)})), written
    assert any("but the citation gives pp. 2–3" in p for p in problems({"de": cited.replace("S. {page}", "*S.* 7")}))


def test_a_possessive_before_a_number_names_no_page():
    from rules_index.content.claims import PAGE

    for text in ("He takes the Merchant's 1 gold as well.", "Take the King’s 2 cards.", "Il Mercante prende l'p 3"):
        assert PAGE.search(text) is None, text
    assert PAGE.search("See the rulebook, p. 3.") and PAGE.search("Regelheft S. 2")


def test_an_unreadable_mark_is_a_problem():
    assert any("write {fact=name}" in p for p in problems({"en": RIGHT["en"].replace("{fact=blue}", "{colour=blue}")}))


@pytest.mark.parametrize("lang,span", [("de", "[2 Gold]{fact=gold}"), ("en", "[two gold]{fact=gold}"), ("it", "[2 monete]{fact=gold}")])
def test_a_span_broken_over_a_line_says_so(lang, span):
    """An editor whose text wraps put a line break inside a span: Markdown still reads one span,
    the marks none, and the gate said only that a statement was unbound."""
    broken = RIGHT[lang].replace(span, span.replace(" ", "\n", 1))
    found = binding_problems(entry({lang: broken}), VOCABULARY, source_pages=4)
    said = [p for p in found if p.code == "span-lines"]
    assert [p.lang for p in said] == [lang] and "⏎" in dict(said[0].params)["mark"], [p.message for p in found]
    assert not any(p.code == "span-lines" for p in binding_problems(entry(), VOCABULARY, source_pages=4))


def test_statements_split_sentences_items_and_rows_but_not_abbreviations():
    text = "Siehe S. 2 und z.B. den König. Zweiter Satz.\n\n- eins\n- zwei\n\n| a | b |\n|---|---|\n| c | d |"
    assert [s.text for s in statements(text)] == ["Siehe S. 2 und z.B. den König.", "Zweiter Satz.", "- eins", "- zwei", "| c | d |"]


@pytest.mark.parametrize("emphasis", ["*", "**", "***", "_**", "**_"])
def test_a_sentence_ends_at_its_full_stop_inside_emphasis(emphasis):
    """Bold, italics or both over a whole sentence, its full stop inside: still two sentences,
    and a true statement does not take the negation of the sentence before it."""
    text = f"{emphasis}Den Prediger darf er [nicht]{{fact=may-rob}} bestehlen.{emphasis[::-1]} Gelb: [König]{{fact=yellow}}."
    assert len(statements(text)) == 2
    assert problems({"de": RIGHT["de"].replace("[Nein]{fact=may-rob}.", f"{emphasis}[Nein]{{fact=may-rob}}.{emphasis[::-1]}")}) == []


def test_readers_never_see_the_marks():
    text = RIGHT["de"] + "\n\n[Zum Vergleich: so.]{.editorial}"
    assert "{" not in plain_text(text) and "fact" not in plain_text(text)
    assert "{" not in str(markdown_html(text)) and "<span" not in str(markdown_html(text))
    assert unmarked(text).count("[") == 0
    assert [m.facts for m in marks(text)] == [("may-rob",), ("yellow",), ("blue",), ("gold",), ()]


def test_the_answer_page_marks_bound_statements_only():
    text = RIGHT["en"] + "\n\n[For comparison: so.]{.editorial}"
    html = str(marked_answer_html(text, {"yellow": ("#check-1", "The King's colour is yellow."), "gold": ("#check-1", "s")}))
    assert '<a class="bound" href="#check-1" title="The King&#39;s colour is yellow."' in html or 'title="The King\'s colour is yellow."' in html
    assert html.count('class="bound"') == 2
    assert "For comparison" in html and "editorial" not in html


def test_a_readers_plain_rewording_gets_the_marks_back_where_the_words_stand():
    reworded = unmarked(RIGHT["de"]).replace("Bei 4 Spielern gibt es", "Mit 4 Personen gibt es") + " Neu."
    again = marked_like(RIGHT["de"], reworded)
    assert again == RIGHT["de"].replace("Bei 4 Spielern gibt es", "Mit 4 Personen gibt es") + " Neu."
    assert [m.facts for m in marks(again)] == [m.facts for m in marks(RIGHT["de"])]


def test_every_answer_as_a_reader_types_it_gets_all_its_marks_back():
    """A reader's suggestion arrives as typed, without Markdown ("4 carte quartiere" for
    "[**4 carte quartiere**]{…}"): the editor's form showed it with none of its marks, and the gate
    refused every statement as unbound."""
    from apptools import real_library
    from rules_index.web.corrections import typed_text

    for game in real_library():
        for faq in game.faq:
            for lang in ("de", "en", "it"):
                stored = faq.text(lang).answer
                again = marked_like(stored, typed_text(unmarked(stored)))
                assert [m.facts or m.aside for m in marks(again)] == [m.facts or m.aside for m in marks(stored)], (faq.id, lang)


def test_a_span_without_a_word_binds_nothing():
    emptied = RIGHT["de"].replace("[Nein]{fact=may-rob}", "Nein[ ]{fact=may-rob}")
    assert any("holds no word" in p for p in problems({"de": emptied}))


def test_a_page_in_the_question_must_be_the_citations_too():
    from rules_index.content.bindings import answer_problems

    def asked(question: str) -> list[str]:
        faq = entry()
        faq = faq.model_copy(update={"de": faq.de.model_copy(update={"question": question})})
        return [p.message for p in answer_problems(faq, [], 4)]

    assert not [p for p in asked("Wer? (S. 2)") if "page" in p]
    assert any("question: names page 'S. 9'" in p for p in asked("Wer? (S. 9)"))


@pytest.mark.parametrize("lang,joined", [
    ("it", "[No]{fact=may-rob}: Giallo: [Re]{fact=yellow}, Blu: [Vescovo]{fact=blue}."),   # two sentences made one
    ("en", "[No]{fact=may-rob}. Yellow: [King]{fact=yellow}. Blue: [Bishop]{fact=blue}."),  # one made two
])
def test_a_language_that_counts_its_statements_otherwise_is_a_problem(lang, joined):
    """The badge says how many statements are checked: one translation must not say "2 of 2" where
    the others say "3 of 3" for the same facts."""
    first = RIGHT[lang].split("\n\n")[0]
    found = [p for p in binding_problems(entry({lang: RIGHT[lang].replace(first, joined)}), VOCABULARY, source_pages=4)
             if p.code == "statement-count"]
    assert [p.lang for p in found] == [lang]
    assert "the other languages 3 of 3" in found[0].message


def test_an_unbound_statement_in_one_language_is_not_counted_again():
    """Its own problem says what to do; "3 of 4 against 3 of 3" would repeat it (and made the
    editor's review page longer than a phone's screen allows)."""
    codes = [p.code for p in binding_problems(entry({"de": RIGHT["de"] + " Das steht so im Heft."}), VOCABULARY, source_pages=4)]
    assert "unbound" in codes and "statement-count" not in codes
