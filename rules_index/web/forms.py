"""Forms (Flask-WTF: every form carries a CSRF token)."""
from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional, Regexp, ValidationError

from rules_index import page_numbers
from rules_index.characters import describe
from rules_index.corrections.reports import MAX_EMAIL, MAX_MESSAGE, MAX_PAGE, MAX_PROPOSAL, is_email, refused_character


def no_control_characters(form, field) -> None:
    """The reports' own check (``reports.plain_text``), said in the reader's language.

    Listed before Optional/DataRequired, which take a text of control characters for empty.
    """
    bad = refused_character(field.data or "")
    if bad is not None:
        raise ValidationError(_("Please remove the invisible control character %(char)s.", char=describe(bad)))


def page_number(form, field) -> None:
    """The API's page rule (``page_numbers``); the field then holds the page as stored ("5-6")."""
    try:
        field.data = page_numbers.normalize(field.data.strip())
    except ValueError:
        raise ValidationError(_("A page like 2, S. 2 or p. 2, or a range like 5-6.")) from None


def email_address(form, field) -> None:
    """The reports' e-mail rule (``reports.is_email``), said in the reader's language."""
    if not is_email(field.data):
        raise ValidationError(_("That is not an e-mail address."))


class CorrectionForm(FlaskForm):
    message = TextAreaField(_l("What is wrong?"), validators=[no_control_characters, DataRequired(_l("Please say what is wrong.")), Length(max=MAX_MESSAGE)])
    proposed_answer = TextAreaField(
        _l("Your proposed wording (optional)"), validators=[no_control_characters, Optional(), Length(max=MAX_PROPOSAL)],
        description=_l("Starts with the current text: change it to read as you think it should."),
    )
    page = StringField(_l("Page in the rulebook (optional)"), validators=[no_control_characters, Optional(), Length(max=MAX_PAGE), page_number],
                       description=_l("As you like: 2, S. 2, p. 2 or 5-6."))
    # The address is stored with the report only; no page, API response or export shows it.
    email = StringField(
        _l("E-mail for a reply (optional)"),
        validators=[no_control_characters, Optional(), Length(max=MAX_EMAIL), email_address],
        description=_l("Only for a reply about this report: it is stored with the report and never shown on this site or passed on."),
    )
    website = StringField("Website")  # honeypot: people leave it empty, scripts fill it
    form_token = HiddenField()  # single-use: a second post of the same form stores nothing more


class LoginForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=80)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])
    next = HiddenField()


class RejectForm(FlaskForm):
    reason = TextAreaField(_l("Reason"), validators=[DataRequired(), Length(max=2000)])


class ActionForm(FlaskForm):
    """A form with nothing but its CSRF token (logout, confirm)."""


# The entry as the editor loaded it, carried along for the three-way view after a stale save
# (JSON; larger values are ignored, see editor.base_texts).
MAX_BASE_ENTRY = 200_000


class VersionedForm(FlaskForm):
    """A form made against one version of an entry: the version, and the entry as it was then."""

    base_version = HiddenField(validators=[Optional(), Length(max=64), Regexp(r"^[0-9a-f]+$")])
    base_entry = HiddenField(validators=[Optional()])


class EntryForm(VersionedForm):
    """An editor's version of a FAQ entry: question and answer per language, citation, ruling and check."""

    question_de = StringField(_l("Question (%(lang)s)", lang="de"), validators=[DataRequired(), Length(max=500)])
    answer_de = TextAreaField(_l("Answer (%(lang)s)", lang="de"), validators=[DataRequired(), Length(max=MAX_PROPOSAL)])
    question_en = StringField(_l("Question (%(lang)s)", lang="en"), validators=[DataRequired(), Length(max=500)])
    answer_en = TextAreaField(_l("Answer (%(lang)s)", lang="en"), validators=[DataRequired(), Length(max=MAX_PROPOSAL)])
    question_it = StringField(_l("Question (%(lang)s)", lang="it"), validators=[DataRequired(), Length(max=500)])
    answer_it = TextAreaField(_l("Answer (%(lang)s)", lang="it"), validators=[DataRequired(), Length(max=MAX_PROPOSAL)])
    citation = TextAreaField(_l("Citation (YAML)"), validators=[DataRequired(), Length(max=2000)])
    ruling = TextAreaField(_l("Ruling (YAML)"), validators=[DataRequired(), Length(max=5000)])
    check = TextAreaField(_l("Check (YAML)"), validators=[DataRequired(), Length(max=20000)])


class SectionForm(VersionedForm):
    body_de = TextAreaField(_l("Text (%(lang)s)", lang="de"), validators=[DataRequired(), Length(max=MAX_PROPOSAL)])
    body_en = TextAreaField(_l("Text (%(lang)s)", lang="en"), validators=[DataRequired(), Length(max=MAX_PROPOSAL)])
    body_it = TextAreaField(_l("Text (%(lang)s)", lang="it"), validators=[DataRequired(), Length(max=MAX_PROPOSAL)])
