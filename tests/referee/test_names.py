"""Names (players, the table) are one line of printable text: refused otherwise in the configuration,
and whatever a name holds, an exported record never gets a line it did not write."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.gcg import parse_gcg, write_gcg
from referee.config import ConfigError, parse_config
from referee.journal import Journal
from referee.sim.table import SimulatedTable, default_setup
from referee.table.records import export_gcg

ATTACK = "Anna\n>Anna: ZZZ 8H ZZZ +900 900\n>Ben: QQQ H8 .QQ +500 500"


def _config(players: list[str], table: str = "Table 1") -> object:
    return parse_config({"table": {"name": table}, "game": {"players": players}, "web": {"enabled": False},
                         "sensors": {"board": "emulator://"}})


@pytest.mark.parametrize("name", [ATTACK, "Anna\tB", "Ben\r", "Eve\x00", "Zoë\u2028Z"])
def test_a_player_name_of_more_than_one_printable_line_is_refused(name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _config([name, "Ben"])
    assert caught.value.key == "game.players"
    assert "player 1's name must be one line of printable text" in str(caught.value)


def test_a_table_name_with_a_line_break_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        _config(["Anna", "Ben"], table="Hall\n#player1 x y")
    assert caught.value.key == "table.name"
    assert "one line of printable text" in str(caught.value) and "'\\n'" in str(caught.value)


@pytest.mark.parametrize("second", ["Anna", "anna", " Anna ", "ANNA"])
def test_two_players_with_one_name_are_refused(second: str) -> None:
    with pytest.raises(ConfigError, match=r"players 1 and 3 are both called .*could not tell them apart"):
        _config(["Anna", "Ben", second])


def test_printable_names_stay_as_written() -> None:
    config = _config(["Zoë Müller", "Jean-Luc O'Neil"], table="Tisch 3 Nürnberg")
    assert config.game.players == ("Zoë Müller", "Jean-Luc O'Neil")  # type: ignore[attr-defined]


def test_the_exact_attack_writes_no_move_lines() -> None:
    """A game with no moves exported plays of +900 and +500 when a name held line breaks."""
    text = write_gcg([ATTACK, "Ben"], [], {"title": "Hall\n>Ben: X 8H X +1 1"})
    record = parse_gcg(text)
    assert record.moves == []
    assert not any(line.startswith(">") for line in text.splitlines())
    assert record.players[0].name == " ".join(ATTACK.split())


def test_a_journaled_game_under_such_names_exports_clean(tmp_path: Path) -> None:
    """A journal written before names were checked still exports, escaped, and loses nothing."""
    journal = Journal(tmp_path / "games.sqlite3")
    table = SimulatedTable(default_setup(players=(ATTACK, "Ben\n#note x"), table="T\n>x: A 8H A +1 1"),
                           words=["QUIZ"], journal=journal)
    table.control("start", {})
    table.play("8E QUIZ")
    assert table.game_id is not None
    record = parse_gcg(export_gcg(journal, table.game_id))
    journal.close()
    assert [(m.nick, m.move, m.score) for m in record.moves] == [(record.players[0].nick, "8E QUIZ", 44)]


def test_names_that_give_one_nickname_get_two() -> None:
    record = parse_gcg(write_gcg(["Anna B", "Anna_B"], [], {}))
    assert len({p.nick for p in record.players}) == 2


@pytest.mark.parametrize(("first", "second", "letter"), [
    ("Anna", "\u0410nna", "CYRILLIC CAPITAL LETTER A"),  # Cyrillic А
    ("anna", "ann\u0430", "CYRILLIC SMALL LETTER A"),
    ("Ben", "\u0392en", "GREEK CAPITAL LETTER BETA"),
    ("Cleo", "Cle\u03bf", "GREEK SMALL LETTER OMICRON"),
    ("Pete Roe", "\u0420ete R\u043ee", "CYRILLIC CAPITAL LETTER ER"),
    ("Joe", "\uff2a\uff4f\uff45", "FULLWIDTH LATIN CAPITAL LETTER J"),  # fullwidth letters
    ("Zoë", "Zo\u0451", "CYRILLIC SMALL LETTER IO"),  # Cyrillic ё
])
def test_players_whose_names_only_look_alike_are_refused_as_one_name(first: str, second: str, letter: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _config([first, second])
    message = str(caught.value)
    assert "players 1 and 2 are both called" in message and "could not tell them apart" in message
    assert f"look-alike letters ({letter}" in message and "\n" not in message


@pytest.mark.parametrize("names", [["Zoë", "Zoe"], ["Jan", "Ján"], ["Ирина", "Ivan"], ["Νίκος", "Nikos"],
                                   ["Anna", "Anne"]])
def test_names_that_differ_to_the_eye_stay_apart(names: list[str]) -> None:
    assert _config(names).game.players == tuple(names)  # type: ignore[attr-defined]


def test_the_director_cannot_seat_two_players_whose_names_look_alike() -> None:
    from referee.table.api import ControlError

    table = SimulatedTable(default_setup())
    for pair, code in ((["Anna", "anna "], "next_game_same_name"), (["Anna", "\u0410nna"], "next_game_lookalike_name")):
        with pytest.raises(ControlError) as caught:
            table.next_game(pair, 0, by="director", command_id=f"seat-{pair[1]}")
        assert caught.value.code == code and "could not tell them apart" in str(caught.value)
    assert "CYRILLIC CAPITAL LETTER A" in caught.value.text("de") and "gleich aussehenden" in caught.value.text("de")
    snap = table.next_game(["Cleo", "Dan"], 0, by="director", command_id="seat-ok")
    assert [p["name"] for p in snap["players"]] == ["Cleo", "Dan"]
