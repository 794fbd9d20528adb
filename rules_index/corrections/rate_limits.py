"""Rate-limit counters in the service's own database, so that every worker and every machine sees them.

A storage for the ``limits`` library (which Flask-Limiter runs on), registered for the URI
``rules-db://``: fixed-window counters in the ``rate_limits`` table (migration 0002), on SQLite or
PostgreSQL. One statement either adds to a counter or, when its window has run out, starts a new
window (an upsert returning the new count), so parallel workers never lose or double a hit.

Windows are measured by each server's clock: several machines need their clocks in sync (NTP).
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from limits.errors import ConfigurationError
from limits.storage import Storage
from sqlalchemy import Column, Engine, Float, Integer, String, Table, case, delete, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from .models import Base

SCHEME = "rules-db"
STORAGE_URI = f"{SCHEME}://"
KEY_LENGTH = 255
SWEEP_INTERVAL = 300.0  # seconds between deletions of run-out counters (per process)

counters = Table(
    "rate_limits",
    Base.metadata,
    Column("key", String(KEY_LENGTH), primary_key=True),
    Column("hits", Integer, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),  # seconds since the epoch
)

# Both dialects write "INSERT … ON CONFLICT (key) DO UPDATE … RETURNING".
UPSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def stored_key(key: str) -> str:
    """The key as stored: a key too long for the column keeps its start and gets a digest."""
    if len(key) <= KEY_LENGTH:
        return key
    return key[:KEY_LENGTH - 65] + "#" + hashlib.sha256(key.encode()).hexdigest()


class DatabaseStorage(Storage):
    """Fixed-window counters in a SQL table (the ``fixed-window`` strategy of Flask-Limiter).

    ``engine`` is a SQLAlchemy engine, or a function returning one for the current application
    (so that one limiter serves several apps, each counting in its own database).
    """

    STORAGE_SCHEME = [SCHEME]

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        engine: Engine | Callable[[], Engine] | None = None,
        **options: float | str | bool,
    ):
        if engine is None:
            raise ConfigurationError(f"{STORAGE_URI} needs the storage option 'engine'")
        self.engine_source = engine
        self.last_sweep = 0.0
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def engine(self) -> Engine:
        source = self.engine_source
        engine = source if isinstance(source, Engine) else source()
        if engine.dialect.name not in UPSERTS:
            raise ConfigurationError(f"{STORAGE_URI} supports SQLite and PostgreSQL, not {engine.dialect.name}")
        return engine

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        engine = self.engine()
        now = time.time()
        run_out = counters.c.expires_at <= now
        statement = (
            UPSERTS[engine.dialect.name](counters)
            .values(key=stored_key(key), hits=amount, expires_at=now + expiry)
            .on_conflict_do_update(
                index_elements=[counters.c.key],
                # Both expressions read the row as it was before this statement.
                set_={
                    "hits": case((run_out, amount), else_=counters.c.hits + amount),
                    "expires_at": case((run_out, now + expiry), else_=counters.c.expires_at),
                },
            )
            .returning(counters.c.hits)
        )
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                # A count lost in a crash costs nothing; waiting for the disk on every hit does.
                connection.execute(text("SET LOCAL synchronous_commit TO OFF"))
            hits = connection.execute(statement).scalar_one()
        if now - self.last_sweep > SWEEP_INTERVAL:
            self.last_sweep = now
            self.sweep(now)
        return hits

    def sweep(self, now: float) -> int:
        """Delete counters whose window has run out (they would start from zero anyway)."""
        with self.engine().begin() as connection:
            return connection.execute(delete(counters).where(counters.c.expires_at <= now)).rowcount

    def _live(self, column, key: str):
        now = time.time()
        query = select(column).where(counters.c.key == stored_key(key), counters.c.expires_at > now)
        with self.engine().connect() as connection:
            return connection.execute(query).scalar_one_or_none(), now

    def get(self, key: str) -> int:
        hits, _now = self._live(counters.c.hits, key)
        return hits or 0

    def get_expiry(self, key: str) -> float:
        expires_at, now = self._live(counters.c.expires_at, key)
        return expires_at if expires_at is not None else now

    def check(self) -> bool:
        try:
            with self.engine().connect() as connection:
                connection.execute(select(1))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self.engine().begin() as connection:
            return connection.execute(delete(counters)).rowcount

    def clear(self, key: str) -> None:
        with self.engine().begin() as connection:
            connection.execute(delete(counters).where(counters.c.key == stored_key(key)))
