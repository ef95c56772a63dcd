"""`referee hall init`: every file a hall needs, written at once into one folder.

Setting up a hall by hand took about a hundred steps (docs/director.md, docs/tournament-network.md): the
broker's configuration, its password file and ACL, a credentials file per table, an edit and a restart per
table, the director's key and configuration. `write_kit` writes them all from one description (`HallPlan`):

    DIR/hall.toml                      what was asked (`referee hall start` reads it)
    DIR/broker/tournament.conf         for /etc/mosquitto/conf.d/ on the hall's broker
    DIR/broker/tournament.acl          the ACL: a table writes only its own topics
    DIR/broker/tournament.passwd       the logins, hashed by mosquitto_passwd
    DIR/broker/trial.conf              the same broker on this machine, for `referee hall start`
    DIR/tables/table-N/table.toml      table N's configuration ([tournament] filled in, a PIN of its own)
    DIR/tables/table-N/broker.credentials   its login, "table-N:PASSWORD" (mode 0600)
    DIR/director/director.toml         the director's configuration
    DIR/director/director.key          the director key the page asks for (mode 0600)
    DIR/director/director.credentials  the director's broker login (mode 0600)
    DIR/viewer.credentials             a read-only login for a hall display
    DIR/sheets/table-N.png             a sheet to print and put on table N: its PIN and the page as a QR code

A table folder is copied as it is to the Pi's /etc/referee/ (`table.toml` and `broker.credentials`). With
`trial=True` the tables are instead one machine's: an emulated sensor board, the page on 127.0.0.1 at
`page_port + N`, the state and the credentials inside DIR, so `referee run --config DIR/tables/table-N/table.toml`
runs each one beside `referee hall start DIR`.

Running init again on the same folder keeps every login and PIN already written (a table added later does
not log the others out, and a printed sheet stays true); the configurations are written anew.
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.pin_policy import weak_pin_reason
from tournament import topics
from tournament.acl import DIRECTOR_USER, VIEWER_USER, acl_text, table_user, write_password_file

MAX_TABLES = 999  # a hall; the network allows 9999 table numbers, a folder of 10,000 sheets helps nobody
_DIVISION = re.compile(r"[A-Za-z0-9]{1,8}")


class HallError(ValueError):
    """A hall that cannot be written as asked: says which option and why."""


@dataclass(frozen=True)
class Division:
    name: str
    first: int  # its first table number
    count: int

    @property
    def tables(self) -> range:
        return range(self.first, self.first + self.count)


@dataclass(frozen=True)
class HallPlan:
    """What `referee hall init` was asked for (the defaults are a real hall's)."""

    tables: int
    event: str = "hall"
    name: str = ""
    divisions: tuple[Division, ...] = ()
    broker_host: str = "hall-broker.local"
    broker_port: int = 1883
    director_port: int = 8090
    page_url: str = "http://table-{n}.local:8080/"  # what a phone opens: the QR code on table N's sheet
    lexicon: str = "enable"
    language: str = "en"
    trial: bool = False
    page_port: int = 8100  # trial: table N's page on 127.0.0.1:page_port+N

    def division_of(self, table: int) -> str:
        return next((d.name for d in self.divisions if table in d.tables), "")

    def url_of(self, table: int) -> str:
        if self.trial:
            return f"http://127.0.0.1:{self.page_port + table}/"
        return self.page_url.replace("{n}", str(table))


def parse_divisions(text: str, tables: int) -> tuple[Division, ...]:
    """``"A:12,B:8"`` -> division A on tables 1-12, B on 13-20; the counts must add up to `tables`."""
    out: list[Division] = []
    first = 1
    for part in text.split(","):
        name, sep, count_text = part.strip().partition(":")
        if not sep or not _DIVISION.fullmatch(name) or not count_text.isdigit() or int(count_text) < 1:
            raise HallError(f"--divisions {text!r}: {part.strip()!r} is not NAME:TABLES (e.g. A:12), a name of 1-8 "
                            "letters or digits and a number of tables")
        if any(d.name == name.upper() for d in out):
            raise HallError(f"--divisions {text!r}: division {name.upper()} is named twice")
        out.append(Division(name.upper(), first, int(count_text)))
        first += int(count_text)
    total = sum(d.count for d in out)
    if total != tables:
        raise HallError(f"--divisions {text!r}: the divisions have {total} tables, --tables says {tables}")
    return tuple(out)


def check_plan(plan: HallPlan) -> None:
    if not 1 <= plan.tables <= MAX_TABLES:
        raise HallError(f"--tables {plan.tables}: give 1 to {MAX_TABLES} tables")
    try:
        topics.check_event_id(plan.event)
    except topics.TopicError as exc:
        raise HallError(f"--event {plan.event!r}: {exc}") from None
    for flag, port in (("--broker-port", plan.broker_port), ("--director-port", plan.director_port)):
        if not 1 <= port <= 65535:
            raise HallError(f"{flag} {port}: a port number, 1 to 65535")
    if plan.trial and not (plan.page_port >= 1024 and plan.page_port + plan.tables <= 65535):
        raise HallError(f"--page-port {plan.page_port}: the trial's pages need ports {plan.page_port + 1} to "
                        f"{plan.page_port + plan.tables}, within 1024 to 65535")
    if not plan.trial and "{n}" not in plan.page_url:
        raise HallError(f"--page-url {plan.page_url!r}: put {{n}} where the table's number goes, e.g. "
                        "http://table-{n}.local:8080/")
    if '"' in plan.lexicon or "\n" in plan.lexicon:
        raise HallError(f"--lexicon {plan.lexicon!r}: a lexicon name or a path, without quotes or line breaks")


# --- secrets kept across runs ----------------------------------------------------------------------------

def _write_secret(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    path.chmod(0o600)


def _kept_login(path: Path, user: str) -> str | None:
    if not path.is_file():
        return None
    name, _, password = path.read_text(encoding="utf-8").strip().partition(":")
    return password if name == user and password else None


def new_pin() -> str:
    """A random 6-digit table PIN the configuration accepts (no run, no repeat, not the example's)."""
    while True:
        pin = f"{secrets.randbelow(10**6):06d}"
        if weak_pin_reason(pin) is None:
            return pin


def _kept_pin(config: Path) -> str | None:
    try:
        pin = tomllib.loads(config.read_text(encoding="utf-8")).get("web", {}).get("pin")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return pin if isinstance(pin, str) and weak_pin_reason(pin) is None else None


# --- the files -------------------------------------------------------------------------------------------

def _q(text: str | Path) -> str:
    """A TOML basic string."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def table_toml(plan: HallPlan, n: int, pin: str, folder: Path) -> str:
    division = plan.division_of(n)
    title = f"Table {n}" + (f" (division {division})" if division else "")
    if plan.trial:
        board, host, port = "emulator://15x15?coded=1&buttons=2", "127.0.0.1", plan.page_port + n
        state, credentials, broker = folder / "state", folder / "broker.credentials", f"127.0.0.1:{plan.broker_port}"
    else:
        board, host, port = "/dev/ttyACM0", "0.0.0.0", 8080
        state, credentials = Path("/var/lib/referee"), Path("/etc/referee/broker.credentials")
        broker = f"{plan.broker_host}:{plan.broker_port}"
    note = ("# A one-machine trial table (referee hall init --trial): an emulated board, the page on this machine."
            if plan.trial else
            "# Copy this folder to the Pi's /etc/referee/ (table.toml and broker.credentials, mode 0600, owned by\n"
            "# the referee's user); add its [hardware] section (docs/hardware-timer.md) and restart the referee.")
    return f"""# {title} of {plan.name or plan.event}: written by `referee hall init` (docs/director.md).
{note}
# Every key: docs/configuration.md.

[table]
name = {_q(f"Table {n}")}
language = {_q(plan.language)}
state_dir = {_q(state)}

[game]
lexicon = {_q(plan.lexicon)}
edition = {_q("german" if plan.language == "de" else "english")}

[clocks]
mode = "tournament"

[sensors]
board = {_q(board)}

[web]
enabled = true
host = {_q(host)}
port = {port}
pin = {_q(pin)}                   # printed on sheets/table-{n}.png

[tournament]
broker = {_q("mqtt://" + broker)}
event = {_q(plan.event)}
table = {n}
credentials = {_q(credentials)}
"""


def director_toml(plan: HallPlan) -> str:
    host = "127.0.0.1" if plan.trial else plan.broker_host
    return f"""# The director of {plan.name or plan.event}: `referee director --config director.toml`
# (docs/director.md).
# Paths are relative to this file. The key and the broker login are in their own files (mode 0600).

[director]
event = {_q(plan.event)}
name = {_q(plan.name or plan.event)}
host = {_q("127.0.0.1" if plan.trial else "0.0.0.0")}
port = {plan.director_port}
credential_file = "director.key"
state_dir = "state"

[broker]
broker = {_q(f"mqtt://{host}:{plan.broker_port}")}
credentials = "director.credentials"
"""


def broker_conf(plan: HallPlan, acl: Path, passwd: Path) -> str:
    """The hall broker's conf.d file: the shipped systemd/mosquitto/tournament.conf with this hall's port."""
    return f"""# Mosquitto for {plan.name or plan.event}: copy to /etc/mosquitto/conf.d/tournament.conf, with
# {acl.name} and {passwd.name} to /etc/mosquitto/ (docs/tournament-network.md), then restart mosquitto.
per_listener_settings false
listener {plan.broker_port}
allow_anonymous false
password_file /etc/mosquitto/{passwd.name}
acl_file /etc/mosquitto/{acl.name}
autosave_interval 10
max_queued_messages 200000
max_inflight_messages 100
message_size_limit 262144
set_tcp_nodelay true
"""


def trial_conf(plan: HallPlan, broker_dir: Path) -> str:
    """The same broker on this machine, as whoever runs `referee hall start` (root too: Mosquitto run as root
    switches to the `mosquitto` user, who cannot read a folder in a home directory). A trial listens on
    loopback only; a hall folder's broker on every interface, for a hall whose broker is the director's laptop."""
    me = pwd.getpwuid(os.getuid()).pw_name
    where = " 127.0.0.1" if plan.trial else ""  # a trial on loopback; a hall's tables reach this laptop's broker
    return f"""# The hall's broker on this machine: `referee hall start` runs it ({"loopback only" if plan.trial else
    "every interface: the tables connect to it"}).
listener {plan.broker_port}{where}
allow_anonymous false
user {me}
password_file {broker_dir / "tournament.passwd"}
acl_file {broker_dir / "tournament.acl"}
persistence true
persistence_location {broker_dir / "data"}/
autosave_interval 10
max_queued_messages 200000
max_inflight_messages 100
message_size_limit 262144
set_tcp_nodelay true
log_dest file {broker_dir / "mosquitto.log"}
log_type error
log_type warning
log_type notice
"""


def hall_toml(plan: HallPlan) -> str:
    divisions = "".join(f"\n[[division]]\nname = {_q(d.name)}\nfirst = {d.first}\ncount = {d.count}\n"
                        for d in plan.divisions)
    return f"""# What `referee hall init` was asked for; `referee hall start` reads it. Run init again to change it.
event = {_q(plan.event)}
name = {_q(plan.name or plan.event)}
tables = {plan.tables}
trial = {"true" if plan.trial else "false"}
broker_port = {plan.broker_port}
director_port = {plan.director_port}
{divisions}"""


@dataclass
class Kit:
    """What `write_kit` wrote: the folder, each table's PIN and page, the director's page."""

    folder: Path
    pins: dict[int, str]
    urls: dict[int, str]
    director_url: str
    files: list[Path]


def write_kit(plan: HallPlan, out: Path) -> Kit:
    """Write every file of the module docstring into `out` (created); see there for what is kept on a rerun."""
    check_plan(plan)
    out = out.resolve()
    broker_dir, director_dir, sheets_dir = out / "broker", out / "director", out / "sheets"
    for d in (broker_dir / "data", director_dir, sheets_dir):
        d.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    numbers = list(range(1, plan.tables + 1))
    logins: dict[str, str] = {}
    login_files = {DIRECTOR_USER: director_dir / "director.credentials", VIEWER_USER: out / "viewer.credentials"}
    login_files.update({table_user(n): out / "tables" / table_user(n) / "broker.credentials" for n in numbers})
    for user, path in login_files.items():
        logins[user] = _kept_login(path, user) or secrets.token_urlsafe(18)
        _write_secret(path, f"{user}:{logins[user]}")
        files.append(path)
    acl, passwd = broker_dir / "tournament.acl", broker_dir / "tournament.passwd"
    acl.write_text(acl_text(plan.event, numbers) + "\n", encoding="utf-8")
    write_password_file(passwd, logins)
    (broker_dir / "tournament.conf").write_text(broker_conf(plan, acl, passwd), encoding="utf-8")
    (broker_dir / "trial.conf").write_text(trial_conf(plan, broker_dir), encoding="utf-8")
    files += [acl, passwd, broker_dir / "tournament.conf", broker_dir / "trial.conf"]
    key = director_dir / "director.key"
    if not key.is_file() or len(key.read_text(encoding="utf-8").strip()) < 8:
        _write_secret(key, secrets.token_urlsafe(12))
    (director_dir / "director.toml").write_text(director_toml(plan), encoding="utf-8")
    files += [key, director_dir / "director.toml"]
    pins: dict[int, str] = {}
    urls: dict[int, str] = {}
    from referee.hall.sheets import write_sheet

    for n in numbers:
        folder = out / "tables" / table_user(n)
        config = folder / "table.toml"
        pins[n] = _kept_pin(config) or new_pin()
        urls[n] = plan.url_of(n)
        config.write_text(table_toml(plan, n, pins[n], folder), encoding="utf-8")
        config.chmod(0o600)  # it holds the PIN
        sheet = sheets_dir / f"{table_user(n)}.png"
        write_sheet(sheet, table=n, pin=pins[n], url=urls[n], event=plan.name or plan.event,
                    division=plan.division_of(n))
        files += [config, sheet]
    (out / "hall.toml").write_text(hall_toml(plan), encoding="utf-8")
    files.append(out / "hall.toml")
    host = "127.0.0.1" if plan.trial else "DIRECTOR-LAPTOP"
    return Kit(out, pins, urls, f"http://{host}:{plan.director_port}/", files)


def read_hall(folder: Path) -> dict[str, Any]:
    """DIR/hall.toml, as written by `write_kit`; HallError naming the file when it is not there or not one."""
    path = folder / "hall.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise HallError(f"{path}: cannot read it ({exc.strerror or exc}): is {folder} a folder written by "
                        "`referee hall init`?") from None
    except tomllib.TOMLDecodeError as exc:
        raise HallError(f"{path}: not valid TOML ({exc})") from None
    for key, kind in (("event", str), ("tables", int), ("broker_port", int), ("director_port", int)):
        if not isinstance(data.get(key), kind):
            raise HallError(f"{path}: {key}: missing or not a {kind.__name__} (write the folder again with "
                            "`referee hall init`)")
    return data
