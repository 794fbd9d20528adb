"""Flask application factory of the rules service (``flask --app app run``)."""
from __future__ import annotations

import logging
import os
from pathlib import Path

from flask import Flask

from rules_index.web import settings

ROOT = Path(__file__).resolve().parent
LOG_FORMAT = "[%(asctime)s] %(levelname)s %(name)s: %(message)s"


def _log_to_stderr() -> None:
    """Log lines carry their time and source, and the service's own notices (a follow or the
    database working again) are kept, not only its warnings. Set before the app exists, as Flask's
    logging docs advise; a process that configured logging itself keeps its own."""
    if not logging.getLogger().handlers:
        logging.basicConfig(format=LOG_FORMAT, level=logging.WARNING)
        logging.getLogger("rules_index").setLevel(logging.INFO)


def create_app(test_config: dict | None = None) -> Flask:
    _log_to_stderr()
    instance_path = (test_config or {}).get("INSTANCE_PATH") or os.environ.get("RULES_INSTANCE_PATH")
    app = Flask(
        __name__, instance_path=instance_path, instance_relative_config=True,
        template_folder="templates", static_folder="static",
    )
    app.config.from_mapping(
        CONTENT_DIR=str(ROOT / "content"),
        INDEX_DIR=os.path.join(app.instance_path, "index"),
        MAX_CONTENT_LENGTH=1024 * 1024,  # bodies over 1 MiB get 413 before they are read
    )
    if test_config is None:
        app.config.from_prefixed_env("RULES")
        for warning in settings.misspelled(os.environ, app.default_config):
            logging.getLogger("rules_index").warning(warning)
    else:
        app.config.from_mapping(test_config)
    # RULES_CONTENT_REPO: another work tree laid out as this one; its content/ folder is served.
    if app.config.get("CONTENT_REPO") and not (test_config or {}).get("CONTENT_DIR"):
        app.config["CONTENT_DIR"] = os.path.join(app.config["CONTENT_REPO"], "content")
    os.makedirs(app.instance_path, exist_ok=True)
    app.json.sort_keys = False  # keep the documented field order in API answers

    from rules_index import cli, web
    from rules_index.corrections import recovery
    from rules_index.web.publishing import publish

    web.init_app(app)
    cli.init_app(app)
    # Each process settles accepts a dead one left open, and brings a stale index in line, on its first request.
    recovery.init_app(app, lambda: publish(holding_lock=True))  # it holds the content lock
    return app

