"""A reader's report is stored once, whatever the browser does: reloading the thanks page repeats
nothing (the form's answer is a redirect), and clicking "Send report" again while the first post is
under way sends the form twice but stores one report (the form's single-use token).

Runs on its own server, whose report posts take half a second (a slow line): the second click
comes while the first post is still under way, as it does for a reader who clicks again because
nothing seems to happen. (A double click as one gesture sends one post: Chromium drops the
first of two submissions planned in the same moment.)
"""
from __future__ import annotations

import shutil
import threading
import time
import uuid

import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select
from werkzeug.serving import make_server

from app import ROOT

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
SLOW_POST_S = 0.5


@pytest.fixture(scope="module")
def reports_server(tmp_path_factory):
    from flask import request

    from apptools import make_app

    base = tmp_path_factory.mktemp("reports")
    shutil.copytree(ROOT / "content", base / "content")
    app = make_app(base / "instance", base / "content", SUBMISSION_RATE_LIMIT="1000 per minute")
    app.config["TESTING"] = False

    @app.before_request
    def slow_line():
        if request.method == "POST" and request.path.endswith("/correction"):
            time.sleep(SLOW_POST_S)

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def reports_saying(app, message: str) -> int:
    from rules_index.corrections.db import session
    from rules_index.corrections.models import Report

    with app.app_context():
        return session().scalar(select(func.count()).select_from(Report).where(Report.message == message))


def fill_in(page, base: str) -> tuple[str, list]:
    """Opens the report form and fills it in with a message of its own; returns the message and
    the list the form posts the page sends are collected in."""
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(f"{base}/en/{GAME}/faq/{FAQ}/correction")
    message = f"The tie-break sentence reads oddly ({uuid.uuid4().hex[:8]})."
    page.get_by_label("What is wrong?").fill(message)
    return message, posts


def test_reloading_the_thanks_page_stores_nothing_more(page, reports_server):
    app, base = reports_server
    message, posts = fill_in(page, base)
    page.get_by_role("button", name="Send report").click()
    expect(page.locator("h1")).to_have_text("Thank you for your report")
    thanks = page.url
    for _ in range(2):
        page.reload()
        expect(page.locator("h1")).to_have_text("Thank you for your report")
    assert reports_saying(app, message) == 1
    assert len(posts) == 1 and page.url == thanks  # a reload asks for the thanks page, it sends nothing again


def test_a_second_click_on_send_stores_one_report(page, reports_server):
    app, base = reports_server
    message, posts = fill_in(page, base)
    send = page.get_by_role("button", name="Send report")
    send.scroll_into_view_if_needed()
    box = send.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # The mouse, not the locator: a locator's click would wait for the first post's page.
    page.mouse.click(x, y)
    page.wait_for_timeout(SLOW_POST_S * 1000 / 3)  # nothing seems to happen yet
    page.mouse.click(x, y)
    expect(page.locator("h1")).to_have_text("Thank you for your report")
    deadline = time.monotonic() + 10
    while reports_saying(app, message) == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2 * SLOW_POST_S)  # a second post still under way is stored (or not) by now
    assert len(posts) == 2  # the browser did send the form twice
    assert reports_saying(app, message) == 1
