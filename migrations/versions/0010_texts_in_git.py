"""A change's texts are read from its commit: the row keeps no second copy.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TEXTS = ("before", "after", "patch")


def upgrade() -> None:
    with op.batch_alter_table("changes") as batch:
        for name in TEXTS:
            batch.alter_column(name, existing_type=sa.Text(), nullable=True)
    # Rows with a commit read their texts from it; rows from before keep theirs.
    op.execute(sa.text('UPDATE changes SET "before" = NULL, "after" = NULL, patch = NULL WHERE "commit" IS NOT NULL'))


def downgrade() -> None:
    # The texts stay in git; the older code's NOT NULL columns get empty values for those rows.
    op.execute(sa.text("""UPDATE changes SET "before" = '{}', "after" = '{}', patch = '' WHERE "before" IS NULL"""))
    with op.batch_alter_table("changes") as batch:
        for name in TEXTS:
            batch.alter_column(name, existing_type=sa.Text(), nullable=False)
