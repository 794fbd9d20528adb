"""gunicorn settings of ``make serve``; address, workers and threads come from the environment.

RULES_BIND           address to listen on (default 127.0.0.1:8000)
RULES_WORKERS        worker processes (default: one per CPU, at least 2)
RULES_THREADS        threads per worker (default 8)
RULES_INSTANCE_PATH  the instance folder (default ./instance): gunicorn's control socket lives there

gunicorn has no time limit for reading a request's head: a client that sends it slowly holds a
thread for as long as it likes, and a few dozen such clients hold them all. In production the
server belongs behind nginx (or a proxy like it), which reads each request whole before passing
it on (README, "Serving in production"; the tested configuration is deploy/nginx.conf). Trusted
proxies are configured in the app (RULES_PROXY_HOPS), not here.
"""
import gc
import hashlib
import os
import tempfile

wsgi_app = "app:create_app()"
bind = os.environ.get("RULES_BIND", "127.0.0.1:8000")


def _count(name: str, default: int) -> int:
    """A count of at least 1 from the environment; anything else stops the start, named (0 workers
    listened and never answered)."""
    value = os.environ.get(name) or str(default)
    if not value.strip().isdigit() or int(value) < 1:
        raise SystemExit(f"{name}: a whole number, 1 or more, not {value!r}")
    return int(value)


workers = _count("RULES_WORKERS", max(2, os.cpu_count() or 1))
worker_class = "gthread"
threads = _count("RULES_THREADS", 8)

timeout = 30  # a worker silent this long is restarted
graceful_timeout = 20  # on stop or reload, requests in flight get this long to finish
keepalive = 5  # seconds an idle kept-alive connection may wait for its next request

# gunicorn would otherwise believe X-Forwarded-Proto from any client on loopback; werkzeug's
# ProxyFix, switched on by RULES_PROXY_HOPS, is the one place that trusts forwarded headers.
forwarded_allow_ips = ""
secure_scheme_headers = {}

accesslog = "-"

# One control socket per instance (gunicorn's default is one per user, in the home folder): in the
# instance folder, or, where that path is too long for a Unix socket (108 bytes), in a folder of
# the temporary folder named after the instance.
_instance = os.path.abspath(os.environ.get("RULES_INSTANCE_PATH") or "instance")
os.makedirs(_instance, exist_ok=True)
control_socket = os.path.join(_instance, "gunicorn.ctl")
if len(os.fsencode(control_socket)) > 100:
    _short = os.path.join(tempfile.gettempdir(), "rules-index-" + hashlib.sha256(_instance.encode()).hexdigest()[:16])
    os.makedirs(_short, mode=0o700, exist_ok=True)
    control_socket = os.path.join(_short, "gunicorn.ctl")


def post_worker_init(worker):
    """Everything a worker holds once it has loaded the app (its modules' functions, classes and
    tables: about 190,000 objects) lives as long as the worker. Frozen, it is left out of the
    collector's full passes, which stop every thread of the worker: each accept starts one (new
    content means many new objects), and without the freeze a pass took about 140 ms of every
    reader's time. bench/RESULTS.md, "A worker's collector" has the measurement. Each snapshot
    the worker serves later is frozen when it is put in place (``rules_index.web.state``)."""
    gc.freeze()
