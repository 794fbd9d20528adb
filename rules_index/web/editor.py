"""The editors' area: login, the queue, reviewing reports, editing entries, translation flags.

Every page here refuses anyone not logged in (a redirect to the login page), and answers 503
while the corrections database cannot be used.
"""
from __future__ import annotations

import datetime as dt
import difflib
import functools
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session as cookie, url_for
from markupsafe import Markup, escape
from flask_babel import gettext as _
from ruamel.yaml import YAML

from rules_index.content import LANGS
from rules_index.content.submitted_yaml import MAX_DEPTH, SubmittedYamlError, parse_submitted_yaml
from rules_index.content.versions import stored_faq_data
from rules_index.content.writer import read_section
from rules_index.corrections import availability, changes, reports, sessions
from rules_index.corrections.db import session
from rules_index.corrections.editors import authenticate
from rules_index.corrections.models import Editor, Report, TranslationFlag

from .forms import ActionForm, EntryForm, LoginForm, RejectForm, SectionForm
from .publishing import publish
from .security import limiter, login_account
from .state import content_state, library

bp = Blueprint("editor", __name__, url_prefix="/editor")
bp.before_request(availability.require)


SESSION_KEY = "editor_session"


def current_editor() -> Editor | None:
    """The editor of the cookie's session, if the server still holds it live (logout ends it)."""
    session_id = cookie.get(SESSION_KEY)
    if not session_id:
        return None
    lifetime = dt.timedelta(hours=float(current_app.config.get("EDITOR_SESSION_HOURS", 12)))
    return sessions.editor_for_session(session(), session_id, lifetime)


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        editor = current_editor()
        if editor is None:
            return redirect(url_for("editor.login", next=request.full_path.rstrip("?")))
        return view(editor, *args, **kwargs)

    return wrapped


def safe_next(target: str | None) -> str:
    """Only paths on this site: no scheme, no host, no protocol-relative or backslash tricks."""
    fallback = url_for("editor.queue")
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return fallback
    if not target.isprintable():  # control or line-break characters would reach the Location header
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return fallback
    return target


def _login_limit() -> str:
    return current_app.config["LOGIN_RATE_LIMIT"]


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(_login_limit, methods=["POST"])  # per address
@limiter.limit(_login_limit, key_func=login_account, methods=["POST"])  # per account, from any address
def login():
    form = LoginForm()
    if request.method == "GET":
        form.next.data = request.args.get("next", "")
    if form.validate_on_submit():
        editor = authenticate(session(), form.name.data, form.password.data)
        if editor is not None:
            cookie.clear()
            cookie[SESSION_KEY] = sessions.open_session(session(), editor)
            return redirect(safe_next(form.next.data))
        form.password.errors = ["Name oder Passwort ist falsch."]
    return render_template("editor/login.html", lang="de", form=form), (401 if request.method == "POST" else 200)


@bp.post("/logout")
def logout():
    ActionForm()  # CSRF checked by CSRFProtect before we get here
    sessions.revoke_session(session(), cookie.get(SESSION_KEY))
    cookie.clear()
    return redirect(url_for("editor.login"))


@bp.get("/")
@login_required
def queue(editor: Editor):
    game = request.args.get("game") or None
    lang = request.args.get("lang") or None
    status = request.args.get("status", "pending")
    items = reports.queue(session(), game=game, lang=lang if lang in LANGS else None, status=status)
    return render_template(
        "editor/queue.html", lang="de", editor=editor, reports=items, flags=changes.open_flags(session(), game=game),
        games=list(library()), filters={"game": game, "lang": lang, "status": status}, action=ActionForm(),
    )


def _entry_texts(slug: str, kind: str, target: str) -> dict:
    root = content_state().root
    return stored_faq_data(root, slug, target) if kind == "faq" else read_section(root, slug, target)


def _yaml_text(data) -> str:
    import io

    yaml = YAML(typ="safe")
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _parse_yaml(text: str, field) -> object:
    """The field's YAML as plain data; a refusal becomes the field's error (before any lock)."""
    try:
        return parse_submitted_yaml(text)
    except SubmittedYamlError as exc:
        if exc.reason == "alias":
            field.errors = [_("YAML anchors and aliases (& and *) are not allowed here: write the values out.")]
        elif exc.reason == "depth":
            field.errors = [_("The YAML is nested more than %(depth)d levels deep.", depth=MAX_DEPTH)]
        else:
            field.errors = [f"YAML: {exc.detail}"]
        return None


def diff_html(before: str, after: str) -> Markup:
    """A word-level diff, escaped, with <del> and <ins>."""
    a, b = before.split(), after.split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            out.append(Markup("<del>{}</del>").format(" ".join(a[i1:i2])))
        if op in ("insert", "replace"):
            out.append(Markup("<ins>{}</ins>").format(" ".join(b[j1:j2])))
        if op == "equal":
            out.append(escape(" ".join(a[i1:i2])))
    return Markup(" ").join(out)


def _entry_form(kind: str, current: dict, proposal: Report | None = None):
    if kind == "faq":
        form = EntryForm()
        if request.method == "GET":
            for lang in LANGS:
                getattr(form, f"question_{lang}").data = current[lang]["question"]
                getattr(form, f"answer_{lang}").data = current[lang]["answer"]
            if proposal is not None and proposal.proposed_answer:
                getattr(form, f"answer_{proposal.lang}").data = proposal.proposed_answer
            form.citation.data = _yaml_text(current["citation"])
            form.ruling.data = _yaml_text(current.get("ruling"))
            form.check.data = _yaml_text(current.get("check"))
        return form
    form = SectionForm()
    if request.method == "GET":
        for lang in LANGS:
            getattr(form, f"body_{lang}").data = current[lang]["body"]
        if proposal is not None and proposal.proposed_answer:
            getattr(form, f"body_{proposal.lang}").data = proposal.proposed_answer
    return form


def _updates(kind: str, form) -> dict | None:
    if kind == "section":
        return {lang: {"body": getattr(form, f"body_{lang}").data} for lang in LANGS}
    updates = {lang: {"question": getattr(form, f"question_{lang}").data, "answer": getattr(form, f"answer_{lang}").data} for lang in LANGS}
    parsed = {name: _parse_yaml(getattr(form, name).data, getattr(form, name)) for name in ("citation", "ruling", "check")}
    if any(getattr(form, name).errors for name in parsed):
        return None
    updates.update(parsed)
    return updates


def _apply(editor: Editor, slug: str, kind: str, target: str, form, report: Report | None, dry_run: bool = False):
    """Gate (and unless ``dry_run`` write) the change; returns the problems (empty when it passes)."""
    updates = _updates(kind, form)
    if updates is None:
        problems = [f"{field.name}: {error}" for field in (form.citation, form.ruling, form.check) for error in field.errors]
        return [changes.GateProblem("validation", message) for message in problems or ["citation/ruling/check: not valid YAML"]]
    root = content_state().root
    lock = Path(current_app.instance_path) / "content.lock"
    try:
        changes.apply_change(
            session(), root, lock, editor, slug, kind, target, updates, report=report, dry_run=dry_run,
            context=library().game(slug),
        )
    except changes.ChangeRefused as exc:
        return exc.problems
    if not dry_run:
        publish()
    return []


def _gate_result(problems: list) -> tuple[list, bool]:
    """(problems to show, whether the text differs from the entry's) after a dry run."""
    unchanged = [p for p in problems if p.message == changes.UNCHANGED]
    return [p for p in problems if p.message != changes.UNCHANGED], not unchanged


@bp.route("/reports/<int:report_id>", methods=["GET", "POST"])
@login_required
def review(editor: Editor, report_id: int):
    report = session().get(Report, report_id)
    if report is None:
        abort(404)
    current = _entry_texts(report.game, report.target_kind, report.target_id)
    form = _entry_form(report.target_kind, current, report)
    reject_form = RejectForm(prefix="reject")
    problems: list = []
    action = request.form.get("action")
    # The proposal is checked through the gate before "Accept" can be pressed: on opening the
    # page (the form holds the proposal) and on "Check" after editing.
    checked, changed = False, False
    if request.method == "POST" and action == "reject":
        if reject_form.validate():
            changes.reject(session(), report, reject_form.reason.data)
            flash("Meldung abgelehnt.")
            return redirect(url_for("editor.queue"))
    elif request.method == "POST" and action == "check" and form.validate():
        problems, changed = _gate_result(_apply(editor, report.game, report.target_kind, report.target_id, form, report, dry_run=True))
        checked = True
    elif request.method == "POST" and form.validate():
        problems = _apply(editor, report.game, report.target_kind, report.target_id, form, report)
        if not problems:
            flash("Änderung übernommen; Inhalt und Suchindex sind aktualisiert.")
            return redirect(url_for("editor.queue"))
    elif request.method == "GET" and report.status == "pending":
        problems, changed = _gate_result(_apply(editor, report.game, report.target_kind, report.target_id, form, report, dry_run=True))
        checked = True
    field = "answer" if report.target_kind == "faq" else "body"
    before = current[report.lang][field]
    refused = bool(problems) and not checked
    return render_template(
        "editor/review.html", lang="de", editor=editor, report=report, form=form, reject_form=reject_form,
        problems=problems, checked=checked, changed=changed, refused=refused,
        before=before, diff=diff_html(before, report.proposed_answer or before),
    ), (400 if refused or form.errors else 200)


@bp.get("/entries")
@login_required
def entries(editor: Editor):
    """Every FAQ entry and rules section, to open and change directly."""
    return render_template("editor/entries.html", lang="de", editor=editor, games=list(library()), action=ActionForm())


@bp.route("/entries/<slug>/<kind>/<target>", methods=["GET", "POST"])
@login_required
def edit(editor: Editor, slug: str, kind: str, target: str):
    game = library().game(slug)
    if game is None or kind not in ("faq", "section"):
        abort(404)
    if (kind == "faq" and game.faq_entry(target) is None) or (kind == "section" and game.section(target) is None):
        abort(404)
    current = _entry_texts(slug, kind, target)
    form = _entry_form(kind, current)
    problems: list = []
    checked, changed = False, False
    if request.method == "POST" and request.form.get("action") == "check" and form.validate():
        problems, changed = _gate_result(_apply(editor, slug, kind, target, form, None, dry_run=True))
        checked = True
    elif request.method == "POST" and form.validate():
        problems = _apply(editor, slug, kind, target, form, None)
        if not problems:
            flash("Änderung übernommen; Inhalt und Suchindex sind aktualisiert.")
            return redirect(url_for("editor.edit", slug=slug, kind=kind, target=target))
    flags = [f for f in changes.open_flags(session(), game=slug, target=target)]
    refused = bool(problems) and not checked
    return render_template(
        "editor/edit.html", lang="de", editor=editor, game=game, kind=kind, target=target, form=form,
        problems=problems, checked=checked, changed=changed, refused=refused, flags=flags, action=ActionForm(),
    ), (400 if refused or form.errors else 200)


@bp.post("/flags/<int:flag_id>/confirm")
@login_required
def confirm_flag(editor: Editor, flag_id: int):
    ActionForm()
    flag = session().get(TranslationFlag, flag_id)
    if flag is None:
        abort(404)
    changes.confirm_translation(session(), flag, editor)
    flash("Übersetzung bestätigt.")
    return redirect(safe_next(request.form.get("next")))


@bp.get("/changes/<int:change_id>.patch")
@login_required
def change_patch(editor: Editor, change_id: int):
    from rules_index.corrections.models import Change

    change = session().get(Change, change_id)
    if change is None:
        abort(404)
    return change.patch, 200, {"Content-Type": "text/x-diff; charset=utf-8"}
