"""The migrations build exactly the tables the models describe, and step down and up again."""
from __future__ import annotations

import warnings

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from rules_index.corrections import migrate
from rules_index.corrections.models import Base

from apptools import BACKENDS, scratch_database


def differences(engine) -> list:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, Base.metadata)


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrated_database_matches_the_models(tmp_path, backend):
    with scratch_database(backend, tmp_path, "migrations") as url:
        engine = sa.create_engine(url)
        try:
            migrate.upgrade(engine)
            assert differences(engine) == []
        finally:
            engine.dispose()


def test_models_sort_without_foreign_key_cycles():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert {t.name for t in Base.metadata.sorted_tables} >= {"changes", "held_changes", "editor_sessions"}


def test_the_last_migration_steps_down_and_up(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    migrate.upgrade(engine)
    config = migrate.alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "-1")
    assert migrate.current_revision(engine) != migrate.head_revision()
    migrate.upgrade(engine)
    assert migrate.current_revision(engine) == migrate.head_revision()
    assert differences(engine) == []


def test_a_database_that_cannot_be_reached_is_said_in_one_line(tmp_path):
    """`make run` and `make serve` go on read-only when the database cannot be used; the migration
    step says why in one line, not a traceback."""
    from app import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "DATABASE_URL": "postgresql://rules@db.invalid/rules"})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 1
    assert result.output.strip().startswith("Error: the database cannot be used:") and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
