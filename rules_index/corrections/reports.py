"""Readers' reports: validation of a submission, storing it, finding it again."""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index import characters as chars
from rules_index import page_numbers
from rules_index.content import LANGS, Library

from .field_error import FieldError
from .models import STATUSES, Report

MAX_MESSAGE = 5000
MAX_PROPOSAL = 10000
MAX_PAGE = 40
MAX_EMAIL = 254

# What a report's texts may hold, as regex classes the API's JSON Schema states too.
REFUSED = f"[{chars.regex_class(chars.CONTROLS)}]"
BLANK = chars.regex_class(chars.LINE_BREAKS, chars.SEPARATORS, chars.BIDI_CONTROLS, chars.SPACES)
VISIBLE = f"[^{chars.regex_class(chars.CONTROLS)}{BLANK}]"
PAGE = page_numbers.PATTERN
EMAIL = f"[^@{BLANK}]+@[^@{BLANK}]+\\.[^@{BLANK}]+"

_ENDS = chars.characters(chars.LINE_BREAKS, chars.SPACES)
_EMAIL = re.compile(f"^{EMAIL}$")


class SubmissionError(FieldError):
    """A submission that cannot be stored: the field, what is wrong, and the HTTP status."""


@dataclass(frozen=True)
class Submission:
    game: str
    target_kind: str
    target_id: str
    lang: str
    message: str
    proposed_answer: str | None
    page: str | None
    email: str | None


refused_character = chars.refused_character  # what the report form checks before it posts


def plain_text(value: str, field: str) -> str:
    """A reader's text made plain, or SubmissionError 400 naming the field.

    ``characters.plain_text``, as editors' changes get it: line breaks become LF (CRLF and CR from
    browsers' text areas, U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR from pasted text);
    bidirectional controls and marks and the BOM are removed, since they reorder or hide what an
    editor sees; control characters (C0 other than tab and line breaks, DEL, C1 such as U+0085)
    are refused. Spaces and line breaks around the text are stripped.
    """
    try:
        text = chars.plain_text(value)
    except chars.RefusedText as exc:
        if exc.char is None:
            raise SubmissionError(field, "is not valid Unicode text") from None
        raise SubmissionError(field, f"may not hold the control character {chars.describe(exc.char)}") from None
    return text.strip(_ENDS)


def is_email(text: str) -> bool:
    """Whether a reader's text is an e-mail address (``EMAIL``), blanks around it aside: the API's
    and the report form's one rule."""
    return _EMAIL.match(text.strip(_ENDS)) is not None


def _optional_text(data: dict, field: str, limit: int) -> str | None:
    value = data.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        raise SubmissionError(field, "must be a text")
    value = plain_text(value, field)
    if len(value) > limit:
        raise SubmissionError(field, f"is longer than {limit} characters", 413)
    return value or None


def validate_submission(library: Library, data: dict) -> Submission:
    """Check a submission against the content; raises SubmissionError naming the field.

    Every text goes through ``plain_text``: what is stored is what an editor will see.
    """
    if not isinstance(data, dict):
        raise SubmissionError("body", "must be a JSON object")
    game_slug = data.get("game")
    if not isinstance(game_slug, str) or not game_slug:
        raise SubmissionError("game", "is required")
    game = library.game(game_slug)
    if game is None:
        raise SubmissionError("game", f"no game '{game_slug[:80]}'", 404)
    lang = data.get("lang")
    if lang not in LANGS:
        raise SubmissionError("lang", f"must be one of {', '.join(LANGS)}")
    faq_id, section_id = data.get("faq"), data.get("section")
    if (faq_id is None) == (section_id is None):
        raise SubmissionError("faq", "give exactly one of 'faq' or 'section'")
    if faq_id is not None:
        if not isinstance(faq_id, str) or game.faq_entry(faq_id) is None:
            raise SubmissionError("faq", f"game '{game_slug}' has no FAQ entry '{str(faq_id)[:120]}'", 404)
        kind, target = "faq", faq_id
    else:
        if not isinstance(section_id, str) or game.section(section_id) is None:
            raise SubmissionError("section", f"game '{game_slug}' has no rules section '{str(section_id)[:120]}'", 404)
        kind, target = "section", section_id
    message = data.get("message")
    if isinstance(message, str):
        message = plain_text(message, "message")
    if not isinstance(message, str) or not message:
        raise SubmissionError("message", "say what is wrong")
    if len(message) > MAX_MESSAGE:
        raise SubmissionError("message", f"is longer than {MAX_MESSAGE} characters", 413)
    proposed = _optional_text(data, "proposed_answer", MAX_PROPOSAL)
    page = _optional_text(data, "page", MAX_PAGE)
    if page is not None:
        try:
            page = page_numbers.normalize(page)
        except ValueError as exc:
            raise SubmissionError("page", str(exc)) from None
    email = _optional_text(data, "email", MAX_EMAIL)
    if email is not None and not is_email(email):
        raise SubmissionError("email", "is not an e-mail address")
    return Submission(game_slug, kind, target, lang, message, proposed, page, email)


def store(session: Session, submission: Submission) -> Report:
    """Commit the report; once this returns, the report is on disk."""
    report = Report(
        token=secrets.token_urlsafe(24),
        game=submission.game,
        target_kind=submission.target_kind,
        target_id=submission.target_id,
        lang=submission.lang,
        message=submission.message,
        proposed_answer=submission.proposed_answer,
        page=submission.page,
        email=submission.email,
        status="pending",
    )
    session.add(report)
    session.commit()
    return report


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
