"""Pairings in: tsh's tourney.js (the fixture has the form of real files: JavaScript with `undefined`) and the CSV
for events without tsh."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament.pairings import (
    Pairing,
    PairingsError,
    display_name,
    parse_pairings_csv,
    parse_tourney_js,
    tourney_data,
    tsh_round,
)

FIXTURES = Path(__file__).with_name("fixtures")


def tourney_text() -> str:
    return (FIXTURES / "tourney.js").read_text(encoding="utf-8")


def test_tsh_names_are_said_first_name_first() -> None:
    assert display_name("Richards, Nigel:XT006003") == "Nigel Richards"
    assert display_name("Cher") == "Cher"


def test_a_number_after_the_comma_is_no_first_name() -> None:
    """A real tsh file (Battle of the Brains 2025, tsh 3.330) names its players "Chang Ching Wei,1": read as
    "Last, First" that was said "1 Chang Ching Wei". (The name here is made up; the form is the file's.)"""
    assert display_name("Tan Mei Ling,1") == "Tan Mei Ling"
    assert display_name("Tan Mei Ling, 12:XT000001") == "Tan Mei Ling"
    assert display_name("Lee, Ann 2") == "Ann 2 Lee"


def test_tourney_js_round_one_seats_the_first_player_first_and_keeps_tsh_boards() -> None:
    tourney = parse_tourney_js(tourney_text())
    assert tourney.event == "Spring Open 2026"
    games, byes = tsh_round(tourney, 1, table_offsets={"B": 10})
    assert games[0] == Pairing(1, 1, "A", ("Nigel Richards", "Joey Krafchick"), 0, (1, 2))
    # tsh says player 4 goes first against 3 (p12 = 1 for 4, 2 for 3): 4 is seated first
    assert games[1] == Pairing(1, 2, "A", ("Jackson Smylie", "Will Anderson"), 0, (4, 3))
    # division B has no boards: tables in the order of the first player's number, after the offset
    assert [(g.table, g.ids) for g in games if g.division == "B"] == [(11, (1, 4)), (12, (3, 2))]
    assert byes == ["A Brett Cappelletto"]


def test_a_draw_for_first_leaves_first_open() -> None:
    games, _ = tsh_round(parse_tourney_js(tourney_text()), 2, table_offsets={"B": 10})
    anna = next(g for g in games if "Anna Müller" in g.players)
    assert anna.first is None
    assert {g.table for g in games if g.division == "A"} == {1, 2}


def body_of_fixture() -> str:
    """The fixture without its comment, the `newt=` prefix and the `;`: what follows `newt=` in a real file."""
    text = tourney_text()
    return text[text.index("newt=") + len("newt="):].rstrip().rstrip(";")


def test_the_fixture_is_javascript_as_tsh_writes_it_not_json() -> None:
    with pytest.raises(ValueError, match="Expecting value"):
        json.loads(body_of_fixture())  # `undefined`: what the director refused in every real file
    data = tourney_data(tourney_text())
    assert data["divisions"][0]["players"][0] is None
    assert data["config"]["currency_symbol"] is None and data["profile"] is None
    assert data["esb"] == {"message": {"mode": "reveal", "text": ""}}


def test_the_prefix_and_comments_are_optional() -> None:
    body = body_of_fixture()
    assert parse_tourney_js(body).divisions.keys() == {"A", "B", "2"}
    assert parse_tourney_js("newt=" + body + ";").event == "Spring Open 2026"  # a real file: one line, no comment
    assert parse_tourney_js("// written by tsh\nvar newt = " + body + ";").event == "Spring Open 2026"


def test_a_numbered_division_gets_its_tables_from_config_tables_and_p12_4_leaves_first_open() -> None:
    tourney = parse_tourney_js(tourney_text())
    one, _ = tsh_round(tourney, 1, table_offsets={"B": 10, "2": 500})  # config.tables wins over an offset
    assert [g for g in one if g.division == "2"] == [
        Pairing(1, 21, "2", ("Eva Braun", "Frank Roth"), 0, (1, 2)),
        Pairing(1, 22, "2", ("Ayşe Özdemir", "Jürgen Groß"), 0, (4, 3)),  # p12 2 for Groß: Özdemir starts
    ]
    two, byes = tsh_round(tourney, 2, table_offsets={"B": 10})
    assert [g for g in two if g.division == "2"] == [Pairing(2, 22, "2", ("Eva Braun", "Jürgen Groß"), None, (1, 3))]
    # the late entrant (no pairings yet) plays no game and has no bye
    assert byes == ["A Joey Krafchick", "2 Frank Roth", "2 Ayşe Özdemir"]
    assert not any("Entrant" in name for g in two for name in g.players)


def test_round_two_seats_by_p12_and_skips_the_bye() -> None:
    games, _ = tsh_round(parse_tourney_js(tourney_text()), 2, table_offsets={"B": 10})
    assert [g for g in games if g.division == "A"] == [
        Pairing(2, 1, "A", ("Jackson Smylie", "Brett Cappelletto"), 0, (4, 5)),
        Pairing(2, 2, "A", ("Will Anderson", "Nigel Richards"), 0, (3, 1)),
    ]


def test_undefined_is_read_only_outside_strings_and_errors_point_into_the_file() -> None:
    text = ('newt={"divisions":[{"name":"A","players":[undefined,{"id":1,"name":"undefined, Mr","rating":"0+0+0",'
            '"pairings":[2],"etc":{"p12":[1]}},{"id":2,"name":"B","rating":undefined,"pairings":[1]}]}]};')
    tourney = parse_tourney_js(text)
    assert tourney.divisions["A"][1].name == "undefined, Mr"  # a team event's rating text counts as 0
    assert (tourney.divisions["A"][1].rating, tourney.divisions["A"][2].rating) == (0, 0)
    assert tsh_round(tourney, 1)[0][0].players == ("Mr undefined", "B")
    broken = 'newt={"divisions":[undefined, undefined x]};'
    with pytest.raises(PairingsError, match=r"line 1 column 41"):
        parse_tourney_js(broken)  # column 41 of the file itself: the `x`


def test_divisions_sharing_board_numbers_must_be_offset() -> None:
    data = tourney_data(tourney_text())
    for player in data["divisions"][1]["players"][1:]:
        player["etc"]["board"] = [1, 2]
    with pytest.raises(PairingsError, match=r"table 1 is given to .* set a table offset"):
        tsh_round(parse_tourney_js(json.dumps(data)), 1)


def test_one_sided_pairings_are_refused_with_where() -> None:
    data = tourney_data(tourney_text())
    data["divisions"][0]["players"][2]["pairings"][0] = 3
    with pytest.raises(PairingsError, match=r"tourney.js: division A, round 1: player 1 is paired with 2, but 2"):
        tsh_round(parse_tourney_js(json.dumps(data)), 1)


@pytest.mark.parametrize(("text", "message"), [
    ("newt={", "not tsh's tourney.js"),
    ('{"divisions":[{"name":[1],"players":[]}]}', "division's name must be a text or a number"),
    ('{"config":{"tables":{"A":[1,"x"]}},"divisions":[]}', r"config.tables.A\[1\] \(board 2\): the table must be"),
    ("{}", "no 'divisions' list"),
    ('{"divisions":[{"name":"A","players":[null,{"id":1}]}]}', r"players\[1\]: a player needs a name"),
    ('{"divisions":[{"name":"A","players":[null,{"id":2,"name":"X"}]}]}', "id 2 is not its place"),
    ('{"divisions":[{"name":"A","players":[null,{"id":1,"name":"X","pairings":"2"}]}]}', r"pairings: expected"),
])
def test_broken_tourney_js_says_what_and_where(text: str, message: str) -> None:
    with pytest.raises(PairingsError, match=message):
        parse_tourney_js(text)


def test_csv_pairings() -> None:
    games = parse_pairings_csv((FIXTURES / "pairings.csv").read_text(encoding="utf-8"))
    assert games == [
        Pairing(1, 1, "A", ("Anna Müller", "Bernd Schmidt"), 0),
        Pairing(1, 2, "A", ("Clara Weber", "Dirk Fischer"), 1),
        Pairing(1, 3, "B", ("Eva Braun", "Frank Roth"), None),
    ]


@pytest.mark.parametrize(("text", "message"), [
    ("round,table,player1\n", "player2 missing"),
    ("round,table,player1,player2\n1,x,A,B\n", ":2: round and table must be numbers"),
    ("round,table,player1,player2\n1,1,A\n", ":2: 3 fields"),
    ("round,table,player1,player2,first\n1,1,A,B,3\n", "first must be 1, 2"),
    ("round,table,player1,player2\n1,1,A,B\n1,1,C,D\n", "table 1 is given to A - B and to C - D"),
])
def test_broken_csv_says_what_and_where(text: str, message: str) -> None:
    with pytest.raises(PairingsError, match=message):
        parse_pairings_csv(text, "round.csv")


def test_a_binary_file_sent_as_csv_is_refused_with_what_and_where() -> None:
    """A binary file read as text (a spreadsheet's .xlsx, a photo) holds NULs: the csv module raised its own
    error, which the director answered with HTTP 500 and a traceback."""
    binary = "PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\ufffd\ufffd\nround,table\x00,player1"
    with pytest.raises(PairingsError, match=r"^round.csv:1: not a CSV text file \(a NUL byte"):
        parse_pairings_csv(binary, "round.csv")
    with pytest.raises(PairingsError, match=r"^round.csv:2: not a CSV text file"):
        parse_pairings_csv("round,table,player1,player2\n1,1,A\x00,B\n", "round.csv")
    # random bytes read as text: the csv module's own error, said as a refusal with the line
    noise = bytes((i * 97 + 13) % 256 for i in range(4000)).replace(b"\x00", b"").decode("latin-1")
    with pytest.raises(PairingsError, match=r"^round.csv:\d+: (not a CSV text file|the header needs)"):
        parse_pairings_csv(noise, "round.csv")
    with pytest.raises(PairingsError, match=r"^round.csv:1: not a CSV text file \(field larger than"):
        parse_pairings_csv("x" * 200_000, "round.csv")


def test_old_mac_line_ends_are_lines() -> None:
    games = parse_pairings_csv("round,table,player1,player2\r1,1,Ann,Ben\r1,2,Cid,Dan\r")
    assert [g.players for g in games] == [("Ann", "Ben"), ("Cid", "Dan")]


def test_a_german_spreadsheets_semicolon_csv_is_read() -> None:
    """Excel and LibreOffice in a German locale write `;` between fields (the comma is the decimal mark): the
    reader took the whole line for one field and said the header lacked every column."""
    text = ("\ufeff# Runde 1, von Hand gepaart\r\nround;table;division;player1;player2;first\r\n"
            "1;1;A;Anna Müller;Bernd Schmidt;1\r\n1;2;A;\"Weber; Clara\";Dirk Fischer;2\r\n"
            "1;3;B;Eva Braun;Frank Roth;\r\n"
            ";;;;;\r\n")
    games = parse_pairings_csv(text)
    assert games == [
        Pairing(1, 1, "A", ("Anna Müller", "Bernd Schmidt"), 0),
        Pairing(1, 2, "A", ("Weber; Clara", "Dirk Fischer"), 1),
        Pairing(1, 3, "B", ("Eva Braun", "Frank Roth"), None),
    ]
    # the same, saved on an old Mac (CR only) with German column names
    german = "Runde;Tisch;Gruppe;Spieler1;Spieler2;Beginnt\r1;4;B;Jörg Groß;Ümit Öz;2\r"
    assert parse_pairings_csv(german) == [Pairing(1, 4, "B", ("Jörg Groß", "Ümit Öz"), 1)]
    # tabs (a spreadsheet's "text, tab separated")
    assert parse_pairings_csv("round\ttable\tplayer1\tplayer2\n2\t5\tA B\tC, D\n")[0].players == ("A B", "C, D")


def test_the_fixture_csv_as_a_spreadsheet_saves_it() -> None:
    """The real fixture rewritten as a German spreadsheet saves it: `;`, CRLF or CR, a BOM."""
    plain = (FIXTURES / "pairings.csv").read_text(encoding="utf-8")
    expected = parse_pairings_csv(plain)
    for newline in ("\r\n", "\r"):
        sheet = "\ufeff" + newline.join(line.replace(",", ";") for line in plain.splitlines()) + newline
        assert parse_pairings_csv(sheet) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("round|table|player1|player2\n1|1|A|B\n", r":1: the header needs round, table, player1, player2 .*one field "
                                                r"'round\|table\|player1\|player2': separate the fields with , or ;"),
    ("round;table;player1;player2\n1;1;M\ufffdller;B\n", r":2: .*not UTF-8 .*save it as .CSV UTF-8."),
])
def test_csv_the_reader_cannot_split_says_why(text: str, message: str) -> None:
    with pytest.raises(PairingsError, match=message):
        parse_pairings_csv(text, "round.csv")
