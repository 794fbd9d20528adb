"""A setting the service cannot use stops the start and is named: a malformed login limit switched
the lockout off without a word, and a wrong number failed at the first login or deep in a build."""
from __future__ import annotations

import re

import pytest
from flask import Flask

from app import ROOT, create_app
from rules_index.web.settings import KNOWN, SettingError, misspelled, problems


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


def test_a_name_close_to_a_setting_is_warned_about_at_the_start(tmp_path, monkeypatch, caplog):
    """Set, a misspelled name changes nothing: the service would start quietly on the default."""
    monkeypatch.setenv("RULES_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("RULES_LOGIN_RATE_LIMT", "3 per minute")
    create_app()
    assert "RULES_LOGIN_RATE_LIMT is no setting of this service and changes nothing: did you mean RULES_LOGIN_RATE_LIMIT?" in caplog.text


@pytest.mark.parametrize("variable,meant", [
    ("RULES_INSTANCE", "RULES_INSTANCE_PATH"), ("RULES_CONTENT_REMOTES", "RULES_CONTENT_REMOTE"),
    ("RULES_PROXY_HOP", "RULES_PROXY_HOPS"), ("RULES_DATABASE_URI", "RULES_DATABASE_URL"),
])
def test_a_misspelled_name_is_named_with_the_setting_meant(variable, meant):
    assert misspelled({variable: "x"}) == [f"{variable} is no setting of this service and changes nothing: did you mean {meant}?"]


def test_settings_of_flask_and_names_far_from_any_setting_pass_without_a_word():
    environ = {"RULES_SESSION_COOKIE_SAMESITE": "Strict", "RULES_MAX_CONTENT_LENGTH": "1000", "PATH": "/bin",
               "RULES_JSON_SORT_KEYS": "1"}
    assert misspelled(environ, Flask.default_config) == []


def test_every_setting_the_readme_names_is_known():
    """Else setting a name the README documents would be warned about as a misspelling; a name it
    shows that is none is its example of the warning."""
    named = set(re.findall(r"RULES_([A-Z][A-Z0-9_]*[A-Z0-9])", (ROOT / "README.md").read_text(encoding="utf-8")))
    assert len(named & KNOWN) > 20
    assert [name for name in sorted(named - KNOWN) if not misspelled({f"RULES_{name}": "x"})] == []
