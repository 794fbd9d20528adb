"""Secrets, sessions, CSRF and rate limits: the defaults a public site with a form needs."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf import CSRFProtect

csrf = CSRFProtect()
limiter = Limiter(key_func=get_remote_address, default_limits=[], storage_uri="memory://")


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


def init_app(app: Flask) -> None:
    app.config["SECRET_KEY"] = secret_key(app)
    # Flask's defaults hold these keys already (SameSite None, Secure off): set them outright.
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_SECURE"] = bool(app.config.get("SESSION_COOKIE_SECURE")) or os.environ.get("RULES_HTTPS") == "1"
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config.setdefault("SUBMISSION_RATE_LIMIT", "20 per minute;200 per day")
    app.config.setdefault("LOGIN_RATE_LIMIT", "10 per minute")
    csrf.init_app(app)
    limiter.init_app(app)
