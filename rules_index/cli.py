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


def init_app(app: Flask) -> None:
    app.cli.add_command(content_cli)
