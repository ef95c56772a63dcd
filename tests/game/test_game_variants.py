"""The game's hooks for variants, several players, and board diffs from the table."""

from __future__ import annotations

from game.events import Event, EventKind
from game.game import Game
from game.play import placements_from_diff
from game.rules import ChallengeRule, classic_english
from game.squares import Square
from game.tiles import Tile

EN = classic_english()


class Clearing(Game):
    """A toy variant: the board is cleared after every play (the Scramble mat works like this)."""

    seen: list[EventKind]

    def after_turn(self, event: Event) -> None:
        self.seen = [*getattr(self, "seen", []), event.kind]
        if event.kind is EventKind.PLAY:
            self.board.remove([sq for sq, _ in list(self.board.tiles())])

    def draw_count(self, player: int, played: int) -> int:
        return 0  # no drawing: racks shrink


def test_hooks_are_called() -> None:
    game = Clearing(EN, ["ann", "bob"])
    game.play("8G CAT")
    assert game.board.is_empty and game.is_first_play()
    game.play("8G DOG")  # the first-play rule applies again on the cleared board
    game.pass_turn()
    assert game.seen == [EventKind.PLAY, EventKind.PLAY, EventKind.PASS]
    assert game.rack_sizes == [4, 4]


def test_board_diff_from_the_table() -> None:
    diff = {"H8": "Q", "I8": "i", Square.from_str("G8"): Tile("A")}
    placements = placements_from_diff(diff)
    game = Game(EN, ["ann", "bob"])
    scored = game.play(placements)
    assert str(scored.play()) == "8G AQi" and scored.score == 22


def test_three_players_challenge_and_lost_turn() -> None:
    game = Game(EN.with_options(challenge=ChallengeRule.DOUBLE), ["ann", "bob", "cy"])
    game.play("8G CAT")
    game.challenge(2, valid=True)  # cy challenged wrongly: cy loses the next turn
    assert game.to_move == 1
    game.pass_turn()  # bob
    assert game.to_move == 0  # cy's turn was skipped
    assert [e.kind for e in game.events][-2:] == [EventKind.PASS, EventKind.LOST_TURN]
