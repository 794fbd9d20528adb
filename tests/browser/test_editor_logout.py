"""An editor's logout ends the session on the server: a browser holding a saved copy of the
session cookie is sent back to the login page."""
from __future__ import annotations


def log_in(page, base: str) -> None:
    page.goto(f"{base}/editor/login")
    page.fill("input[name=name]", "anna")
    page.fill("input[name=password]", "a-long-editor-password")
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_url(f"{base}/editor/")


def test_a_saved_cookie_is_refused_after_logout(browser, page, live_server):
    log_in(page, live_server)
    saved = page.context.storage_state()
    with page.expect_navigation(url=f"{live_server}/editor/login"):
        page.locator("form[action$='/editor/logout'] button").click()

    replay = browser.new_context(storage_state=saved)
    try:
        other = replay.new_page()
        other.goto(f"{live_server}/editor/")
        assert "/editor/login" in other.url
        assert other.locator("input[name=password]").count() == 1
    finally:
        replay.close()


def test_two_browsers_keep_their_own_sessions(browser, page, live_server):
    log_in(page, live_server)
    second = browser.new_context()
    try:
        other = second.new_page()
        log_in(other, live_server)
        with other.expect_navigation(url=f"{live_server}/editor/login"):
            other.locator("form[action$='/editor/logout'] button").click()
        page.goto(f"{live_server}/editor/")
        assert page.url == f"{live_server}/editor/"
    finally:
        second.close()
