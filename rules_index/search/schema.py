"""The Whoosh schema: field names as constants, one set of text fields per language."""
from __future__ import annotations

from typing import Iterable

from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.analysis import LowercaseFilter, RegexTokenizer

from rules_index.folding import TOKEN_PATTERN

from .analysis import LANGS, language_analyzer, prefix_analyzer

SCHEMA_VERSION = 12  # bump when fields, analysis or the stored texts change: a built index is then stale

KEY = "key"            # kind:game:entry:lang, unique
KIND = "kind"          # faq | fact | section | mistake | glossary
GAME = "game"          # game slug, for the game filter
ENTRY = "entry"        # entry id within its game and kind
LANG = "lang"          # the language of this document's text
TITLE_TEXT = "title_text"  # stored reader-facing title (question, heading, term, mistake)
BODY_TEXT = "body_text"    # stored plain text for snippets
NAMED = "named"            # stored: every name of the cards and characters the question names (glossary)
ASKED = "asked"            # stored: players' ways of asking an answer's question, one a line
PREFIXES = "prefixes"  # 5-letter word prefixes of all text: low weight, for forms the stemmers miss


def title_field(lang: str) -> str:
    return f"title_{lang}"      # question / heading / term


def keywords_field(lang: str) -> str:
    return f"keywords_{lang}"   # players' words: keywords, glossary aliases, game names


def body_field(lang: str) -> str:
    return f"body_{lang}"       # answer / rule text / definition / correction


def words_field(lang: str) -> str:
    return f"words_{lang}"      # unstemmed words of one language's text, for "did you mean"


def build_schema(german_vocabulary: Iterable[str], verb_vocabulary: Iterable[str] = ()) -> Schema:
    """``german_vocabulary``: the German stems that compounds are split into; ``verb_vocabulary``:
    those that split verbs are joined into (``analysis.SeparableVerbFilter``)."""
    vocabulary, verbs = frozenset(german_vocabulary), frozenset(verb_vocabulary)
    fields = {
        KEY: ID(stored=True, unique=True),
        KIND: ID(stored=True),
        GAME: ID(stored=True),
        ENTRY: ID(stored=True),
        LANG: ID(stored=True),
        TITLE_TEXT: STORED(),
        BODY_TEXT: STORED(),
        NAMED: STORED(),
        ASKED: STORED(),
        PREFIXES: TEXT(analyzer=prefix_analyzer(), phrase=False),
    }
    for lang in LANGS:
        analyzer = language_analyzer(lang, vocabulary if lang == "de" else (), verbs=verbs if lang == "de" else ())
        fields[title_field(lang)] = TEXT(analyzer=analyzer)
        fields[keywords_field(lang)] = TEXT(analyzer=analyzer, phrase=False)
        fields[body_field(lang)] = TEXT(analyzer=analyzer)
        fields[words_field(lang)] = TEXT(analyzer=RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter(), phrase=False, spelling=True)
    return Schema(**fields)
