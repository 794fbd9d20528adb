"""The validated content of the service: a Library of Games, each with its entries in file order."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .citations import citation_label
from .lexicon import Lexicon
from .rules_markdown import MarkdownSection
from .schema import LANGS, Citation, Faq, GameFile, GlossaryEntry, Mistake, Note, Section, Source


# Where each kind of entry sits on its game's page: the anchor is the prefix and the entry's id.
# Links inside a rules text name these ("[Scoring](#rule-scoring)"); content checks them.
ANCHOR_PREFIX = {"faq": "faq-", "section": "rule-", "mistake": "mistake-", "glossary": "term-"}
FACTS_ANCHOR = "facts"


@dataclass(frozen=True)
class RuleSection:
    """A section of the rules summary with its text in each language."""

    meta: Section
    texts: dict[str, MarkdownSection]

    @property
    def id(self) -> str:
        return self.meta.id

    def title(self, lang: str) -> str:
        return self.texts[lang].title

    def body(self, lang: str) -> str:
        return self.texts[lang].body


@dataclass
class Game:
    info: GameFile
    folder: Path
    sections: list[RuleSection] = field(default_factory=list)
    faq: list[Faq] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.info.slug

    def title(self, lang: str) -> str:
        return self.info.title.get(lang)

    def page_anchors(self) -> set[str]:
        """Every anchor of the game's page that a link may name."""
        kinds = {"faq": self.faq, "section": self.sections, "mistake": self.mistakes, "glossary": self.glossary}
        entries = {ANCHOR_PREFIX[kind] + item.id for kind, items in kinds.items() for item in items}
        return entries | {FACTS_ANCHOR}

    def other_titles(self, lang: str) -> list[str]:
        """The game's other names for readers of ``lang``: each once (whatever its case), never its title."""
        seen = {self.title(lang).casefold()}
        names = []
        for name in self.info.alt_titles.get(lang):
            if name.casefold() not in seen:
                seen.add(name.casefold())
                names.append(name)
        return names

    def all_titles(self) -> set[str]:
        """Every name of the game in every language: its titles and its other titles."""
        return {*(self.info.title.get(lang) for lang in LANGS), *self.info.alt_titles.all()}

    def source(self, source_id: str) -> Source | None:
        return next((s for s in self.info.sources if s.id == source_id), None)

    def faq_entry(self, faq_id: str) -> Faq | None:
        return next((f for f in self.faq if f.id == faq_id), None)

    def section(self, section_id: str) -> RuleSection | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def mistake_entry(self, mistake_id: str) -> Mistake | None:
        return next((m for m in self.mistakes if m.id == mistake_id), None)

    def mistakes_for(self, faq_id: str) -> list[Mistake]:
        return [m for m in self.mistakes if m.faq == faq_id]

    def roles(self) -> list[GlossaryEntry]:
        """The glossary entries of the characters or roles players take, in game.yaml's order."""
        terms = {term.id: term for term in self.glossary}
        return [terms[role] for role in self.info.roles if role in terms]

    def pages_edition(self, citation: Citation, lang: str):
        """The edition whose page numbers ``citation`` gives, where that edition is in another
        language than the reader's ``lang`` (their own rulebook may number its pages otherwise);
        else None."""
        source = self.source(citation.source)
        if not citation.pages or source is None:
            return None
        edition = next((e for e in self.info.editions if e.id == source.edition), None)
        return edition if edition is not None and edition.language != lang else None

    def cite(self, citation: Citation, lang: str) -> str:
        source = self.source(citation.source)
        if source is None:  # validation makes this unreachable for loaded content
            raise KeyError(citation.source)
        return citation_label(citation, source, lang)


@dataclass
class Library:
    """All games, in a stable order (by slug)."""

    games: dict[str, Game]
    catalog: dict[str, list[str]] = field(default_factory=dict)
    lexicon: Lexicon = field(default_factory=Lexicon)  # players' words (content/lexicon.yaml)

    def game(self, slug: str) -> Game | None:
        return self.games.get(slug)

    def __iter__(self):
        return iter(self.games.values())
