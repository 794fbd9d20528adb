"""Forms (Flask-WTF: every form carries a CSRF token)."""
from __future__ import annotations

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from pydantic import TypeAdapter
from pydantic import ValidationError as InvalidValue
from wtforms import HiddenField, PasswordField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional, Regexp, StopValidation

from rules_index import characters as chars
from rules_index.corrections import reports


def control_character_error(exc: chars.RefusedText) -> str:
    """What a text refused by ``characters.plain_text`` is told, in the reader's language."""
    return _("Please remove the invisible control character %(char)s.", char=chars.describe(exc.char or "\ufffd"))


class PlainText:
    """The field's text made plain as every text people send is (``characters.plain_text``:
    invisible reordering characters removed, line breaks made LF), before its other checks; a
    control character is named in the reader's language."""

    def __call__(self, form, field) -> None:
        try:
            field.data = chars.plain_text(field.data or "")
        except chars.RefusedText as exc:
            raise StopValidation(control_character_error(exc)) from None


class Checked:
    """A field checked by the type the API's model checks it with (``reports.Message`` …): the
    one rule, its problems said in the reader's language (``messages``, by pydantic error type;
    a control character is named). The field then holds the value as stored (the text made
    plain, the page as "5-6", None for a blank optional field).

    ``field_flags`` render as HTML attributes: ``required`` and the ``maxlength`` the type allows.
    """

    def __init__(self, type_, limit: int, messages: dict, required: bool = False):
        self.adapter = TypeAdapter(type_)
        self.messages = messages
        self.field_flags = {"maxlength": limit, **({"required": True} if required else {})}

    def __call__(self, form, field) -> None:
        try:
            field.data = self.adapter.validate_python(field.data or "")
        except InvalidValue as exc:
            error = exc.errors(include_url=False)[0]
            raise StopValidation(self._said(field, error)) from None

    def _said(self, field, error: dict) -> str:
        ctx = error.get("ctx") or {}
        if error["type"] == "control_character":
            return _("Please remove the invisible control character %(char)s.", char=ctx["char"])
        if error["type"] == "string_too_long":
            most = ctx["max_length"]
            # WTForms' own message, translated by its catalogs: named so that extraction leaves
            # it out of ours.
            wtforms_plural = field.ngettext
            return wtforms_plural("Field cannot be longer than %(max)d character.",
                                  "Field cannot be longer than %(max)d characters.", most) % {"max": most}
        return str(self.messages.get(error["type"], error["msg"]))


class HtmlForm(FlaskForm):
    """A form a browser sends: its fields are form-encoded text. Flask-WTF would also read a JSON
    body or a file part as fields; a nested value, a file or a body nested past Python's recursion
    limit is no text of any field, so they count as not sent (the field's own error, in the
    reader's language)."""

    class Meta:
        def wrap_formdata(self, form, formdata):
            if form.is_submitted() and (request.is_json or request.files):
                formdata = request.form
            return super().wrap_formdata(form, formdata)


class CorrectionForm(HtmlForm):
    message = TextAreaField(_l("What is wrong?"), validators=[
        Checked(reports.Message, reports.MAX_MESSAGE, {"message_missing": _l("Please say what is wrong.")}, required=True)])
    proposed_answer = TextAreaField(
        _l("Your proposed wording (optional)"), validators=[Checked(reports.Proposal, reports.MAX_PROPOSAL, {})],
        description=_l("Starts with the current text: change it to read as you think it should."),
    )
    page = StringField(
        _l("Page in the rulebook (optional)"),
        validators=[Checked(reports.Page, reports.MAX_PAGE, {"page": _l("A page like 2, S. 2 or p. 2, or a range like 5-6.")})],
        description=_l("As you like: 2, S. 2, p. 2 or 5-6."),
    )
    # The address is stored with the report only; no page, API response or export shows it.
    email = StringField(
        _l("E-mail for a reply (optional)"),
        validators=[Checked(reports.Email, reports.MAX_EMAIL, {"email": _l("That is not an e-mail address.")})],
        description=_l("Only for a reply about this report: it is stored with the report and never shown on this site or passed on."),
    )
    website = StringField("Website")  # honeypot: people leave it empty, scripts fill it
    form_token = HiddenField()  # with the text sent: the same post again stores nothing more


class LoginForm(HtmlForm):
    name = StringField(_l("Name"), validators=[PlainText(), DataRequired(), Length(max=80)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])
    next = HiddenField()


class RejectForm(HtmlForm):
    reason = TextAreaField(_l("Reason"), validators=[PlainText(), DataRequired(), Length(max=2000)])


class ActionForm(HtmlForm):
    """A form with nothing but its CSRF token (logout, confirm)."""


# The entry as the editor loaded it, carried along for the three-way view after a stale save
# (JSON; larger values are ignored, see editor.base_texts).
MAX_BASE_ENTRY = 200_000


class VersionedForm(HtmlForm):
    """A form made against one version of an entry: the version, and the entry as it was then."""

    base_version = HiddenField(validators=[Optional(), Length(max=64), Regexp(r"^[0-9a-f]+$")])
    base_entry = HiddenField(validators=[Optional()])


class EntryForm(VersionedForm):
    """An editor's version of a FAQ entry: question and answer per language, citation, ruling and check."""

    question_de = StringField(_l("Question (%(lang)s)", lang="de"), validators=[DataRequired(), Length(max=500)])
    answer_de = TextAreaField(_l("Answer (%(lang)s)", lang="de"), validators=[DataRequired(), Length(max=reports.MAX_PROPOSAL)])
    question_en = StringField(_l("Question (%(lang)s)", lang="en"), validators=[DataRequired(), Length(max=500)])
    answer_en = TextAreaField(_l("Answer (%(lang)s)", lang="en"), validators=[DataRequired(), Length(max=reports.MAX_PROPOSAL)])
    question_it = StringField(_l("Question (%(lang)s)", lang="it"), validators=[DataRequired(), Length(max=500)])
    answer_it = TextAreaField(_l("Answer (%(lang)s)", lang="it"), validators=[DataRequired(), Length(max=reports.MAX_PROPOSAL)])
    citation = TextAreaField(_l("Citation (YAML)"), validators=[DataRequired(), Length(max=2000)])
    ruling = TextAreaField(_l("Ruling (YAML)"), validators=[DataRequired(), Length(max=5000)])
    check = TextAreaField(_l("Check (YAML)"), validators=[DataRequired(), Length(max=20000)])


class SectionForm(VersionedForm):
    body_de = TextAreaField(_l("Text (%(lang)s)", lang="de"), validators=[DataRequired(), Length(max=reports.MAX_PROPOSAL)])
    body_en = TextAreaField(_l("Text (%(lang)s)", lang="en"), validators=[DataRequired(), Length(max=reports.MAX_PROPOSAL)])
    body_it = TextAreaField(_l("Text (%(lang)s)", lang="it"), validators=[DataRequired(), Length(max=reports.MAX_PROPOSAL)])
