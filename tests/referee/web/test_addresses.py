"""The start-up message's addresses: what the page listens on, and what a phone can open."""

from __future__ import annotations

import socket

import pytest

from referee.web import addresses
from referee.web.addresses import CannotServe, check_bind, page_urls


def test_every_interface_is_said_as_such_and_the_phones_get_the_pis_addresses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "interface_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    listen, urls = page_urls("0.0.0.0", 8080)
    assert listen == "every address of this machine (0.0.0.0), port 8080"
    assert urls == ["http://192.168.1.23:8080/", "http://10.0.0.5:8080/"]  # not 127.0.0.1: no phone opens that


def test_loopback_only_says_so() -> None:
    assert page_urls("127.0.0.1", 8080) == ("127.0.0.1, port 8080 (this machine only)", ["http://127.0.0.1:8080/"])
    # A German table says it in German (the terminal's start line was English inside a German sentence).
    assert page_urls("127.0.0.1", 8080, "de") == ("127.0.0.1, Port 8080 (nur dieser Rechner)",
                                                  ["http://127.0.0.1:8080/"])
    assert page_urls("0.0.0.0", 8080, "de")[0].startswith("jede Adresse dieses Rechners (0.0.0.0), Port 8080")


def test_the_interfaces_are_read_without_loopback() -> None:
    found = addresses.interface_addresses()
    assert all(not a.startswith("127.") for a in found)
    assert all(socket.inet_aton(a) for a in found)


def test_a_port_in_use_is_not_a_configuration_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(CannotServe, match=f"port {port} is already in use") as exc:
            check_bind("127.0.0.1", port)
    assert not exc.value.config_error  # the old referee may be stopping: systemd tries again
