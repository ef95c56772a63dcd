"""The two scripted Scramble games as GCG records, replayed by the record checker and by a replay that
also verifies every rack (the faces rolled) against the cup; records written from simulated games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.events import EventKind
from game.gcg import GCGRecord, MoveKind, decode_gcg, parse_gcg, write_gcg
from game.gcg_check import check_record
from game.lexicon import Lexicon
from game.play import Play
from game.rules import naspa
from game.scramble import ScrambleGame
from game.scramble.errors import RollError
from game.variants import get_variant
from referee.cli import main

from .test_scramble_props import random_play

DATA = Path(__file__).parent / "data"
RECORDS = {"scramble_basic.gcg": ("scramble", [222, 72]), "scramble_advanced.gcg": ("scramble-advanced", [205, 38])}


def load(name: str) -> GCGRecord:
    return parse_gcg(decode_gcg((DATA / name).read_bytes())[0])


def replay(record: GCGRecord, lexicon: Lexicon | None = None) -> ScrambleGame:
    """Replay a record line by line, declaring every rack before its turn, checking every score and total.

    A `--` line is a challenge by the other player that the phony loses; a play followed by a play of the
    same player is a play that was challenged in vain (the challenger lost the turn), as the notes say.
    """
    variant = get_variant(record.variant or "")
    game = variant.game_class(variant.rules(), [p.nick for p in record.players], lexicon=lexicon)  # type: ignore[misc]
    assert isinstance(game, ScrambleGame)
    nicks = [p.nick for p in record.players]
    last: int | None = None
    for mv in record.moves:
        who = nicks.index(mv.nick)
        if mv.kind in (MoveKind.PLAY, MoveKind.PASS) and last == who and game.to_move != who:
            game.challenge((who + 1) % len(nicks), valid=True)  # the wrong challenge the notes tell of
        if mv.kind is MoveKind.WITHDRAWN:
            result = game.challenge((who + 1) % len(nicks), valid=None if lexicon else False)
            assert not result.valid and -result.points == mv.score, mv.text
        elif mv.kind is MoveKind.PLAY:
            game.record_rack(who, mv.rack)
            assert game.to_move == who, f"line {mv.line}: not {mv.nick}'s turn"
            assert game.play(mv.move).score == mv.score, mv.text
        elif mv.kind is MoveKind.PASS:
            game.record_rack(who, mv.rack)
            game.time_up()
        else:
            raise AssertionError(f"line {mv.line}: no {mv.kind} in a Scramble record")
        assert game.scores[who] == mv.total, mv.text
        last = who
    return game


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_record_checker_replays_the_scripted_games(name: str) -> None:
    record = load(name)
    variant, _ = RECORDS[name]
    assert record.variant == variant
    result = check_record(record, naspa())
    assert result.rules == variant
    assert result.mismatches == []
    assert result.plays == len(record.moves)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_scripted_games_replay_with_their_racks(name: str) -> None:
    record = load(name)
    game = replay(record)
    _, final = RECORDS[name]
    assert game.scores == final
    assert game.over and game.winners() == [0]
    assert "reached 200" in game.end_reason


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_scripted_games_words_are_in_enable(name: str, shared_dir: Path) -> None:
    """With ENABLE as the lexicon, the challenges decide as the records say; every word that stays is good."""
    lexicon, _ = Lexicon.from_word_list((shared_dir / "lexicons" / "enable2k.txt").read_bytes(), "ENABLE")
    game = replay(load(name), lexicon)
    withdrawn = 0
    for event, after in zip(game.events, [*game.events[1:], None], strict=True):
        if event.kind is not EventKind.PLAY:
            continue
        if after is not None and after.kind is EventKind.WITHDRAWN:
            assert lexicon.missing(event.words), event.move
            withdrawn += 1
        else:
            assert lexicon.missing(event.words) == (), event.move
    assert withdrawn == 1


def test_basic_game_covers_the_rules() -> None:
    """The basic record shows each rule once: fewer than seven dice rolled, a crossing play, an extension,
    a lost turn, a phony withdrawn, a wrong challenge, a parallel play with several words, bingos."""
    record = load("scramble_basic.gcg")
    racks = [len(mv.rack) for mv in record.moves if mv.kind is MoveKind.PLAY]
    assert min(racks) < 7
    kinds = [mv.kind for mv in record.moves]
    assert MoveKind.PASS in kinds and MoveKind.WITHDRAWN in kinds
    game = replay(record)
    assert any(e.kind is EventKind.LOST_TURN for e in game.events)
    bingos = [e for e in game.events if e.kind is EventKind.PLAY and len(e.placements) == 7]
    assert len(bingos) == 2
    assert any(len(e.words) > 1 for e in game.events)


def test_advanced_game_passes_dice_on() -> None:
    """Ben's second rack holds the A, I and R Ann left after DOZE."""
    record = load("scramble_advanced.gcg")
    plays = [mv for mv in record.moves if mv.kind is MoveKind.PLAY]
    assert set("AIR") <= set(plays[1].rack)
    game = replay(record)
    assert game.rules.advanced


def test_checker_reports_a_wrong_score() -> None:
    text = (DATA / "scramble_basic.gcg").read_text(encoding="utf-8").replace("+36 36", "+35 35")
    result = check_record(parse_gcg(text), naspa())
    assert result.mismatches[0].line == 7
    assert "FORGET 36" in result.mismatches[0].why


def test_replay_refuses_a_rack_the_cup_cannot_roll() -> None:
    """Two Qs: only one die has a Q."""
    text = (DATA / "scramble_basic.gcg").read_text(encoding="utf-8").replace(">Ann: AEFGORT", ">Ann: QQEFGOR")
    with pytest.raises(RollError, match="cannot show"):
        replay(parse_gcg(text))


def test_replay_refuses_a_rack_of_the_wrong_size() -> None:
    """Six dice in the cup after FORGET: a rack of seven is one die too many."""
    text = (DATA / "scramble_basic.gcg").read_text(encoding="utf-8").replace(">Ben: AEILNS ", ">Ben: AEILNST ")
    with pytest.raises(RollError, match="7 dice read, but the player rolls 6"):
        replay(parse_gcg(text))


def test_referee_gcg_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gcg", "check", str(DATA / "scramble_basic.gcg"), str(DATA / "scramble_advanced.gcg")]) == 0
    assert "checked 2 games, 21 plays, 0 mismatches" in capsys.readouterr().out


def _simulate(seed: int, advanced: bool) -> ScrambleGame:
    """A seeded game of random plays (the placement rules judge; no challenges)."""
    rng = random.Random(seed)
    g = ScrambleGame(get_variant("scramble-advanced" if advanced else "scramble").rules(), ["Ann", "Ben"], seed=seed)
    for _ in range(30):
        if g.over:
            break
        g.roll()
        if not random_play(g, rng):
            g.time_up()
    return g


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), advanced=st.booleans())
def test_written_records_of_simulated_games_check_clean(seed: int, advanced: bool) -> None:
    g = _simulate(seed, advanced)
    variant = "scramble-advanced" if advanced else "scramble"
    text = write_gcg(g.players, g.events, {"variant": variant})
    record = parse_gcg(text)
    assert check_record(record, naspa()).mismatches == []
    again = replay(record)
    assert again.scores == g.scores
    for event in g.events:
        if event.kind is EventKind.PLAY:
            Play.from_str(event.move)  # every play is written in GCG notation


def test_checker_verifies_the_racks() -> None:
    """`referee gcg check` hands each rack to the game: seven faces where six dice were left is reported."""
    text = (DATA / "scramble_basic.gcg").read_text(encoding="utf-8").replace(">Ben: AEILNS ", ">Ben: AEILNST ")
    result = check_record(parse_gcg(text), naspa())
    assert result.mismatches and result.mismatches[0].line == 9
    assert "7 dice read, but the player rolls 6" in result.mismatches[0].why


def test_german_record_with_umlauts() -> None:
    record = load("scramble_german.gcg")
    result = check_record(record, naspa())
    assert result.rules == "scramble-german" and result.mismatches == []
    game = replay(record)
    assert game.scores == [43, 21] and not game.over
    assert game.rules.dice_set.language == "de"
    assert "".join(game.mat().values()) == "MÄNNER"


SLIP = """#character-encoding UTF-8
#variant scramble
#player1 Ann Ann
#player2 Ben Ben
>Ann: AEFGORT 5B FORGET +36 36
>Ben: AEILNS H2 LEA. +14 14
>Ann: AEISTU G2 SEA. +8 44
"""


def test_a_refused_scramble_line_is_reported_once_and_its_dice_go_back() -> None:
    # Ben's line goes through the empty H5: refused. No turn was made of it, so his rolled dice go back to
    # the cup and Ann's next line (SEAT down through FORGET's T: 1+1+1+1 = 4, x2 on G2 = 8) reads her roll.
    result = check_record(parse_gcg(SLIP), get_variant("scramble").rules())
    assert [m.line for m in result.mismatches] == [6]
    assert "H5 is empty" in result.mismatches[0].why or "H5 is empty" in result.mismatches[0].computed
