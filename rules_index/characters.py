"""Which characters text people send may hold: one definition for readers' reports, editors'
changes, search queries, the content writer and the API's JSON Schema.

``plain_text`` is the one cleaning every sent text gets: line breaks become LF, invisible
characters that reorder or hide what others see are removed, control characters are refused.

Each set is a tuple of code point ranges, rendered as literal characters or as a regex class in
``\\uXXXX`` escapes, which JSON Schema (ECMA-262) and Python's ``re`` read alike. Schemas built
from them never anchor with ``^…$``: Python lets ``$`` match before a final newline, ECMA-262 not.
"""
from __future__ import annotations

import re
import unicodedata

Ranges = tuple[tuple[int, int], ...]

# C0 controls except tab, line feed and carriage return; DEL; C1 controls (U+0085 NEL among them).
# Lone UTF-16 surrogates, which JSON can spell ("\ud800"), are no text either, but are left out of
# the classes: regex engines that work on Unicode scalar values (Rust's, which schema tools use)
# refuse a surrogate range. The server refuses them before any class is searched.
CONTROLS: Ranges = ((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0x7F, 0x9F))
LINE_BREAKS: Ranges = ((0x09, 0x0A), (0x0D, 0x0D))  # tab, LF, CR
SEPARATORS: Ranges = ((0x2028, 0x2029),)  # LINE SEPARATOR, PARAGRAPH SEPARATOR
# Embeddings, overrides and isolates: they reorder what a reader sees without being seen.
BIDI_CONTROLS: Ranges = ((0x202A, 0x202E), (0x2066, 0x2069))
# Left-to-right, right-to-left and Arabic letter marks: invisible, they only steer the order too.
BIDI_MARKS: Ranges = ((0x061C, 0x061C), (0x200E, 0x200F))
BOM: Ranges = ((0xFEFF, 0xFEFF),)  # byte order mark, or the zero-width no-break space of old
# Removed from every text people send: nothing a reader of these languages needs, and each can
# make a text read otherwise than it is stored.
INVISIBLE: tuple[Ranges, ...] = (BIDI_CONTROLS, BIDI_MARKS, BOM)
# What YAML (and Python's str.splitlines) also takes for a line break: NEL, LINE SEPARATOR and
# PARAGRAPH SEPARATOR. The content writer escapes them.
YAML_LINE_BREAKS: Ranges = ((0x85, 0x85), (0x2028, 0x2029))
# Characters that take no room: kept (the joiners shape emoji and some scripts), but a text of
# nothing else says nothing.
ZERO_WIDTH: Ranges = ((0x200B, 0x200D), (0x2060, 0x2060))
# Spaces that show nothing (Unicode Zs, plus the zero-width no-break space / byte order mark).
SPACES: Ranges = (
    (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x202F, 0x202F),
    (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
)

# Everything Python's str.isspace() and str.strip() count as white space (all below U+3001): for
# JSON Schema that states a check the server makes with strip().
PYTHON_WHITESPACE: Ranges = tuple((c, c) for c in range(0x3001) if chr(c).isspace())


def regex_class(*sets: Ranges) -> str:
    """The body of a regex character class (no brackets) holding every given set."""
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for ranges in sets for a, b in ranges)


def characters(*sets: Ranges) -> str:
    """Every character of the given sets, as one string (for ``str.strip`` and membership)."""
    return "".join(chr(c) for ranges in sets for a, b in ranges for c in range(a, b + 1))


_NEWLINES = re.compile(f"\r\n?|[{regex_class(SEPARATORS)}]")
_INVISIBLE = re.compile(f"[{regex_class(*INVISIBLE)}]")
_INVISIBLE_CHARS = frozenset(characters(*INVISIBLE))
_REFUSED = re.compile(f"[{regex_class(CONTROLS)}]")


class RefusedText(ValueError):
    """Text that cannot be taken: ``char`` is the control character found, or None when the text
    is not valid Unicode (a lone surrogate)."""

    def __init__(self, char: str | None):
        super().__init__(f"holds the control character {describe(char)}" if char else "is not valid Unicode text")
        self.char = char


def refused_character(text: str) -> str | None:
    """The first character no sent text may hold (a control character other than tab and line
    breaks; NEL among them), or None."""
    found = _REFUSED.search(text)
    return found.group() if found else None


def plain_text(text: str) -> str:
    """Text as people send it, made plain: CRLF, CR, LINE SEPARATOR and PARAGRAPH SEPARATOR become
    LF, the INVISIBLE characters are removed; raises RefusedText for a control character or a
    lone surrogate. Nothing else changes (callers strip or limit as they need)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RefusedText(None) from None
    text = _INVISIBLE.sub("", _NEWLINES.sub("\n", text))
    bad = refused_character(text)
    if bad is not None:
        raise RefusedText(bad)
    return text


def without_invisible(text: str) -> str:
    """Only the INVISIBLE characters removed (for text that is cleaned otherwise, a search query)."""
    return _INVISIBLE.sub("", text)


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that hides or turns what it says, or None: an INVISIBLE
    one, a control or format character (they glue or split words unseen) or a mark left over after
    composing (a stroke through "3", a "no" sign over a word). Content may hold none of them."""
    found = next((c for c in text if c in _INVISIBLE_CHARS), None) or refused_character(text)
    return found or next((c for c in unicodedata.normalize("NFC", text) if unicodedata.category(c) in ("Cf", "Mn", "Me", "Mc")), None)


# Italian's ordinal indicators ("1ª", "2º"): letters of the language, though Unicode counts them
# as compatibility forms of "a" and "o".
ORDINAL_INDICATORS = frozenset("ªº")
# Letters of languages written in the Latin alphabet that are no base letter with marks: German's
# "ß", the Nordic and French ligatures and letters, Polish "ł", Croatian "đ" (a name such as
# "Michał" may stand in a game's credits). Other letters without a base letter are lookalikes:
# Turkish dotless "ı" reads as "i" in "nıcht", the small capital "ᴏ" as "o".
OWN_LETTERS = frozenset("ßẞæÆøØœŒłŁđĐðÐþÞ") | ORDINAL_INDICATORS


def lookalike_character(text: str) -> str | None:
    """The first letter or digit of ``text`` that only looks like one of German, English and
    Italian, or None: a letter neither an ASCII letter with marks nor one of ``OWN_LETTERS``
    (Cyrillic "о" in "nоt"), a compatibility form ("２", "²", "ﬁ") or another script's digit. Such
    a character makes a word pass for one it is not, to readers and checks alike. Content may
    hold none."""
    for char in text:
        if char.isascii() or not char.isalnum() or char in OWN_LETTERS:
            continue
        if not char.isalpha() or unicodedata.normalize("NFKC", char) != char:
            return char  # a digit or numeral of another script, or a compatibility form
        base = unicodedata.normalize("NFD", char)[0]
        if not (base.isascii() and base.isalpha()):
            return char
    return None


def describe(char: str) -> str:
    """A character named so that a reader can find it: ``'G'`` if it shows, else ``U+0085``."""
    if char.isprintable() and not char.isspace():
        return f"'{char}'"
    return f"U+{ord(char):04X}"
