"""DIRECTOR.toml's [broadcast] section: the spectators' delay and the public pages' language, checked at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.director.config import BroadcastSettings, DirectorConfigError, load

from .test_command import write

BROKER = 'broker = "mqtt://127.0.0.1:1883"\ncredentials = "cred.txt"\n'


def test_the_broadcast_section(tmp_path: Path) -> None:
    assert load(write(tmp_path, 'event = "e1"\n')).broadcast == BroadcastSettings(0, 0.0, "")
    config = load(write(tmp_path, 'event = "e1"\n', BROKER + '[broadcast]\ndelay_moves = 2\nlanguage = "de"\n'))
    assert config.broadcast == BroadcastSettings(2, 0.0, "de")
    config = load(write(tmp_path, 'event = "e1"\n', BROKER + "[broadcast]\ndelay_seconds = 90\n"))
    assert config.broadcast.delay_seconds == 90.0


@pytest.mark.parametrize(("section", "message"), [
    ("delay_moves = -1", r"\[broadcast\] delay_moves: a whole number from 0 to 50, not -1"),
    ("delay_seconds = 7200", r"\[broadcast\] delay_seconds: seconds from 0 to 3600, not 7200"),
    ("delay_moves = 1\ndelay_seconds = 30", r"\[broadcast\]: delay_moves or delay_seconds, not both"),
    ('language = "fr"', r"\[broadcast\] language: \"en\" or \"de\", not 'fr'"),
    ("delay = 3", r"\[broadcast\] delay: unknown key"),
])
def test_a_wrong_broadcast_section_says_file_key_and_why(tmp_path: Path, section: str, message: str) -> None:
    with pytest.raises(DirectorConfigError, match=message):
        load(write(tmp_path, 'event = "e1"\n', f"{BROKER}[broadcast]\n{section}\n"))


def test_the_events_language_is_the_directors_pages_and_the_public_pages_unless_broadcast_says(tmp_path: Path) \
        -> None:
    plain = load(write(tmp_path, 'event = "e1"\n'))
    assert (plain.pages_language, plain.broadcast_language) == ("en", "")  # public pages follow each table
    german = load(write(tmp_path, 'event = "e1"\nlanguage = "de"\n'))
    assert (german.pages_language, german.broadcast_language) == ("de", "de")
    mixed = load(write(tmp_path, 'event = "e1"\nlanguage = "de"\n', BROKER + '[broadcast]\nlanguage = "en"\n'))
    assert (mixed.pages_language, mixed.broadcast_language) == ("de", "en")
    with pytest.raises(DirectorConfigError, match=r"\[director\] language: \"en\" or \"de\", not 'fr'"):
        load(write(tmp_path, 'event = "e1"\nlanguage = "fr"\n'))
