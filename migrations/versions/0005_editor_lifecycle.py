"""Editors can be disabled; their ids are never reused; their tokens and sessions go with them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# (table, index) of the editors' credentials.
CREDENTIALS = (("editor_tokens", "ix_editor_tokens_editor"), ("editor_sessions", "ix_editor_sessions_editor_id"))


def _credential_table(name: str, index: str, ondelete: str | None) -> sa.Table:
    """The table as it is to be, for SQLite's copy-and-rename (its foreign keys have no names to alter)."""
    return sa.Table(
        name, sa.MetaData(),
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id", ondelete=ondelete), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.Index(index, "editor_id"),
    )


def _credentials_follow_editors(ondelete: str | None) -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name, index in CREDENTIALS:
            with op.batch_alter_table(name, recreate="always", copy_from=_credential_table(name, index, ondelete)):
                pass
        return
    for name, _index in CREDENTIALS:
        # PostgreSQL's default name for the key, as migrations 0003 and 0004 made it.
        key = f"{name}_editor_id_fkey"
        op.drop_constraint(key, name, type_="foreignkey")
        op.create_foreign_key(key, name, "editors", ["editor_id"], ["id"], ondelete=ondelete)


def upgrade() -> None:
    # Credentials left behind by editors deleted by hand would otherwise name whoever gets the id next.
    for name, _index in CREDENTIALS:
        op.execute(f"DELETE FROM {name} WHERE editor_id NOT IN (SELECT id FROM editors)")
    if op.get_bind().dialect.name == "sqlite":
        # AUTOINCREMENT needs the table made anew; PostgreSQL's sequence never hands out an id twice.
        with op.batch_alter_table("editors", recreate="always", table_kwargs={"sqlite_autoincrement": True}) as batch:
            batch.add_column(sa.Column("disabled_at", sa.DateTime(), nullable=True))
    else:
        op.add_column("editors", sa.Column("disabled_at", sa.DateTime(), nullable=True))
    _credentials_follow_editors("CASCADE")


def downgrade() -> None:
    _credentials_follow_editors(None)
    with op.batch_alter_table("editors", table_kwargs={"sqlite_autoincrement": False}) as batch:
        batch.drop_column("disabled_at")
