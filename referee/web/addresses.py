"""Where the page can be reached: the addresses of this Pi a phone can open, and a check that the
configured address and port can be served at all, made before the referee opens a game for them.

The start-up message once said http://127.0.0.1:8080/ while the page listened on every interface: true for
the Pi itself, useless for the phones. It now says what the page listens on and which addresses to open.
"""

from __future__ import annotations

import errno
import fcntl
import ipaddress
import socket
import struct

from game.errors import RefereeError
from referee.words import say

_SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


class CannotServe(RefereeError, OSError):
    """The page's address or port cannot be served. `config_error` when only a changed file can mend it."""

    def __init__(self, message: str, *, config_error: bool) -> None:
        super().__init__(message)
        self.config_error = config_error


def check_bind(host: str, port: int) -> None:
    """Raise `CannotServe` unless a listening socket on `host`:`port` can be opened now (it is closed again)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CannotServe(f"web.host: {host!r} is not an address of this Pi ({exc.strerror}); use \"0.0.0.0\" "
                          "(every interface) or one of its IP addresses", config_error=True) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CannotServe(f"web.port: port {port} is already in use by another program (another "
                                  "referee?); stop it or choose another port", config_error=False) from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise CannotServe(f"web.host: {host} is not (yet) an address of this Pi; is the network up?",
                                  config_error=False) from None
            if exc.errno == errno.EACCES:
                raise CannotServe(f"web.port: port {port} needs privileges the referee does not have; use a "
                                  "port above 1023 (8080)", config_error=True) from None
            raise CannotServe(f"web.host/web.port: cannot listen on {host}:{port} ({exc.strerror or exc})",
                              config_error=False) from None


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, private ones first (what phones on the club's
    network can open). Read from the interfaces themselves: no packet is sent."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue  # down, or no IPv4 address
            address = socket.inet_ntoa(raw[20:24])
            if not ipaddress.ip_address(address).is_loopback and address not in found:
                found.append(address)
    return sorted(found, key=lambda a: (not ipaddress.ip_address(a).is_private,
                                        ipaddress.ip_address(a).is_link_local))


def page_urls(host: str, port: int, language: str = "en") -> tuple[str, list[str]]:
    """What the page listens on (for people, in the table's language) and the URLs to open, best first."""
    if host in ("0.0.0.0", "::", ""):
        urls = [f"http://{a}:{port}/" for a in interface_addresses()]
        where = say("terminal", "listens_everywhere", language, host=host or "0.0.0.0", port=port)
        return where, urls or [f"http://127.0.0.1:{port}/"]
    shown = f"[{host}]" if ":" in host else host
    here_only = host in ("127.0.0.1", "::1", "localhost")
    where = say("terminal", "listens_here_only" if here_only else "listens_on", language, host=host, port=port)
    return where, [f"http://{shown}:{port}/"]
