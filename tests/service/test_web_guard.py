"""What a player on the same network cannot do to the dashboard: be another site, guess the token,
frame the page, or leave the token in an address."""

from __future__ import annotations

import http.client
import urllib.parse

import pytest

from controller.service.web.guard import MAX_FAILURES, REFEREE_COOKIE


@pytest.fixture
def web_table(table_factory):
    return table_factory(web=True)


def raw(table, method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None):
    parts = urllib.parse.urlsplit(table.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read().decode(errors="replace")
    result = response.status, {k.lower(): v for k, v in response.getheaders()}, data
    connection.close()
    return result


def test_every_page_carries_the_security_headers(web_table):
    for path in ("/", "/api/state", "/static/dashboard.js", "/api/nowhere"):
        status, headers, _ = raw(web_table, "GET", path)
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff", path


def test_an_unknown_host_name_is_refused(web_table):
    """A page elsewhere that points its own name at this machine (DNS rebinding) reads nothing."""
    port = urllib.parse.urlsplit(web_table.url).port
    status, _, body = raw(web_table, "GET", "/api/state", {"Host": f"evil.example:{port}"})
    assert status == 400 and "not served under that name" in body
    assert raw(web_table, "GET", "/api/state", {"Host": f"localhost:{port}"})[0] == 200


def test_a_request_from_another_site_is_refused_even_with_the_token(web_table):
    port = urllib.parse.urlsplit(web_table.url).port
    headers = {"Authorization": f"Bearer {web_table.token}", "Content-Type": "application/json",
               "Origin": "http://evil.example"}
    status, _, body = raw(web_table, "POST", "/api/game/undo", headers, '{"count": 1}')
    assert status == 403 and "another site" in body
    headers["Origin"] = f"http://127.0.0.1:{port}"
    assert raw(web_table, "POST", "/api/game/abort", headers, "{}")[0] == 200


def test_an_empty_post_still_needs_its_json_content_type(web_table):
    status, _, body = raw(web_table, "POST", "/api/game/abort",
                          {"Authorization": f"Bearer {web_table.token}", "Content-Type": "text/plain"}, "")
    assert status == 415 and "send JSON" in body
    assert web_table.state["status"] == "playing"


def test_a_link_with_the_token_becomes_a_cookie_and_a_clean_address(web_table):
    status, headers, _ = raw(web_table, "GET", f"/?token={web_table.token}")
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"{REFEREE_COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    value = cookie.split(";")[0]
    status, _, _ = raw(web_table, "POST", "/api/game/abort", {"Cookie": value, "Content-Type": "application/json"}, "{}")
    assert status == 200
    assert raw(web_table, "GET", "/?token=wrong-token-0000000")[0] == 403


def test_wrong_tokens_are_limited_per_client(web_table):
    headers = {"Authorization": "Bearer not-the-token-000", "Content-Type": "application/json"}
    statuses = [raw(web_table, "POST", "/api/game/abort", headers, "{}")[0] for _ in range(MAX_FAILURES + 2)]
    assert statuses[:MAX_FAILURES] == [403] * MAX_FAILURES and statuses[-1] == 429
    good = {"Authorization": f"Bearer {web_table.token}", "Content-Type": "application/json"}
    status, _, body = raw(web_table, "POST", "/api/game/abort", good, "{}")
    assert status == 429 and "wait a minute" in body, "the right token waits out the block too"
    assert web_table.state["status"] == "playing"


def test_errors_name_no_file_on_disk(web_table, tmp_path):
    status, _, body = raw(web_table, "GET", "/api/games/42")
    assert status == 404 and "no game number 42" in body
    assert str(tmp_path) not in body and ".db" not in body


@pytest.mark.parametrize("token", ["short", "1234567890abcdef01234"])
def test_a_short_token_is_refused(token):
    from controller.service.auth import make_token

    with pytest.raises(ValueError, match="at least 22 characters"):
        make_token(token)


def test_the_referees_code_is_shown_on_the_pis_own_screen_only(web_table):
    status, headers, body = raw(web_table, "GET", "/api/referee/qr.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml" and "<svg" in body
    # the same request from another device of the network (its address other than this machine's)
    from controller.service.web import create_app

    import asyncio
    import json

    app = create_app(web_table.session, web_table.hub, web_table.token, hosts=["testserver"])
    scope = {"type": "http", "method": "GET", "path": "/api/referee/qr.svg", "raw_path": b"/api/referee/qr.svg",
             "query_string": b"", "headers": [(b"host", b"testserver")], "client": ("192.168.1.50", 5000),
             "server": ("testserver", 80), "scheme": "http", "http_version": "1.1", "root_path": ""}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 403
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert "Pi's own screen" in json.loads(body)["error"]


def test_the_token_is_kept_in_a_file_only_its_user_reads_and_out_of_the_journal(tmp_path, monkeypatch):
    import io
    import os
    import stat

    from controller.service.config import ServiceConfig
    from controller.service.runner import announce_token

    class Server:
        port = 8080

    out = io.StringIO()
    monkeypatch.setenv("INVOCATION_ID", "0123456789abcdef")
    path = announce_token("a-token-of-twenty-two-chars", Server(), ServiceConfig(), out, "start, abort")
    assert path.read_text().strip() == "a-token-of-twenty-two-chars"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert "a-token-of-twenty-two-chars" not in out.getvalue() and str(path) in out.getvalue()
    monkeypatch.delenv("INVOCATION_ID")
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    out = io.StringIO()
    announce_token("a-token-of-twenty-two-chars", Server(), ServiceConfig(), out, "start, abort")
    assert "a-token-of-twenty-two-chars" in out.getvalue(), "a person at the terminal is shown the token"
