"""The marks an answer's Markdown carries: which words state a fact of its ruling.

Three marks, written as Markdown attributes on a bracketed span (the syntax of
mdit-py-plugins' ``attrs``, which the renderer reads):

- ``[König]{fact=yellow}``: the words state the ruling's fact ``yellow``; the check renders the
  engine's value for it and compares. ``{fact="assassin victim"}`` binds one span to two facts.
- ``[Was die Regel nicht sagt, …]{.unchecked}``: a rule statement the sources leave open.
- ``[Zum Vergleich …]{.editorial}``: words that state no rule (a hint, an example of play).

This module owns the syntax: finding the marks, and the text without them for every use that is
not the answer page (search, previews, descriptions, plain text).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A span holds no brackets, braces or line breaks; its attributes are one fact=…, .editorial or
# .unchecked (anything else is reported, never shown).
SPAN = re.compile(r"\[(?P<words>[^\[\]\n]+)\]\{(?P<attrs>[^{}\n]*)\}")
# Marked words run over a line break: Markdown reads them as one span, the marks above do not.
_BROKEN_SPAN = re.compile(r"\[[^\[\]\n]*\n[^\[\]]*\]\{[^{}\n]*\}")
_FACT = re.compile(r'^fact=(?:"(?P<quoted>[^"]*)"|(?P<bare>[^\s"]+))$')
ASIDES = ("editorial", "unchecked")


@dataclass(frozen=True)
class Mark:
    """One marked span: its words, the facts it binds (or the kind of aside), where it stands."""

    words: str
    facts: tuple[str, ...]
    aside: str | None  # "editorial" or "unchecked"
    start: int
    end: int
    problem: str | None = None  # a mark that cannot be read

    @property
    def bound(self) -> bool:
        return bool(self.facts)


def _mark(match: re.Match) -> Mark:
    attrs = match["attrs"].strip()
    words, start, end = match["words"], match.start(), match.end()
    if attrs in (f".{kind}" for kind in ASIDES):
        return Mark(words, (), attrs[1:], start, end)
    fact = _FACT.match(attrs)
    names = tuple((fact["quoted"] or fact["bare"] or "").split()) if fact else ()
    if not names:
        return Mark(words, (), None, start, end,
                    f"\"[{words}]{{{attrs}}}\": write {{fact=name}}, {{.editorial}} or {{.unchecked}}")
    return Mark(words, names, None, start, end)


def marks(text: str) -> list[Mark]:
    """Every marked span of ``text``, in order."""
    return [_mark(match) for match in SPAN.finditer(text)]


def broken_spans(text: str) -> list[str]:
    """Marked spans whose words run over a line break, as written (with their marks)."""
    return [match.group() for match in _BROKEN_SPAN.finditer(text)]


def unmarked(text: str) -> str:
    """The text as readers read it anywhere but the answer page: the words of each span stay,
    the marks go."""
    if "]{" not in text:
        return text
    return SPAN.sub(lambda match: match["words"], text)


def _mark_words(text: str, words: str, attrs: str, typed: bool = False, after: int = 0) -> tuple[str, int] | None:
    """``text`` with the first unmarked occurrence of ``words`` (as whole words, from ``after`` on)
    marked ``attrs``, and where the mark ends; ``typed``: the words may stand there without their
    emphasis and with other white space (a reader's text, typed without Markdown: "4 carte
    quartiere" for "**4 carte quartiere**")."""
    words = words.strip()
    if not words or any(c in words for c in "[]{}\n"):
        return None
    taken = [(m.start, m.end) for m in marks(text)]
    parts = re.sub(r"[*_]+", "", words).split() if typed else [words]
    if not parts:
        return None
    pattern = r"(?<![^\W_])" + r"[*_]*\s+[*_]*".join(map(re.escape, parts)) + r"(?![^\W_])"
    for match in re.compile(pattern).finditer(text, after):
        start, end = match.span()
        if not any(a < end and start < b for a, b in taken):
            marked = f"[{match.group()}]{{{attrs}}}"
            return f"{text[:start]}{marked}{text[end:]}", start + len(marked)
    return None


def bind_words(text: str, words: str, fact: str) -> str | None:
    """``text`` with the first occurrence of ``words`` outside any mark bound to ``fact``
    ("[words]{fact=fact}"), or None when the words do not stand there unmarked."""
    found = _mark_words(text, words, f"fact={fact}")
    return None if found is None else found[0]


def marked_like(marked: str, plain: str) -> str:
    """``plain`` (a reader's rewording of ``marked`` as readers see it) with the marks of
    ``marked`` put back wherever their words still stand, in order (where a mark's words stand
    again after the previous mark's, they are taken there); new words stay unmarked for an
    editor to bind."""
    result, after = plain, 0
    for mark in marks(marked):
        if mark.problem:
            continue
        attrs = f".{mark.aside}" if mark.aside else (f"fact={mark.facts[0]}" if len(mark.facts) == 1 else f'fact="{" ".join(mark.facts)}"')
        found = next((placed for start in (after, 0) for typed in (False, True)
                      if (placed := _mark_words(result, mark.words, attrs, typed, start)) is not None), None)
        if found is not None:
            result, after = found
    return result
