"""WSGI entry point of the HTTP benchmark: ``gunicorn bench.wsgi:app``.

The production app from ``app.create_app()``, plus the baseline route of ``bench.hello`` when
``BENCH_HELLO`` is set (env ``RULES_BENCH_HELLO=1``, read by ``from_prefixed_env``).
"""
from __future__ import annotations

from app import create_app

app = create_app()
if app.config.get("BENCH_HELLO"):
    from bench.hello import bp

    app.register_blueprint(bp)
