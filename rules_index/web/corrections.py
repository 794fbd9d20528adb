"""Readers' corrections: the report form, the tracking page, and the corrections API.

All of it needs the corrections database: while that cannot be used, every route here answers
503 (the form too, so that nobody writes a report that cannot be received).

A sent form is answered with a redirect (303) to its thanks page, so a reload repeats nothing;
the form carries a token, so a second post of the same form with the same text (a double click, a
reload) leads to the report the first one stored, while the form sent back with more said is a
report of its own. The API takes an ``Idempotency-Key`` header.
"""
from __future__ import annotations

import secrets
import time

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import RequestEntityTooLarge

from rules_index.corrections import availability, idempotency, reports
from rules_index.corrections.db import session
from rules_index.content import LANGS
from rules_index.content.marks import unmarked
from rules_index.render import typed_text

from .bodies import json_object
from .errors import ApiError, rate_limited, retry_after
from .forms import CorrectionForm
from .headers import private
from .idempotent import answer_once
from .security import csrf, limiter
from .state import library

bp = Blueprint("corrections", __name__)
bp.before_request(availability.require)


def _submission_limit() -> str:
    return current_app.config["SUBMISSION_RATE_LIMIT"]


# One count per address over the report forms and the API together.
submissions_per_address = limiter.shared_limit(_submission_limit, scope="corrections", methods=["POST"])


def _target(lang: str, slug: str, kind: str, target_id: str):
    if lang not in LANGS:
        abort(404)
    game = library().game(slug)
    if game is None:
        abort(404)
    entry = game.faq_entry(target_id) if kind == "faq" else game.section(target_id)
    if entry is None:
        abort(404)
    return game, entry


def _current_text(kind: str, entry, lang: str) -> str:
    """The text a report is about, as the reader reads it (no Markdown signs: "**" means nothing
    to a reader who edits it): the answer, or the section's text."""
    return typed_text(unmarked(entry.text(lang).answer) if kind == "faq" else entry.body(lang))


def _same_text(a: str, b: str) -> bool:
    # Browsers send a textarea with CRLF line ends; only the words count.
    return a.split() == b.split()


FORM_SCOPE = "report-form"
UNDER_WAY_WAIT_S = 5.0


def _earlier_report(key: str) -> str | None:
    """The token of the report a post with this key stored already, else None (and the key is
    this post's now). A second post while the first is still being stored waits for it."""
    deadline = time.monotonic() + UNDER_WAY_WAIT_S
    while True:
        try:
            kept = idempotency.claim(session(), FORM_SCOPE, key, "form")
        except idempotency.UnderWay:
            if time.monotonic() > deadline:
                abort(409)
            time.sleep(0.1)
            continue
        return kept.body["token"] if kept is not None else None


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _form_page(lang: str, slug: str, kind: str, target_id: str):
    game, entry = _target(lang, slug, kind, target_id)
    current = _current_text(kind, entry, lang)
    form = CorrectionForm()
    filled_honeypot = False
    if request.method in ("GET", "HEAD"):
        form.proposed_answer.data = current  # the reader edits the text instead of retyping it
        form.form_token.data = secrets.token_urlsafe(18)
    elif form.website.data:
        # The field people never see was filled in: a script, or a browser's autofill. Nothing is
        # stored; a person gets the text back to send again (the field comes back empty).
        filled_honeypot = True
    else:
        if form.validate():
            proposal = form.proposed_answer.data
            if proposal and _same_text(proposal, current):
                proposal = None  # the prefilled text, left as it was: no proposal
            data = {"game": slug, kind: target_id, "lang": lang, "message": form.message.data,
                    "proposed_answer": proposal, "page": form.page.data, "email": form.email.data}
            # One report per text: the same post again (a double click, a reload, the form sent
            # again after going back) leads to the report it stored; the form sent back with more
            # said is a report of its own.
            key = (f"{form.form_token.data}\n{idempotency.request_hash(data)}"
                   if idempotency.valid_key(form.form_token.data) else None)
            earlier = _earlier_report(key) if key else None
            if earlier is not None:
                return redirect(url_for("corrections.thanks", lang=lang, token=earlier), 303)
            try:
                submission = reports.validate_submission(library(), data)
                report = reports.earlier_same(session(), submission) or reports.store(session(), submission)
            except reports.SubmissionError as exc:
                if key:
                    idempotency.release(session(), FORM_SCOPE, key)
                getattr(form, exc.field, form.message).errors = [exc.message]
            except BaseException:
                if key:
                    idempotency.release(session(), FORM_SCOPE, key)
                raise
            else:
                if key:
                    idempotency.record(session(), FORM_SCOPE, key, 303, {"token": report.token})
                return redirect(url_for("corrections.thanks", lang=lang, token=report.token), 303)
    return (render_template("corrections/form.html", lang=lang, game=game, kind=kind, entry=entry, form=form,
                            filled_honeypot=filled_honeypot),
            400 if form.errors or filled_honeypot else 200)


# The form checks its own CSRF token (FlaskForm), so that a token gone stale (a phone's browser
# restarted, cookies cleared) shows the form again with the reader's text and a fresh token,
# instead of an error page that loses it.
@bp.route("/<lang>/<slug>/faq/<faq_id>/correction", methods=["GET", "POST"])
@csrf.exempt
@submissions_per_address
def faq_correction(lang: str, slug: str, faq_id: str):
    return _form_page(lang, slug, "faq", faq_id)


@bp.route("/<lang>/<slug>/rules/<section_id>/correction", methods=["GET", "POST"])
@csrf.exempt
@submissions_per_address
def section_correction(lang: str, slug: str, section_id: str):
    return _form_page(lang, slug, "section", section_id)


FORM_KINDS = {"corrections.faq_correction": ("faq", "faq_id"), "corrections.section_correction": ("section", "section_id")}


@bp.errorhandler(RateLimitExceeded)
def too_many_reports(exc: RateLimitExceeded):
    """A report form sent once too often from one address comes back with the reader's text and
    when to send it again: nothing was stored, nothing typed is lost. The API answers as every 429."""
    kind_and_arg = FORM_KINDS.get(request.endpoint)
    if kind_and_arg is None or request.method != "POST" or request.mimetype not in FORM_TYPES:
        return rate_limited(exc)
    args = request.view_args or {}
    kind, target_arg = kind_and_arg
    game, entry = _target(args["lang"], args["slug"], kind, args[target_arg])
    wait = retry_after(exc)
    try:
        form = CorrectionForm()  # reads the body: the limit was checked before any view had read it
    except RequestEntityTooLarge as too_large:
        # Sent again, it would be refused all the same: the reader is told what is wrong with it.
        return current_app.handle_http_exception(too_large)
    return (render_template("corrections/form.html", lang=args["lang"], game=game, kind=kind, entry=entry,
                            form=form, wait=wait),
            429, {"Retry-After": str(wait)})


def _report_in_a_language(endpoint: str, lang: str, token: str):
    """The report behind ``token``, or a 404; a link with a language the site does not have
    ("/xx/corrections/…", a link cut or typed by hand) leads to the report in the language it was
    written in, instead of calling a valid link unknown."""
    report = reports.by_token(session(), token)
    if report is None or lang.lower() in LANGS and lang not in LANGS:
        abort(404)  # ("/EN/…": the not-found page leads to the address in small letters)
    if lang not in LANGS:
        abort(redirect(url_for(endpoint, lang=report.lang, token=token), 302))
    return report


@bp.get("/<lang>/corrections/<token>/thanks")
@private
def thanks(lang: str, token: str):
    """Where a sent form leads (303): thanks, and the tracking link."""
    report = _report_in_a_language("corrections.thanks", lang, token)
    game = library().game(report.game)
    entry = None
    if game is not None:
        entry = game.faq_entry(report.target_id) if report.target_kind == "faq" else game.section(report.target_id)
    if entry is None:
        abort(404)
    return render_template("corrections/thanks.html", lang=lang, game=game, kind=report.target_kind, entry=entry, report=report)


@bp.get("/<lang>/corrections/<token>")
@private  # the reader's own message
def tracking(lang: str, token: str):
    report = _report_in_a_language("corrections.tracking", lang, token)
    game = library().game(report.game)
    return render_template("corrections/status.html", lang=lang, report=report, game=game)


@bp.post("/api/v1/corrections")
@csrf.exempt
@submissions_per_address
def api_submit():
    data = json_object()

    def store() -> tuple[dict, int]:
        try:
            report = reports.store(session(), reports.validate_submission(library(), data))
        except reports.SubmissionError as exc:
            raise ApiError(exc.status, str(exc)) from None
        return {"id": report.id, "token": report.token, "status": report.status}, 201

    return answer_once("report", data, store)


@bp.get("/api/v1/corrections/<token>")
@private
def api_status(token: str):
    report = reports.by_token(session(), token)
    if report is None:
        raise ApiError(404, "token: no report with this token")
    return jsonify(reports.public_json(report))
