"""Command-line tools: ``flask --app app content validate`` and friends."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup, ScriptInfo

from .content import load

content_cli = AppGroup("content", help="Check the content files.")


@content_cli.command("validate")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None, help="Content folder (default: the app's).")
def validate(root: Path | None) -> None:
    """Validate every content file; print each problem as file:line: message."""
    root = root or Path(current_app.config["CONTENT_DIR"])
    library, problems = load(root)
    for problem in problems:
        click.echo(str(problem))
    if problems:
        click.echo(f"{len(problems)} problem(s) in {root}", err=True)
        sys.exit(1)
    entries = sum(len(g.faq) for g in library)
    click.echo(f"ok: {len(library.games)} games, {entries} FAQ entries")
    for line in bound_statement_counts(library):
        click.echo(line)


@content_cli.command("check")
@click.argument("revisions", metavar="OLD..NEW")
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The repository to read the commits from (e.g. the bare remote, in its pre-receive hook); "
                   "default: the content's own.")
def check_revisions(revisions: str, repo: Path | None) -> None:
    """Run the editors' gate on the content as commit NEW has it, for every FAQ entry that differs
    from OLD: validation, the rule checks, each answer's bound statements, the common mistakes.
    Exit 1 on any problem (a pull request or a push to refuse); changes the engine cannot judge
    (an answer's unbound words, a rules section's statements) are listed for the reviewer."""
    import tempfile

    from .content import LANGS, ContentError, load_library
    from .content.repo import ContentRepo, GitError
    from .corrections.gate import claim_problems, engine_problems, mistake_problems, reversed_problems
    from .corrections.holds import content_words, hold_reasons, section_hold_reasons
    from .verification import verify

    old, sep, new = revisions.partition("..")
    if not sep or not old or not new or old.strip("0") == "":
        raise click.BadParameter("give two commits as OLD..NEW, e.g. origin/main..HEAD", param_hint="OLD..NEW")
    repo = ContentRepo.at(repo) if repo else ContentRepo(Path(current_app.config["CONTENT_DIR"]))
    with tempfile.TemporaryDirectory() as tmp:
        try:
            before_dir, after_dir = repo.export(old, Path(tmp, "old")), repo.export(new, Path(tmp, "new"))
        except GitError as exc:
            raise click.ClickException(str(exc)) from None
        try:
            after = load_library(after_dir)
        except ContentError as exc:
            for problem in exc.problems:
                click.echo(f"{new[:12]}: {problem}")
            click.echo(f"{new}: {len(exc.problems)} content problem(s)", err=True)
            sys.exit(1)
        before, old_problems = load(before_dir)
        if old_problems:
            # What of the old content loads is compared: entries it left out count as new.
            click.echo(f"{old[:12]}: {len(old_problems)} content problem(s) there already; compared with what of it loads")
    problems, held, changed = [], [], 0
    report = verify(after)
    problems += [f"{r.game}/{r.entry}: check {r.probe} FAILED" for r in report.results if not r.ok]
    problems += [f"{f.message}" for f in report.facts if not f.ok] + [f"no check: {m}" for m in report.missing]
    for slug in after.games:
        game = after.game(slug)
        old_game = before.game(slug) if slug in before.games else None
        for entry in game.faq:
            stored = old_game.faq_entry(entry.id) if old_game is not None else None
            if stored == entry:
                continue
            changed += 1
            found = claim_problems(game, entry) + mistake_problems(game, entry) + engine_problems(game, entry)
            if stored is not None:
                found += reversed_problems(game, stored, entry)
                held += [f"{slug}/{entry.id}: {r.message}" for r in hold_reasons(stored, entry, game.glossary, content_words(game, entry.id))]
            else:
                held.append(f"{slug}/{entry.id}: a new entry")
            problems += [f"{slug}/{entry.id}: {p.message}" for p in found]
        for section in game.sections:
            # Sections bind nothing to the engine: what their words now say is read by a reviewer.
            old_section = old_game.section(section.id) if old_game is not None else None
            after_bodies = {lang: section.body(lang) for lang in LANGS}
            if old_section is None:
                held.append(f"{slug}/{section.id}: a new rules section")
                continue
            before_bodies = {lang: old_section.body(lang) for lang in LANGS}
            held += [f"{slug}/{section.id}: {r.message}" for r in section_hold_reasons(
                before_bodies, after_bodies, game.glossary, content_words(game, section.id, "section"))]
    for line in held:
        click.echo(f"review: {line}")
    for line in problems:
        click.echo(f"refused: {line}")
    click.echo(f"{changed} changed FAQ entr{'y' if changed == 1 else 'ies'}: {len(problems)} problem(s), {len(held)} for a reviewer to read")
    if problems:
        sys.exit(1)


def bound_statement_counts(library) -> list[str]:
    """Per game: how many statements of its checked answers are bound, in all three languages."""
    from .content import LANGS
    from .content.bindings import is_checked, tally

    lines = []
    for game in library:
        counts = [tally(faq.text(lang).answer) for faq in game.faq if is_checked(faq) for lang in LANGS]
        bound, claims = sum(c.bound for c in counts), sum(c.claims for c in counts)
        unchecked, unbound = sum(c.unchecked for c in counts), sum(c.unbound for c in counts)
        lines.append(f"  {game.slug}: of {claims} rule statements in checked answers (de/en/it), {bound} bound, "
                     f"{unchecked} marked as what the sources leave open, {unbound} unbound")
    return lines


index_cli = AppGroup("index", help="Build the search index.")


@index_cli.command("build")
@click.option("--if-stale", is_flag=True, help="Only build when the content changed since the last build.")
def build_index(if_stale: bool) -> None:
    """Build the search index into a new directory and switch to it atomically."""
    from .content import ContentError, load_served
    from .content.snapshot import read_content
    from .search import build, is_stale
    from .search.build import readable

    content_dir = Path(current_app.config["CONTENT_DIR"])
    link = Path(current_app.config["INDEX_DIR"])
    if if_stale and not is_stale(link, content_dir):
        if readable(link):
            click.echo(f"index is up to date: {link}")
            return
        click.echo(f"the index at {link} cannot be read whole: building it again", err=True)
    try:
        library, _snapshot = read_content(content_dir)  # read once, with the fingerprint of the bytes read
    except ContentError as exc:
        # Never fatal, so that a server starts on any content: the last good build stays, or,
        # without one, what loads is indexed as it is served (each problem logged).
        if link.exists():
            click.echo(f"the content has {len(exc.problems)} problem(s) (content validate names them); "
                       f"the index keeps its last good build: {link}", err=True)
            return
        library, _snapshot = read_content(content_dir, load_served)
    generation = build(library, link, content_dir)
    click.echo(f"index built: {generation}")


rules_cli = AppGroup("rules", help="Verify the content against the rule engines.")


@rules_cli.command("check")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None, help="Content folder (default: the app's).")
@click.option("--verbose", "-v", is_flag=True, help="Show passing checks too.")
def rules_check(root: Path | None, verbose: bool) -> None:
    """Run every FAQ entry's and mistake's checks and hold each ruling's facts against the engine's
    output; no answer may restate a common mistake. Exit 1 on any failure or missing check."""
    from .content import load_library
    from .restatements import restated_mistakes
    from .verification import verify

    library = load_library(root or Path(current_app.config["CONTENT_DIR"]))
    report = verify(library)
    rows = [(r.game, f"{r.kind}:{r.entry}", r.probe, "ok" if r.ok else "FAILED", r) for r in report.results]
    width = max((len(row[1]) for row in rows), default=10)
    for game, entry, probe, status, result in rows:
        if verbose or not result.ok:
            click.echo(f"{game:<26}{entry:<{width + 2}}{probe:<24}{status}")
        if result.error:
            click.echo(f"    {result.error}")
        for mismatch in result.mismatches:
            click.echo(f"    {mismatch.key}: expected {mismatch.expected!r}, got {mismatch.actual!r}")
    for game, kind, entry in report.missing:
        click.echo(f"{game:<26}{kind + ':' + entry:<{width + 2}}{'-':<24}NO CHECK")
    for fact in report.facts:
        if verbose or not fact.ok:
            click.echo(f"{fact.game:<26}{fact.kind + ':' + fact.entry:<{width + 2}}{'ruling':<24}{'ok' if fact.ok else 'FAILED'}")
            click.echo(f"    {fact.message}")
    restated = restated_mistakes(library)
    for slug, faq_id, found in restated:
        click.echo(f"{slug:<26}{'faq:' + faq_id:<{width + 2}}{'mistake':<24}FAILED")
        click.echo(f"    answer ({found.lang}) restates the common mistake '{found.mistake.id}': {found.sentence}")
    failed = sum(1 for r in report.results if not r.ok)
    facts_failed = sum(1 for f in report.facts if not f.ok)
    click.echo(
        f"{len(report.results)} checks, {failed} failed, {len(report.missing)} entries without a check; "
        f"{len(report.facts)} ruling facts, {facts_failed} failed; {len(restated)} answers restating a common mistake"
    )
    if not report.ok or restated:
        sys.exit(1)


@rules_cli.command("coverage")
def rules_coverage() -> None:
    """For every rules section: the FAQ entries, mistakes and checks that cover it."""
    from .coverage import coverage
    from .web.state import library

    for game_cov in coverage(library()):
        click.echo(game_cov.game.slug)
        for row in game_cov.rows:
            flag = "" if row.faq or row.mistakes else "   <- not covered"
            click.echo(f"  {row.section.id:<28}faq {len(row.faq):>2}  mistakes {len(row.mistakes):>2}  checks {row.checks:>3}{flag}")


db_cli = AppGroup("db", help="The corrections database.")


@db_cli.command("upgrade")
def db_upgrade() -> None:
    """Apply the schema migrations (SQLite in the instance folder, or DATABASE_URL)."""
    from sqlalchemy.exc import OperationalError

    from .corrections import db, migrate

    try:
        migrate.upgrade(db.engine())
    except OperationalError as exc:  # unreachable, refused, no such database: its first line says which
        raise click.ClickException(f"the database cannot be used: {str(exc.orig).strip().splitlines()[0]}") from None
    click.echo(f"database at revision {migrate.current_revision(db.engine())}")


editors_cli = AppGroup("editors", help="Editor accounts.")


class _NewPassword(click.ParamType):
    """A password long enough to be stored: a short one is refused as it is typed, before the
    confirmation, and click asks again."""

    name = "password"

    def convert(self, value, param, ctx):
        from .corrections.editors import MIN_PASSWORD

        if len(value) < MIN_PASSWORD:
            self.fail(f"the password must have at least {MIN_PASSWORD} characters", param, ctx)
        return value


def _new_password(from_stdin: bool) -> str:
    from .corrections.editors import MIN_PASSWORD

    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    return click.prompt(f"Password (at least {MIN_PASSWORD} characters)", hide_input=True,
                        confirmation_prompt=True, type=_NewPassword())


@contextmanager
def _editor_errors():
    """An editor command's refusal (an unknown name, a weak password…) as click's error: the
    message and exit status 1, without a traceback."""
    from .corrections.editors import EditorError

    try:
        yield
    except EditorError as exc:
        raise click.ClickException(str(exc)) from None


@editors_cli.command("list")
def editors_list() -> None:
    """Every editor: login name, the name the public history shows, since when, disabled or not."""
    from sqlalchemy import select

    from .corrections.db import session
    from .corrections.models import Editor

    editors = session().scalars(select(Editor).order_by(Editor.name)).all()
    if not editors:
        click.echo("no editors yet: add one with 'flask --app app editors add NAME' (or make editor NAME=…)")
    for editor in editors:
        shown = editor.display_name or "(Editorial team)"
        state = f"disabled {editor.disabled_at:%Y-%m-%d}" if editor.disabled_at else "active"
        click.echo(f"{editor.name}\t{shown}\tsince {editor.created_at:%Y-%m-%d}\t{state}")


@editors_cli.command("add")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--display-name", default=None, help="The name the public history shows (never the login name).")
def editors_add(name: str, password_stdin: bool, display_name: str | None) -> None:
    """Create an editor; the password is asked twice (or read from stdin) and stored hashed.

    Without --display-name the public history says "Editorial team" for this editor's changes.
    """
    from .corrections.db import session
    from .corrections.editors import add_editor

    with _editor_errors():
        add_editor(session(), name, _new_password(password_stdin), display_name)
    click.echo(f"editor '{name}' added")


@editors_cli.command("password")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
def editors_password(name: str, password_stdin: bool) -> None:
    """Set a new password for the editor NAME (asked twice, or read from stdin); the editor's
    browser sessions end."""
    from .corrections.db import session
    from .corrections.lifecycle import set_password

    with _editor_errors():
        ended = set_password(session(), name, _new_password(password_stdin))
    click.echo(f"password of '{name}' changed; {ended} session(s) ended")


@editors_cli.command("disable")
@click.argument("name")
def editors_disable(name: str) -> None:
    """Disable the editor NAME: no more logins, and every session and API token ends now.
    The editor's changes stay in the history."""
    from .corrections.db import session
    from .corrections.lifecycle import disable

    with _editor_errors():
        ended, tokens = disable(session(), name)
    click.echo(f"editor '{name}' disabled; {ended} session(s) and {tokens} token(s) ended")


@editors_cli.command("enable")
@click.argument("name")
def editors_enable(name: str) -> None:
    """Let the disabled editor NAME log in again (ended sessions and tokens stay ended)."""
    from .corrections.db import session
    from .corrections.lifecycle import enable

    with _editor_errors():
        enable(session(), name)
    click.echo(f"editor '{name}' enabled")


@editors_cli.command("display-name")
@click.argument("name")
@click.argument("display_name", required=False)
@click.option("--clear", is_flag=True, help="Take the display name away: the history says \"Editorial team\".")
def editors_display_name(name: str, display_name: str | None, clear: bool) -> None:
    """Set the name the public history shows for the editor NAME (or take it away with --clear)."""
    from .corrections.db import session
    from .corrections.editors import set_display_name

    if clear == (display_name is not None):
        raise click.UsageError("give either a DISPLAY_NAME or --clear")
    with _editor_errors():
        editor = set_display_name(session(), name, display_name)
    click.echo(f"'{editor.name}' is shown as '{editor.display_name or 'Editorial team'}'")


@editors_cli.command("logout-all")
@click.argument("name")
def editors_logout_all(name: str) -> None:
    """End every browser session of the editor NAME (e.g. after a lost laptop)."""
    from .corrections.db import session
    from .corrections.editors import editor_named
    from .corrections.sessions import revoke_all

    with _editor_errors():
        count = revoke_all(session(), editor_named(session(), name))
    click.echo(f"{count} session(s) of '{name}' ended")


@editors_cli.command("token")
@click.argument("name")
def editors_token(name: str) -> None:
    """Print a new API token for the editor (stored hashed; the previous token stops working)."""
    from .corrections.db import session
    from .corrections.tokens import issue_token

    with _editor_errors():
        token = issue_token(session(), name)
    click.echo(token)


@editors_cli.command("revoke")
@click.argument("name")
def editors_revoke(name: str) -> None:
    """Invalidate the editor's API token."""
    from .corrections.db import session
    from .corrections.tokens import revoke_tokens

    with _editor_errors():
        count = revoke_tokens(session(), name)
    click.echo(f"token of '{name}' revoked" if count else f"'{name}' had no live token")


@click.command("export")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--base-url", default=None, metavar="URL",
              help="Where the live site is (e.g. https://rules.example.org/): canonical links and an answer's "
                   "share link point there. Without it, share links are left out.")
def export_command(out: Path, base_url: str | None) -> None:
    """Write the whole site as static files into OUT (opens from a USB stick, search included)."""
    from .export import ExportError, export_site, parse_base_url

    try:
        parse_base_url(base_url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--base-url") from None
    try:
        pages = export_site(click.get_current_context().ensure_object(ScriptInfo).load_app(), out, base_url)
    except ExportError as exc:
        raise click.ClickException(str(exc)) from None
    front = (out / "index.html").resolve()
    click.echo(f"exported {pages} pages to {out}")
    click.echo(f"open {front}  ({front.as_uri()})")


def init_app(app: Flask) -> None:
    app.cli.add_command(content_cli)
    app.cli.add_command(index_cli)
    app.cli.add_command(rules_cli)
    app.cli.add_command(db_cli)
    app.cli.add_command(editors_cli)
    app.cli.add_command(export_command)
