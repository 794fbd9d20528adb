"""Secrets, sessions, CSRF and rate limits: the defaults a public site with a form needs.

Rate-limit counters live in the service's database (``rules-db://``, see
``rules_index.corrections.rate_limits``), so they hold across workers and machines; config
``RATELIMIT_STORAGE_URI`` picks another storage of the ``limits`` library. Limits count per client
address (the forwarded one behind a trusted proxy, see ``front.py``); logins also per account.
"""
from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf import CSRFProtect

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


def init_app(app: Flask) -> None:
    app.config["SECRET_KEY"] = secret_key(app)
    # Flask's defaults hold these keys already (SameSite None, Secure off): set them outright.
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_SECURE"] = bool(app.config.get("SESSION_COOKIE_SECURE")) or os.environ.get("RULES_HTTPS") == "1"
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config.setdefault("SUBMISSION_RATE_LIMIT", "20 per minute;200 per day")
    app.config.setdefault("LOGIN_RATE_LIMIT", "10 per minute")
    if app.config.setdefault("RATELIMIT_STORAGE_URI", rate_limits.STORAGE_URI) == rate_limits.STORAGE_URI:
        # The engine is looked up per request: each app counts in its own database.
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"engine": db.engine})
    csrf.init_app(app)
    limiter.init_app(app)
