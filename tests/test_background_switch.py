"""The background switch prepares each version once at a time, lets readers go on meanwhile, and
starts again after a failure it was not told about."""
from __future__ import annotations

import threading
import time

from rules_index.switching import BackgroundSwitch


def test_one_preparation_per_version_while_readers_go_on():
    started, go = [], threading.Event()

    def prepare(version):
        started.append(version)
        assert go.wait(10)

    switch = BackgroundSwitch(prepare, "test-switch")
    assert switch.follow("g2", 0) is False  # a reader that does not wait goes on at once
    assert switch.follow("g2", 0.05) is False
    assert switch.running() == "g2"
    go.set()
    assert switch.follow("g2", 10) is True
    assert started == ["g2"]
    assert switch.running() is None


def test_a_failure_is_logged_and_the_next_follow_tries_again(caplog):
    calls = []

    def prepare(version):
        calls.append(version)
        if len(calls) == 1:
            raise OSError("disk gone")

    switch = BackgroundSwitch(prepare, "test-switch")
    assert switch.follow("g2", None) is True
    assert "test-switch: preparing g2 failed" in caplog.text
    assert switch.follow("g2", None) is True
    assert calls == ["g2", "g2"]


def test_a_later_version_waits_for_the_one_under_way():
    """The link moved again while a snapshot is being made: the next one starts once the first
    is done, rather than beside it."""
    running, overlapped, go = [], [], threading.Event()

    def prepare(version):
        overlapped.append(list(running))
        running.append(version)
        try:
            if version == "g2":
                assert go.wait(10)
        finally:
            running.remove(version)

    switch = BackgroundSwitch(prepare, "test-switch")
    assert switch.follow("g2", 0) is False
    assert switch.follow("g3", 0.3) is False  # waits for g2's turn to end
    go.set()
    deadline = time.monotonic() + 10
    while switch.running():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert overlapped == [[], []]
