"""Which pages may open the play server's WebSocket (issue 38, class 9: DNS rebinding).

A page of another site whose name was made to resolve to the server sends ``Host`` and
``Origin`` alike (``evil.example:PORT``): comparing the two let it in.  The server compares
``Origin`` with its own names instead: the loopback names at the port it listens on, and
those given with ``--allowed-origin``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from spitemalice.cli import main
from spitemalice.errors import SpiteMaliceError
from spitemalice.server.app import allowed_origins
from tests.serving import LiveServer


def opens(server: LiveServer, **headers: str) -> bool:
    """Whether a WebSocket with ``headers`` is let in (it is answered a catalog)."""
    try:
        with server.client(**headers) as client:
            return bool(client.ask({"type": "catalog"})["type"] == "catalog")
    except Exception:  # refused: an HTTP 403 at the handshake, or closed at once
        return False


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    origins = {"origins": ["https://play.example.org", "http://10.0.0.5:8000"]}
    with LiveServer(tmp_path_factory.mktemp("records"), connections=origins) as live:
        yield live


def test_a_rebound_name_is_refused_though_it_matches_the_host(server: LiveServer) -> None:
    rebound = f"evil.example:{server.port}"
    assert not opens(server, Origin=f"http://{rebound}", Host=rebound)


@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:{port}", "http://localhost:{port}", "HTTP://LOCALHOST:{port}",
    "https://play.example.org", "https://play.example.org:443", "http://10.0.0.5:8000",
])
def test_the_servers_own_names_are_let_in(server: LiveServer, origin: str) -> None:
    assert opens(server, Origin=origin.format(port=server.port))


@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:{other}", "http://localhost", "https://127.0.0.1:{port}",
    "http://play.example.org", "https://play.example.org:8443", "http://10.0.0.5",
    "https://play.example.org.evil.example", "null", "file://", "http://evil.example",
    "http://127.0.0.1:{port}/path", "http://user@127.0.0.1:{port}",
])
def test_other_origins_are_refused(server: LiveServer, origin: str) -> None:
    assert not opens(server, Origin=origin.format(port=server.port, other=server.port + 1))


def test_a_program_without_an_origin_is_let_in(server: LiveServer) -> None:
    assert opens(server)


@pytest.mark.parametrize("origin", ["play.example.org", "https://play.example.org/x",
                                    "ftp://play.example.org", "https://", "null",
                                    "https://a:b@play.example.org", "http://h:99999"])
def test_an_allowed_origin_that_is_not_one_is_refused_by_name(origin: str) -> None:
    with pytest.raises(SpiteMaliceError, match="is not an origin: give scheme://host"):
        allowed_origins([origin])


def test_allowed_origins_refuses_a_bare_string() -> None:
    with pytest.raises(TypeError, match="allowed_origins takes origins"):
        allowed_origins("https://play.example.org")


def test_serve_refuses_a_bad_allowed_origin_before_it_listens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--port", "0", "--records", str(tmp_path),
                 "--allowed-origin", "play.example.org"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith('spitemalice: error: --allowed-origin "play.example.org" is not an '
                          "origin: give scheme://host[:port]")
    assert len(err.splitlines()) == 1  # refused before the server said where it listens
