"""Bound statements: does each marked span say what the engine's value for its fact says?

An answer is read statement by statement (sentences, list items, table rows). In a checked
answer (``basis: rule`` with checks and a verdict) every statement either holds a span bound to a
fact of the ruling (``[König]{fact=yellow}``, see marks.py) or is marked as an aside
(``{.editorial}``, ``{.unchecked}``) from its first word to its last. For each bound span:

- the span renders the fact's value in the text's language: a number as digits or a number word;
  a glossary id as the term or one of its aliases; ``true``/``false`` as the polarity of the
  span's clause (a negation word, or the answer word "Nein"); any value through the fact's own
  words (``says``) when it has them;
- the fact's ``subject`` (a glossary id, a number, or a phrase per language) is named in the same
  statement, and in the span's own clause when the statement binds several facts: "Gelb: König,
  Blau: Prediger" keeps each colour with its character.

Outside bound spans and asides a statement states no number (bar the ruling's
``other_numbers``) and names no page other than the citation's. Whether each fact's value is what
the engine says is verification's part (verification.py): together they tie the words to the
engine. Text only: no engine, no files.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from rules_index.caches import MiB, ByteCache, text_key
from .claims import PAGE, ClaimProblem, names as _names_long_words, verdict_problems
from .marks import Mark, broken_spans, marks, unmarked
from .numbers import ambiguous_numbers, numbers_in, prose
from .schema import LANGS, Fact, Faq, GlossaryEntry, Localized

# Words that deny what their clause says. The opening answer word "Nein"/"No" is judged apart.
NEGATIONS = {
    "de": {"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "nichts",
           "niemand", "niemandem", "niemanden", "weder", "nirgends", "keinesfalls", "keineswegs",
           "tabu", "verboten", "ausgeschlossen", "unzulässig", "nein",
           # what is barred or cannot be: "ist untersagt", "ist unmöglich"
           "untersagt", "unerlaubt", "unmöglich", "verwehrt",
           # the rule forbids it: "verbietet die Regel"
           "verbietet", "verbieten", "untersagen"},
    "en": {"not", "no", "never", "nothing", "nobody", "none", "neither", "nor", "cannot", "nowhere",
           "forbidden", "barred", "prohibited", "illegal", "impossible", "disallowed",
           "forbid", "forbids", "prohibit", "prohibits"},
    "it": {"non", "nessun", "nessuno", "nessuna", "mai", "niente", "nulla", "né", "neanche", "nemmeno",
           "neppure", "vietato", "vietata", "vietati", "vietate", "esclusi", "escluso", "esclusa",
           "proibito", "proibita", "proibiti", "proibite", "impossibile", "impossibili",
           "vieta", "vietano", "proibisce", "proibiscono"},
}
# Words that make a statement an obligation ("muss", "has to", "è obbligato"). A yes/no fact shows
# only what the engine allows or refuses; that something must be done is stated only through ``says``.
OBLIGATIONS = {
    "de": {"muss", "musst", "müssen", "müsst", "musste", "musstest", "mussten", "müsste", "müssten", "verpflichtet",
           "gezwungen", "zwingend", "pflicht", "verpflichtend", "obligatorisch", "braucht", "brauchst", "brauchen",
           "soll", "sollst", "sollen", "sollte", "solltest", "sollten"},
    "en": {"must", "mustn", "needn", "should", "shouldn", "ought", "required", "requires", "require", "obliged", "obligated",
           "forced", "compulsory", "mandatory", "obligatory"},
    "it": {"deve", "devi", "devono", "dovete", "dobbiamo", "devo", "dovrà", "dovrai", "dovranno", "dovrebbe", "dovrebbero", "dovresti", "obbligato",
           "obbligata", "obbligati", "obbligate", "obbligatorio", "obbligatoria", "obbligatori", "obbligatorie",
           "costretto", "costretta", "costretti", "costrette", "bisogna", "occorre"},
}
# Obligations of more than one word. "need" only before "to" or "not": "the cards you need" asks
# nothing of anyone. None in German: "das Auktionshaus hat zu" says it is closed.
_OBLIGATION_PHRASES = {
    "en": re.compile(r"\b(?:has|have|had|having)\s+to\b|\bgot\s+to\b|\bneeds?\s+(?:to|not)\b", re.I),
    "it": re.compile(r"\bè\s+necessario\b", re.I),
}
# A negation word that denies nothing: "nicht nur … sondern auch" affirms both, "non appena" is
# "as soon as", "no doubt" is "surely".
NOT_DENIALS = {
    "de": re.compile(r"\bnicht\s+nur\b|\bnicht\s+zuletzt\b", re.I),
    "en": re.compile(r"\bnot\s+only\b|\bnot\s+just\b|\bnot\s+least\b|\bno\s+doubt\b|\bno\s+less\b|\bno\s+differently\b", re.I),
    "it": re.compile(r"\bnon\s+(?:solo|soltanto|solamente|appena)\b", re.I),
}
# Words that open a subordinate clause ("a character that takes no turn", "obwohl dieser keinen
# Zug macht", "che non gioca"); after a comma German relative pronouns open one too.
SUBORDINATORS = {
    "de": {"weil", "obwohl", "obgleich", "wenn", "falls", "sobald", "solange", "während", "nachdem", "bevor",
           "dass", "damit", "wobei", "welcher", "welche", "welches", "welchen", "welchem", "deren", "dessen"},
    "en": {"that", "which", "who", "whom", "whose", "because", "although", "though", "since", "if", "unless",
           "when", "whenever", "while", "whereas", "until", "where"},
    "it": {"che", "perché", "poiché", "sebbene", "benché", "se", "quando", "mentre", "finché", "cui", "dove"},
}
_RELATIVE_AFTER_COMMA = {"de": {"der", "die", "das", "dem", "den"}, "en": set(), "it": set()}
CONTRACTED = re.compile(r"n['’]t\b", re.I)  # don't, isn't, can't
ANSWER_WORDS = {"de": {"ja": True, "nein": False}, "en": {"yes": True, "no": False}, "it": {"sì": True, "si": True, "no": False}}
# 0 and 1 in words, for a span that states them ("geht leer aus" is no number: bind it with says).
SMALL_NUMBERS = {
    0: {"de": {"0", "null", "kein", "keine", "keinen", "nichts"}, "en": {"0", "zero", "no", "nothing", "none"},
        "it": {"0", "zero", "nessun", "nessuno", "nessuna", "niente", "nulla"}},
    1: {"de": {"1", "ein", "eine", "einen", "einem", "einer", "eins", "einmal", "erste", "erster", "ersten"},
        "en": {"1", "a", "an", "one", "once", "first"},
        "it": {"1", "un", "uno", "una", "primo", "prima", "una volta"}},
}
_WORD = re.compile(r"[^\W\d_]+|\d+")
# Statement ends: after . ! ? ; (not after "2." or an abbreviation), paragraphs, list items, table rows.
_BREAK = re.compile(r"(?:(?<=[.!?;])|(?<=[.!?;][*_])|(?<=[.!?;][*_]{2})|(?<=[.!?;][*_]{3}))\s+|\n\s*\n|\n(?=[ \t]*(?:[-+*]|\d+\.)\s)|\n(?=[ \t]*\|)")
# A full stop that ends an abbreviation, not a sentence ("S. 2", "p. 1", "z.B.", "3. Runde").
ABBREVIATION = re.compile(r"(?:^|[\s(])(?:S|p|pp|pag|Nr|bzw|ca|vgl|usw|etc|z\.B|e\.g|i\.e|\d+)\.$", re.I)
_CLAUSE = re.compile(r"[,;–—]|\s-\s")
# The span's own clause, where a true statement is read: colons and the words that join two
# clauses end it too ("Passing is illegal: [you must swap a card]", "… are not lost and [can be
# played again]").
# Emphasis may close or open beside the joining word ("… e**⏎[non …]").
_OWN_CLAUSE = re.compile(r"[,;:–—]|\s-\s|\s[*_]*(?:and|but|or|und|aber|oder|sondern|e|ed|ma|o|oppure)[*_]*\s", re.I)
_TABLE_RULE = re.compile(r"^\s*\|?(?:\s*:?-+:?\s*\|)+\s*:?-*:?\s*$")


def names(text: str, phrase: str) -> bool:
    """Whether ``text`` names ``phrase``: each word of four letters or more in a form keeping its
    first five letters ("Bauwerken" names "Bauwerke"), each shorter word as it is ("Re", "no")."""
    if not phrase.strip():
        return False
    said = _said(text)
    short = [w.casefold() for w in _WORD.findall(phrase) if len(w) < 4]
    return all(w in said for w in short) and _names_long_words(text, phrase)


_words_said = ByteCache(4 * MiB)  # as claims._said: a text is asked for many phrases


@_words_said.memoize(key=text_key)
def _said(text: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORD.findall(prose(text)))


@dataclass(frozen=True)
class Statement:
    """One statement of an answer: its source text (marks included) and the marks in it."""

    source: str
    marks: tuple[Mark, ...]

    @property
    def text(self) -> str:
        return unmarked(self.source)

    @property
    def bound_facts(self) -> tuple[str, ...]:
        return tuple(name for mark in self.marks for name in mark.facts)

    @property
    def aside(self) -> str | None:
        """``editorial``/``unchecked`` when asides cover every word of the statement."""
        kinds = {m.aside for m in self.marks if m.aside}
        if not kinds or any(m.bound for m in self.marks):
            return None
        rest = self.without(lambda mark: True)
        if _WORD.search(_plain_words(PAGE.sub(" ", rest))):  # a page reference beside it is a citation
            return None
        return "unchecked" if "unchecked" in kinds else "editorial"

    def without(self, which) -> str:
        """The statement's source with the marks ``which`` picks taken out, words and all."""
        rest = self.source
        for mark in self.marks:
            if which(mark):
                rest = rest.replace(self.source[mark.start:mark.end], " ")
        return rest

    @property
    def kind(self) -> str:
        """``bound``, ``editorial``, ``unchecked``, or ``unbound``."""
        if self.bound_facts:
            return "bound"
        return self.aside or "unbound"


def _plain_words(text: str) -> str:
    return re.sub(r"[*_`#>|~]+", " ", prose(text))


def statements(text: str) -> list[Statement]:
    """The statements of a Markdown text, with their marks (positions relative to the statement)."""
    found = marks(text)
    cuts = [0]
    for match in _BREAK.finditer(text):
        at = match.start()
        if any(m.start < at < m.end for m in found) or ABBREVIATION.search(text[max(0, at - 6):at]):
            continue
        cuts.append(at)
    # A span whose words end a sentence ("[Es gibt 12 Münzen.]{.unchecked} Mehr …") ends it too.
    cuts += [m.end for m in found if m.words.rstrip("*_ ").endswith((".", "!", "?", ";"))
             and text[m.end:m.end + 1].isspace()]
    cuts = sorted(set(cuts)) + [len(text)]
    lines = text.split("\n")
    header_rows = {lines[i].strip() for i in range(len(lines) - 1) if _TABLE_RULE.match(lines[i + 1])}
    result = []
    for start, end in zip(cuts, cuts[1:]):
        piece = text[start:end]
        stripped = piece.strip()
        # Nothing but markup or a page reference ("(S. 2)") is no statement.
        if not _WORD.search(_plain_words(PAGE.sub(" ", stripped))) or _TABLE_RULE.match(stripped) or stripped in header_rows:
            continue
        offset = start + (len(piece) - len(piece.lstrip()))
        inside = tuple(
            Mark(m.words, m.facts, m.aside, m.start - offset, m.end - offset, m.problem)
            for m in found if start <= m.start and m.end <= end
        )
        result.append(Statement(stripped, inside))
    return result


def is_checked(faq: Faq) -> bool:
    """An answer the engine checks: every statement of it must be bound or an aside."""
    return faq.basis == "rule" and faq.ruling.verdict != "none" and bool(faq.checks)


def negative(text: str, lang: str) -> bool:
    if CONTRACTED.search(text):
        return True
    return any(word.casefold() in NEGATIONS[lang] for word in _WORD.findall(NOT_DENIALS[lang].sub(" ", text)))


def obliges(text: str, lang: str) -> bool:
    """Whether ``text`` says something must (or need not) be done."""
    phrases = _OBLIGATION_PHRASES.get(lang)
    if phrases is not None and phrases.search(text):
        return True
    return any(word.casefold() in OBLIGATIONS[lang] for word in _WORD.findall(text))


def main_clause(clause: str, lang: str) -> str:
    """``clause`` up to its first subordinate clause (``SUBORDINATORS``) in each of its parts;
    the whole clause when every part is subordinate."""
    kept = []
    for piece in _CLAUSE.split(clause):
        words = list(_WORD.finditer(piece))
        if not words:
            continue
        first = words[0][0].casefold()
        if first in SUBORDINATORS[lang] or (kept and first in _RELATIVE_AFTER_COMMA[lang]):
            continue
        cut = next((w.start() for w in words[1:] if w[0].casefold() in SUBORDINATORS[lang]), len(piece))
        kept.append(piece[:cut])
    return " ".join(kept) if kept else clause


def _clause(statement: Statement, mark: Mark, ends_at: re.Pattern = _CLAUSE) -> str:
    """The clause of the statement that holds the span (cut at commas, semicolons and dashes;
    ``ends_at``: at what else)."""
    source = statement.source
    starts = [0] + [m.end() for m in ends_at.finditer(source) if m.end() <= mark.start]
    ends = [m.start() for m in ends_at.finditer(source) if m.start() >= mark.end] + [len(source)]
    return unmarked(source[max(starts):min(ends)])


def answer_word(words: str, lang: str) -> bool | None:
    """What a span holding only an answer word says ("Nein" False, "Sì" True), else None."""
    return ANSWER_WORDS[lang].get(words.strip(" *_.,!").casefold())


def own_clause(statement: Statement, mark: Mark) -> str:
    """The clause a span's claim is read in: cut at commas, colons, semicolons, dashes and the
    words that join two clauses."""
    return _clause(statement, mark, _OWN_CLAUSE)


class Vocabulary:
    """How a language names a game's glossary entries (term and aliases)."""

    def __init__(self, glossary: Iterable[GlossaryEntry]):
        self.entries = {entry.id: entry for entry in glossary}

    def words(self, key: str, lang: str) -> list[str]:
        entry = self.entries.get(key)
        if entry is None:
            return []
        return getattr(entry, lang).names()

    def named(self, text: str, key: str, lang: str) -> bool:
        return any(names(text, word) for word in self.words(key, lang) if word.strip())


def _states_number(words: str, value: int, lang: str) -> bool:
    # The span's words as they are: "[2. Mal]" states 2 (no list item's number here).
    if value in SMALL_NUMBERS:
        tokens = {t.casefold() for t in _WORD.findall(words)}
        return bool(tokens & SMALL_NUMBERS[value][lang])
    stated = numbers_in(words, lang)
    if stated:
        return value in stated
    # With no number of its own, a span bound to a count states it also in a word that is a
    # number only there ("[sei]": 6); beside a number ("[secondo il regolamento 3]") it is a word.
    return value in ambiguous_numbers(words, lang)


def names_subject(text: str, subject, lang: str, vocabulary: Vocabulary) -> bool:
    """Whether ``text`` names a fact's subject (a number, a phrase per language, a glossary id)."""
    if isinstance(subject, int):
        # The count a clause is about may be named so too, whatever other numbers it holds
        # ("con [sei]{…} giocatori: [nessuno]{…}").
        return _states_number(text, subject, lang) or subject in ambiguous_numbers(text, lang)
    if isinstance(subject, Localized):
        return names(text, subject.get(lang))
    return vocabulary.named(text, subject, lang)


def rendering_problem(fact: Fact, words: str, own: str, lang: str, vocabulary: Vocabulary,
                      opening: bool) -> tuple[str, str, str] | None:
    """Why ``words`` (a span bound to ``fact``, in its own clause ``own``) do not say the fact's
    value: (code, the reason in English, the value as the text's language says it), or None."""
    value = fact.value
    if fact.says is not None:
        expected = fact.says.get(lang)
        return None if names(words, expected) else ("value", f"does not say \"{expected}\", the fact's words for {value!r}", expected)
    if isinstance(value, bool):
        answer = answer_word(words, lang)
        # A true value is denied only in the own clause's main clause ("may destroy the districts of
        # a character that takes no turn" says it may); a false one in its subordinate clauses too,
        # but not before a colon ("Not the Bishop: the Thief [may rob the King]").
        main = main_clause(own, lang)
        read = main if value else own
        if obliges(main, lang):
            return ("obligation", "says that something must be done, but the fact shows only whether it may: "
                                  "write what the check shows, or give the fact the words it checks (says)", "")
        said = answer if answer is not None and opening else not negative(read, lang)
        if said != value:
            return ("opposite", "says the opposite", "")
        return None
    if isinstance(value, int):
        return None if _states_number(words, value, lang) else ("value", f"does not state {value}", str(value))
    if value in vocabulary.entries:
        shown = " / ".join(vocabulary.words(value, lang))
        return None if vocabulary.named(words, value, lang) else ("value", f"does not name {shown}", vocabulary.words(value, lang)[0])
    return ("no-words", f"the value {value!r} has no words in the text's language: give the fact its words (says)", str(value))


BindingProblem = ClaimProblem  # one kind of problem for the verdict word and the bound spans


def _pages_problems(text: str, pages, source_pages: int | None, lang: str) -> list[BindingProblem]:
    problems = []
    for match in PAGE.finditer(unmarked(text)):
        first, last = int(match[1]), int(match[2] or match[1])
        if pages is None or not (pages[0] <= first <= last <= pages[1]):
            cited = "no pages" if pages is None else (f"p. {pages[0]}" if pages[0] == pages[1] else f"pp. {pages[0]}–{pages[1]}")
            problems.append(BindingProblem(lang, f"names page {match[0]!r}, but the citation gives {cited}", "page",
                                           (("page", match[0]), ("cited", cited))))
        elif source_pages is not None and last > source_pages:
            problems.append(BindingProblem(lang, f"names page {last}, but the source has {source_pages} pages", "page",
                                           (("page", match[0]), ("cited", f"{source_pages} pages"))))
    return problems


def _loose_numbers(statement: Statement, lang: str, allowed: set[int], counted: frozenset[str]) -> list[int]:
    """Numbers stated outside the spans bound to a fact with a number (``counted``) and outside
    asides, page references left out: a number inside a span bound only to a yes/no fact is
    checked by nothing ("[only 1 exhibition is allowed]" and "[only 2 …]" pass the same check)."""
    rest = PAGE.sub(" ", unmarked(statement.without(lambda mark: mark.aside or any(name in counted for name in mark.facts))))
    return sorted(numbers_in(prose(rest), lang) - allowed - {0})


def binding_problems(faq: Faq, vocabulary: Vocabulary, source_pages: int | None = None,
                     field: str = "answer") -> list[BindingProblem]:
    """Every span that does not say its fact, every unbound statement of a checked answer, every
    number outside the spans and every page the citation does not give, language by language."""
    facts = {fact.name: fact for fact in faq.ruling.facts if fact.name}
    checked = is_checked(faq)
    allowed = set(faq.ruling.other_numbers)
    counted = frozenset(name for name, fact in facts.items() if not isinstance(fact.value, (bool, str)))
    problems: list[BindingProblem] = []
    for lang in LANGS:
        text = getattr(faq.text(lang), field)
        where = f"{field} ({lang})"
        said = statements(text)
        for broken in broken_spans(text):
            shown = " ⏎ ".join(" ".join(line.split()) for line in broken.split("\n"))
            problems.append(BindingProblem(lang, f"{where}: \"{shown}\" runs over a line break: a marked span stands on one line",
                                           "span-lines", (("mark", shown),)))
        for index, statement in enumerate(said):
            subjects = [facts[name].subject for name in statement.bound_facts if name in facts and facts[name].subject is not None]
            for mark in statement.marks:
                if mark.problem:
                    problems.append(BindingProblem(lang, f"{where}: {mark.problem}", "mark", (("mark", f"[{mark.words}]"),)))
                if mark.facts and not re.search(r"[^\W_]", mark.words):
                    problems.append(BindingProblem(lang, f"{where}: a span bound to {', '.join(mark.facts)} holds no word",
                                                   "unbound", (("text", mark.words),)))
                    continue
                for name in mark.facts:
                    fact = facts.get(name)
                    if fact is None:
                        problems.append(BindingProblem(lang, f"{where}: \"{mark.words}\" is bound to '{name}', which is no fact of the ruling",
                                                       "unknown-fact", (("words", mark.words), ("fact", name))))
                        continue
                    clause = _clause(statement, mark)
                    opening = index == 0 and statement.source.lstrip("*_ ").startswith(f"[{mark.words}]")
                    wrong = rendering_problem(fact, mark.words, own_clause(statement, mark), lang, vocabulary, opening)
                    if wrong:
                        code, reason, expected = wrong
                        problems.append(BindingProblem(
                            lang, f"{where}: \"{mark.words}\" {reason} (fact '{name}': {fact.value!r}, {fact.place})", code,
                            (("words", mark.words), ("fact", name), ("expected", expected), ("check", fact.check))))
                    if fact.subject is not None:
                        within = clause if len(subjects) > 1 else statement.text
                        if not names_subject(within, fact.subject, lang, vocabulary):
                            subject = _subject_words(fact.subject, lang, vocabulary)
                            problems.append(BindingProblem(
                                lang, f"{where}: \"{mark.words}\" (fact '{name}') stands apart from its subject "
                                      f"\"{subject}\"; name it in the same {'clause' if len(subjects) > 1 else 'statement'}",
                                "subject", (("words", mark.words), ("subject", subject))))
            if checked and statement.kind == "unbound":
                problems.append(BindingProblem(lang, f"{where}: \"{_short(statement.text)}\" states something no fact binds: "
                                                     "bind its words to a fact ({fact=name}), or mark it {.editorial} or {.unchecked}",
                                               "unbound", (("text", _short(statement.text)),)))
            # A number that is the subject of a fact bound here ("with 4 players") is bound with it.
            loose = _loose_numbers(statement, lang, allowed | {s for s in subjects if isinstance(s, int)}, counted)
            if loose and (checked or any(m.bound for m in statement.marks)):
                problems.append(BindingProblem(lang, f"{where}: \"{_short(statement.text)}\" states {', '.join(map(str, loose))}, which no check "
                                                     "counts (a number in a yes/no statement is not checked): bind the number to a fact "
                                                     "with that value, list it under the ruling's other_numbers with its reason, or remove it",
                                               "loose-number", (("text", _short(statement.text)), ("numbers", ", ".join(map(str, loose))))))
        problems += [BindingProblem(p.lang, f"{where}: {p.message}", p.code, p.params)
                     for p in _pages_problems(text, faq.citation.pages, source_pages, lang)]
    if field == "answer" and checked:
        problems += _count_problems(faq)
    return problems


def _count_problems(faq: Faq) -> list[BindingProblem]:
    """A language whose checked answer counts its statements otherwise than the rest: the badge
    says "2 of 2 statements checked" in one language and "1 of 1" in another for the same facts,
    when one translation joins two sentences ("…: …") that the others keep apart."""
    counted = {lang: tally(faq.text(lang).answer) for lang in LANGS}
    if any(t.unbound for t in counted.values()):
        return []  # each unbound statement is a problem of its own, which the count would only repeat
    pairs = {lang: (t.bound, t.claims) for lang, t in counted.items()}
    common = Counter(pairs.values()).most_common(1)[0][0]
    return [BindingProblem(lang, f"answer ({lang}): {pair[0]} of {pair[1]} statements about the rules checked, the other "
                                 f"languages {common[0]} of {common[1]}: split or join its sentences as they do",
                           "statement-count", (("checked", str(pair[0])), ("total", str(pair[1])),
                                               ("other_checked", str(common[0])), ("other_total", str(common[1]))))
            for lang, pair in pairs.items() if pair != common]


def _subject_words(subject, lang: str, vocabulary: Vocabulary) -> str:
    if isinstance(subject, str) and subject in vocabulary.entries:
        return vocabulary.words(subject, lang)[0]
    return subject.get(lang) if isinstance(subject, Localized) else str(subject)


def _short(text: str, length: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1] + "…"


def bound_facts(text: str) -> Counter:
    """How often each fact is bound in ``text``."""
    return Counter(name for mark in marks(text) for name in mark.facts)


def diverging_langs(faq: Faq) -> dict[str, Counter]:
    """The languages whose answer binds other facts than the rest (empty when all agree)."""
    counts = {lang: bound_facts(faq.text(lang).answer) for lang in LANGS}
    distinct = Counter(tuple(sorted(c.items())) for c in counts.values())
    if len(distinct) <= 1:
        return {}
    common = distinct.most_common(1)[0][0]
    return {lang: c for lang, c in counts.items() if tuple(sorted(c.items())) != common}


@dataclass(frozen=True)
class Tally:
    """How many statements of an answer are bound, asides, and unbound."""

    bound: int
    editorial: int
    unchecked: int
    unbound: int

    @property
    def claims(self) -> int:
        """The statements that say something about the rules."""
        return self.bound + self.unchecked + self.unbound


def tally(text: str) -> Tally:
    kinds = Counter(statement.kind for statement in statements(text))
    return Tally(kinds["bound"], kinds["editorial"], kinds["unchecked"], kinds["unbound"])


def _set_up(faq: Faq) -> dict[str, set]:
    """The words and numbers of what the checks set up and expect (``holders: {king: C}``,
    ``players: 7``): the situation as data, beside its description."""
    words: set = set()
    numbers: set = set()

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                words.add(str(key))
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int):
            numbers.add(value)
        elif isinstance(value, str):
            words.update(re.findall(r"[a-z_]+", value))

    for check in faq.checks:
        walk(check.given)
        walk(check.expect)
    return {"words": words, "numbers": numbers}


def question_problems(faq: Faq, vocabulary: Vocabulary, roles: Iterable[str] = ()) -> list[BindingProblem]:
    """A checked answer's question asks about what its checks play: each character (``roles``) and
    number the question names is in the situation of one of its checks, in the same language. A question
    turned to another character or count no longer matches ("Darf der Magier …" for "der Dieb")."""
    if not is_checked(faq):
        return []
    set_up = _set_up(faq)
    problems = []
    for lang in LANGS:
        question = faq.text(lang).question
        played = " ".join(c.scenario.get(lang) for c in faq.checks if c.scenario)
        if not played:
            continue
        for key in roles:
            if vocabulary.named(question, key, lang) and not vocabulary.named(played, key, lang) and key not in set_up["words"]:
                subject = _subject_words(key, lang, vocabulary)
                problems.append(BindingProblem(lang, f"question ({lang}): asks about {subject}, which no situation of its checks has",
                                               "question", (("subject", subject),)))
        for number in sorted(numbers_in(prose(question), lang) - numbers_in(prose(played), lang) - set_up["numbers"]):
            problems.append(BindingProblem(lang, f"question ({lang}): asks about {number}, which no situation of its checks has",
                                           "question", (("subject", str(number)),)))
    return problems


def answer_problems(faq: Faq, glossary: Iterable[GlossaryEntry], source_pages: int | None,
                    roles: Iterable[str] = ()) -> list[BindingProblem]:
    """Everything an answer's text gets wrong against its ruling: the opening verdict word, and
    each bound span, unbound statement, loose number and page."""
    found = [p for lang in LANGS for p in verdict_problems(faq.ruling, faq.text(lang).answer, lang, "answer")]
    vocabulary = Vocabulary(glossary)
    # A page named in the question is held to the citation as one named in the answer.
    pages = [BindingProblem(p.lang, f"question: {p.message}", p.code, p.params) for lang in LANGS
             for p in _pages_problems(faq.text(lang).question, faq.citation.pages, source_pages, lang)]
    return found + binding_problems(faq, vocabulary, source_pages) + question_problems(faq, vocabulary, roles) + pages
