"""The commit is the journal: changes name their commit and key; accept intents go.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("changes") as batch:
        batch.drop_constraint("uq_changes_intent", type_="unique")
        batch.drop_constraint("fk_changes_intent", type_="foreignkey")
        batch.drop_column("intent_id")
        batch.add_column(sa.Column("key", sa.String(32), nullable=True))
        batch.add_column(sa.Column("commit", sa.String(40), nullable=True))
        batch.create_unique_constraint("uq_changes_key", ["key"])
    op.drop_index("ix_accept_intents_state", table_name="accept_intents")
    op.drop_table("accept_intents")


def downgrade() -> None:
    op.create_table(
        "accept_intents",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.String(120), nullable=False),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id"), nullable=False),
        sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("reverts_id", sa.Integer(), nullable=True),
        sa.Column("files", sa.Text(), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_accept_intents_state", "accept_intents", ["state"])
    with op.batch_alter_table("changes") as batch:
        batch.drop_constraint("uq_changes_key", type_="unique")
        batch.drop_column("commit")
        batch.drop_column("key")
        batch.add_column(sa.Column("intent_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_changes_intent", "accept_intents", ["intent_id"], ["id"])
        batch.create_unique_constraint("uq_changes_intent", ["intent_id"])
