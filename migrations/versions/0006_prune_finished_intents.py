"""Finished accept intents keep no file texts (they were kept forever, about 200 KB an accept).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("UPDATE accept_intents SET files = '[]' WHERE state <> 'open'")


def downgrade() -> None:
    pass  # the texts are gone; the changes keep their patches
