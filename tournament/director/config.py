"""DIRECTOR.toml: the director's one configuration file, checked at start with file, key and reason.

Secrets never sit in the TOML itself: the director credential and the broker's `user:password` are read from
files named there (mode 600 on a shared laptop), so the configuration can be shown, copied and versioned.
The [broker] section takes the same keys as a table's [tournament] section (tournament/settings.py): broker,
credentials, ca_file, cert_file, key_file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tournament import topics
from tournament.settings import BrokerSettings, SettingsError, parse_broker

BROKER_KEYS = ("broker", "credentials", "ca_file", "cert_file", "key_file")


class DirectorConfigError(ValueError):
    """A DIRECTOR.toml that cannot be used: says the file, the key and why."""


@dataclass(frozen=True)
class DirectorConfig:
    event: str
    name: str
    host: str
    port: int
    credential: str | None  # None: commands are off (there is no default credential)
    state_dir: Path
    broker: BrokerSettings
    feature: list[int] = field(default_factory=list)
    tsh_file: Path | None = None  # tsh's tourney.js: the next round's pairings loaded when tsh pairs it
    tsh_offsets: dict[str, int] = field(default_factory=dict)  # division -> table number offset
    tsh_entry: str = "scores"  # tsh's `config entry`: the form of the score lines
    bye_spread: int = 50  # tsh's `config bye_spread`
    broadcast: BroadcastSettings = field(default_factory=lambda: BroadcastSettings())
    language: str = ""  # the event's language: the director's pages, and the public pages unless [broadcast] says

    @property
    def pages_language(self) -> str:
        """The language of the director's own pages (the hall, one table): English unless the event's is set."""
        return self.language or "en"

    @property
    def broadcast_language(self) -> str:
        """The public pages' language: [broadcast] language, else the event's; "" (neither): each page follows the
        language of the table it shows."""
        return self.broadcast.language or self.language


@dataclass(frozen=True)
class BroadcastSettings:
    """[broadcast]: the spectators' delay (moves or seconds) and the language of the public pages."""

    delay_moves: int = 0
    delay_seconds: float = 0.0
    language: str = ""  # "": each page follows the language of the table it shows


def _broadcast(raw: dict[str, Any], path: Path) -> BroadcastSettings:
    moves, seconds, language = raw.get("delay_moves", 0), raw.get("delay_seconds", 0), raw.get("language", "")
    if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= 50:
        raise DirectorConfigError(f"{path}: [broadcast] delay_moves: a whole number from 0 to 50, not {moves!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds <= 3600:
        raise DirectorConfigError(f"{path}: [broadcast] delay_seconds: seconds from 0 to 3600, not {seconds!r}")
    if moves and seconds:
        raise DirectorConfigError(f"{path}: [broadcast]: delay_moves or delay_seconds, not both")
    if language not in ("", "en", "de"):
        raise DirectorConfigError(f"{path}: [broadcast] language: \"en\" or \"de\", not {language!r}")
    return BroadcastSettings(moves, float(seconds), language)


def _secret(path: Path, base: Path, where: str) -> str:
    full = path if path.is_absolute() else base / path
    try:
        text = full.read_text(encoding="utf-8-sig").strip()  # a byte-order mark (Notepad) is no part of a key
    except OSError as exc:
        raise DirectorConfigError(f"{where}: cannot read {full} ({exc.strerror or exc})") from None
    if not text:
        raise DirectorConfigError(f"{where}: {full} is empty")
    return text


def load(path: str | Path) -> DirectorConfig:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark (Notepad) is skipped
    except OSError as exc:
        raise DirectorConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DirectorConfigError(f"{path}: not valid TOML ({exc})") from None
    base = path.resolve().parent
    director: dict[str, Any] = raw.get("director") or {}
    broker: dict[str, Any] = raw.get("broker") or {}
    known = {"director": {"event", "name", "host", "port", "credential_file", "state_dir", "feature", "tsh_file",
                          "tsh_offsets", "tsh_entry", "bye_spread", "language"},
             "broadcast": {"delay_moves", "delay_seconds", "language"}}
    for section, keys in known.items():
        extra = set(raw.get(section) or {}) - keys
        if extra:
            raise DirectorConfigError(f"{path}: [{section}] {sorted(extra)[0]}: unknown key "
                                      f"(known: {', '.join(sorted(keys))})")
    extra_sections = set(raw) - {"director", "broker", "broadcast"}
    if extra_sections:
        raise DirectorConfigError(f"{path}: [{sorted(extra_sections)[0]}]: unknown section "
                                  f"(known: director, broker, broadcast)")
    try:
        event = topics.check_event_id(director.get("event", ""))
    except topics.TopicError as exc:
        raise DirectorConfigError(f"{path}: [director] event: {exc}") from None
    port = director.get("port", 8090)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise DirectorConfigError(f"{path}: [director] port: a port number (0 to 65535), not {port!r}")
    feature = director.get("feature", [])
    if not isinstance(feature, list) or not all(isinstance(t, int) and 1 <= t <= topics.MAX_TABLE for t in feature):
        raise DirectorConfigError(f"{path}: [director] feature: a list of table numbers, not {feature!r}")
    tsh_entry = director.get("tsh_entry", "scores")
    if tsh_entry not in ("scores", "both", "spread"):
        raise DirectorConfigError(f"{path}: [director] tsh_entry: tsh's `config entry` of the event, one of scores, "
                                  f"both, spread; not {tsh_entry!r}")
    language = director.get("language", "")
    if language not in ("", "en", "de"):
        raise DirectorConfigError(f"{path}: [director] language: \"en\" or \"de\", not {language!r}")
    bye_spread = director.get("bye_spread", 50)
    if isinstance(bye_spread, bool) or not isinstance(bye_spread, int):
        raise DirectorConfigError(f"{path}: [director] bye_spread: a whole number (tsh's default is 50), not "
                                  f"{bye_spread!r}")
    credential = None
    if "credential_file" in director:
        credential = _secret(Path(director["credential_file"]), base, f"{path}: [director] credential_file")
        if len(credential) < 8:
            raise DirectorConfigError(f"{path}: [director] credential_file: the credential needs 8 characters or "
                                      f"more (it guards every table)")
    if not broker:
        raise DirectorConfigError(f"{path}: [broker]: missing: the broker's URL and the director's credentials file")
    try:
        config = parse_broker({k: str(base / v) if k != "broker" and isinstance(v, str) and not Path(v).is_absolute()
                               else v for k, v in broker.items()}, allowed=BROKER_KEYS)
    except SettingsError as exc:
        raise DirectorConfigError(f"{path}: [broker] {exc}") from None
    state_dir = Path(director.get("state_dir", "director-state"))
    tsh_file = director.get("tsh_file")
    if tsh_file is not None and (not isinstance(tsh_file, str) or not tsh_file.strip()):
        raise DirectorConfigError(f"{path}: [director] tsh_file: the path of tsh's tourney.js, not {tsh_file!r}")
    offsets = director.get("tsh_offsets", {})
    if not isinstance(offsets, dict) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                                for v in offsets.values()):
        raise DirectorConfigError(f"{path}: [director] tsh_offsets: a table number offset per division, like "
                                  f"{{B = 100}}, not {offsets!r}")
    return DirectorConfig(event, str(director.get("name") or event), str(director.get("host", "127.0.0.1")), port,
                          credential, state_dir if state_dir.is_absolute() else base / state_dir, config,
                          list(feature), None if tsh_file is None else base / Path(tsh_file),
                          {str(k).upper(): int(v) for k, v in offsets.items()}, tsh_entry, bye_spread,
                          _broadcast(raw.get("broadcast") or {}, path), language)
