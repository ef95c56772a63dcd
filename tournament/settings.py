"""Where the broker is and who we are on it: the ``[tournament]`` section of a table's file, checked.

Pure and standard library: `referee.config` calls `parse_table_section` and turns a `SettingsError` into
its ConfigError (file, ``tournament.KEY``, reason), and the director builds a `BrokerSettings` the same way
from its own file. Passwords never live in the TOML: `credentials` names a file holding one line
``user:password`` (mode 0600, like any secret on the Pi), read when the settings are checked, so a missing
or unreadable file stops the table at start, not at the first publish.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tournament import topics

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


class SettingsError(ValueError):
    """A wrong key of the tournament settings: `key` (without the section) and `reason`."""

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"{key}: {reason}")


@dataclass(frozen=True)
class BrokerSettings:
    """How to reach and log in to the broker. `password` is kept out of repr (logs, tracebacks)."""

    host: str
    port: int
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    username: str = ""
    password: str = field(default="", repr=False)

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


@dataclass(frozen=True)
class TableLinkSettings:
    """A table's place in the tournament: broker, event id and table number."""

    broker: BrokerSettings
    event: str
    table: int


def parse_broker_url(url: Any) -> tuple[str, int, bool]:
    """``mqtt://host[:port]`` or ``mqtts://host[:port]`` -> (host, port, tls); ValueError with the reason."""
    if not isinstance(url, str) or not url:
        raise ValueError("must be the broker's URL, e.g. \"mqtt://hall-broker.local:1883\" or \"mqtts://host:8883\"")
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(f"{url!r}: the scheme must be mqtt:// or mqtts:// (TLS), not {parts.scheme or 'none'!r}")
    if parts.username or parts.password:
        raise ValueError(f"{url!r}: put the user and password in the credentials file, not in the URL")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{url!r}: only a host and a port, no path or query")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{url!r}: the port must be a number from 1 to 65535") from None
    if not parts.hostname:
        raise ValueError(f"{url!r}: no host name")
    return parts.hostname, port or DEFAULT_PORTS[parts.scheme], parts.scheme == "mqtts"


def read_credentials(path: Path) -> tuple[str, str]:
    """The one ``user:password`` line of a credentials file (blank lines and ``#`` comments ignored)."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark (Notepad) is no part of the user name
    except OSError as exc:
        raise ValueError(f"cannot read the credentials file {str(path)!r} ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ValueError(f"the credentials file {str(path)!r} is not UTF-8 text") from None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) != 1 or ":" not in lines[0] or lines[0].startswith(":") or lines[0].endswith(":"):
        raise ValueError(f"the credentials file {str(path)!r} must hold one line \"user:password\"")
    user, password = lines[0].split(":", 1)
    return user, password


def _readable(key: str, value: Any) -> Path:
    if not isinstance(value, str) or not value:
        raise SettingsError(key, "must be a file path in quotes")
    p = Path(value).expanduser()
    if not p.is_file():
        raise SettingsError(key, f"{str(p)!r} is not a readable file")
    return p


KEYS = ("broker", "event", "table", "credentials", "ca_file", "cert_file", "key_file")


def parse_broker(section: Mapping[str, Any], *, allowed: tuple[str, ...] = KEYS) -> BrokerSettings:
    """The broker keys of a section (broker, credentials, ca_file, cert_file, key_file), checked."""
    for key in section:
        if key not in allowed:
            raise SettingsError(key, f"unknown key; the section takes {', '.join(allowed)}")
    if "broker" not in section:
        raise SettingsError("broker", "missing: the broker's URL, e.g. \"mqtt://hall-broker.local:1883\"")
    try:
        host, port, tls = parse_broker_url(section["broker"])
    except ValueError as exc:
        raise SettingsError("broker", str(exc)) from None
    if "credentials" not in section:
        raise SettingsError("credentials", "missing: a file with one line \"user:password\" for the broker "
                                           "(never the password itself in this file)")
    cred_path = section["credentials"]
    if not isinstance(cred_path, str) or not cred_path:
        raise SettingsError("credentials", "must be a file path in quotes")
    try:
        user, password = read_credentials(Path(cred_path).expanduser())
    except ValueError as exc:
        raise SettingsError("credentials", str(exc)) from None
    ca = _readable("ca_file", section["ca_file"]) if "ca_file" in section else None
    cert = _readable("cert_file", section["cert_file"]) if "cert_file" in section else None
    key_path = _readable("key_file", section["key_file"]) if "key_file" in section else None
    if not tls:
        for name, value in (("ca_file", ca), ("cert_file", cert), ("key_file", key_path)):
            if value is not None:
                raise SettingsError(name, "is for TLS: use an mqtts:// broker URL, or leave it out")
    if (cert is None) != (key_path is None):
        raise SettingsError("key_file" if key_path is None else "cert_file",
                            "a client certificate needs both cert_file and key_file")
    return BrokerSettings(host, port, tls, ca, cert, key_path, user, password)


def parse_table_section(section: Mapping[str, Any]) -> TableLinkSettings:
    """The ``[tournament]`` section of a table's file; raises SettingsError(key, reason) at the first wrong key."""
    broker = parse_broker(section)
    for key in ("event", "table"):
        if key not in section:
            raise SettingsError(key, "missing" + (": the event id, e.g. \"open-2026\"" if key == "event"
                                                  else ": this table's number in the hall, 1 to 9999"))
    try:
        event = topics.check_event_id(section["event"])
    except topics.TopicError as exc:
        raise SettingsError("event", str(exc)) from None
    try:
        table = topics.check_table(section["table"])
    except topics.TopicError as exc:
        raise SettingsError("table", str(exc)) from None
    return TableLinkSettings(broker, event, table)
