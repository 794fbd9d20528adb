"""Command-line tools: ``flask --app app content validate`` and friends."""
from __future__ import annotations

import sys
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup

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


index_cli = AppGroup("index", help="Build the search index.")


@index_cli.command("build")
@click.option("--if-stale", is_flag=True, help="Only build when the content changed since the last build.")
def build_index(if_stale: bool) -> None:
    """Build the search index into a new directory and switch to it atomically."""
    from .content import load_library
    from .search import build, is_stale

    content_dir = Path(current_app.config["CONTENT_DIR"])
    link = Path(current_app.config["INDEX_DIR"])
    if if_stale and not is_stale(link, content_dir):
        click.echo(f"index is up to date: {link}")
        return
    generation = build(load_library(content_dir), link, content_dir)
    click.echo(f"index built: {generation}")


def init_app(app: Flask) -> None:
    app.cli.add_command(content_cli)
    app.cli.add_command(index_cli)
