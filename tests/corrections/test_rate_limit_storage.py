"""The database storage of rate-limit counters: atomic across threads and processes, windows that run out.

On SQLite always, and on PostgreSQL when TEST_DATABASE_URL names a server.
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import pytest
from limits import RateLimitItemPerMinute
from limits.errors import ConfigurationError
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy import func, select

from apptools import BACKENDS, scratch_database
from rules_index.corrections import db, migrate, rate_limits
from rules_index.corrections.rate_limits import DatabaseStorage, counters



@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path):
    with scratch_database(request.param, tmp_path, "rules_counters") as url:
        yield url


@pytest.fixture()
def engine(database_url):
    engine = db.make_engine(database_url)
    migrate.upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture()
def storage(engine):
    return DatabaseStorage(engine=engine)


class Clock:
    """Stands in for the time module inside rate_limits: time moves only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture()
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rate_limits, "time", clock)
    return clock


def test_registered_for_its_uri_and_usable_by_the_limits_strategies(engine):
    storage = storage_from_string("rules-db://", engine=engine)
    assert isinstance(storage, DatabaseStorage) and storage.check()
    limiter = FixedWindowRateLimiter(storage)
    three = RateLimitItemPerMinute(3)
    assert [limiter.hit(three, "client") for _ in range(5)] == [True, True, True, False, False]
    assert limiter.hit(three, "another client")


def test_needs_an_engine():
    with pytest.raises(ConfigurationError):
        storage_from_string("rules-db://")


def test_parallel_increments_each_see_their_own_count(storage):
    with ThreadPoolExecutor(max_workers=8) as pool:
        counts = list(pool.map(lambda _: storage.incr("k", 60), range(200)))
    assert sorted(counts) == list(range(1, 201))
    assert storage.get("k") == 200


def count_in_own_process(database_url: str) -> list[int]:
    storage = DatabaseStorage(engine=db.make_engine(database_url))
    return [storage.incr("shared", 60) for _ in range(40)]


def test_increments_from_several_processes_are_never_lost(database_url, engine):
    with multiprocessing.get_context("fork").Pool(4) as pool:
        results = pool.map(count_in_own_process, [database_url] * 4, chunksize=1)
    counts = [count for result in results for count in result]
    assert sorted(counts) == list(range(1, 161))


def test_a_window_starts_at_the_first_hit_and_runs_out(storage, clock):
    assert storage.incr("k", 60) == 1
    clock.now += 59
    assert storage.incr("k", 60, amount=2) == 3
    assert storage.get("k") == 3
    assert storage.get_expiry("k") == pytest.approx(clock.now + 1)
    clock.now += 1  # the window of the first hit is over
    assert storage.get("k") == 0
    assert storage.get_expiry("k") == pytest.approx(clock.now)
    assert storage.incr("k", 60) == 1
    assert storage.get_expiry("k") == pytest.approx(clock.now + 60)


def test_run_out_counters_are_swept_away(storage, engine, clock):
    storage.incr("old", 10)
    clock.now += rate_limits.SWEEP_INTERVAL + 1
    storage.incr("new", 10)  # long enough since the last sweep: the old counter goes
    with engine.connect() as connection:
        assert [row.key for row in connection.execute(select(counters.c.key))] == ["new"]


def test_clear_and_reset(storage, engine):
    storage.incr("a", 60)
    storage.incr("b", 60)
    storage.clear("a")
    assert (storage.get("a"), storage.get("b")) == (0, 1)
    assert storage.reset() == 1
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(counters)).scalar_one() == 0


def test_keys_longer_than_the_column_stay_apart(storage):
    first, second = "x" * 400 + "1", "x" * 400 + "2"
    assert storage.incr(first, 60) == 1
    assert storage.incr(second, 60) == 1
    assert storage.incr(first, 60) == 2
    assert len(rate_limits.stored_key(first)) == rate_limits.KEY_LENGTH
