"""Schema migrations (Alembic, ``migrations/``), applied by ``flask --app app db upgrade``."""
from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine) -> None:
    config = alembic_config()
    with engine.connect() as connection:
        keys_were_on = False
        if connection.dialect.name == "sqlite":
            # SQLite alters a table by copying it, dropping the old one and renaming the copy: with
            # foreign keys on, the drop would delete (ON DELETE CASCADE) or refuse the rows that
            # point at it. SQLite's documented way is to switch them off outside the transaction.
            keys_were_on = bool(connection.exec_driver_sql("PRAGMA foreign_keys").scalar())
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        finally:
            if keys_were_on:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


@functools.cache
def head_revision() -> str:
    """The revision a migrated database is at (read once per process from ``migrations/``)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
