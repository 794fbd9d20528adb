"""Every setting the service reads as a number or a rate, checked when the app is made: a wrong
one stops the start with its name and what it takes, instead of a 500 at the first login, a
traceback from deep in a build, or a limit silently switched off ("RULES_LOGIN_RATE_LIMIT=lots").
"""
from __future__ import annotations

import difflib

from limits import parse_many

# name: (what it takes, the check of a value as set)
NUMBERS = {
    "LOGIN_CHECK_WAIT": ("a number of seconds, 0 or more", float, 0),
    "EDITOR_SESSION_HOURS": ("a number of hours, more than 0", float, 1e-9),
    "CONTENT_FOLLOW_S": ("a number of seconds, 0 or more (0: do not follow)", float, 0),
    "FOLLOW_LINK_S": ("a number of seconds, 0 or more (0: do not follow)", float, 0),
    "CORRECTIONS_RETRY_SECONDS": ("a number of seconds, 0 or more", float, 0),
    "SWITCH_WAIT_MS": ("a number of milliseconds, 0 or more", float, 0),
    "SEARCH_POSTINGS_CACHE_BYTES": ("a whole number of bytes, 0 or more", int, 0),
    "PAGE_CACHE_BYTES": ("a whole number of bytes, 0 or more (0: no page cache)", int, 0),
    "PROXY_HOPS": ("a whole number of proxies in front, 0 or more", int, 0),
}
RATES = ("SUBMISSION_RATE_LIMIT", "LOGIN_RATE_LIMIT", "LOGIN_ADDRESS_RATE_LIMIT", "LOGIN_ACCOUNT_RATE_LIMIT",
         "LOGIN_GLOBAL_RATE_LIMIT")


# The other names the service, its server and its tools read from the environment (``RULES_<name>``).
# Any other key of the app's config may be set the same way (``from_prefixed_env``).
OTHER = ("INSTANCE_PATH", "SECRET_KEY", "DATABASE_URL", "CONTENT_DIR", "CONTENT_REPO", "CONTENT_REMOTE", "INDEX_DIR",
         "HTTPS", "RATELIMIT_STORAGE_URI", "TEMPLATE_CACHE_DIR", "STATIC_EXPORT", "EXPORT_BASE_URL", "BIND", "WORKERS",
         "THREADS", "PASSWORD_HASH_PROFILE", "BENCH_HELLO", "FAULT_POINT", "EDIT_SEED", "TRUSTED_HOSTS")
KNOWN = frozenset(NUMBERS) | frozenset(RATES) | frozenset(OTHER)


class SettingError(ValueError):
    """A setting the service cannot use; the message names it as the environment sets it."""


def _number(value, kind):
    if isinstance(value, bool):
        raise ValueError(value)
    if kind is int:
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(value)
        return int(str(value).strip()) if not isinstance(value, (int, float)) else int(value)
    return float(value)


def problems(config) -> list[str]:
    """What is wrong with the settings in ``config``, one line each (none: all usable)."""
    found = []
    for name, (takes, kind, least) in NUMBERS.items():
        value = config.get(name)
        if value is None or (value == "" and name == "PROXY_HOPS"):  # "": no proxy, as unset
            continue
        try:
            ok = _number(value, kind) >= least
        except (TypeError, ValueError):
            ok = False
        if not ok:
            found.append(f"RULES_{name}: {takes}, not {value!r}")
    for name in RATES:
        value = config.get(name)
        if value is None:
            continue
        try:
            parse_many(str(value))
        except ValueError:
            found.append(f"RULES_{name}: a rate such as \"10 per minute\" or \"30 per minute;300 per day\", not {value!r}")
    return found


def check(config) -> None:
    """Raise SettingError naming every unusable setting."""
    found = problems(config)
    if found:
        raise SettingError("settings the service cannot use:\n  " + "\n  ".join(found))


def misspelled(environ, config_keys=()) -> list[str]:
    """A warning for each ``RULES_`` name of ``environ`` that is no setting the service reads but
    comes close to one ("RULES_INSTANCE" for RULES_INSTANCE_PATH): set, it changes nothing, and the
    service would start quietly on the default. ``config_keys``: other names that are settings
    (Flask's own). Not a stop: any key of the app's config may be set this way."""
    found = []
    for variable in sorted(environ):
        name = variable.removeprefix("RULES_")
        if name == variable or name in KNOWN or name in config_keys:
            continue
        close = difflib.get_close_matches(name, sorted(KNOWN), n=1, cutoff=0.75)
        if close:
            found.append(f"{variable} is no setting of this service and changes nothing: did you mean RULES_{close[0]}?")
    return found
