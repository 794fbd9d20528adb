"""The HTTP baseline: the smallest route of the same app (same middleware, hooks and headers).

Registered only by ``bench.wsgi`` when the app config has ``BENCH_HELLO`` (``RULES_BENCH_HELLO=1``);
production code never imports it.
"""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("bench_hello", __name__)


@bp.get("/bench/hello")
def hello():
    return "hello\n", 200, {"Content-Type": "text/plain; charset=utf-8"}
