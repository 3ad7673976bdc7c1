"""Starting without reaching Discord (issue 12 item 12): no network or a refused token prints
one line saying what failed and what to do, and exits non-zero, never a traceback."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import aiohttp
import discord
import pytest

from bot import startup_failure
from tests.bot.test_startup import run_bot


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def answering(status: int) -> Iterator[str]:
    """A loopback HTTP server answering every request with ``status`` (a Discord-style error)."""

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            body = json.dumps({"message": f"{status}: refused by the test", "code": 0}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _one_line(done) -> str:
    assert "Traceback" not in done.stderr + done.stdout
    ours = [line for line in done.stderr.splitlines() if line.startswith("dragon-tavern:")]
    assert len(ours) == 1, done.stderr
    return ours[0]


def test_no_network_is_one_line_and_a_non_zero_exit(tmp_path):
    done = run_bot(tmp_path, DISCORD_TOKEN="x", DT_FAKE_DISCORD_URL=f"http://127.0.0.1:{_closed_port()}")
    assert done.returncode == 1
    line = _one_line(done)
    assert "could not reach Discord" in line and "network" in line


def test_a_refused_token_is_one_line(tmp_path):
    with answering(401) as url:
        done = run_bot(tmp_path, DISCORD_TOKEN="x", DT_FAKE_DISCORD_URL=url)
    assert done.returncode == 2
    assert "Discord refused DISCORD_TOKEN" in _one_line(done)


def test_another_http_error_at_login_is_one_line(tmp_path):
    with answering(403) as url:
        done = run_bot(tmp_path, DISCORD_TOKEN="x", DT_FAKE_DISCORD_URL=url)
    assert done.returncode == 1
    assert "Discord answered HTTP 403" in _one_line(done)


class _Response:
    status, reason = 503, "Service Unavailable"


@pytest.mark.parametrize("error, expected", [
    (aiohttp.ClientConnectorDNSError(
        aiohttp.client_reqrep.ConnectionKey("discord.com", 443, True, True, None, None, None),
        OSError(-3, "Temporary failure in name resolution")), "could not reach Discord"),
    (TimeoutError(), "could not reach Discord (TimeoutError)"),
    (ConnectionResetError(104, "Connection reset by peer"), "could not reach Discord"),
    (discord.GatewayNotFound(), "gateway could not be found"),
    (discord.HTTPException(_Response(), "upstream"), "Discord answered HTTP 503"),
    (discord.LoginFailure("bad"), "refused DISCORD_TOKEN"),
])
def test_each_start_up_failure_has_its_line(error, expected):
    failure = startup_failure(error)
    assert failure is not None, error
    code, text = failure
    assert code != 0 and expected in text and "\n" not in text


def test_an_unexpected_error_keeps_its_traceback():
    assert startup_failure(ValueError("a bug")) is None
