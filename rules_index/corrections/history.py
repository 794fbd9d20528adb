"""An entry's accepted changes as its history page shows them (a FAQ entry's or a rules
section's): for each change, the reader's language and then the other languages whose text
changed, each as the new text with the changed words marked."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from markupsafe import Markup, escape

from rules_index.content import LANGS
from rules_index.html_diff import word_diff
from rules_index.render import markdown_html

from rules_index.content.repo import ContentRepo

from sqlalchemy import select
from sqlalchemy.orm import Session

from .journal import change_data
from .models import Change, Editor, HeldChange

# Fields besides the texts whose change is named, not shown ("Also changed: …").
OTHER_FIELDS = ("citation", "check")


# Each kind's heading and text as its stored data names them.
TEXT_KEYS = {"faq": ("question", "answer"), "section": ("title", "body")}


@dataclass(frozen=True)
class TextChange:
    lang: str
    question: Markup | None  # the new question (a section's title) with changed words marked; None if unchanged
    answer: Markup | None    # the new answer (a section's text) rendered from Markdown, changed words marked; None if unchanged


@dataclass(frozen=True)
class HistoryItem:
    change: Change
    own: TextChange | None     # the reader's language, if its text changed
    others: list[TextChange]   # the other languages whose text changed, in LANGS order
    other_fields: list[str]
    confirmed_by: Editor | None = None  # the second editor, for a change the gate held


def text_change(lang: str, before: dict, after: dict, kind: str = "faq") -> TextChange | None:
    """One language's question and answer (title and text) before and after, or None if neither changed."""
    heading, text = TEXT_KEYS[kind]
    question_before, question_after = before.get(heading, ""), after.get(heading, "")
    answer_before, answer_after = before.get(text, ""), after.get(text, "")
    if question_before == question_after and answer_before == answer_after:
        return None
    return TextChange(
        lang=lang,
        question=word_diff(escape(question_before), escape(question_after)) if question_before != question_after else None,
        answer=word_diff(markdown_html(answer_before), markdown_html(answer_after)) if answer_before != answer_after else None,
    )


def history_item(change: Change, reader_lang: str, before: dict, after: dict, confirmed_by: Editor | None = None) -> HistoryItem:
    texts = {lang: text_change(lang, before.get(lang) or {}, after.get(lang) or {}, change.target_kind) for lang in LANGS}
    return HistoryItem(
        change=change,
        own=texts[reader_lang],
        others=[texts[lang] for lang in LANGS if lang != reader_lang and texts[lang] is not None],
        other_fields=[key for key in OTHER_FIELDS if before.get(key) != after.get(key)],
        confirmed_by=confirmed_by,
    )


def entry_history(session: Session, changes: Iterable[Change], reader_lang: str, repo: ContentRepo) -> list[HistoryItem]:
    """The changes (newest first, as given) as the reader of ``reader_lang`` sees them, their
    texts read from their commits in ``repo``, each with the second editor who confirmed it."""
    changes = list(changes)
    confirmed = dict(session.execute(
        select(HeldChange.change_id, Editor).join(Editor, Editor.id == HeldChange.decided_by)
        .where(HeldChange.change_id.in_([change.id for change in changes]), HeldChange.status == "confirmed")).all())
    return [history_item(change, reader_lang, *change_data(repo, change), confirmed.get(change.id)) for change in changes]
