"""The JSON API's requests and answers as pydantic models: the one definition the OpenAPI document
is generated from (``openapi.py``) and the API validates with.

Calculator models live with their engines (``engines/*/calculators.py``), the models of readers'
reports and editors' changes with the corrections (``reports.CorrectionRequest``,
``change_requests.ChangeRequest``, built from the checks of ``corrections.sent``), which validate
a request's body with them and then check it against the content.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from rules_index import characters as chars
from rules_index.content import DEFAULT_LANG, LANGS
from rules_index.corrections import change_requests, reports
from rules_index.corrections.sent import Plain, left_out
from rules_index.search import clean_query

Lang = Literal[LANGS]


class ApiModel(BaseModel):
    """Base of the API's models: unknown keys are ignored, as the API always did."""

    model_config = ConfigDict(extra="ignore", frozen=True)


# ------------------------------------------------------------------ query parameters
# What clean_query removes or folds away (rules_index.search.query): Python's white space, the
# control characters and line breaks (every C0 and C1 control character), the invisible ones
# (bidirectional marks and controls, the BOM). A search text needs one character outside them.
_NOT_SEARCHED = chars.regex_class(chars.PYTHON_WHITESPACE, chars.CONTROLS, chars.LINE_BREAKS, *chars.INVISIBLE)
SEARCHED = f"[^{_NOT_SEARCHED}]"
MIN_LIMIT, MAX_LIMIT, DEFAULT_LIMIT = 1, 50, 10


def _searchable(text: str) -> str:
    # The server's own cleaning judges; the document states it as SEARCHED (a test compares them
    # character by character).
    if not clean_query(text):
        raise PydanticCustomError("search_text", "a search text is required")
    return text


class LangQuery(ApiModel):
    lang: Lang = DEFAULT_LANG


class SearchQuery(LangQuery):
    q: Annotated[str, Field(json_schema_extra={"pattern": SEARCHED}), AfterValidator(_searchable)]
    game: str | None = Field(default=None, description="A game's slug: only its hits.")
    limit: Annotated[int, Field(ge=MIN_LIMIT, le=MAX_LIMIT)] = DEFAULT_LIMIT


# ------------------------------------------------------------------ path parameters
class GamePath(ApiModel):
    slug: str


class FaqPath(GamePath):
    faq_id: str


class SectionPath(GamePath):
    section_id: str


class TokenPath(ApiModel):
    token: str


# ------------------------------------------------------------------ games, entries, sections
class Error(ApiModel):
    error: Annotated[str, Field(min_length=1)]


class GameSummary(ApiModel):
    slug: str
    title: str
    url: str


class Games(ApiModel):
    games: list[GameSummary]


class FaqLink(ApiModel):
    id: str
    question: str
    url: str


class SectionLink(ApiModel):
    id: str
    title: str
    url: str


class Game(GameSummary):
    faq: list[FaqLink]
    sections: list[SectionLink]


class Citation(ApiModel):
    source: str
    pages: Annotated[str, Field(pattern="^[0-9]+(-[0-9]+)?$")] | None
    section: str
    label: str


class Check(ApiModel):
    probe: str
    anchor: str = Field(description="The id of the situation on the answer page (the marks of the answer link to it).")
    scenario: str | None
    given: dict[str, Any]
    expect: dict[str, Any]
    ok: bool


class Fact(ApiModel):
    value: int | bool | str
    check: Annotated[int, Field(ge=1)]
    where: str
    ok: bool


class StatementCount(ApiModel):
    checked: Annotated[int, Field(ge=0)] = Field(description="Statements bound to a fact the engine checks.")
    total: Annotated[int, Field(ge=0)] = Field(description="Statements about the rules (editorial ones are not counted).")


class Verified(ApiModel):
    status: Literal["verified", "partial", "assumption", "editorial", "failed"] = Field(
        description="verified: every statement of the answer about the rules is bound to a fact the rules engine "
                    "checks; partial: the statements in 'unchecked' are not; assumption: the sources are silent and the engine follows a stated reading; "
                    "editorial: no rule claim (editions, history, questions the sources leave open).",
    )
    basis: Literal["rule", "assumption", "editorial"]
    statements: StatementCount
    unchecked: list[str] = Field(description="Statements of the answer no check tests.")
    checks: list[Check]
    facts: list[Fact] = Field(description="The values the answer states, each tied to a check's output.")


class Faq(ApiModel):
    game: str
    id: str
    lang: Lang
    question: str
    answer_html: str
    citation: Citation
    editions: list[str]
    section: str
    url: str
    version: str = Field(description="Hash of the entry's stored form: the base_version of a change.")
    verified: Verified
    related: list[FaqLink]


class Section(ApiModel):
    game: str
    id: str
    lang: Lang
    title: str
    body_html: str
    url: str
    version: str = Field(description="Hash of the section's stored text in every language: the base_version of a change.")


# ------------------------------------------------------------------ search
class Hit(ApiModel):
    """Hits come answers first (FAQ entries and the game's facts), then rules sections, glossary
    terms and common mistakes; but a glossary term or a rules section that is what was asked (a
    term alone, what a thing is or does, the rules at large: "How do you set it up?") comes first,
    and then no hit is best or close. best: true on the first answer only when it clearly leads;
    when two or three answers fit about as well, none is best and those have close: true. A
    mistake's title states it refuted and its url leads to the answer that settles it."""

    type: Literal["faq", "fact", "section", "mistake", "glossary"]
    game: str
    id: str
    title: str = Field(description="Plain text.")
    snippet: str = Field(description="An HTML fragment: the passage's text escaped, the words searched for in <mark>.")
    url: str
    score: float
    best: bool
    close: bool


class SearchResult(ApiModel):
    query: str
    lang: str
    hits: list[Hit]
    suggestion: str | None = Field(description="The question with its misspelled words corrected, if any was.")
    corrected: bool = Field(description="Whether the hits are the suggestion's, not the words as typed.")


# ------------------------------------------------------------------ health
class Unpublished(ApiModel):
    problems: int = Field(description="How many problems the content as it stands has.")
    first: list[str] = Field(description="The first of them, each as file:line: message.")


class Health(ApiModel):
    status: Literal["ok", "stale"] = Field(description=(
        "\"stale\": the content as it stands (a commit that does not pass the checks) cannot be published; "
        "readers get the content served before it, and later changes wait for a commit that mends it."))
    content: str = Field(description="The version of the content served: the commit it was published from.")
    database: Literal["ok", "unavailable"] = Field(
        description="The corrections database (reports, editors): reading never depends on it, so it is reported, not required.")
    unpublished: Unpublished | None = Field(None, description="While stale: why the content cannot be published.")


# ------------------------------------------------------------------ readers' reports
# The request is the corrections' own model, which the API validates the body with.
CorrectionRequest = reports.CorrectionRequest


class CorrectionCreated(ApiModel):
    id: int
    token: str
    status: Literal["pending"]


class CorrectionStatus(ApiModel):
    """A report's status for its tracking link: never the message or the e-mail address."""

    model_config = ConfigDict(json_schema_extra={"not": {"anyOf": [{"required": ["email"]}, {"required": ["message"]}]}})

    token: str
    status: Literal["pending", "accepted", "rejected"]
    game: str
    faq: str = left_out()
    section: str = left_out()
    lang: str
    reason: str | None
    created_at: str
    updated_at: str


# ------------------------------------------------------------------ editors' changes
# The request is the corrections' own model, which the API validates the body with.
ChangeRequest = change_requests.ChangeRequest


class HoldReason(ApiModel):
    message: str
    lang: Lang = left_out(description="The edited language the reason concerns.")


class ChangeOutcome(ApiModel):
    """What became of a change that passed the gate: live (``accepted``), or held for a second
    editor because the engine cannot judge it (``held``, with its ``reasons``)."""

    outcome: Literal["accepted", "held"]
    accepted: bool = Field(description="Whether the change is live (or, for a dry run, would go live at once).")
    change: int | None = Field(description="The stored change's id; null for a dry run and for a held change.")
    held: int | None = Field(description="A held change's id, for POST /api/v1/changes/{id}/confirm or /reject by "
                                         "another editor; null when accepted and for a dry run.")
    reasons: list[HoldReason] = Field(description="Why the change waits for a second editor; empty when accepted.")
    version: str = Field(description="The entry's version: the new one when written (empty in the rare case it could "
                                     "not be computed; the change is stored all the same), the current one otherwise.")
    flags: list[Lang] = Field(description="Languages put under translation review.")
    published: bool = Field(description="Whether the site shows the change yet: false for a dry run and a held change, "
                                        "and with 202 when written (publication retried).")


class HeldPath(ApiModel):
    id: int


class RejectRequest(ApiModel):
    model_config = ConfigDict(extra="forbid")

    note: Annotated[str, Plain(), Field(max_length=2000)] = left_out(description="Why the change is turned down.")


class ChangeRejected(ApiModel):
    outcome: Literal["rejected"]
    held: int


class Problem(ApiModel):
    kind: Literal["check", "claim", "mistake", "validation"]
    message: str
    lang: Lang = left_out()
    mistake: str = left_out()
    check: str = left_out()
    scenario: str = left_out()


class ChangeRefused(ApiModel):
    outcome: Literal["refused"]
    error: Annotated[str, Field(min_length=1)]
    problems: Annotated[list[Problem], Field(min_length=1)]


# Every model that is a component of the document, by its name there.
COMPONENTS: tuple[type[ApiModel], ...] = (
    Error, Games, Game, Faq, Section, SearchResult, CorrectionRequest, CorrectionCreated, CorrectionStatus,
    ChangeRequest, ChangeOutcome, ChangeRefused, RejectRequest, ChangeRejected,
)
