"""The search documents of the content: one per entry (FAQ, rule section, mistake, glossary term)
and language, with the reader-facing text and the words players use for it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from rules_index.content import LANGS, Game, Library
from rules_index.render import plain_text

from .analysis import language_analyzer

KINDS = ("faq", "section", "mistake", "glossary")


@dataclass
class Document:
    kind: str
    game: str
    entry: str
    lang: str
    title: str
    body: str
    keywords: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.game}:{self.entry}:{self.lang}"


def _tokens(text: str, lang: str) -> set[str]:
    return {t.text for t in language_analyzer(lang)(text)}


class GlossaryMatcher:
    """Finds the glossary terms an entry's text mentions, to add the players' other words for them."""

    def __init__(self, game: Game):
        self.terms = {
            lang: [
                (frozenset(_tokens(g.text(lang).term, lang)), [g.text(lang).term, *g.text(lang).aliases])
                for g in game.glossary
            ]
            for lang in LANGS
        }

    def words_for(self, text: str, lang: str) -> list[str]:
        present = _tokens(text, lang)
        found: list[str] = []
        for tokens, words in self.terms[lang]:
            if tokens and tokens <= present:
                found.extend(words)
        return found


def game_names(game: Game) -> list[str]:
    names = [game.info.title.get(lang) for lang in LANGS] + game.info.alt_titles.all()
    return list(dict.fromkeys(names))


def game_documents(game: Game) -> Iterator[Document]:
    glossary = GlossaryMatcher(game)
    names = game_names(game)
    faq_keywords = {f.id: f.keywords for f in game.faq}
    for lang in LANGS:
        for faq in game.faq:
            text = faq.text(lang)
            body = plain_text(text.answer)
            words = [*faq.keywords.get(lang), *glossary.words_for(f"{text.question} {body}", lang), *names]
            yield Document("faq", game.slug, faq.id, lang, text.question, body, words)
        for section in game.sections:
            title, body = section.title(lang), plain_text(section.body(lang))
            words = [*glossary.words_for(title, lang), *names]
            yield Document("section", game.slug, section.id, lang, title, body, words)
        for mistake in game.mistakes:
            text = mistake.text(lang)
            linked = faq_keywords.get(mistake.faq) if mistake.faq else None
            words = [*(linked.get(lang) if linked else []), *glossary.words_for(text.mistake, lang), *names]
            yield Document("mistake", game.slug, mistake.id, lang, plain_text(text.mistake), plain_text(text.correction), words)
        for term in game.glossary:
            text = term.text(lang)
            yield Document("glossary", game.slug, term.id, lang, text.term, plain_text(text.definition), [*text.aliases, *names])


def library_documents(library: Library) -> Iterator[Document]:
    for game in library:
        yield from game_documents(game)
