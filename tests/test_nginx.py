"""The README's nginx configuration (deploy/nginx.conf), served as ``make serve`` runs behind it:
gunicorn with gunicorn.conf.py and RULES_PROXY_HOPS=1, nginx with the repository's file on loopback
(stress/proxy.py swaps in the listen addresses and the upstream, and drops the certificate lines).

Slow request heads do not block readers, the app sees each client's own address and no address
a client claims, nginx turns a burst of login posts away itself, and http redirects to https.
Skipped when nginx is not installed.
"""
from __future__ import annotations

import http.client
import threading
import time

import pytest

from servertools import HOST, server_env, serving
from stress.attacks import slowloris
from stress.proxy import Nginx, nginx_binary

pytestmark = [pytest.mark.slow,  # gunicorn and nginx servers
              pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (apt-get install nginx)")]

SLOW_CLIENTS = 150  # gunicorn.conf.py has 2 workers x 8 threads here: a tenth of these would hold them all
SLOW_SECONDS = 8
READER_DEADLINE = 2.0  # seconds a reader may wait while the slow clients trickle


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("nginx")
    env = server_env(base / "instance", f"sqlite:///{base / 'corrections.sqlite3'}", PROXY_HOPS="1",
                     SUBMISSION_RATE_LIMIT="2 per minute", LOGIN_RATE_LIMIT="1000 per minute",
                     LOGIN_ADDRESS_RATE_LIMIT="1000 per minute", LOGIN_GLOBAL_RATE_LIMIT="1000 per minute")
    with serving(env, base) as server, Nginx(base / "nginx", server.port) as nginx:
        yield nginx


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            source: str = HOST, timeout: float = 30) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_slow_request_heads_do_not_block_readers(site):
    for _ in range(8):  # every worker has loaded the content before the slow clients come
        assert request(site.port, "GET", "/en/")[0] == 200
    summary = {}
    attack = threading.Thread(target=lambda: summary.update(slowloris(site.port, SLOW_CLIENTS, SLOW_SECONDS)))
    attack.start()
    time.sleep(2)  # every slow client is connected and trickling
    waits = []
    while attack.is_alive() and len(waits) < 20:
        start = time.monotonic()
        try:
            status = request(site.port, "GET", "/en/", timeout=READER_DEADLINE + 1)[0]
        except TimeoutError:
            status = None  # no answer at all: recorded as the time waited
        waits.append(time.monotonic() - start)
        assert status in (200, None)
        time.sleep(0.2)
    attack.join(SLOW_SECONDS + 30)
    print("reader waits (s):", " ".join(f"{wait:.3f}" for wait in waits), "attack:", summary)
    assert summary["max_open"] == SLOW_CLIENTS and summary["connect_failures"] == 0  # the attack was real
    assert len(waits) >= 5
    assert max(waits) < READER_DEADLINE, waits


def test_the_app_counts_each_client_by_its_own_address(site):
    payload = b'{"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de", "message": "Bitte pr\\u00fcfen"}'

    def submit(source: str, claimed: str | None = None) -> int:
        headers = {"Content-Type": "application/json"}
        if claimed:
            headers["X-Forwarded-For"] = claimed
        return request(site.port, "POST", "/api/v1/corrections", payload, headers, source=source)[0]

    # 2 a minute per address: nginx's X-Forwarded-For names each client, whatever it claims.
    assert [submit("127.0.0.2", f"192.0.2.{i}") for i in range(3)] == [201, 201, 429]
    assert [submit("127.0.0.3") for _ in range(3)] == [201, 201, 429]


def test_nginx_answers_a_burst_of_login_posts_itself(site):
    # The app's own login limits are lifted here: every 429 below is nginx's. A post without a
    # CSRF token is refused by the app (400) at no cost, so each 400 is a post that reached it.
    answers = [request(site.port, "POST", "/editor/login", b"name=a&password=b",
                       {"Content-Type": "application/x-www-form-urlencoded"}, source="127.0.0.4") for _ in range(14)]
    statuses = [status for status, _headers, _body in answers]
    assert statuses == [400] * 11 + [429] * 3  # one, then a burst of 10; 30 a minute after that
    assert b"nginx" in answers[-1][2]
    assert request(site.port, "GET", "/editor/login", source="127.0.0.4")[0] == 200  # the form is not limited
    assert request(site.port, "POST", "/editor/login", b"name=a&password=b",
                   {"Content-Type": "application/x-www-form-urlencoded"}, source="127.0.0.5")[0] == 400  # another address


def test_http_redirects_to_https(site):
    status, headers, _body = request(site.redirect_port, "GET", "/en/search?q=dieb", headers={"Host": "rules.example.org"})
    assert status == 301 and headers["Location"] == "https://rules.example.org/en/search?q=dieb"
