"""gunicorn settings of ``make serve``; address, workers and threads come from the environment.

RULES_BIND      address to listen on (default 127.0.0.1:8000; nginx proxies to it)
RULES_WORKERS   worker processes (default: one per CPU, at least 2)
RULES_THREADS   threads per worker (default 8)

Threaded workers: a client that sends its request slowly holds one thread, not a whole worker,
so a few slow clients cannot make the site unreachable (in production nginx buffers requests
in front, see README). Trusted proxies are configured in the app (RULES_PROXY_HOPS), not here.

Each worker, once it has loaded the app, moves what it has made so far out of the cyclic garbage
collector's reach (``post_worker_init``, see there).

RULES_PUBLISHER_WORKERS  publisher processes (default 1; 0: each worker publishes its accepts)

The publisher (``app.Publisher``, see ``rules_index.web.publisher``) is gunicorn's dirty app: a process of its own,
started, restarted and stopped with the server, that builds the index generation of each
accepted change so that the build does not share a worker's interpreter with its readers.
"""
import gc
import os

wsgi_app = "app:create_app()"
bind = os.environ.get("RULES_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("RULES_WORKERS") or max(2, os.cpu_count() or 1))
worker_class = "gthread"
threads = int(os.environ.get("RULES_THREADS") or 8)

timeout = 30  # a worker silent this long is restarted
graceful_timeout = 20  # on stop or reload, requests in flight get this long to finish
keepalive = 5  # seconds an idle kept-alive connection may wait for its next request

# gunicorn would otherwise believe X-Forwarded-Proto from any client on loopback; werkzeug's
# ProxyFix, switched on by RULES_PROXY_HOPS, is the one place that trusts forwarded headers.
forwarded_allow_ips = ""
secure_scheme_headers = {}

accesslog = "-"

dirty_apps = ["app:Publisher"]
dirty_workers = int(os.environ.get("RULES_PUBLISHER_WORKERS") or 1)
dirty_timeout = 120  # a publisher silent this long is restarted (a build takes a second or two)
# gunicorn names the dirty arbiter's pid file after proc_name and, at start, stops the process a
# file of that name points at as an orphan: two servers (other addresses, other instances) must
# not share it. The master's pid is this server's own; an orphan exits by itself anyway.
proc_name = f"rules-index-{os.getpid()}"

YOUNG_GENERATION_THRESHOLD = 10_000  # gc's default is 700 (see post_worker_init)


def post_worker_init(worker):
    """What a worker has made by now (the modules, their functions and classes, the app) lives as
    long as the worker: ``gc.freeze()`` leaves it out of the collector's full passes. Each pass
    walked it (about 120,000 objects, 60-70 ms on the project's 2-core machine) while every thread
    of the worker waited, and a published change brings a pass every few changes (a new library
    and index generation). Objects made later are collected as before.

    The young generation is collected every 10,000 new objects rather than every 700: a request
    under way when a collection runs has its objects moved to an older generation, and objects
    reaching the oldest bring its next full pass nearer. Served searches while changes were
    published: p99 47 ms against 82 ms (published apart) and 72 against 78 ms (accepted in a
    worker), 4 runs each, steady about the same."""
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, 20, 10)
