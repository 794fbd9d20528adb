"""The editors' area: login, the queue, reviewing reports, editing entries, the changes with their
reverts, translation flags.

Every page here refuses anyone not logged in (a redirect to the login page), and answers 503
while the corrections database cannot be used. Every edit form carries the version of the entry
it was made against: a save on an older version is answered 409 with the three texts of each
changed field and a merge to submit instead of overwriting the other editor's change.
"""
from __future__ import annotations

import datetime as dt
import difflib
import functools
import json
import re
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session as cookie, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from rules_index import characters as chars
from rules_index.content import LANGS
from rules_index.content.submitted_yaml import MAX_DEPTH, SubmittedYamlError, parse_submitted_yaml
from rules_index.content.marks import bind_words, marked_like
from rules_index.content.versions import entry_data
from rules_index.content.yaml12 import dump_text
from rules_index.content.repo import GitError, UncommittedEdits
from rules_index.corrections import availability, changes, journal, reports, sessions
from rules_index.corrections.content_lock import lock_file_in
from rules_index.corrections.db import session
from rules_index.corrections.editors import Busy, Disabled, authenticate, find_editor
from rules_index.corrections.merge import FieldMerge, merge_fields
from rules_index.corrections.models import Change, Editor, HeldChange, Report, TranslationFlag
from rules_index.corrections.revert import NotRevertable, entry_version, revert_change, revertable_ids
from rules_index.html_diff import compare_blocks, word_diff
from rules_index.render import markdown_html

from . import editor_lang as interface
from .forms import MAX_BASE_ENTRY, ActionForm, EntryForm, LoginForm, RejectForm, SectionForm, control_character_error
from .committed import publish_committed
from .gate_words import gate_text, yaml_syntax_error
from .security import csrf, every_login, limiter, log_breach, login_account, login_account_and_address
from .state import content_dir, library, verification

bp = Blueprint("editor", __name__, url_prefix="/editor")
bp.add_app_template_filter(gate_text, "gate_text")  # gate problems in the editor's language
bp.before_request(availability.require)


SESSION_KEY = "editor_session"


def current_editor() -> Editor | None:
    """The editor of the cookie's session, if the server still holds it live (logout ends it)."""
    session_id = cookie.get(SESSION_KEY)
    if not session_id:
        return None
    lifetime = dt.timedelta(hours=float(current_app.config.get("EDITOR_SESSION_HOURS", 12)))
    return sessions.editor_for_session(session(), session_id, lifetime)


def _written_label(name: str) -> str | None:
    """The label of a form field that holds an editor's own writing (texts, YAML, a reason or a
    note), or None for any other field."""
    kind, _sep, lang = name.rpartition("_")
    by_lang = {"question": _("Question (%(lang)s)", lang=lang), "answer": _("Answer (%(lang)s)", lang=lang),
               "body": _("Text (%(lang)s)", lang=lang)}
    if kind in by_lang and lang in LANGS:
        return by_lang[kind]
    return {"citation": _("Citation (YAML)"), "ruling": _("Ruling (YAML)"), "check": _("Check (YAML)"),
            "reason": _("Reason"), "reject-reason": _("Reason"), "note": _("Reason")}.get(name)


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        editor = current_editor()
        if editor is None and request.method == "POST":
            return _login_keeping_what_was_sent()
        if editor is None:
            return redirect(url_for("editor.login", next=request.full_path.rstrip("?")))
        return view(editor, *args, **kwargs)

    return wrapped


def _login_keeping_what_was_sent():
    """A form sent after the editor's session ended (12 hours, a logout elsewhere): nothing is
    saved, and the login page shows what was sent, so that no writing is lost."""
    form = LoginForm(formdata=None)
    form.next.data = request.full_path.rstrip("?")
    kept = [(label, value) for name, value in request.form.items(multi=True)
            if value.strip() and (label := _written_label(name)) is not None]
    return render_template("editor/login.html", lang=interface.editor_lang(), form=form, kept=kept), 401


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


def _config(key: str):
    return lambda: current_app.config[key]


def _targeted_account() -> str:
    """The account a breach of the per-account limit is about, for the log: an editor's login
    name, but never an unknown one (it may be a password typed into the wrong field)."""
    known = find_editor(session(), request.form.get("name"))
    return f"guesses for the editor '{known.name}' from several addresses" if known else "guesses for an unknown name"


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(_config("LOGIN_RATE_LIMIT"), key_func=login_account_and_address, methods=["POST"])
@limiter.limit(_config("LOGIN_ADDRESS_RATE_LIMIT"), methods=["POST"])
@limiter.limit(_config("LOGIN_ACCOUNT_RATE_LIMIT"), key_func=login_account, methods=["POST"],
               on_breach=log_breach(_targeted_account))
@limiter.limit(_config("LOGIN_GLOBAL_RATE_LIMIT"), key_func=every_login, methods=["POST"],
               on_breach=log_breach(lambda: "logins over the whole site"))
def login():
    form = LoginForm()
    if request.method in ("GET", "HEAD"):
        form.next.data = request.args.get("next", "")
    if form.validate_on_submit():
        try:
            editor = authenticate(session(), form.name.data, form.password.data, wait=float(current_app.config["LOGIN_CHECK_WAIT"]))
        except Busy:
            form.password.errors = [_("Too many logins are being checked at this moment. Please try again in a few seconds.")]
            return render_template("editor/login.html", lang=interface.editor_lang(), form=form), 503, {"Retry-After": "5"}
        except Disabled:
            form.password.errors = [_("This editor account is disabled. The site's operator can enable it again.")]
            return render_template("editor/login.html", lang=interface.editor_lang(), form=form), 403
        if editor is not None:
            chosen = cookie.get(interface.COOKIE_KEY)
            cookie.clear()  # a fresh cookie at login: nothing from before it is trusted
            cookie[SESSION_KEY] = sessions.open_session(session(), editor)
            interface.choose(chosen)  # but the interface language chosen on the login page stays
            return redirect(safe_next(form.next.data))
        form.password.errors = [_("Name or password is wrong.")]
    return render_template("editor/login.html", lang=interface.editor_lang(), form=form), (401 if request.method == "POST" else 200)


@bp.post("/logout")
def logout():
    ActionForm()  # CSRF checked by CSRFProtect before we get here
    sessions.revoke_session(session(), cookie.get(SESSION_KEY))
    chosen = cookie.get(interface.COOKIE_KEY)
    cookie.clear()
    interface.choose(chosen)
    return redirect(url_for("editor.login"))


# Report statuses as words (the stored values are English identifiers).
STATUS_NAMES = {"pending": _l("Open"), "accepted": _l("Accepted"), "rejected": _l("Rejected"), "all": _l("All")}
# Each language named in itself: the switch must be readable whatever language is on.
LANGUAGE_NAMES = {"de": "Deutsch", "en": "English", "it": "Italiano"}
RECENT_CHANGES = 100


def entry_title(slug: str, kind: str, target: str) -> str:
    """The entry as editors know it: the question (or section title) in the interface language."""
    lang = interface.editor_lang()
    game = library().game(slug)
    if game is not None and kind == "faq" and game.faq_entry(target) is not None:
        return game.faq_entry(target).text(lang).question
    if game is not None and kind == "section" and game.section(target) is not None:
        return game.section(target).title(lang)
    return target


def game_title(slug: str) -> str:
    game = library().game(slug)
    return game.title(interface.editor_lang()) if game is not None else slug


@bp.context_processor
def editor_helpers():
    return {
        "editor_lang": interface.editor_lang(), "language_names": LANGUAGE_NAMES,
        "status_name": lambda status: STATUS_NAMES.get(status, status),
        "entry_title": entry_title, "game_title": game_title,
    }


@bp.post("/language")
def choose_language():
    """The editor's interface language (any visitor of the area may choose it, the login page too)."""
    ActionForm()  # CSRF checked by CSRFProtect before we get here
    interface.choose(request.form.get("lang", ""))
    return redirect(safe_next(request.form.get("next")))


@bp.get("/")
@login_required
def queue(editor: Editor):
    game = request.args.get("game") or None
    lang = request.args.get("lang") or None
    status = request.args.get("status", "pending")
    if status not in STATUS_NAMES:
        status = "pending"
    items = reports.queue(session(), game=game, lang=lang if lang in LANGS else None, status=status)
    return render_template(
        "editor/queue.html", editor=editor, reports=items, flags=changes.open_flags(session(), game=game),
        held=changes.held_changes(session(), game=game), held_view=_held_view,
        games=list(library()), filters={"game": game, "lang": lang, "status": status}, statuses=STATUS_NAMES,
        action=ActionForm(),
    )


def _entry_texts(slug: str, kind: str, target: str) -> dict:
    return entry_data(content_dir(), slug, kind, target)


def form_texts(kind: str, data: dict) -> dict[str, str]:
    """An entry's stored data as the edit form shows it, by field name."""
    if kind == "section":
        return {f"body_{lang}": data[lang]["body"] for lang in LANGS}
    texts = {f"{name}_{lang}": data[lang][name] for lang in LANGS for name in ("question", "answer")}
    return {**texts, "citation": dump_text(data["citation"]), "ruling": dump_text(data.get("ruling")),
            "check": dump_text(data.get("check"))}


def base_texts(kind: str, form) -> dict[str, str] | None:
    """The texts the editor started from, from the form's ``base_entry``; None unless it is the
    entry at exactly the form's ``base_version`` (a value altered on the way, cut short or too
    large is not trusted as the base)."""
    raw, version = form.base_entry.data or "", form.base_version.data or ""
    if not raw or not version or len(raw) > MAX_BASE_ENTRY:
        return None
    try:
        data = json.loads(raw)
        if not isinstance(data, dict) or entry_version(kind, data) != version:
            return None
        return form_texts(kind, data)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


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
            field.errors = [yaml_syntax_error(exc)]
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
    form = EntryForm() if kind == "faq" else SectionForm()
    if request.method in ("GET", "HEAD"):
        for name, text in form_texts(kind, current).items():
            getattr(form, name).data = text
        if proposal is not None and proposal.proposed_answer:
            field = getattr(form, f"{'answer' if kind == 'faq' else 'body'}_{proposal.lang}")
            # A reader proposes plain words: the marks of the stored answer go back on the words
            # that are still there, and what is new waits to be bound.
            field.data = marked_like(field.data, proposal.proposed_answer) if kind == "faq" else proposal.proposed_answer
        form.base_version.data = entry_version(kind, current)
        form.base_entry.data = json.dumps(current, ensure_ascii=False)
    return form


def _text_fields(kind: str) -> list[str]:
    if kind == "section":
        return [f"body_{lang}" for lang in LANGS]
    return [f"{name}_{lang}" for lang in LANGS for name in ("question", "answer")] + list(YAML_FIELDS)


def _clean_texts(kind: str, form) -> bool:
    """Every text of the form cleaned as readers' texts and the API's are (``characters.plain_text``:
    invisible reordering characters removed, line separators made LF); False when one holds a
    control character or another character the content may not hold (a soft hyphen or a
    zero-width space pasted from a PDF): the field says which, in the editor's language."""
    clean = True
    for name in _text_fields(kind):
        field = getattr(form, name)
        try:
            field.data = chars.plain_text(field.data or "")
        except chars.RefusedText as exc:
            field.errors = [control_character_error(exc)]
            clean = False
            continue
        hidden = chars.hidden_character(field.data)
        # Prose only: the YAML fields (citation, ruling, checks) are read by their checks, which
        # name what is wrong in them ("subject: ³").
        lookalike = chars.lookalike_character(field.data) if name not in YAML_FIELDS else None
        if hidden is not None:
            field.errors = [_("Please remove the invisible character %(char)s: it joins or splits words unseen.",
                              char=chars.describe(hidden))]
            clean = False
        elif lookalike is not None:
            field.errors = [_("Please type %(char)s again: it only looks like a letter or digit of German, English or Italian.",
                              char=chars.describe(lookalike))]
            clean = False
    return clean


def _updates(kind: str, form) -> dict | None:
    if not _clean_texts(kind, form):
        return None
    if kind == "section":
        return {lang: {"body": getattr(form, f"body_{lang}").data} for lang in LANGS}
    updates = {lang: {"question": getattr(form, f"question_{lang}").data, "answer": getattr(form, f"answer_{lang}").data} for lang in LANGS}
    parsed = {name: _parse_yaml(getattr(form, name).data, getattr(form, name)) for name in ("citation", "ruling", "check")}
    if any(getattr(form, name).errors for name in parsed):
        return None
    updates.update(parsed)
    return updates


def _flash_stored(message: str) -> None:
    """Flash ``message`` for a stored change, or say that it is stored but not shown yet."""
    if g.get("published", True):
        flash(message)
    else:
        flash(_("The change is stored, but the site does not show it yet: publishing failed and is being tried again."))


def _apply(editor: Editor, slug: str, kind: str, target: str, form, report: Report | None, dry_run: bool = False):
    """Gate (and unless ``dry_run`` write or hold) the change against the form's base version;
    returns the problems (empty when it passes) and the outcome (None when refused). Raises
    StaleVersion when the entry changed since that version."""
    updates = _updates(kind, form)
    if updates is None:
        problems = [f"{name}: {error}" for name in _text_fields(kind) for error in getattr(form, name).errors]
        return [changes.GateProblem("validation", message) for message in problems or ["citation/ruling/check: not valid YAML"]], None
    try:
        outcome = changes.apply_change(
            session(), content_dir(), lock_file_in(current_app.instance_path), editor, slug, kind, target, updates,
            report=report, dry_run=dry_run, base_version=form.base_version.data or None, context=library().game(slug),
        )
    except changes.ChangeRefused as exc:
        return exc.problems, None
    except GitError as exc:
        # Nothing was committed (the remote unreachable, a push refused, hand edits in the files):
        # the form comes back with the editor's text and why, not an error page that loses it.
        current_app.logger.error("content repository: %s", exc)
        if isinstance(exc, UncommittedEdits):
            return [changes.GateProblem("repository", str(exc), code="uncommitted", params=(("cause", ", ".join(exc.paths)),))], None
        return [changes.GateProblem("repository", str(exc), code="repository", params=(("cause", str(exc)),))], None
    if not dry_run and outcome.outcome == "accepted":
        g.published = publish_committed([(slug, kind, target)])
    return [], outcome


def _flash_outcome(outcome) -> None:
    if outcome.outcome == "held":
        flash(_("Held for a second editor: the rules engine cannot judge this change. Readers keep the checked "
                "version until another editor confirms it."))
    else:
        _flash_stored(_("Change accepted; the content and the search index are up to date."))


def _offer_merge(kind: str, slug: str, target: str, form) -> tuple[dict, list[FieldMerge]]:
    """After a stale save: the entry as stored now, and the form turned into the merge of the
    editor's texts with it, based on the current version (so that submitting it is not stale)."""
    theirs = _entry_texts(slug, kind, target)
    yours = {name: getattr(form, name).data or "" for name in form_texts(kind, theirs)}
    merges = merge_fields(base_texts(kind, form), form_texts(kind, theirs), yours)
    for merge in merges:
        getattr(form, merge.name).data = merge.merged
    form.base_version.data = entry_version(kind, theirs)
    form.base_entry.data = json.dumps(theirs, ensure_ascii=False)
    return theirs, [m for m in merges if m.changed]


def _gate_result(result) -> tuple[list, bool, list]:
    """(problems to show, whether the text differs from the entry's, why it would be held) after
    a dry run."""
    problems, outcome = result
    unchanged = [p for p in problems if p.message == changes.UNCHANGED]
    reasons = outcome.reasons if outcome is not None else []
    return [p for p in problems if p.message != changes.UNCHANGED], not unchanged, reasons


YAML_FIELDS = ("citation", "ruling", "check")


def review_texts(kind: str, slug: str, target: str, current: dict, form, first: str) -> list[dict]:
    """What the review shows, per language (the report's first, then each other one the form
    changes): the question (a section: its title) and the text now and as the form would store
    it, rendered as readers read them and compared block by block (``runs``; None where the form
    leaves the text as it is)."""
    field = "answer" if kind == "faq" else "body"
    section = library().game(slug).section(target) if kind == "section" else None
    shown = []
    for lang in [first] + [code for code in LANGS if code != first]:
        before, after = current[lang][field], getattr(form, f"{field}_{lang}").data or ""
        question, question_diff = (section.title(lang) if section is not None else target), None
        if kind == "faq":
            question, asked = current[lang]["question"], getattr(form, f"question_{lang}").data or ""
            if asked.strip() != question.strip():
                question_diff = word_diff(escape(question), escape(asked))
        changed = after.strip() != before.strip()
        if lang != first and not changed and question_diff is None:
            continue
        now = markdown_html(before)
        runs = compare_blocks(now, markdown_html(after)) if changed else None
        shown.append({"lang": lang, "question": question, "question_diff": question_diff, "now": now, "runs": runs})
    return shown


def _folds(kind: str, current: dict, form, merges) -> dict[str, bool]:
    """Which parts of the review's form show open: the texts once the editor works on them (after
    a Check or a refused accept), the YAML where it has an error, a merge or the editor's change."""
    merged = {m.name for m in merges or []}
    yaml = YAML_FIELDS if kind == "faq" else ()
    stored = form_texts(kind, current)
    yaml_open = any(getattr(form, name).errors for name in yaml) or bool(merged & set(yaml)) or (
        request.method == "POST" and any((getattr(form, name).data or "").strip() != stored[name].strip() for name in yaml))
    return {"texts": request.method == "POST" or bool(merged - set(yaml)) or any(
        getattr(form, name).errors for name in _text_fields(kind) if name not in yaml), "yaml": yaml_open}


def _locked(editor: Editor, report: Report, status: int):
    """A decided report: what was decided, and for an accepted one the change it made."""
    change = changes.change_of_report(session(), report.id)
    return render_template("editor/review.html", editor=editor, report=report, locked=True, change=change), status


@bp.route("/reports/<int:report_id>", methods=["GET", "POST"])
@login_required
def review(editor: Editor, report_id: int):
    report = session().get(Report, report_id)
    if report is None:
        abort(404)
    if report.status != "pending":
        # Decided: nothing more to do here, and a POST (a second editor's accept, an old tab)
        # changes nothing.
        return _locked(editor, report, 409 if request.method == "POST" else 200)
    kind, slug, target = report.target_kind, report.game, report.target_id
    current = _entry_texts(slug, kind, target)
    form = _entry_form(kind, current, report)
    reject_form = RejectForm(prefix="reject")
    problems: list = []
    merges = None
    action = request.form.get("action")
    # The proposal is checked through the gate before "Accept" can be pressed: on opening the
    # page (the form holds the proposal) and on "Check" after editing.
    checked, changed, reasons = False, False, []
    try:
        if request.method == "POST" and action == "reject":
            if reject_form.validate():
                changes.reject(session(), report, reject_form.reason.data)
                flash(_("Report rejected."))
                return redirect(url_for("editor.queue"))
        elif request.method == "POST" and action == "check" and form.validate():
            problems, changed, reasons = _gate_result(_apply(editor, slug, kind, target, form, report, dry_run=True))
            checked = True
        elif request.method == "POST" and form.validate():
            problems, outcome = _apply(editor, slug, kind, target, form, report)
            if not problems:
                _flash_outcome(outcome)
                return redirect(url_for("editor.queue"))
        elif request.method == "GET":
            problems, changed, reasons = _gate_result(_apply(editor, slug, kind, target, form, report, dry_run=True))
            checked = True
    except changes.ReportDecided:
        # Another editor decided it between this page's check and the lock (or its accept was cut
        # off and waits to be settled): nothing was written.
        session().refresh(report)
        return _locked(editor, report, 409)
    except changes.StaleVersion:
        session().refresh(report)
        if report.status != "pending":
            return _locked(editor, report, 409)
        current, merges = _offer_merge(kind, slug, target, form)
    refused = bool(problems) and not checked
    return render_template(
        "editor/review.html", editor=editor, report=report, form=form, reject_form=reject_form, locked=False,
        problems=problems, checked=checked, changed=changed, refused=refused, merges=merges, diff_html=diff_html,
        texts=review_texts(kind, slug, target, current, form, report.lang), folds=_folds(kind, current, form, merges),
        reasons=reasons,
    ), (409 if merges is not None else 400 if refused or form.errors or reject_form.errors else 200)


@bp.get("/entries")
@login_required
def entries(editor: Editor):
    """Every FAQ entry and rules section, to open and change directly."""
    return render_template("editor/entries.html", editor=editor, games=list(library()), action=ActionForm())


# The form checks its own CSRF token (FlaskForm, in ``form.validate()`` before anything is checked
# or saved): a token gone stale (a logout or a new login in another tab) shows the form again with
# the editor's text and a fresh token, instead of an error page that loses the writing.
@bp.route("/entries/<slug>/<kind>/<target>", methods=["GET", "POST"])
@csrf.exempt
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
    merges = None
    checked, changed, reasons = False, False, []
    binding = _binding(slug, target, form) if kind == "faq" else None
    try:
        # A fact just bound through the form below is checked at once, as "Check" would.
        if ((binding is not None and binding.get("applied"))
                or (request.method == "POST" and request.form.get("action") == "check" and form.validate())):
            problems, changed, reasons = _gate_result(_apply(editor, slug, kind, target, form, None, dry_run=True))
            checked = True
        elif request.method == "POST" and form.validate():
            problems, outcome = _apply(editor, slug, kind, target, form, None)
            if not problems:
                _flash_outcome(outcome)
                return redirect(url_for("editor.edit", slug=slug, kind=kind, target=target))
    except changes.StaleVersion:
        current, merges = _offer_merge(kind, slug, target, form)
    flags = changes.open_flags(session(), game=slug, target=target)
    history = changes.history(session(), slug, kind, target)
    refused = bool(problems) and not checked
    return render_template(
        "editor/edit.html", editor=editor, game=game, kind=kind, target=target, form=form,
        problems=problems, checked=checked, changed=changed, refused=refused, flags=flags, action=ActionForm(),
        merges=merges, diff_html=diff_html, history=history, revertable=revertable_ids(content_dir(), history),
        reasons=reasons, held=changes.held_changes(session(), game=slug, target=target), binding=binding,
    ), (409 if merges is not None else 400 if refused or form.errors else 200)


@bp.get("/changes")
@login_required
def change_list(editor: Editor):
    """The latest accepted changes, newest first, each with its revert while that is possible."""
    return _change_list(editor)


def _change_list(editor: Editor, refusal: str | None = None, problems: list | None = None, status: int = 200):
    game = request.args.get("game") or None
    items = changes.recent(session(), game, RECENT_CHANGES)
    return render_template(
        "editor/changes.html", editor=editor, changes=items, revertable=revertable_ids(content_dir(), items),
        games=list(library()), game=game, refusal=refusal, problems=problems or [], refused=bool(problems),
        checked=False, changed=False,
    ), status


@bp.post("/changes/<int:change_id>/revert")
@login_required
def revert(editor: Editor, change_id: int):
    ActionForm()  # CSRF checked by CSRFProtect before we get here
    change = session().get(Change, change_id)
    if change is None:
        abort(404)
    try:
        revert_change(session(), content_dir(), lock_file_in(current_app.instance_path), editor, change_id)
    except NotRevertable as exc:
        if exc.reason == "reverted":
            return _change_list(editor, refusal=_("This change was reverted already."), status=409)
        return _change_list(editor, refusal=_(
            "Not reverted: the entry has changed since this change, and reverting it would undo the later "
            "changes too. Please edit the entry by hand."), status=409)
    except changes.ChangeRefused as exc:
        return _change_list(editor, refusal=_("Not reverted: the earlier text does not pass the checks any more."),
                            problems=exc.problems, status=400)
    g.published = publish_committed([(change.game, change.target_kind, change.target_id)])
    _flash_stored(_("Change reverted; the content and the search index are up to date."))
    return redirect(safe_next(request.form.get("next")))


@bp.post("/flags/<int:flag_id>/confirm")
@login_required
def confirm_flag(editor: Editor, flag_id: int):
    ActionForm()
    flag = session().get(TranslationFlag, flag_id)
    if flag is None:
        abort(404)
    changes.confirm_translation(session(), flag, editor)
    flash(_("Translation confirmed."))
    return redirect(safe_next(request.form.get("next")))


@bp.get("/changes/<int:change_id>.patch")
@login_required
def change_patch(editor: Editor, change_id: int):
    change = session().get(Change, change_id)
    if change is None:
        abort(404)
    patch = journal.change_patch(changes.content_repo(content_dir()), change)
    return patch, 200, {"Content-Type": "text/x-diff; charset=utf-8"}


BIND_OUTPUTS = 120  # the engine's values offered per check (outputs are small; this bounds a page)


def _flat(value, prefix: str = "") -> list[tuple[str, object]]:
    """Every value of a probe's output with its dotted path (``scores.A.total``, ``legal.2``)."""
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = list(enumerate(value))
    else:
        return [(prefix, value)] if prefix else []
    found: list = []
    for key, item in items:
        found += _flat(item, f"{prefix}.{key}" if prefix else str(key))
    return found[:BIND_OUTPUTS]


def _binding(slug: str, target: str, form) -> dict:
    """The "bind a statement" form of a FAQ entry: each check with the values the engine gives;
    with ``bind`` in the query, the fact is added to the form's ruling and the words of each
    language are marked with it (the page then checks the result as "Check" does)."""
    results = verification().for_entry(slug, "faq", target)
    lang = interface.editor_lang()
    checks = [{"number": number, "probe": result.probe,
               "scenario": result.check.scenario.get(lang) if result.check.scenario else "",
               "outputs": [(path, value) for path, value in _flat(result.output) if isinstance(value, (bool, int, str))]}
              for number, result in enumerate(results, 1)]
    view = {"checks": checks, "applied": False, "missing": [], "args": request.args}
    if request.method != "GET" or not request.args.get("bind"):
        return view
    try:
        picked, _sep, path = request.args.get("pick", "").partition("|")
        number, name = int(picked), request.args.get("name", "").strip()
        if number < 1:  # checks are counted from 1; checks[-1] would be the last one
            raise IndexError(number)
        value = dict(checks[number - 1]["outputs"])[path]
    except (ValueError, IndexError, KeyError):
        view["error"] = _("Pick a situation and one of its values.")
        return view
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        view["error"] = _("Give the fact a name of small letters, digits and hyphens (e.g. yellow-pays-king).")
        return view
    fact = {"name": name, "value": value, "check": number, "output": path}
    subject = request.args.get("subject", "").strip()
    if subject:
        # ASCII digits only: str.isdigit() also holds for "³" and "①", which int() refuses.
        fact["subject"] = int(subject) if re.fullmatch(r"[0-9]{1,9}", subject) else subject
    ruling = parse_submitted_yaml(form.ruling.data or "") or {}
    if isinstance(ruling, dict):
        ruling.setdefault("facts", []).append(fact)
        form.ruling.data = dump_text(ruling)
    for code in LANGS:
        field = getattr(form, f"answer_{code}")
        bound = bind_words(field.data or "", request.args.get(f"words_{code}", ""), name)
        if bound is None:
            view["missing"].append(code)
        else:
            field.data = bound
    view.update(applied=True, fact=fact)
    return view


def _held_view(held: HeldChange) -> dict:
    """A held change as the queue shows it: its entry, author, reasons, and the answer's diff in
    each language it changes."""
    current = _entry_texts(held.game, held.target_kind, held.target_id) if _entry_exists(held) else {}
    updates = changes.held_updates(held)
    field = "answer" if held.target_kind == "faq" else "body"
    diffs = []
    for lang in LANGS:
        new = (updates.get(lang) or {}).get(field)
        old = (current.get(lang) or {}).get(field, "")
        if new is not None and new.strip() != str(old).strip():
            diffs.append((lang, diff_html(str(old), new)))
    return {"held": held, "reasons": changes.held_reasons(held), "diffs": diffs}


def _entry_exists(held: HeldChange) -> bool:
    game = library().game(held.game)
    if game is None:
        return False
    return (game.faq_entry(held.target_id) if held.target_kind == "faq" else game.section(held.target_id)) is not None


@bp.post("/held/<int:held_id>/confirm")
@login_required
def confirm_held(editor: Editor, held_id: int):
    ActionForm()  # CSRF checked by CSRFProtect before we get here
    held = session().get(HeldChange, held_id)
    if held is None:
        abort(404)
    try:
        outcome = changes.confirm_held(session(), content_dir(), lock_file_in(current_app.instance_path), held, editor,
                                       context=library().game(held.game))
    except changes.OwnChange:
        flash(_("This is your own change: another editor must confirm it."))
    except (changes.HeldDecided, changes.ReportDecided):
        flash(_("This change was decided already."))
    except changes.StaleVersion:
        flash(_("The entry has changed since this change was held. Reject it and make the change again on the current text."))
    except changes.ChangeRefused as exc:
        flash(_("Not confirmed: the change no longer passes the checks (%(problem)s).", problem=exc.problems[0].message))
    else:
        g.published = publish_committed([(held.game, held.target_kind, held.target_id)])
        _flash_outcome(outcome)
    return redirect(url_for("editor.queue")), 303


@bp.post("/held/<int:held_id>/reject")
@login_required
def reject_held(editor: Editor, held_id: int):
    ActionForm()
    held = session().get(HeldChange, held_id)
    if held is None:
        abort(404)
    try:
        note = chars.plain_text(request.form.get("note") or "")[:2000]
    except chars.RefusedText as exc:
        flash(control_character_error(exc))
        return redirect(url_for("editor.queue")), 303
    try:
        changes.reject_held(session(), held, editor, note)
    except changes.HeldDecided:
        flash(_("This change was decided already."))
    else:
        flash(_("Your change was withdrawn.") if held.editor_id == editor.id else _("Change rejected; readers never saw it."))
    return redirect(url_for("editor.queue")), 303
