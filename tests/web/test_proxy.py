"""Behind a trusted proxy (PROXY_HOPS=1) limits count the forwarded client and HSTS follows its scheme;
without the setting, forwarded headers change nothing."""
from __future__ import annotations

import pytest

from app import ROOT
from apptools import make_app

REPORT = {"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de", "message": "Bitte prüfen"}
PROXY = {"REMOTE_ADDR": "10.0.0.2"}  # nginx on another host connects from here, every time


def client_for(tmp_path, hops: int):
    app = make_app(tmp_path / "instance", ROOT / "content", PROXY_HOPS=hops, SUBMISSION_RATE_LIMIT="2 per minute")
    return app.test_client()


def submit(client, forwarded_for: str | None) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return client.post("/api/v1/corrections", json=REPORT, headers=headers, environ_base=PROXY).status_code


def test_with_one_hop_each_forwarded_client_has_its_own_count(tmp_path):
    client = client_for(tmp_path, hops=1)
    assert [submit(client, "198.51.100.1") for _ in range(3)] == [201, 201, 429]
    assert submit(client, "198.51.100.2") == 201


def test_with_one_hop_only_the_address_the_proxy_appended_counts(tmp_path):
    client = client_for(tmp_path, hops=1)
    # A client that sends its own X-Forwarded-For: nginx appends the real address behind it.
    codes = [submit(client, f"192.0.2.{i}, 198.51.100.7") for i in range(3)]
    assert codes == [201, 201, 429]


def test_without_hops_forwarded_addresses_are_ignored(tmp_path):
    client = client_for(tmp_path, hops=0)
    codes = [submit(client, f"198.51.100.{i}") for i in range(1, 4)]
    assert codes == [201, 201, 429]


@pytest.mark.parametrize(("hops", "hsts"), [(1, True), (0, False)])
def test_hsts_follows_the_scheme_the_proxy_forwarded(tmp_path, hops, hsts):
    client = client_for(tmp_path, hops=hops)
    response = client.get("/en/", headers={"X-Forwarded-Proto": "https"}, environ_base=PROXY)
    assert response.status_code == 200
    assert ("Strict-Transport-Security" in response.headers) is hsts
    plain = client.get("/en/", environ_base=PROXY)
    assert "Strict-Transport-Security" not in plain.headers
