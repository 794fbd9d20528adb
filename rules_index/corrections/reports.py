"""Readers' reports: their request model, validation of a submission, storing it, finding it again."""
from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import asdict, dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError
from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index import characters as chars
from rules_index import page_numbers
from rules_index.content import LANGS, Library

from .field_error import FieldError
from .models import STATUSES, Report, utcnow
from .sent import Matches, Plain, RequestModel, field_error, left_out, located

MAX_MESSAGE = 5000
MAX_PROPOSAL = 10000
MAX_PAGE = 40
MAX_EMAIL = 254
# A form sent again with the same words within this time is the report already stored: a reader
# who goes back and sends again (the browser fetching a fresh form) has said nothing new.
REPEAT_WINDOW = dt.timedelta(hours=1)

# What a report's texts may hold, as regex classes the API's JSON Schema states too.
BLANK = chars.regex_class(chars.LINE_BREAKS, chars.SEPARATORS, chars.BIDI_CONTROLS, chars.SPACES)
# A character that shows: zero-width ones stay in a text but say nothing on their own.
VISIBLE = f"[^{chars.regex_class(chars.CONTROLS, chars.ZERO_WIDTH)}{BLANK}]"
PAGE = page_numbers.PATTERN
EMAIL = f"[^@{BLANK}]+@[^@{BLANK}]+\\.[^@{BLANK}]+"


class SubmissionError(FieldError):
    """A submission that cannot be stored: the field, what is wrong, and the HTTP status."""


def _around(pattern: str) -> str:
    """The whole text is ``pattern`` or nothing, with blanks around it.

    Anchored, unlike the character classes: safe here because a final newline is a blank, so
    Python's ``$`` (which also matches before one) and ECMA-262's agree.
    """
    return f"^[{BLANK}]*({pattern})?[{BLANK}]*$"


def _page(text: str) -> str | None:
    if not text:
        return None
    try:
        return page_numbers.normalize(text)
    except ValueError as exc:
        raise PydanticCustomError("page", "{reason}", {"reason": str(exc)}) from None


def _blank_is_none(text: str) -> str | None:
    return text or None


# A report's fields, each checked by one type: the API's model and the report form use them alike.
Message = Annotated[str, Field(max_length=MAX_MESSAGE), Plain(), Matches(VISIBLE, "message_missing", "say what is wrong")]
Proposal = Annotated[str, Field(max_length=MAX_PROPOSAL), Plain(), AfterValidator(_blank_is_none)]
Page = Annotated[str, Field(max_length=MAX_PAGE), Plain(), Matches(_around(PAGE), "page", f"must be {page_numbers.HINT}"),
                 AfterValidator(_page)]
Email = Annotated[str, Field(max_length=MAX_EMAIL), Plain(), Matches(_around(EMAIL), "email", "is not an e-mail address"),
                  AfterValidator(_blank_is_none)]


class CorrectionRequest(RequestModel):
    """A reader's report on one FAQ entry (``faq``) or one rules section (``section``)."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": ["faq"], "not": {"required": ["section"]}},
        {"required": ["section"], "not": {"required": ["faq"]}},
    ]})

    game: Annotated[str, Field(min_length=1)]
    faq: str = left_out()
    section: str = left_out()
    lang: Literal[LANGS]
    message: Message
    proposed_answer: Proposal | None = None
    page: Page | None = None
    email: Email | None = None

    @model_validator(mode="after")
    def _one_target(self) -> CorrectionRequest:
        if (self.faq is None) == (self.section is None):
            raise located("one_target", "faq", "give exactly one of 'faq' or 'section'")
        return self


@dataclass(frozen=True)
class Submission:
    """A checked report, its fields named as the ``Report`` columns that store them."""

    game: str
    target_kind: str
    target_id: str
    lang: str
    message: str
    proposed_answer: str | None
    page: str | None
    email: str | None


def validate_submission(library: Library, data: dict) -> Submission:
    """A submission checked by its model (``CorrectionRequest``), then against the content (the
    game and the entry exist); raises SubmissionError naming the field.

    Every text is made plain (``sent.Plain``): what is stored is what an editor will see.
    """
    if not isinstance(data, dict):
        raise SubmissionError("body", "must be a JSON object")
    try:
        request = CorrectionRequest.model_validate(data)
    except ValidationError as exc:
        raise field_error(exc, SubmissionError) from None
    game = library.game(request.game)
    if game is None:
        raise SubmissionError("game", f"no game '{request.game[:80]}'", 404)
    if request.faq is not None:
        if game.faq_entry(request.faq) is None:
            raise SubmissionError("faq", f"game '{request.game}' has no FAQ entry '{request.faq[:120]}'", 404)
        kind, target = "faq", request.faq
    else:
        if game.section(request.section) is None:
            raise SubmissionError("section", f"game '{request.game}' has no rules section '{request.section[:120]}'", 404)
        kind, target = "section", request.section
    return Submission(request.game, kind, target, request.lang, request.message, request.proposed_answer,
                      request.page, request.email)


def store(session: Session, submission: Submission) -> Report:
    """Commit the report; once this returns, the report is on disk."""
    report = Report(token=secrets.token_urlsafe(24), **asdict(submission), status="pending")
    session.add(report)
    session.commit()
    return report


def earlier_same(session: Session, submission: Submission) -> Report | None:
    """A pending report of the same words (message, proposal, page, e-mail) on the same text, sent
    within ``REPEAT_WINDOW``, else None."""
    same = (getattr(Report, name) == value for name, value in asdict(submission).items())
    return session.scalar(
        select(Report).where(Report.status == "pending", Report.created_at >= utcnow() - REPEAT_WINDOW, *same)
        .order_by(Report.id).limit(1))


def by_token(session: Session, token: str) -> Report | None:
    if not token or len(token) > 64:
        return None
    return session.scalar(select(Report).where(Report.token == token))


def queue(session: Session, game: str | None = None, lang: str | None = None, status: str | None = "pending") -> list[Report]:
    query = select(Report).order_by(Report.created_at.desc(), Report.id.desc())
    if game:
        query = query.where(Report.game == game)
    if lang:
        query = query.where(Report.lang == lang)
    if status in STATUSES:
        query = query.where(Report.status == status)
    return list(session.scalars(query.limit(500)))


def public_json(report: Report) -> dict:
    """A report's status for the tracking link: no message, no e-mail."""
    return {
        "token": report.token,
        "status": report.status,
        "game": report.game,
        report.target_kind: report.target_id,
        "lang": report.lang,
        "reason": report.reason if report.status == "rejected" else None,
        "created_at": report.created_at.isoformat() + "Z",
        "updated_at": report.updated_at.isoformat() + "Z",
    }
