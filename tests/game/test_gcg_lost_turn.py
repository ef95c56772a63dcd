"""A lost turn after a wrong challenge has its GCG line (issue 25 item 4): the page showed it, the record
did not, and two lines of one player stood in a row. It is written as Woogles writes it, a pass of the
challenger, marked `#note lost turn:` so that this project reads it back as the lost turn it was (no
scoreless turn of the six that end a game)."""

from __future__ import annotations

from game.events import EventKind
from game.game import Game
from game.gcg import parse_gcg, write_gcg
from game.gcg_check import replay_record
from game.rules import naspa


def _game_with_a_lost_turn() -> Game:
    game = Game(naspa(), ["Anna", "Ben"])
    game.play("8E QUIZ")
    game.challenge(1, valid=True)  # Ben challenges a good play: under double challenge he loses his turn
    game.play("E8 .I")  # Anna again: QI down from the Q
    return game


def test_the_lost_turn_is_a_line_of_the_record() -> None:
    game = _game_with_a_lost_turn()
    assert [e.kind for e in game.events] == [EventKind.PLAY, EventKind.LOST_TURN, EventKind.PLAY]
    text = write_gcg(game.players, game.events)
    moves = parse_gcg(text).moves
    assert [m.nick for m in moves] == ["Anna", "Ben", "Anna"]  # never two lines of one player in a row
    assert moves[1].move == "-" and moves[1].score == 0 and moves[1].total == 0
    assert moves[1].lost_turn and not moves[0].lost_turn
    assert "#note lost turn:" in text


def test_the_record_replays_to_the_same_game_with_the_lost_turn() -> None:
    game = _game_with_a_lost_turn()
    replayed, result = replay_record(parse_gcg(write_gcg(game.players, game.events)), naspa())
    assert result.mismatches == []
    assert replayed is not None
    assert [e.kind for e in replayed.events] == [e.kind for e in game.events]
    assert replayed.scores == game.scores


def test_a_plain_pass_stays_a_pass() -> None:
    game = Game(naspa(), ["Anna", "Ben"])
    game.play("8E QUIZ")
    game.pass_turn()
    text = write_gcg(game.players, game.events)
    assert "lost turn" not in text and not parse_gcg(text).moves[1].lost_turn
