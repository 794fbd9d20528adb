"""The schema of every content file, as pydantic models (one model per kind of entry).

These models are also the validated content model the rest of the package reads.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator
from pydantic_core import PydanticCustomError

LANGS: tuple[str, ...] = ("de", "en", "it")
DEFAULT_LANG = "de"

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

SOURCE_KINDS = ("official-rulebook", "rules-explanation", "review", "encyclopedia")
SECTION_KINDS = (
    "goal", "material", "setup", "board", "round", "turn", "characters", "actions",
    "scoring", "end", "variants", "example", "open-questions", "other",
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Localized(Strict):
    """One text in each language."""

    de: Text
    en: Text
    it: Text

    def get(self, lang: str) -> str:
        return getattr(self, lang)


class LocalizedList(Strict):
    de: list[Text] = []
    en: list[Text] = []
    it: list[Text] = []

    def get(self, lang: str) -> list[str]:
        return getattr(self, lang)

    def all(self) -> list[str]:
        return [*self.de, *self.en, *self.it]


_RANGE = re.compile(r"^\s*(\d+)\s*[-–]\s*(\d+)\s*$")


class Citation(Strict):
    """Where a statement comes from: a source, its page or page range, and the source's section."""

    source: Id
    pages: tuple[int, int] | None = None
    section: Localized

    @field_validator("pages", mode="before")
    @classmethod
    def _pages(cls, value: Any) -> Any:
        if value is None or isinstance(value, (tuple, list)):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return (value, value)
        if isinstance(value, str):
            if value.strip().isdigit():
                return (int(value), int(value))
            match = _RANGE.match(value)
            if match:
                return (int(match.group(1)), int(match.group(2)))
        raise PydanticCustomError("page_form", "a page is a number or a range like 5-6")

    @field_validator("pages")
    @classmethod
    def _ordered(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None:
            if value[0] < 1:
                raise PydanticCustomError("page_zero", "pages start at 1")
            if value[1] < value[0]:
                raise PydanticCustomError("page_order", "a page range must go upwards, like 5-6")
        return value


class Check(Strict):
    """A scenario run through the game's rule engine, and what the answer says must happen."""

    probe: Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$")]
    given: dict[str, Any] = {}
    expect: Annotated[dict[str, Any], Field(min_length=1)]
    scenario: Localized | None = None


Checks = Check | list[Check] | None


def check_list(value: Checks) -> list[Check]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


class Range(Strict):
    min: int | None = None
    max: int | None = None

    @model_validator(mode="after")
    def _ordered(self) -> "Range":
        if self.min is not None and self.max is not None and self.max < self.min:
            raise PydanticCustomError("range_order", "max is smaller than min")
        return self


class Edition(Strict):
    id: Id
    name: Localized
    publisher: str | None = None
    year: int | None = None
    language: Literal["de", "en", "it", "fr", "nl"]


class Source(Strict):
    id: Id
    edition: Id
    kind: Literal[SOURCE_KINDS]  # type: ignore[valid-type]
    title: Text
    publisher: str | None = None
    year: int | None = None
    pages: Annotated[int, Field(ge=1)] | None
    language: Literal["de", "en", "it", "fr", "nl"]
    read: dt.date
    label: Localized


class GameFile(Strict):
    """game.yaml"""

    slug: Id
    stand: dt.date
    title: Localized
    alt_titles: LocalizedList = LocalizedList()
    # How players shorten the title at the table ("Kardinal"): it names the game in a question, but
    # is never shown as one of its titles.
    short_titles: LocalizedList = LocalizedList()
    summary: Localized
    players: Range | None = None
    duration_minutes: Range | None = None
    age_min: int | None = None
    year: int | None = None
    designers: list[Text] = []
    publishers: list[Text] = []
    editions: Annotated[list[Edition], Field(min_length=1)]
    sources: Annotated[list[Source], Field(min_length=1)]
    roles: list[Id] = []  # glossary ids of the characters or roles players take, in the game's order
    traditional: bool = False  # a traditional game in the public domain: no designer, publisher or rulebook of its own


class Section(Strict):
    """An entry of sections.yaml; its title and text come from rules.<lang>.md."""

    id: Id
    kind: Literal[SECTION_KINDS]  # type: ignore[valid-type]
    editions: Annotated[list[Id], Field(min_length=1)]
    citation: Citation
    # How players ask for this part of the rules as a whole ("How do you win?", "Aufbau"): search
    # words only, as a FAQ entry's ``asked``.
    asked: LocalizedList = LocalizedList()


class FaqText(Strict):
    question: Text
    answer: Text


OUTPUT_PATH = r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_-]+)*$"
VERDICT_WORDS = ("yes", "no", "none")


class Fact(Strict):
    """A value the answer asserts, and where one of the entry's checks shows it (``check`` counts
    from 1): an ``output`` of the engine, or, for a number that describes the situation the check
    plays (a district of value 1, 4 players), a path in its ``given``."""

    value: bool | int | str
    check: Annotated[int, Field(ge=1)]
    output: Annotated[str, StringConstraints(pattern=OUTPUT_PATH)] | None = None
    given: Annotated[str, StringConstraints(pattern=OUTPUT_PATH)] | None = None
    # What the answer's spans bind: ``[König]{fact=yellow}`` (bindings.py).
    name: Id | None = None
    # What the value is about (a glossary id, a number, or a phrase per language): a span bound
    # to the fact stands in the statement that names it.
    subject: int | Id | Localized | None = None
    # The fact's words where the value has none of its own (a player, a moment of the round).
    says: Localized | None = None

    @model_validator(mode="after")
    def _one_place(self) -> "Fact":
        if (self.output is None) == (self.given is None):
            raise PydanticCustomError("fact_place", "a fact names exactly one of output or given")
        return self

    @property
    def states_number(self) -> bool:
        return isinstance(self.value, int) and not isinstance(self.value, bool)

    @property
    def place(self) -> str:
        return f"check {self.check} {self.output}" if self.output is not None else f"check {self.check} given {self.given}"


class Ruling(Strict):
    """What an answer rules, as data: the verdict and the facts its text asserts.

    ``verdict``: ``yes`` / ``no`` (the answer opens with Ja/Nein, Yes/No, Sì/No), a number (the
    first number the answer states), a choice (a phrase per language that its first sentence
    names), or ``none`` (the sources leave the question open). ``other_numbers`` are numbers the
    text may state that are not rule values (a year, a place in a list), each with its reason.
    """

    verdict: Literal[VERDICT_WORDS] | Annotated[int, Field(ge=0)] | Localized | None = None  # type: ignore[valid-type]
    facts: list[Fact] = []
    other_numbers: dict[int, Text] = {}

    @field_validator("verdict", mode="before")
    @classmethod
    def _no_booleans(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise PydanticCustomError("verdict_form", "write the verdict as yes, no, none, a number or a phrase per language")
        return value

    def numbers(self) -> set[int]:
        return {fact.value for fact in self.facts if fact.states_number}  # type: ignore[misc]

    @model_validator(mode="after")
    def _unique_names(self) -> "Ruling":
        names = [fact.name for fact in self.facts if fact.name]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise PydanticCustomError("fact_names_twice", "fact names must be unique: {names}", {"names": ", ".join(twice)})
        return self


class FaqRuling(Ruling):
    """A FAQ answer's ruling: the verdict is required (a mistake's correction may leave it out)."""

    verdict: Literal[VERDICT_WORDS] | Annotated[int, Field(ge=0)] | Localized  # type: ignore[valid-type]


#: What an FAQ answer rests on: a rule the sources state (checked by the engine), a reading the
#: engine follows where the sources are silent, or no rule claim at all (editions, history,
#: publisher facts, or a plain "the sources do not say").
BASES = ("rule", "assumption", "editorial")


class Faq(Strict):
    id: Id
    editions: Annotated[list[Id], Field(min_length=1)]
    section: Id
    related: list[Id] = []
    citation: Citation
    keywords: LocalizedList = LocalizedList()
    # How players ask it at the table (a told situation, table talk): search words only, never
    # shown as text, so they state nothing a check would have to hold.
    asked: LocalizedList = LocalizedList()
    de: FaqText
    en: FaqText
    it: FaqText
    ruling: FaqRuling
    check: Checks = None
    basis: Literal[BASES] = "rule"  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _editorial_unchecked(self) -> "Faq":
        # A check on an entry that claims no rule would present editorial text as engine-verified.
        if self.basis == "editorial" and self.check is not None:
            raise PydanticCustomError("editorial_check", "an editorial entry (basis: editorial) makes no rule claim and carries no check")
        return self

    def text(self, lang: str) -> FaqText:
        return getattr(self, lang)

    @property
    def checks(self) -> list[Check]:
        return check_list(self.check)


class MistakeText(Strict):
    mistake: Text
    correction: Text


class Mistake(Strict):
    id: Id
    faq: Id | None = None
    section: Id | None = None
    citation: Citation
    de: MistakeText
    en: MistakeText
    it: MistakeText
    ruling: Ruling = Ruling()  # needed where the correction states numbers
    check: Checks = None

    @model_validator(mode="after")
    def _one_target(self) -> "Mistake":
        if (self.faq is None) == (self.section is None):
            raise PydanticCustomError("mistake_target", "a mistake links to exactly one of faq or section")
        return self

    def text(self, lang: str) -> MistakeText:
        return getattr(self, lang)

    @property
    def checks(self) -> list[Check]:
        return check_list(self.check)


class Term(Strict):
    term: Text
    aliases: list[Text] = []  # its other names (other editions, plain words for it): shown with the term
    said: list[Text] = []     # what players say for it ("klauen", "nick"): searched and read, never shown as a name
    definition: Text

    def names(self) -> list[str]:
        """Every way a text may name it: the term, its other names, the players' words for it."""
        return [self.term, *self.aliases, *self.said]


class GlossaryEntry(Strict):
    id: Id
    section: Id
    de: Term
    en: Term
    it: Term

    def text(self, lang: str) -> Term:
        return getattr(self, lang)


class Note(Strict):
    id: Id
    source: Id
    citation: Citation
    other: Localized
    rulebook: Localized
