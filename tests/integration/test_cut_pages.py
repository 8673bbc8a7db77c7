"""A page whose database fails under it reads as broken, never as a whole 200. The database is made
to fail mid-result: MariaDB's max_statement_time, set globally to 1 ms, aborts the 16,000-row query
after its first rows have gone out, with an error in place of the rest. An app that streams its rows
(PHP, the servlets, Go) has then sent its 200 and part of the table, and must cut the connection
before the chunked body's last chunk; one that builds its page from every row first (Node.js, Rust)
answers 503."""
import http.client
import socket

import pytest

from stack import registry

from .conftest import send

STATEMENT_LIMIT_S = 0.001
LAST_CHUNK = b"\r\n0\r\n\r\n"
# Pages asked of an app after the test until one is whole: each may meet one dropped connection.
RECOVERY_PAGES = 8


def raw_reply(app):
    """The reply to one 16,000-row page, read to the connection's end, as bytes."""
    request = registry.request(app, "large", engine="innodb")
    with socket.create_connection(("127.0.0.1", request.port), timeout=30) as client:
        client.sendall(f"GET {request.path} HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n".encode())
        received = b""
        while chunk := client.recv(65536):
            received += chunk
    return received


def html_apps_with_a_database():
    return [app for app in registry.apps() if registry.app(app)["kind"] == "html" and registry.reads_database(app)]


def unlimited(db, statement, check=True):
    """A statement of the test's own, in a session exempt from the global limit: a new session takes
    the 1 ms, which even a read of the process list can exceed on a slow machine."""
    return db.sql(f"SET SESSION max_statement_time = 0; {statement}", check=check)


def drop_app_connections(db):
    """The apps' connections, pooled or kept by a PHP worker, dropped: each app reconnects into a
    session that takes the global settings of now."""
    for connection in unlimited(db, "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'lab_app'").split():
        unlimited(db, f"KILL {connection}", check=False)  # it may have ended on its own


@pytest.fixture
def failing_statements(db):
    """Every session's statements aborted after STATEMENT_LIMIT_S, and after the test none: a session
    keeps the value it began with, so the apps' connections are dropped both times, and each app is
    asked for pages until it answers whole again, so that no later test meets a session of the test's."""
    db.sql(f"SET GLOBAL max_statement_time = {STATEMENT_LIMIT_S}")
    try:
        drop_app_connections(db)
        yield
    finally:
        unlimited(db, "SET GLOBAL max_statement_time = 0")
        drop_app_connections(db)
        for app in html_apps_with_a_database():
            for _ in range(RECOVERY_PAGES):
                try:
                    if send(registry.request(app, "large", engine="innodb")).status == 200:
                        break
                except (http.client.HTTPException, OSError):
                    continue  # a page cut by a connection that was dropped under it


@pytest.mark.parametrize("app", html_apps_with_a_database())
def test_a_page_the_database_failed_under_is_cut_or_refused_never_whole(stack, failing_statements, app):
    # Two pages: the first may be the one whose dropped connection its app found and replaced.
    for reply in (raw_reply(app), raw_reply(app)):
        head, _, body = reply.partition(b"\r\n\r\n")
        status = head.split(b"\r\n")[0]
        if status.startswith(b"HTTP/1.1 200"):
            assert b"chunked" in head.lower() and not body.endswith(LAST_CHUNK), (
                f"{app} sent a whole 200 ({len(body):,} bytes) over a failed query")
            assert b"<tr><td>" in body, f"{app}'s cut page holds no row: {body[-200:]!r}"
        else:
            assert status.startswith(b"HTTP/1.1 503") and b"database unavailable" in body, (app, reply[:300])
