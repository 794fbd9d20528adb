"""Secrets, sessions, CSRF and rate limits: the defaults a public site with a form needs.

Rate-limit counters live in the service's database (``rules-db://``, see
``rules_index.corrections.rate_limits``), so they hold across workers and machines; config
``RATELIMIT_STORAGE_URI`` picks another storage of the ``limits`` library. Limits count per client
address (the forwarded one behind a trusted proxy, see ``front.py``).

Logins are limited four ways: per account and address (``LOGIN_RATE_LIMIT``, the lockout: guesses
from one address do not lock the editor out at another), per address over all accounts, per
account over all addresses (looser, and logged: someone is guessing one editor's password from
many places), and over the whole site (``LOGIN_GLOBAL_RATE_LIMIT``, a ceiling on the CPU and
memory password checks can take).
"""
from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from urllib.parse import urlsplit

from flask import Flask, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf import CSRFProtect
from flask_wtf.csrf import CSRFError

from rules_index.corrections import db, rate_limits

csrf = CSRFProtect()
limiter = Limiter(key_func=get_remote_address, default_limits=[])


def secret_key(app: Flask) -> str:
    """SECRET_KEY from the environment, else one generated once into the instance folder."""
    if app.config.get("SECRET_KEY"):
        return app.config["SECRET_KEY"]
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return path.read_text().strip()


def login_account() -> str:
    """Rate-limit key of the account a login names: the submitted name, trimmed and case-folded.

    Hashed, so that the counters never hold what someone typed as a name.
    """
    name = (request.form.get("name") or "").strip().casefold()
    return "account:" + hashlib.sha256(name.encode()).hexdigest()[:32]


def login_account_and_address() -> str:
    return f"{login_account()}@{get_remote_address()}"


def every_login() -> str:
    return "all-logins"


_breaches_logged: dict[str, float] = {}
_breaches_lock = threading.Lock()


def log_breach(describe: Callable[[], str]) -> Callable:
    """An ``on_breach`` callback for Flask-Limiter that logs the first breach of each counter's
    window in this process (a flood breaches on every request; the log says it once)."""

    def on_breach(limit) -> None:
        now = time.time()
        with _breaches_lock:
            if _breaches_logged.get(limit.key, 0.0) > now:
                return
            if len(_breaches_logged) > 1000:  # keys of past windows
                _breaches_logged.clear()
            _breaches_logged[limit.key] = now + limit.limit.get_expiry()
        current_app.logger.warning("login limit %s reached: %s", limit.limit, describe())

    return on_breach


TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("", "0", "false", "no", "off")


def https_setting(app: Flask) -> bool:
    """RULES_HTTPS (config ``HTTPS``) as a yes or no; a value that is neither is an error at start,
    never silently a no."""
    value = app.config.get("HTTPS", os.environ.get("RULES_HTTPS"))
    if value is None or isinstance(value, bool):
        return bool(value)
    word = str(value).strip().lower()
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise ValueError(f"RULES_HTTPS={value!r}: use one of {', '.join(TRUE_WORDS)} or {', '.join(w for w in FALSE_WORDS if w)}")


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, ``Secure`` whenever the request came over HTTPS (directly,
    or through a trusted proxy's X-Forwarded-Proto, see ``front.py``) or RULES_HTTPS says so."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


def same_origin_post() -> None:
    """Over HTTPS, a form post must come from this site's own pages.

    Instead of Flask-WTF's WTF_CSRF_SSL_STRICT, which refuses a post without a Referer (privacy
    settings, some proxies): the ``Origin`` header every browser sets on a POST ("null" refused),
    else a Referer if sent, must match. A post with neither comes from no browser page; the CSRF
    token is checked on every post all the same.
    """
    if not request.is_secure or request.method not in current_app.config["WTF_CSRF_METHODS"]:
        return
    if request.path.startswith("/api/"):
        return  # the JSON API takes no cookies (CSRF-exempt)
    ours = ("https", request.host)
    origin = request.headers.get("Origin")
    if origin is not None:
        if _scheme_and_host(origin) != ours:
            raise CSRFError("The origin does not match the host.")
        return
    if request.referrer:
        if _scheme_and_host(request.referrer) != ours:
            raise CSRFError("The referrer does not match the host.")


def _scheme_and_host(address: str) -> tuple[str, str] | None:
    """(scheme, host) of an address; None for one that cannot be read ("https://[::1"), which
    matches no host."""
    try:
        parts = urlsplit(address)
    except ValueError:
        return None
    return parts.scheme, parts.netloc


def init_app(app: Flask) -> None:
    app.config["SECRET_KEY"] = secret_key(app)
    # Flask's defaults hold these keys already (SameSite None, Secure off): set them outright.
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_SECURE"] = bool(app.config.get("SESSION_COOKIE_SECURE")) or https_setting(app)
    app.session_interface = SessionCookies()
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config["WTF_CSRF_SSL_STRICT"] = False  # same_origin_post checks instead
    app.before_request(same_origin_post)
    app.config.setdefault("SUBMISSION_RATE_LIMIT", "20 per minute;200 per day")
    app.config.setdefault("LOGIN_RATE_LIMIT", "10 per minute")  # per account and address
    app.config.setdefault("LOGIN_ADDRESS_RATE_LIMIT", "30 per minute")
    app.config.setdefault("LOGIN_ACCOUNT_RATE_LIMIT", "30 per minute;300 per day")
    app.config.setdefault("LOGIN_GLOBAL_RATE_LIMIT", "60 per minute")
    # Seconds a login waits for one of the process's password-check slots before a 503.
    app.config.setdefault("LOGIN_CHECK_WAIT", 0.5)
    if app.config.setdefault("RATELIMIT_STORAGE_URI", rate_limits.STORAGE_URI) == rate_limits.STORAGE_URI:
        # The engine is looked up per request: each app counts in its own database.
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"engine": db.engine})
    csrf.init_app(app)
    limiter.init_app(app)
