"""Driving the site's forms from tests: CSRF tokens, field values, the editor login."""
from __future__ import annotations

import re
from html import unescape

EDITOR, PASSWORD = "anna", "a-long-editor-password"


def csrf_token(html: str) -> str:
    match = re.search(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"', html) or re.search(r'<input[^>]*value="([^"]+)"[^>]*name="csrf_token"', html)
    return match.group(1)


def form_values(html: str, names) -> dict:
    values = {}
    for name in names:
        m = re.search(rf'<textarea[^>]*name="{name}"[^>]*>(.*?)</textarea>', html, re.S)
        if m:
            values[name] = unescape(m.group(1)).removeprefix("\r\n").removeprefix("\n")
            continue
        m = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html)
        values[name] = unescape(m.group(1)) if m else ""
    return values


def login(client, name=EDITOR, password=PASSWORD, next_url="/editor/"):
    token = csrf_token(client.get("/editor/login").get_data(as_text=True))
    return client.post("/editor/login", data={"csrf_token": token, "name": name, "password": password, "next": next_url})


def confirm_held(client) -> list[int]:
    """As the logged-in editor of ``client``, confirm every change waiting for a second editor in
    the queue (the Confirm buttons); returns the ids confirmed."""
    import re as _re

    page = client.get("/editor/").get_data(as_text=True)
    ids = [int(i) for i in _re.findall(r'action="/editor/held/(\d+)/confirm"', page)]
    for held in ids:
        response = client.post(f"/editor/held/{held}/confirm", data={"csrf_token": csrf_token(page)})
        assert response.status_code in (302, 303), response.status_code
    return ids


def second_editor(app):
    """A client logged in as a second editor (made on first use), to confirm held changes."""
    from apptools import SECOND_EDITOR, SECOND_PASSWORD
    from rules_index.corrections.db import session
    from rules_index.corrections.editors import add_editor
    from rules_index.corrections.models import Editor

    with app.app_context():
        if session().query(Editor).filter_by(name=SECOND_EDITOR).first() is None:
            add_editor(session(), SECOND_EDITOR, SECOND_PASSWORD)
    client = app.test_client()
    assert login(client, name=SECOND_EDITOR, password=SECOND_PASSWORD).status_code == 302
    return client
