"""Alembic environment: migrations run on the connection the app hands over (see rules_index.corrections.migrate)."""
from alembic import context

from rules_index.corrections import rate_limits  # noqa: F401  (defines the rate_limits table on Base)
from rules_index.corrections.models import Base

target_metadata = Base.metadata
connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through 'flask --app app db upgrade'")
context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
