from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import GCGError
from game.game import Game
from game.gcg import MoveKind, decode_gcg, parse_gcg, parse_move_line, write_gcg
from game.rules import ChallengeRule, classic_english


@pytest.mark.parametrize(
    ("line", "kind", "rack", "move", "score", "total", "extra"),
    [
        (">Peter: DELOTUU H7 OUTDUEL +68 68", MoveKind.PLAY, "DELOTUU", "H7 OUTDUEL", 68, 68, ""),
        (">Ganesh: OXGSHYD   i12 OXY             +44   70  KO, EX", MoveKind.PLAY, "OXGSHYD", "i12 OXY", 44, 70,
         "KO, EX"),
        (">1: AJMSUWY -  +0 24", MoveKind.PASS, "AJMSUWY", "-", 0, 24, ""),
        (">1: AJMSUWY -J +0 24", MoveKind.EXCHANGE, "AJMSUWY", "-J", 0, 24, ""),
        (">x: ABCDEFG -3 +0 24", MoveKind.EXCHANGE, "ABCDEFG", "-3", 0, 24, ""),
        (">Johannes: EINOOSU -OOU 0 0", MoveKind.EXCHANGE, "EINOOSU", "-OOU", 0, 0, ""),
        (">Peter: ?BCHRUY --  -115 277", MoveKind.WITHDRAWN, "?BCHRUY", "--", -115, 277, ""),
        (">JD: AAEGIUU (challenge) +5 189", MoveKind.CHALLENGE_BONUS, "AAEGIUU", "(challenge)", 5, 189, ""),
        (">Deeean: OZ (challenge) +5 296", MoveKind.CHALLENGE_BONUS, "OZ", "(challenge)", 5, 296, ""),
        (">Josh:  (AQR) +24 399", MoveKind.END_RACK, "", "(AQR)", 24, 399, ""),
        (">Ben: EIOQRRT (EIOQRRT) -16 -16 ", MoveKind.END_RACK, "EIOQRRT", "(EIOQRRT)", -16, -16, ""),
        (">Ann: ABC (time) -10 300", MoveKind.TIME_PENALTY, "ABC", "(time)", -10, 300, ""),
        (">Ann: 8D WORD +10 300", MoveKind.PLAY, "", "8D WORD", 10, 300, ""),
    ],
)
def test_move_lines(line: str, kind: MoveKind, rack: str, move: str, score: int, total: int, extra: str) -> None:
    mv = parse_move_line(line, 3)
    assert (mv.kind, mv.rack, mv.move, mv.score, mv.total, mv.extra) == (kind, rack, move, score, total, extra)


@pytest.mark.parametrize(
    ("line", "message"),
    [(">: ABC 8D X +1 1", "a move line needs '>nick:'"), (">a: ABC 8D X", "no score and total"),
     (">a: ABC XYZ WORD +1 1", "'XYZ' is not a position"), (">a: ABC !! +1 1", "'!!' is not a move"),
     (">a: A B C D +1 1", "cannot tell rack and move apart")],
)
def test_bad_move_lines_name_the_line(line: str, message: str) -> None:
    with pytest.raises(GCGError, match=f"line 3: {message}"):
        parse_move_line(line, 3)


def test_record_pragmas_players_and_notes() -> None:
    text = (
        "#character-encoding UTF-8\r\n#player1 NoName Alice A\r\n#player2 NoName Bob B\r\n#lexicon NWL18\r\n"
        "#variant classic\r\n#note before\r\n>NoName: ABC 8G CAB +14 14\r\n#note after the move\r\n#incomplete\r\n"
    )
    record = parse_gcg(text)
    assert [(p.nick, p.name) for p in record.players] == [("NoName", "Alice A"), ("NoName", "Bob B")]
    assert record.pragmas["lexicon"] == "NWL18" and record.variant == "classic" and record.incomplete
    assert record.notes == ["before"] and record.moves[0].notes == ["after the move"]
    assert record.moves[0].line == 7


def test_players_from_moves_when_no_player_pragmas() -> None:
    record = parse_gcg(">a: AB 8G AB +8 8\n>b: CD H7 C.D +7 7\n")
    assert [p.nick for p in record.players] == ["a", "b"]


def test_decoding() -> None:
    latin = "#character-encoding ISO-8859-1\n#player1 Jörg Jörg\n".encode("latin-1")
    assert decode_gcg(latin) == ("#character-encoding ISO-8859-1\n#player1 Jörg Jörg\n", "iso-8859-1")
    mislabelled = "#character-encoding ISO8859-6\n#player1 césar c\n".encode()
    assert decode_gcg(mislabelled)[1] == "utf-8"
    assert decode_gcg(b"\xef\xbb\xbf#player1 a a\n") == ("#player1 a a\n", "utf-8")
    assert decode_gcg(b"#player1 J\xf6rg J\n")[0] == "#player1 Jörg J\n"


def test_write_then_read_round_trip() -> None:
    game = Game(classic_english().with_options(challenge=ChallengeRule.FIVE_POINT), ["Ann Lee", "Bob"])
    game.play("8G CAT")
    game.challenge(1, valid=True)
    game.play("H7 A.E")
    game.challenge(0, valid=False)
    game.pass_turn()
    game.exchange(2)
    game.apply_time_penalty(0, 30)
    text = write_gcg(game.players, game.events, {"lexicon": "ENABLE"})
    assert text.splitlines()[:4] == ["#character-encoding UTF-8", "#player1 Ann_Lee Ann Lee", "#player2 Bob Bob",
                                     "#lexicon ENABLE"]
    record = parse_gcg(text)
    kinds = [m.kind for m in record.moves]
    assert kinds == [MoveKind.PLAY, MoveKind.CHALLENGE_BONUS, MoveKind.PLAY, MoveKind.WITHDRAWN, MoveKind.PASS,
                     MoveKind.EXCHANGE, MoveKind.TIME_PENALTY]
    assert [m.total for m in record.moves] == [e.total for e in game.events]
    assert record.moves[0].move == "8G CAT" and record.moves[0].score == 10


def test_an_adjustment_is_a_note_of_its_own_and_the_totals_stay_the_game_as_played() -> None:
    """A director's adjustment is no turn: no `>` line (it was `(time) -12` and `(challenge) +7`, lines that
    Macondo reads as a time penalty ending the game and Quackle as the end racks), but a note after the line
    it followed; the totals written are the board's, which every reader adds up."""
    game = Game(classic_english(), ["Ann", "Bob"])
    game.play("8G CAT")
    game.adjust_score(0, -12, "ruling:\nphone in the hall")
    game.adjust_score(1, 7, "paper sheet")
    game.play("H7 A.E")
    game.pass_turn()
    text = write_gcg(game.players, game.events)
    assert text.splitlines()[3:] == [">Ann: ACT 8G CAT +10 10", "#note adjustment Ann -12: ruling: phone in the hall",
                                     "#note adjustment Bob +7: paper sheet", ">Bob: AE H7 A.E +3 3",
                                     ">Ann:  - +0 10"]
    record = parse_gcg(text)
    assert [(a.nick, a.points, a.reason) for a in record.moves[0].adjustments] == [
        ("Ann", -12, "ruling: phone in the hall"), ("Bob", 7, "paper sheet")]
    assert [m.adjustment for m in record.moves] == [None, None, None]  # no line is an adjustment itself
    assert game.scores == [-2, 10]  # the engine's (and the result's) scores carry them


def test_an_adjustment_before_the_first_move_is_read_from_the_records_notes() -> None:
    record = parse_gcg("#player1 Ann Ann\n#player2 Bob Bob\n#note adjustment Bob -5: late\n>Ann: ACT 8G CAT +10 10\n")
    assert [(a.line, a.nick, a.points) for a in record.adjustments] == [(3, "Bob", -5)]
    assert parse_gcg(">Ann: ACT 8G CAT +10 10\n#note adjustment: the old form's reason\n").moves[0].adjustments == []


def test_the_older_form_of_an_adjustment_still_reads_as_one() -> None:
    """Records written before: a `(time)` or `(challenge)` line with `#note adjustment: REASON` after it."""
    record = parse_gcg(">Ann: ACT 8G CAT +10 10\n>Ann:  (time) -12 -2\n#note adjustment: ruling: phone in the hall\n"
                       ">Bob:  (challenge) +7 7\n#note adjustment: paper sheet\n")
    assert [(m.kind, m.adjustment) for m in record.moves] == [
        (MoveKind.PLAY, None), (MoveKind.TIME_PENALTY, "ruling: phone in the hall"),
        (MoveKind.CHALLENGE_BONUS, "paper sheet")]
    assert parse_gcg(">Ann: ABC (time) -10 300\n#note slow\n").moves[0].adjustment is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:>+-()?.  8Hh15zZ0\t#ÄÖ")), max_size=40))
def test_move_line_parser_raises_only_gcg_errors(line: str) -> None:
    try:
        mv = parse_move_line(">" + line, 1)
    except GCGError as exc:
        assert str(exc).startswith("line 1:")
    else:
        assert mv.nick and isinstance(mv.score, int)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["#player1 a A", "#player2 b B", "#note x", "#incomplete", ">a: AB 8G AB +8 8",
                     ">b: (Q) +20 28", ">a: - +0 8", "", "junk"]),
    st.text(max_size=30)), max_size=12))
def test_record_parser_raises_only_gcg_errors(lines: list[str]) -> None:
    try:
        record = parse_gcg("\n".join(lines))
    except GCGError as exc:
        assert str(exc).startswith("line ")
    else:
        assert all(m.nick for m in record.moves)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_utf16_records_with_a_bom_are_read(encoding: str) -> None:
    text = "#player1 Zoë Zoë Müller\n#player2 Ben Ben\n>Zoë: IQUZ 8E QUIZ +44 44\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    decoded, used = decode_gcg(data)
    assert used == "utf-16" and decoded == text
    record = parse_gcg(decoded)
    assert record.players[0].name == "Zoë Müller" and record.moves[0].move == "8E QUIZ"


def test_a_broken_utf16_record_is_one_clear_error() -> None:
    with pytest.raises(GCGError, match="UTF-16 file that does not decode"):
        decode_gcg(b"\xff\xfe#\x00p\x00\x00\xd8")


def test_a_record_past_the_line_cap_is_refused_in_one_line() -> None:
    from game.gcg import MAX_GCG_LINES

    text = "#player1 a a\n#player2 b b\n" + ">a: - +0 0\n" * MAX_GCG_LINES
    with pytest.raises(GCGError) as caught:
        parse_gcg(text)
    message = str(caught.value)
    assert message == (f"the record has {MAX_GCG_LINES + 2} lines, more than the {MAX_GCG_LINES} a game record can "
                       "need: not a game's record")
    assert caught.value.form == "too_long"
    assert len(parse_gcg("#player1 a a\n" + ">a: - +0 0\n" * (MAX_GCG_LINES - 1)).moves) == MAX_GCG_LINES - 1
