"""The [tournament] section of a table's file: checked at start, refused with file, key and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.config import ConfigError, load_config

BASE = """
[game]
players = ["Anna", "Ben"]
[sensors]
board = "emulator://15x15?coded=1&buttons=2"
[web]
pin = "730591"
"""


def write(tmp_path: Path, section: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(BASE + "[tournament]\n" + section, encoding="utf-8")
    return p


@pytest.fixture
def creds(tmp_path: Path) -> Path:
    p = tmp_path / "broker.credentials"
    p.write_text("# the broker login of table 7\ntable-7:s3cret\n", encoding="utf-8")
    return p


def test_a_good_section_is_read_with_the_credentials(tmp_path: Path, creds: Path) -> None:
    c = load_config(write(tmp_path, f'broker = "mqtt://hall.local"\nevent = "open-2026"\ntable = 7\n'
                                    f'credentials = "{creds}"\n'))
    t = c.tournament
    assert (t.broker.host, t.broker.port, t.broker.tls, t.event, t.table) == ("hall.local", 1883, False, "open-2026", 7)
    assert (t.broker.username, t.broker.password) == ("table-7", "s3cret")
    assert "s3cret" not in repr(t), "the password stays out of logs"


def test_without_the_section_the_table_has_no_broker(tmp_path: Path) -> None:
    p = tmp_path / "table.toml"
    p.write_text(BASE, encoding="utf-8")
    assert load_config(p).tournament is None


def test_tls_with_a_ca_file_and_a_client_certificate(tmp_path: Path, creds: Path) -> None:
    for name in ("ca.pem", "table.pem", "table.key"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    c = load_config(write(tmp_path, f'broker = "mqtts://hall.local"\nevent = "e"\ntable = 1\ncredentials = "{creds}"\n'
                                    f'ca_file = "{tmp_path / "ca.pem"}"\ncert_file = "{tmp_path / "table.pem"}"\n'
                                    f'key_file = "{tmp_path / "table.key"}"\n'))
    assert c.tournament.broker.tls and c.tournament.broker.port == 8883
    assert c.tournament.broker.cert_file == tmp_path / "table.pem"


@pytest.mark.parametrize(("section", "key", "reason"), [
    ('broker = "http://hall"\nevent = "e"\ntable = 1\ncredentials = "{creds}"\n', "tournament.broker", "mqtt://"),
    ('broker = "mqtt://u:p@hall"\nevent = "e"\ntable = 1\ncredentials = "{creds}"\n', "tournament.broker",
     "credentials file, not in the URL"),
    ('broker = "mqtt://hall:99999"\nevent = "e"\ntable = 1\ncredentials = "{creds}"\n', "tournament.broker", "port"),
    ('broker = "mqtt://hall"\nevent = "a/b"\ntable = 1\ncredentials = "{creds}"\n', "tournament.event", "topic level"),
    ('broker = "mqtt://hall"\nevent = "e"\ntable = 0\ncredentials = "{creds}"\n', "tournament.table", "1 to 9999"),
    ('broker = "mqtt://hall"\nevent = "e"\ncredentials = "{creds}"\n', "tournament.table", "missing"),
    ('broker = "mqtt://hall"\nevent = "e"\ntable = 1\n', "tournament.credentials", "missing"),
    ('broker = "mqtt://hall"\nevent = "e"\ntable = 1\ncredentials = "/nonexistent/creds"\n',
     "tournament.credentials", "cannot read the credentials file '/nonexistent/creds'"),
    ('broker = "mqtt://hall"\nevent = "e"\ntable = 1\ncredentials = "{creds}"\npassword = "x"\n',
     "tournament.password", "unknown key"),
    ('broker = "mqtt://hall"\nevent = "e"\ntable = 1\ncredentials = "{creds}"\nca_file = "{creds}"\n',
     "tournament.ca_file", "mqtts://"),
])
def test_a_wrong_key_names_file_key_and_reason(tmp_path: Path, creds: Path, section: str, key: str,
                                               reason: str) -> None:
    path = write(tmp_path, section.replace("{creds}", str(creds)))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.source == str(path)
    assert err.value.key == key
    assert reason in err.value.reason


def test_a_credentials_file_without_user_and_password_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "creds"
    bad.write_text("just-a-password\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="one line \"user:password\""):
        load_config(write(tmp_path, f'broker = "mqtt://hall"\nevent = "e"\ntable = 1\ncredentials = "{bad}"\n'))
