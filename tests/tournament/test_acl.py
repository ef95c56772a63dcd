"""`referee hall logins` (once `python -m tournament.acl`): a hall's ACL, password file and credentials."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main as referee_main
from tournament.acl import parse_tables
from tournament.settings import read_credentials
from tournament.testing.broker import mosquitto_path


def test_table_ranges() -> None:
    assert parse_tables("1-3,7,5-5") == [1, 2, 3, 5, 7]
    with pytest.raises(ValueError, match="'x' is not a number"):
        parse_tables("1-3,x")
    with pytest.raises(ValueError, match="'4-2'"):
        parse_tables("4-2")


@pytest.mark.skipif(mosquitto_path() is None, reason="mosquitto_passwd is not installed")
def main(args: list[str]) -> int:
    """`referee hall logins` (it was `python -m tournament.acl`, which the system Python could not run)."""
    return referee_main(["hall", "logins", *args])


def test_the_hall_files_are_written_and_passwords_kept_on_a_rerun(tmp_path: Path) -> None:
    args = ["--event", "open-2026", "--tables", "1-3", "--acl", str(tmp_path / "acl"), "--passwords",
            str(tmp_path / "passwd"), "--credentials-dir", str(tmp_path / "creds")]
    assert main(args) == 0
    user, pw = read_credentials(tmp_path / "creds" / "table-2.credentials")
    assert user == "table-2" and len(pw) >= 20
    assert (tmp_path / "creds" / "table-2.credentials").stat().st_mode & 0o777 == 0o600
    hashed = (tmp_path / "passwd").read_text().splitlines()
    assert len(hashed) == 5 and all(line.split(":", 1)[1].startswith("$7$") for line in hashed)
    assert "user table-3" in (tmp_path / "acl").read_text()
    assert main([*args[:3], "1-4", *args[4:]]) == 0  # a table added: the others keep their passwords
    assert read_credentials(tmp_path / "creds" / "table-2.credentials") == (user, pw)


def test_a_bad_event_id_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--event", "a b", "--tables", "1", "--acl", str(tmp_path / "a"), "--passwords",
                 str(tmp_path / "p"), "--credentials-dir", str(tmp_path / "c")]) == 2
    assert "referee hall: " in (err := capsys.readouterr().err) and "event id 'a b'" in err


def test_a_credentials_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "table-2.credentials"
    path.write_bytes(b"\xef\xbb\xbftable-2:s3cret\r\n")
    assert read_credentials(path) == ("table-2", "s3cret")


def test_a_central_acl_gives_each_bridge_its_own_venue_only() -> None:
    from tournament.acl import central_acl_text, parse_venues

    venues = parse_venues(["open-2026-hall-a=venue-hall-a", "open-2026-hall-b=venue-hall-b"])
    text = central_acl_text(venues)
    block = text.split("user venue-hall-a\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert block and all("open-2026-hall-a/" in line for line in block)
    own = text.split("user director-open-2026-hall-b\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert own == ["topic readwrite scrabble/open-2026-hall-b/#"]  # each venue's director its own login
    with pytest.raises(ValueError, match="EVENT_ID=BRIDGE_LOGIN"):
        parse_venues(["open-2026-hall-a"])
    with pytest.raises(ValueError, match="share a bridge login"):
        central_acl_text({"a": "same", "b": "same"})


def test_the_central_brokers_files_from_the_command_line(tmp_path: Path) -> None:
    import shutil

    from referee.cli import main as referee

    def main(args: list[str]) -> int:
        return referee(["hall", "logins", *args])

    if shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto_passwd is not installed")
    args = ["--venue", "open-2026-hall-a=venue-hall-a", "--venue", "open-2026-hall-b=venue-hall-b",
            "--acl", str(tmp_path / "central.acl"), "--passwords", str(tmp_path / "central.passwd"),
            "--credentials-dir", str(tmp_path / "creds")]
    assert main(args) == 0
    made = sorted(p.name for p in (tmp_path / "creds").iterdir())
    assert made == sorted(f"{u}.credentials" for u in ("director", "viewer", "director-open-2026-hall-a",
                                                       "director-open-2026-hall-b", "venue-hall-a", "venue-hall-b"))
    assert "user venue-hall-b" in (tmp_path / "central.acl").read_text(encoding="utf-8")
    assert main(["--acl", "a", "--passwords", "p", "--credentials-dir", "c"]) == 2  # neither a hall nor venues
