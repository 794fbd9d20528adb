"""A setting the service cannot use stops the start and is named: a malformed login limit switched
the lockout off without a word, and a wrong number failed at the first login or deep in a build."""
from __future__ import annotations

import pytest

from app import create_app
from rules_index.web.settings import SettingError, problems


@pytest.mark.parametrize("name,value", [
    ("LOGIN_RATE_LIMIT", "lots"), ("SUBMISSION_RATE_LIMIT", "20 per fortnight"), ("LOGIN_CHECK_WAIT", "abc"),
    ("EDITOR_SESSION_HOURS", "abc"), ("EDITOR_SESSION_HOURS", 0), ("SEARCH_POSTINGS_CACHE_BYTES", "64MiB"),
    ("CONTENT_FOLLOW_S", "fast"), ("PROXY_HOPS", "one"), ("PROXY_HOPS", -1), ("PAGE_CACHE_BYTES", 1.5),
    ("SWITCH_WAIT_MS", True),
])
def test_a_setting_the_service_cannot_use_stops_the_start_and_is_named(tmp_path, name, value):
    with pytest.raises(SettingError) as refused:
        create_app({"INSTANCE_PATH": str(tmp_path / "instance"), name: value})
    assert f"RULES_{name}" in str(refused.value) and repr(value) in str(refused.value)


@pytest.mark.parametrize("name,value", [
    ("LOGIN_RATE_LIMIT", "3 per minute"), ("LOGIN_ACCOUNT_RATE_LIMIT", "30/minute;300/day"), ("LOGIN_CHECK_WAIT", 0),
    ("EDITOR_SESSION_HOURS", "0.5"), ("SEARCH_POSTINGS_CACHE_BYTES", 0), ("CONTENT_FOLLOW_S", 0), ("PROXY_HOPS", ""),
    ("PROXY_HOPS", 2), ("SWITCH_WAIT_MS", None), ("PAGE_CACHE_BYTES", "1048576"),
])
def test_usable_settings_pass(name, value):
    assert problems({name: value}) == []
