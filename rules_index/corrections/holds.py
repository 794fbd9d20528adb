"""Which changes the engine cannot judge: they wait for a second editor.

The gate refuses what contradicts the engine (gate.py, reversals.py); what it cannot see is the
words around the bound spans: a "nicht" in a later sentence, an "only", "before" for "after", a
step moved. So a changed FAQ entry goes live at once only when, language by language, each
paragraph and list item is the old one in the same place (order carries meaning), bar:

- a number written another way ("3" / "drei"), never a place for a count ("zweite"/"zwei");
- a page reference changed (the validator holds it to the citation);
- a typo fixed outside a bound span: a word of neither the language nor the game turned into a
  common word or one the game uses, one slip apart, when it is the one reading (``Words.typo_fix``);

and only when the page would show the same words, with no emphasis taken off and none put on a
claim word (stress can change what a sentence says). Anything else is held, with its reasons.
Pure functions; no database, no files.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Iterable, Mapping

import simplemma
from wordfreq import zipf_frequency

from rules_index import characters as chars
from rules_index.content import LANGS
from rules_index.content.bindings import NEGATIONS, PAGE, Statement, diverging_langs, statements
from rules_index.content.citations import PAGE_PREFIX, PAGES_PREFIX, page_text
from rules_index.content.numbers import is_ordinal, number_value, prose
from rules_index.content.marks import unmarked
from rules_index.content.schema import Faq, GlossaryEntry
from rules_index.render import emphasis_runs, layout, shown_text
from rules_index.search.analysis import stopwords

# Words whose change changes what a statement claims, beyond the negations.
QUANTIFIERS = {
    "de": {"nur", "immer", "stets", "höchstens", "mindestens", "genau", "alle", "jeder", "jede", "jedes", "jeden",
           "jedem", "ausschließlich", "auch", "einzige", "einzig", "sämtliche", "beide", "manche", "mehr", "weniger"},
    "en": {"only", "always", "most", "least", "exactly", "all", "every", "each", "any", "also", "both", "some",
           "more", "fewer", "less", "sole", "just"},
    "it": {"solo", "soltanto", "solamente", "sempre", "massimo", "minimo", "almeno", "esattamente", "tutti", "tutte",
           "ogni", "ciascun", "ciascuno", "ciascuna", "anche", "entrambi", "più", "meno", "unico", "unica"},
}
ORDER = {
    "de": {"vor", "vorher", "bevor", "nach", "nachdem", "danach", "zuerst", "dann", "erst", "sofort", "bis", "sobald",
           "später", "zuletzt", "während", "anschließend", "gleich"},
    "en": {"before", "after", "afterwards", "first", "then", "until", "once", "immediately", "later", "last", "while",
           "during", "next", "previous"},
    "it": {"prima", "dopo", "poi", "subito", "finché", "appena", "durante", "ultimo", "ultima", "successivo",
           "precedente", "mentre"},
}
# The letters a slip may put in a word's place, per language.
ALPHABETS = {"de": "abcdefghijklmnopqrstuvwxyzäöüß", "en": "abcdefghijklmnopqrstuvwxyz",
             "it": "abcdefghijklmnopqrstuvwxyzàèéìòù"}
KNOWN_ZIPF = 2.0  # a word this frequent (wordfreq's Zipf scale) is a word of the language, not a typo
COMMON_ZIPF = 3.0  # a typo is fixed into a common word (or one the game's content uses)
# "1,2" and "3.5" are one number each (a decimal, a range), not 1 and 2.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)+|\d+|[^\W\d_]+(?:['’][^\W\d_]+)?|[^\w\s]|_")
# A page reference where citations stand: in brackets at the end of a sentence, an item or the
# text. Added, removed or its page fixed there it says nothing new (the validator holds its page to
# the citation); anywhere else ("C wird S. 5 Zweiter") it is words like the rest.
_PAGE_REF = re.compile(r"\s*\(\s*(?:" + PAGE.pattern + r")\s*\)(?=[.!?;:]?[ \t]*(?:$|\n|¶)|[.!?;:]\s)", re.I)
# A digit that counts a place: "2. Runde", "8° quartiere", "3rd".
_ORDINAL_AFTER = re.compile(r"\.(?=\s+[^\W\d_])|°|st\b|nd\b|rd\b|th\b", re.I)
# Link targets "](…)", autolinks "<scheme:…>" and bare web addresses.
_ADDRESS = re.compile(r"\]\(\s*<?([^)\s>]*)|<([a-z][a-z0-9+.-]{1,31}:[^<>\s]*)>|\b((?:https?|ftp)://\S+|www\.\S+)", re.I)


@dataclass(frozen=True)
class HoldReason:
    """Why a change waits for a second editor; ``lang`` is the edited language it concerns;
    ``code`` and ``params`` let the editors' pages say it in the editor's language."""

    message: str
    lang: str | None = None
    code: str | None = None
    params: tuple = ()

    def as_json(self) -> dict:
        """As the API answers it."""
        return {"message": self.message, **({"lang": self.lang} if self.lang else {})}

    def stored(self) -> dict:
        """As a held change keeps it (the queue shows it in each editor's language)."""
        return {**self.as_json(), "code": self.code, "params": dict(self.params)}


GLUE = "⁀"
# Spaces a browser does not collapse and that show as a gap (one no-break space reads as a space).
_WIDE_SPACE = re.compile(r"\u00a0{2,}|\u202f{2,}|[\u1680\u2000-\u200a\u205f\u3000" + chars.regex_class(chars.SEPARATORS) + "]")


def _tokens(text: str, lang: str, shown: bool = False) -> tuple[str, ...]:
    """The text as compared: words as written (case counts), numbers as their values (a place
    apart from a count), every sign but Markdown emphasis, page references left out, and every
    address it links to (a link changed is never a typo fix). ``shown``: the text is what a page
    shows (``render.shown_text``), so "*", "_", "`" and touching tokens (``GLUE``) count too."""
    plain = _PAGE_REF.sub("", text if shown else re.sub(r"[*_`]+", " ", prose(unmarked(text))))
    if shown:
        plain = re.sub(r"¶(?:\s*¶)+", "¶", plain)  # a block that held only a page reference
    words = []
    end = None
    previous = None  # the token before ("zu" makes "zweit" a count)
    for match in _TOKEN.finditer(plain):
        token = match.group()
        if shown and match.start() == end:
            words.append(GLUE)  # shown touching the token before ("Joker-Paar", "50Karten")
        if shown and end is not None and _WIDE_SPACE.search(plain, end, match.start()):
            words.append("␣")  # a gap a browser shows: no-break spaces in a row, a wide space
        end = match.end()
        value, previous = number_value(token, lang, previous), token
        if value is not None and (token[0] == "0" and len(token) > 1 or not (token.islower() or token.istitle() or token.isdigit())):
            words.append(token)  # "055", "ZWEI": a number, but not written as numbers are
        elif value is None or is_ordinal(token, lang):
            # A word, or a place or a time said in words ("zweite", "twice"): compared as written.
            words.append(token)
        elif token.isdigit() and _ORDINAL_AFTER.match(plain, match.end()):
            words.append(f"#{value}.")
        else:
            words.append(f"#{value}")  # a count: "3" and "drei" are the same
    return tuple(words) + tuple(f"@{''.join(parts)}" for parts in _ADDRESS.findall(text))


def _signature(statement: Statement, lang: str) -> tuple:
    marks = tuple((mark.facts, mark.aside, _tokens(mark.words, lang)) for mark in statement.marks)
    return _tokens(statement.source, lang), marks


class Words:
    """What counts as a word for one game: wordfreq's lists, the glossary, and every word the
    game's content uses elsewhere (a rare word the site writes in other answers is no typo)."""

    def __init__(self, glossary: list[GlossaryEntry], vocabulary: Mapping[str, Iterable[str]] | None = None):
        """``vocabulary``: the game's words per language (``content_words``). A word of another
        language's texts is no word of this one: "König" fixes no typo in an English text."""
        self.glossary = {
            lang: {word.casefold() for entry in glossary for term in [getattr(entry, lang)]
                   for phrase in term.names() for word in _TOKEN.findall(phrase)}
            for lang in LANGS
        }
        self.vocabulary = {lang: {word.casefold() for word in (vocabulary or {}).get(lang, ())} for lang in LANGS}

    def game_words(self, lang: str) -> set[str]:
        return self.glossary[lang] | self.vocabulary[lang]

    def known(self, word: str, lang: str) -> bool:
        """A word of the language or the game, in this form or as a form of a known lemma
        ("Meuchlers" is a form of the glossary's "Meuchler", not a typo)."""
        game = self.game_words(lang)
        return any(form in game or zipf_frequency(form, lang) >= KNOWN_ZIPF for form in {word.casefold(), _lemma(word, lang)})

    def typo_fix(self, old: str, new: str, lang: str) -> bool:
        """Whether ``new`` for ``old`` fixes a typo rather than changing the claim: ``old`` is no
        word of the language or the game, nor a form of one ("Karte"/"Karten" changes a count);
        ``new`` is a common one or the game's; one slip apart, first and last letters kept."""
        claim_words = _claim_words(lang)
        if old.casefold() in claim_words or new.casefold() in claim_words or not old.isalpha() or not new.isalpha():
            return False
        if old[:1] != new[:1] or old[-1:] != new[-1:] or self.known(old, lang):
            return False
        # The word written is a common word itself, not only a form of one ("Punktt" is no
        # form of "punkten" however common that is), or one the game's texts use.
        if not (zipf_frequency(new.casefold(), lang) >= COMMON_ZIPF or new.casefold() in self.game_words(lang)):
            return False
        # One slip apart, and from no word that would say something else: "ocne" could be "once".
        return (_distance(old, new) <= 1 and not self._other_readings(old, new, lang)
                and not self._readings_two_slips_away(old, new, lang))

    def _other_readings(self, old: str, new: str, lang: str) -> bool:
        """Whether ``old`` is one slip, at any letter, from another word it could have meant besides
        ``new`` ("cloose": "close" or "choose"; "Hächste": "Höchste" or "Nächste"). Words rarer
        than ``KNOWN_ZIPF`` are not asked: nearly every misspelling is one slip from one of those."""
        word = old.casefold()
        letters = set(word) | set(new.casefold()) | set(ALPHABETS[lang])
        candidates = {word[:i] + word[i + 1:] for i in range(len(word))}
        candidates |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
        candidates |= {word[:i] + c + word[i + 1:] for i in range(len(word)) for c in letters}
        candidates |= {word[:i] + c + word[i:] for i in range(len(word) + 1) for c in letters}
        candidates -= {word, new.casefold()}
        game = self.game_words(lang)
        return any(_says_more(c, lang) or c in game or zipf_frequency(c, lang) >= KNOWN_ZIPF for c in candidates)

    def _readings_two_slips_away(self, old: str, new: str, lang: str) -> bool:
        """Whether ``old`` is two slips from a claim word or glossary term other than forms of
        ``new``: "oldher", typed for "other", is one slip from "older", which is then no fix."""
        word, lemma = old.casefold(), _lemma(new, lang)
        return any(abs(len(w) - len(word)) <= 2 and w != word and _lemma(w, lang) != lemma and _distance(word, w) <= 2
                   for w in _claim_words(lang) | self.glossary[lang])


@lru_cache(maxsize=3)
def _claim_words(lang: str) -> frozenset[str]:
    """Words that change what a claim says by themselves: negations, quantifiers, order and
    function words."""
    return frozenset(NEGATIONS[lang] | QUANTIFIERS[lang] | ORDER[lang] | stopwords(lang))


def _says_more(token: str, lang: str) -> bool:
    """A claim word or a number (a compared token "#3" included): stressed alone, or read for a
    typo, it changes the claim."""
    return token.startswith("#") or token.casefold() in _claim_words(lang) or number_value(token, lang) is not None


@lru_cache(maxsize=4096)
def _lemma(word: str, lang: str) -> str:
    return simplemma.lemmatize(word, lang=lang).casefold()


def _distance(a: str, b: str) -> int:
    """Edit distance counting a swap of two neighbouring letters as one edit (Damerau)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def _same_but_typos(old: tuple, new: tuple, lang: str, words: Words) -> bool:
    (old_tokens, old_marks), (new_tokens, new_marks) = old, new
    if len(old_marks) != len(new_marks):
        return False
    for a, b in zip(old_marks, new_marks):
        # A bound mark must hold the very words it held: the page shows them as checked, and a
        # "fixed" word there ("Wertungsfeldesn" → "Wertungsfeldern", meant "Wertungsfeldes") changes that.
        if a[:2] != b[:2] or not (a[2] == b[2] if a[0] else _same_words(a[2], b[2], lang, words)):
            return False
    return _same_words(old_tokens, new_tokens, lang, words)


def _same_words(old: tuple, new: tuple, lang: str, words: Words) -> bool:
    return len(old) == len(new) and all(a == b or words.typo_fix(a, b, lang) for a, b in zip(old, new))


def _reason(field: str, lang: str, message: str, text: str, code: str = "new") -> HoldReason:
    """A reason concerning one field's text; ``text`` is what the editors' pages quote."""
    return HoldReason(f"{field} ({lang}): {message}", lang, code, (("field", field), ("text", text)))


def _short(text: str, length: int = 80) -> str:
    text = " ".join(unmarked(text).split())
    return text if len(text) <= length else text[: length - 1] + "…"


def _changed_part(text: str, others: list[str], length: int = 80) -> str:
    """``text`` shortened to where it differs from the nearest of ``others`` (the statement it
    replaces, or the one that replaced it): a reworded word late in a long statement is quoted,
    not its unchanged start."""
    words = " ".join(unmarked(text).split()).split(" ")
    nearest = max(((SequenceMatcher(a=" ".join(unmarked(o).split()).split(" "), b=words, autojunk=False)) for o in others),
                  key=lambda matcher: matcher.ratio(), default=None)
    first = next((j1 for op, _i1, _i2, j1, _j2 in nearest.get_opcodes() if op != "equal"), 0) if nearest else 0
    start = max(0, min(first, len(words)) - 3)
    shown = _short(" ".join(words[start:]), length - (1 if start else 0))
    return f"…{shown}" if start else shown


_LIST_ITEM = re.compile(r"^[ \t]*(?:([-+*])|(\d+)[.)])\s")
_LIST_NUMBERS = re.compile(r"^[ \t]*(\d+)[.)](?=\s)", re.M)


def _blocks(text: str) -> list[tuple[str, str]]:
    """The paragraphs and list items of a text, in order, each as (its kind, its text)."""
    blocks = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        item: list[str] = []
        kind = ""
        for line in paragraph.split("\n"):
            marker = _LIST_ITEM.match(line)
            if marker and item:
                blocks.append((kind, "\n".join(item)))
                item = []
            if marker:
                kind = "1." if marker.group(2) else "-"
            item.append(line)
        if item:
            blocks.append((kind, "\n".join(item)))
    return blocks


def _block_signature(place: str, text: str, lang: str) -> tuple:
    return place, tuple(_signature(statement, lang) for statement in statements(text))


def _same_block(old: tuple, new: tuple, lang: str, words: Words) -> bool:
    return old[0] == new[0] and len(old[1]) == len(new[1]) and all(
        _same_but_typos(a, b, lang, words) for a, b in zip(old[1], new[1]))


def text_changes(before: str, after: str, lang: str, words: Words, field: str) -> list[HoldReason]:
    """What of ``after`` is not ``before``, block by block in order (bar numbers written another
    way, pages and typos), and then the words of the page as rendered, so that Markdown cannot
    hide or show words the comparison missed."""
    if before == after:
        return []
    # A block with no statement (a page reference on its own line) says nothing to compare.
    old = [(text, sig) for kind, text in _blocks(before) if (sig := _block_signature(kind, text, lang))[1]]
    new = [(text, sig) for kind, text in _blocks(after) if (sig := _block_signature(kind, text, lang))[1]]
    same = len(old) == len(new) and all(_same_block(a[1], b[1], lang, words) for a, b in zip(old, new))
    if same and _layout(before) != _layout(after):
        # The same words in another place (a paragraph made a list item, a step a sub-step): where a
        # statement stands is part of what it says.
        return [_moved(field, lang, after)]
    if same and _emphasis_changed(before, after, lang):
        # Stress is part of what a sentence says ("in **beiden** Ländern", "**ein** Detektiv").
        return [_reason(field, lang, f"changes which words are emphasised: \"{_short(after)}\"", _short(after))]
    if same and (not _same_words(_tokens(before, lang), _tokens(after, lang), lang, words)
                 or _LIST_NUMBERS.findall(before) != _LIST_NUMBERS.findall(after)):
        # Words outside every statement (a link definition, an image without alt text) and the
        # numbers of steps render as nothing but stand wherever the text is shown as typed.
        return [_reason(field, lang, f"adds or changes words outside its statements: \"{_short(after)}\"", _short(after))]
    if same:
        if _same_shown(before, after, lang, words, as_typed=field == "question"):
            return []
        return [_reason(field, lang, "the page would show other words than the text compared", _short(after))]
    old_sigs, new_sigs = [sig for _, sig in old], [sig for _, sig in new]
    gone = [text for (text, sig) in old if sig not in new_sigs]
    added = [text for (text, sig) in new if sig not in old_sigs]
    if [sig for sig in old_sigs if sig in new_sigs] == [sig for sig in new_sigs if sig in old_sigs]:
        # The blocks both texts have stand in the same order: only the statements of the blocks
        # added or taken out are new or gone.
        return _statement_reasons(gone, added, lang, field) or [_moved(field, lang, text) for text in added]
    # The blocks stand in another order: what a statement says can hang on where it stands
    # ("Danach …", step 1 before step 2), so the order is a change of its own.
    return [*_statement_reasons([t for t, _ in old], [t for t, _ in new], lang, field), _moved(field, lang, after)]


def _moved(field: str, lang: str, text: str) -> HoldReason:
    return _reason(field, lang, f"moves statements within or between paragraphs or steps: \"{_short(text)}\"", _short(text))


def _emphasis_changed(before: str, after: str, lang: str) -> bool:
    """Whether a word shown in bold or italics is not any more, in its place, or a claim word is
    newly stressed on its own ("**ein** Detektiv" reads as one detective); stress on a name or a
    whole phrase only points at it."""
    def flagged(text: str) -> list[tuple[str, bool]]:
        return [(token, flag) for run, flag in emphasis_runs(text) for token in _tokens(run, lang) if token != GLUE]

    def stressed_alone(text: str) -> Counter:
        """The claim words stressed in a run of their own (every word of the run says more)."""
        runs = [[t for t in _tokens(run, lang) if t != GLUE] for run, flag in emphasis_runs(text) if flag]
        return Counter(t for run in runs if run and all(_says_more(t, lang) for t in run) for t in run)

    old, new = flagged(before), flagged(after)
    if [t for t, _ in old] == [t for t, _ in new]:
        taken = any(was and not now for (_, was), (_, now) in zip(old, new))
    else:  # words changed too (a typo fixed): every emphasised word must still be emphasised
        taken = bool(Counter(t for t, flag in old if flag) - Counter(t for t, flag in new if flag))
    return taken or bool(stressed_alone(after) - stressed_alone(before))


def _layout(text: str) -> tuple:
    return layout(text, lambda words: bool(statements(words)))


def _statement_reasons(gone: list[str], added: list[str], lang: str, field: str) -> list[HoldReason]:
    """The statements of the blocks that changed: those only in the new ones, those only in the old."""
    old_left = [s for text in gone for s in statements(text)]
    old_sources = [s.source for s in old_left]
    new_left = []
    reasons = []
    for statement in (s for text in added for s in statements(text)):
        sig = _signature(statement, lang)
        same = next((i for i, old in enumerate(old_left) if _signature(old, lang) == sig), None)
        if same is None:
            new_left.append(statement.source)
        else:
            old_left.pop(same)
    for source in new_left:
        quoted = _changed_part(source, old_sources)
        reasons.append(_reason(field, lang, f"new or reworded statement \"{quoted}\"", quoted))
    for statement in old_left:
        quoted = _changed_part(statement.source, new_left)
        reasons.append(_reason(field, lang, f"drops or rewords the statement \"{quoted}\"", quoted, "dropped"))
    return reasons


def _same_shown(before: str, after: str, lang: str, words: Words, as_typed: bool = False) -> bool:
    """Whether readers would see the same words in the same order, bar typo fixes, whatever the
    Markdown around them. ``as_typed``: the text is shown as written (a question), not rendered."""
    shown = (lambda text: " ¶ ".join(text.split("\n\n"))) if as_typed else shown_text
    return _same_words(_tokens(shown(before), lang, True), _tokens(shown(after), lang, True), lang, words)


_STRUCTURED = ("ruling", "check", "citation", "basis", "editions", "section")


def hold_reasons(before: Faq, after: Faq, glossary: list[GlossaryEntry],
                 vocabulary: Mapping[str, Iterable[str]] | None = None) -> list[HoldReason]:
    """Why the change from ``before`` to ``after`` needs a second editor (empty: it goes live).
    ``vocabulary``: the words of the game's content outside this entry (content_words)."""
    words = Words(glossary, vocabulary)
    reasons = []
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
    changed = [key for key in _STRUCTURED if old.get(key) != new.get(key)]
    if changed:
        reasons.append(HoldReason(f"changes {', '.join(changed)}: what the checks and facts mean is read by a second editor",
                                  None, "structured", (("fields", ", ".join(changed)),)))
    for lang in LANGS:
        reasons += text_changes(before.text(lang).question, after.text(lang).question, lang, words, "question")
        reasons += text_changes(before.text(lang).answer, after.text(lang).answer, lang, words, "answer")
    reasons += page_reasons(before, after)
    # The languages compared with each other: one that now binds other facts than the rest is
    # the edited one, and it is named (not the untouched ones).
    for lang, bound in diverging_langs(after).items():
        facts = ", ".join(f"{name}×{count}" if count > 1 else name for name, count in sorted(bound.items())) or "none"
        reasons.append(HoldReason(f"answer ({lang}) binds other facts than the other languages ({facts})", lang,
                                  "diverging", (("facts", facts),)))
    return reasons


def _pages(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The page references of a text: (as written, its numbers as typed)."""
    return [(m[0], tuple(n for n in (m[1], m[2]) if n)) for m in PAGE.finditer(unmarked(text))]


def written_as_cited(written: str, numbers: tuple[str, ...], lang: str) -> bool:
    """Whether a page reference is written as the site writes its citations ("S. 2", "p. 2",
    "pp. 2–3"). Any other form may be read as something else ("(P2)": player 2; "Seite 2" in
    English; "S. 02", "S. *2*") and is read by a second editor."""
    first, last = int(numbers[0]), int(numbers[-1])
    if len(numbers) == 1:
        return written == f"{PAGE_PREFIX[lang]} {first}"
    return written in {f"{prefix} {first}–{last}" for prefix in (PAGE_PREFIX[lang], PAGES_PREFIX[lang])}


def _page_set(text: str) -> frozenset[int]:
    """Every page a text names, ranges spelled out ("S. 3–5": 3, 4, 5)."""
    found = set()
    for *_, numbers in _pages(text):
        first, last = int(numbers[0]), int(numbers[-1])
        found.update(range(first, min(last, first + 50) + 1))
    return frozenset(found)


# Where one statement ends and the next begins: a sentence's end, a new paragraph or list item.
_STATEMENT_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n|\n\s*(?:[-*+]|\d+[.)])\s")


def _page_places(text: str) -> dict[int, frozenset[int]]:
    """The pages cited where citations stand, by the statement they follow (its place: how many
    statements come before it). Rewording a statement keeps its place; moving a page does not."""
    plain = unmarked(text)
    return {len(_STATEMENT_END.findall(plain, 0, match.start())): _page_set(match.group())
            for match in _PAGE_REF.finditer(plain)}


def _places_kept(before: str, after: str) -> dict[int, int]:
    """Which place of ``after`` each statement of ``before`` has now ({new place: old place}):
    statements added or taken out shift the places after them, a statement reworded where it
    stood keeps its place."""
    def pieces(text: str) -> list[str]:
        return [" ".join(piece.split()) for piece in _STATEMENT_END.split(unmarked(text))]

    kept = {}
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, pieces(before), pieces(after), autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            kept.update(zip(range(j1, j2), range(i1, i2)))
    return kept


def page_reasons(before: Faq, after: Faq) -> list[HoldReason]:
    """A change of page references goes live only as citations are written: in the citations'
    own form ("S. 2", "p. 2", "pp. 2–3"), the same pages in every language, no page in a question
    that its answer does not name, and the citation's page or its whole range (a single page of
    a range may be the wrong one of them)."""
    reasons, changed, named = [], False, {}
    cited = after.citation.pages
    for lang in LANGS:
        for field in ("question", "answer"):
            before_text, after_text = getattr(before.text(lang), field), getattr(after.text(lang), field)
            old, new = _pages(before_text), _pages(after_text)
            places = _places_kept(before_text, after_text)
            was, now = _page_places(before_text), _page_places(after_text)
            if old == new and was == {places.get(place, -1): pages for place, pages in now.items()}:
                continue
            changed = True
            for written, numbers in new:
                if (written, numbers) not in old and not written_as_cited(written, numbers, lang):
                    cited_form = page_text((int(numbers[0]), int(numbers[-1])), lang)
                    reasons.append(_reason(field, lang, f"names a page not as citations write one: \"{written}\" (they write \"{cited_form}\")", written))
            # Which page of a cited range holds a statement is not known here: one page of the range,
            # or another cited page than it had, is read by a second editor.
            for statement, pages in now.items():
                old_pages = was.get(places.get(statement, -1))
                if not cited or old_pages == pages or pages == set(range(cited[0], cited[1] + 1)):
                    continue
                cited_before = bool(old_pages) and cited[0] <= min(old_pages) and max(old_pages) <= cited[1]
                one_of_range = cited[0] != cited[1] and cited[0] <= min(pages) and max(pages) <= cited[1]
                if cited_before or one_of_range:
                    shown = ", ".join(map(str, sorted(pages)))
                    reasons.append(_reason(field, lang, f"cites page {shown} of the cited pages {cited[0]}–{cited[1]} for its statement {statement + 1}: which page holds it is read by a second editor", shown))
        question, answer = (_page_set(getattr(after.text(lang), f)) for f in ("question", "answer"))
        if question - answer:
            named[lang] = None
            if changed:
                reasons.append(_reason("question", lang, "names a page its answer does not", ", ".join(map(str, sorted(question - answer)))))
        elif answer:
            named[lang] = answer
    if changed and len({pages for pages in named.values() if pages is not None}) > 1:
        listed = "; ".join(f"{lang}: {', '.join(map(str, sorted(pages)))}" for lang, pages in named.items() if pages)
        reasons.append(HoldReason(f"the languages name different pages ({listed})", None, "new",
                                  (("field", "answer"), ("text", listed))))
    return reasons


def section_hold_reasons(before: dict[str, str], after: dict[str, str], glossary: list[GlossaryEntry],
                         vocabulary: Mapping[str, Iterable[str]] | None = None) -> list[HoldReason]:
    """Why a change of a rules section's bodies (per language) needs a second editor. A section
    binds no fact, so it is held as an answer's unbound words are."""
    words = Words(glossary, vocabulary)
    return [reason for lang in LANGS for reason in text_changes(before[lang], after[lang], lang, words, "body")]


def content_words(game, entry_id: str, kind: str = "faq") -> dict[str, set[str]]:
    """Every word the game's content uses outside one FAQ entry or rules section (answers,
    questions, keywords, mistakes, rules sections), per language: words the site writes are no
    typos."""
    texts: dict[str, list[str]] = {lang: [] for lang in LANGS}
    for lang in LANGS:
        for faq in game.faq:
            if faq.id != entry_id or kind != "faq":
                texts[lang] += [faq.text(lang).question, faq.text(lang).answer, *faq.keywords.get(lang)]
        for mistake in game.mistakes:
            texts[lang] += [mistake.text(lang).mistake, mistake.text(lang).correction]
        for section in game.sections:
            if section.id != entry_id or kind != "section":
                texts[lang].append(section.body(lang))
    return {lang: {word.casefold() for text in found for word in _TOKEN.findall(unmarked(text)) if word.isalpha()}
            for lang, found in texts.items()}
