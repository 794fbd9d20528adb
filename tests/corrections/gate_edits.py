"""Wrong and right edits of bound answers, made from the content by kinds of change, for judging
the gate as a whole: a wrong edit must be refused or held, never go live as checked; a right
edit must never be refused, and the plain ones (typo fixes, reordering, numbers as words, page
fixes) go live at once.

Each generator takes an entry, one language and a random source, and returns (before, after)
answer texts, or None where the kind does not apply. ``before`` is the stored text except for
right edits that fix something (a typo, a page): those start from the text with the slip in it.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from wordfreq import iter_wordlist, zipf_frequency

from rules_index.content.bindings import is_checked, statements
from rules_index.content.marks import marks

NEGATION = {"de": "nicht", "en": "not", "it": "non"}
ONLY = {"de": "nur", "en": "only", "it": "solo"}
ALWAYS = {"de": "immer", "en": "always", "it": "sempre"}
CONDITION = {"de": ", wenn er mindestens ein Gold hat", "en": ", provided he holds at least one gold",
             "it": ", purché abbia almeno una moneta"}
ORDER_SWAPS = {"de": [("vor", "nach"), ("bevor", "nachdem"), ("zuerst", "zuletzt"), ("danach", "davor")],
               "en": [("before", "after"), ("first", "last"), ("until", "after")],
               "it": [("prima", "dopo"), ("primo", "ultimo"), ("finché", "dopo che")]}
PAGE_WORD = {"de": "S.", "en": "p.", "it": "p."}
NUMBER_WORDS = {
    "de": "zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
    "en": "two three four five six seven eight nine ten eleven twelve",
    "it": "due tre quattro cinque sei sette otto nove dieci undici dodici",
}


def number_word(value: int, lang: str) -> str:
    return NUMBER_WORDS[lang].split()[value - 2]


@dataclass(frozen=True)
class Edit:
    kind: str
    game: str
    faq: str
    lang: str
    before: str
    after: str
    question: str | None = None  # a changed question (the answer stays)


def _words_outside_marks(text: str) -> list[re.Match]:
    spans = [(m.start, m.end) for m in marks(text)]
    return [w for w in re.finditer(r"[^\W\d_]{5,}", text) if not any(a <= w.start() < b for a, b in spans)]


def _role_words(game, lang) -> dict[str, str]:
    return {key: getattr(entry, lang).term for key in game.info.roles
            for entry in [next((g for g in game.glossary if g.id == key), None)] if entry is not None}


# ----------------------------------------------------------------------------- wrong edits

def swap_character(game, faq, lang, rng):
    roles = _role_words(game, lang)
    text = faq.text(lang).answer
    present = [word for word in roles.values() if re.search(rf"\b{re.escape(word)}\b", text)]
    if not present or len(roles) < 2:
        return None
    old = rng.choice(present)
    new = rng.choice([w for w in roles.values() if w != old and w not in present] or [w for w in roles.values() if w != old])
    return text, re.sub(rf"\b{re.escape(old)}\b", new, text, count=1)


def swap_order_words(game, faq, lang, rng):
    text = faq.text(lang).answer
    for a, b in rng.sample(ORDER_SWAPS[lang], len(ORDER_SWAPS[lang])):
        for old, new in ((a, b), (b, a)):
            if re.search(rf"\b{old}\b", text, re.I):
                return text, re.sub(rf"\b{old}\b", new, text, count=1, flags=re.I)
    return None


def _insert_after_first_word(text, statement_source, word):
    at = text.find(statement_source)
    first = re.search(r"[^\W\d_]{3,}", statement_source)
    if at < 0 or not first:
        return None
    cut = at + first.end()
    return text[:cut] + f" {word}" + text[cut:]


def negate_later_sentence(game, faq, lang, rng):
    text = faq.text(lang).answer
    said = statements(text)
    if len(said) < 2:
        return None
    changed = _insert_after_first_word(text, rng.choice(said[1:]).source, NEGATION[lang])
    return (text, changed) if changed else None


def add_quantifier(game, faq, lang, rng):
    text = faq.text(lang).answer
    words = _words_outside_marks(text)
    if not words:
        return None
    word = rng.choice(words)
    extra = rng.choice([ONLY, ALWAYS])[lang]
    return text, text[:word.start()] + f"{extra} " + text[word.start():]


def swap_numbers_between_items(game, faq, lang, rng):
    text = faq.text(lang).answer
    # Numbers of the prose, not an ordered list's item numbers ("1. Wer …") nor a fact's name.
    found = [m for m in re.finditer(r"\b\d+\b", text)
             if not re.match(r"\.\s", text[m.end():m.end() + 2]) and not re.search(r"\{[^}]*$", text[:m.start()])]
    pairs = [(a, b) for i, a in enumerate(found) for b in found[i + 1:] if a.group() != b.group()]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    return text, text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def wrong_number_as_word(game, faq, lang, rng):
    text = faq.text(lang).answer
    found = [m for m in re.finditer(r"\b([2-9]|1[01])\b", text)]
    if not found:
        return None
    m = rng.choice(found)
    value = int(m.group()) + 1
    return text, text[:m.start()] + number_word(value, lang) + text[m.end():]


def wrong_page(game, faq, lang, rng):
    text = faq.text(lang).answer
    pages = faq.citation.pages
    source = game.source(faq.citation.source)
    wrong = (pages[1] + 1 if pages else 1) if source is None or not source.pages or (pages and pages[1] < source.pages) else 1
    if pages and pages[0] <= wrong <= pages[1]:
        return None
    last = statements(text)[-1].source
    at = text.rfind(last) + len(last.rstrip(".!?"))
    return text, text[:at] + f" ({PAGE_WORD[lang]} {wrong})" + text[at:]


def extra_condition(game, faq, lang, rng):
    text = faq.text(lang).answer
    said = statements(text)
    target = rng.choice(said).source
    if not target.endswith("."):
        return None
    at = text.find(target) + len(target) - 1
    return text, text[:at] + CONDITION[lang] + text[at:]


def wrong_paraphrase(game, faq, lang, rng):
    text = faq.text(lang).answer
    words = _words_outside_marks(text)
    if len(words) < 2:
        return None
    a, b = rng.sample(words, 2)
    if a.group().casefold() == b.group().casefold():
        return None
    return text, text[:a.start()] + b.group() + text[a.end():]


def other_entrys_answer(game, faq, lang, rng):
    others = [f for f in game.faq if f.id != faq.id]
    return faq.text(lang).answer, rng.choice(others).text(lang).answer


def mistake_reworded(game, faq, lang, rng):
    mistakes = game.mistakes_for(faq.id) or game.mistakes
    if not mistakes:
        return None
    mistake = rng.choice(mistakes).text(lang).mistake
    return faq.text(lang).answer, f"{mistake}\n\n{faq.text(lang).answer}"


def verdict_only(game, faq, lang, rng):
    text = faq.text(lang).answer
    said = statements(text)
    if len(said) < 2:
        return None
    return text, said[0].source


def unbind_a_span(game, faq, lang, rng):
    text = faq.text(lang).answer
    bound = [m for m in marks(text) if m.bound]
    if not bound:
        return None
    m = rng.choice(bound)
    return text, text[:m.start] + m.words + text[m.end:]


def drop_a_negation(game, faq, lang, rng):
    text = faq.text(lang).answer
    found = list(re.finditer(rf"\s({NEGATION[lang]}|nie|never|mai|kein|keine|no)\b", text))
    if not found:
        return None
    m = rng.choice(found)
    return text, text[:m.start()] + text[m.end():]


def rebind_to_another_fact(game, faq, lang, rng):
    text = faq.text(lang).answer
    bound = [m for m in marks(text) if m.bound and len(m.facts) == 1]
    names = [f.name for f in faq.ruling.facts if f.name]
    if not bound or len(names) < 2:
        return None
    m = rng.choice(bound)
    other = rng.choice([n for n in names if n != m.facts[0]])
    return text, text[:m.start] + f"[{m.words}]{{fact={other}}}" + text[m.end:]


def swap_adjacent_words(game, faq, lang, rng):
    text = faq.text(lang).answer
    words = _words_outside_marks(text)
    pairs = [(a, b) for a, b in zip(words, words[1:]) if text[a.end():b.start()] == " " and a.group() != b.group()]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    return text, text[:a.start()] + b.group() + " " + a.group() + text[b.end():]


@lru_cache(maxsize=3)
def _common_by_pattern(lang: str) -> dict[str, frozenset[str]]:
    """wordfreq's common words (Zipf 3 and more) by each inner letter as a gap ("la?te")."""
    found: dict[str, set[str]] = {}
    for word in iter_wordlist(lang):
        if zipf_frequency(word, lang) < 3.0:
            break
        if word.isalpha():
            for i in range(1, len(word) - 1):
                found.setdefault(word[:i] + "?" + word[i + 1:], set()).add(word)
    return {pattern: frozenset(words) for pattern, words in found.items()}


@lru_cache(maxsize=3)
def common_words(lang: str) -> frozenset[str]:
    return frozenset(word for words in _common_by_pattern(lang).values() for word in words)


def typo_fixed_into_another_word(game, faq, lang, rng):
    """A slip at a word's edge in the stored text ("Nächste" typed "Hächste"), then "fixed" into
    another common word one slip inside it ("Höchste"): the rule now says something else."""
    text = faq.text(lang).answer
    common = _common_by_pattern(lang)
    options = []
    for w in re.finditer(r"[^\W\d_]{5,}", text):
        word = w.group()
        low = word.casefold()
        for typo in {c + low[1:] for c in "abcdefghilmnoprstuvz"} | {low[:-1] + c for c in "aeinrst"}:
            # The other word is the typo's one reading by a slip inside it: the slip at the edge,
            # which made the typo, is what the gate must see too.
            fixes = {fix for i in range(1, len(typo) - 1) for fix in common.get(typo[:i] + "?" + typo[i + 1:], ())}
            if len(fixes - {typo}) == 1 and low not in fixes and typo not in common_words(lang):
                shape = str.capitalize if word[:1].isupper() else str
                options.append((w.start(), w.end(), shape(typo), shape(next(iter(fixes - {typo})))))
    if not options:
        return None
    start, end, typo, fix = rng.choice(options)
    return text[:start] + typo + text[end:], text[:start] + fix + text[end:]


# Letters that look like Latin ones: of other alphabets (Cyrillic), or Latin letters no word of
# these languages has (dotless "ı", small capitals): a word spelled with them reads the same.
LOOKALIKES = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "i": "\u0456", "c": "\u0441", "p": "\u0440"}
LATIN_LOOKALIKES = {"i": "\u0131", "o": "\u1d0f", "c": "\u1d04", "u": "\u1d1c", "n": "\u0274"}


def _lookalikes(rng) -> dict[str, str]:
    return rng.choice([LOOKALIKES, LATIN_LOOKALIKES])


def negation_in_lookalike_letters(game, faq, lang, rng):
    """A negation put into a statement, spelled with a Cyrillic letter ("nіcht"): to a reader it
    denies the statement; to a check that reads letters it is no negation."""
    text = faq.text(lang).answer
    said = statements(text)
    negation = NEGATION[lang]
    table = _lookalikes(rng)
    disguised = "".join(table.get(c, c) for c in negation)
    if not said or disguised == negation:
        return None
    changed = _insert_after_first_word(text, rng.choice(said).source, disguised)
    return (text, changed) if changed else None


def bound_word_in_lookalike_letters(game, faq, lang, rng):
    """One letter of a word inside a bound span put in another alphabet ("Kаrten"): the word shown
    as checked is no longer the word that was checked."""
    text = faq.text(lang).answer
    spans = [(m.start, m.end) for m in marks(text) if m.bound]
    table = _lookalikes(rng)
    places = [i for a, b in spans for i in range(a, b) if text[i] in table and text[i - 1:i].isalpha()]
    if not places:
        return None
    at = rng.choice(places)
    return text, text[:at] + table[text[at]] + text[at + 1:]


# The zero of digits that a quick reader takes for other numbers: fullwidth ("３"), Gurmukhi ("੧"
# reads as 9), Devanagari, Bengali ("৪" reads as 8), Arabic-Indic.
DIGIT_ZEROS = (0xFF10, 0x0A66, 0x0966, 0x09E6, 0x0660)


def fullwidth_digit(game, faq, lang, rng):
    """A digit made another, in a form of another script ("３" for "2", "੧" for "1"): the same
    number or another to the eye of a quick reader, another one to the page."""
    text = faq.text(lang).answer
    found = [m for m in re.finditer(r"\b[1-8]\b", text) if not re.search(r"\{[^}]*$", text[:m.start()])]
    if not found:
        return None
    m = rng.choice(found)
    return text, text[:m.start()] + chr(rng.choice(DIGIT_ZEROS) + int(m.group()) + 1) + text[m.end():]


def enclosing_mark_over_a_bound_word(game, faq, lang, rng):
    """A word of a bound span given an enclosing mark (U+20E0, a circle with a backslash: "may⃠"):
    the page shows the word struck out as forbidden, the checks read the word."""
    text = faq.text(lang).answer
    spans = [(m.start, m.end) for m in marks(text) if m.bound]
    places = [a + end for a, b in spans for end in (w.end() for w in re.finditer(r"\w+", text[a:b]))]
    if not places:
        return None
    at = rng.choice(places)
    return text, text[:at] + "\u20e0" + text[at:]


def number_in_a_yes_no_span_changed(game, faq, lang, rng):
    """A number inside a span bound to a yes/no fact made another ("[nur 1 Ausstellung erlaubt]"
    -> "[nur 2 …]"): the fact's check is the same, the statement is not."""
    text = faq.text(lang).answer
    yes_no = {fact.name for fact in faq.ruling.facts if isinstance(fact.value, bool)}
    spans = [(m.start, m.end) for m in marks(text) if m.facts and set(m.facts) <= yes_no]
    found = [m for m in re.finditer(r"\b\d+\b", text) if any(a <= m.start() < b for a, b in spans)]
    if not found:
        return None
    m = rng.choice(found)
    return text, text[:m.start()] + str(int(m.group()) + rng.choice([1, 2])) + text[m.end():]


WRONG: dict[str, Callable] = {
    "character swapped": swap_character,
    "before and after swapped": swap_order_words,
    "a negation in a later sentence": negate_later_sentence,
    "only / always added": add_quantifier,
    "numbers swapped between items": swap_numbers_between_items,
    "a wrong number written as a word": wrong_number_as_word,
    "a wrong page reference": wrong_page,
    "an extra condition": extra_condition,
    "a word swapped for another of the text": wrong_paraphrase,
    "another entry's answer": other_entrys_answer,
    "a common mistake put in": mistake_reworded,
    "only the verdict left": verdict_only,
    "a bound span unbound": unbind_a_span,
    "a negation dropped": drop_a_negation,
    "a span bound to another fact": rebind_to_another_fact,
    "two words swapped": swap_adjacent_words,
    "a typo fixed into another word": typo_fixed_into_another_word,
    "a negation in lookalike letters": negation_in_lookalike_letters,
    "a bound word in lookalike letters": bound_word_in_lookalike_letters,
    "a digit made another in another script": fullwidth_digit,
    "a number in a yes/no statement changed": number_in_a_yes_no_span_changed,
    "an enclosing mark over a bound word": enclosing_mark_over_a_bound_word,
}


# Kinds the gate can judge whole: the characters themselves are wrong, whatever a second editor
# reads into them. They are refused, never held.
REFUSED = ("a negation in lookalike letters", "a bound word in lookalike letters", "a digit made another in another script",
           "an enclosing mark over a bound word")


def question_changed(game, faq, lang, rng):
    roles = _role_words(game, lang)
    question = faq.text(lang).question
    present = [w for w in roles.values() if re.search(rf"\b{re.escape(w)}\b", question)]
    if present:
        old = rng.choice(present)
        new = rng.choice([w for w in roles.values() if w != old])
        return re.sub(rf"\b{re.escape(old)}\b", new, question, count=1)
    word = re.search(r"[^\W\d_]{4,}", question)
    return question[:word.start()] + f"{NEGATION[lang]} " + question[word.start():] if word else None


# ----------------------------------------------------------------------------- right edits

def _typo(word: str) -> str:
    i = len(word) // 2
    return word[:i - 1] + word[i] + word[i - 1] + word[i + 1:]


def typo_fixed(game, faq, lang, rng):
    text = faq.text(lang).answer
    words = [w for w in _words_outside_marks(text) if len(w.group()) >= 7 and w.group()[len(w.group()) // 2 - 1] != w.group()[len(w.group()) // 2]]
    if not words:
        return None
    w = rng.choice(words)
    return text[:w.start()] + _typo(w.group()) + text[w.end():], text


def paragraphs_reordered(game, faq, lang, rng):
    # The verdict opens the answer: the paragraphs after it change places.
    text = faq.text(lang).answer.strip()
    parts = text.split("\n\n")
    if len(parts) < 3 or any(p.lstrip().startswith(("-", "|", "1.")) for p in parts):
        return None
    moved = parts[:1] + parts[2:] + parts[1:2]
    return text, "\n\n".join(moved)


def number_as_word(game, faq, lang, rng):
    text = faq.text(lang).answer
    # Digits among a bound span's words (not in its {fact=…}).
    spans = [(m.start + 1, m.start + 1 + len(m.words)) for m in marks(text) if m.bound]
    found = [m for m in re.finditer(r"\b([2-9]|1[0-2])\b", text) if any(a <= m.start() < b for a, b in spans)]
    if not found:
        return None
    m = rng.choice(found)
    if lang == "it" and m.group() == "6":
        return None  # "sei" is also "you are": numbers.py reads only the digit
    return text, text[:m.start()] + number_word(int(m.group()), lang) + text[m.end():]


def page_fixed(game, faq, lang, rng):
    pages = faq.citation.pages
    if not pages:
        return None
    text = faq.text(lang).answer
    last = statements(text)[-1].source
    at = text.rfind(last) + len(last.rstrip(".!?"))
    # The cited page, or the whole range: which page of a range holds the rule is not known.
    cited = str(pages[0]) if pages[0] == pages[1] else f"{pages[0]}–{pages[1]}"
    right = text[:at] + f" ({PAGE_WORD[lang]} {cited})" + text[at:]
    wrong = text[:at] + f" ({PAGE_WORD[lang]} {pages[1] + 1})" + text[at:]
    return wrong, right


RIGHT: dict[str, Callable] = {
    "a typo fixed": typo_fixed,
    "paragraphs reordered": paragraphs_reordered,
    "a number written as a word": number_as_word,
    "a page reference fixed": page_fixed,
}


def edits(library, kinds: dict[str, Callable], rng: random.Random) -> list[Edit]:
    """One edit of each kind for every checked entry and language, where the kind applies."""
    made = []
    for game in library:
        for faq in game.faq:
            if not is_checked(faq):
                continue
            for lang in ("de", "en", "it"):
                for kind, make in kinds.items():
                    pair = make(game, faq, lang, rng)
                    if pair and pair[0] != pair[1]:
                        made.append(Edit(kind, game.slug, faq.id, lang, *pair))
                question = question_changed(game, faq, lang, rng) if kinds is WRONG else None
                if question and question != faq.text(lang).question:
                    text = faq.text(lang).answer
                    made.append(Edit("the question changed", game.slug, faq.id, lang, text, text, question))
    return made

