from __future__ import annotations

import json
from dataclasses import replace

import pytest

from game.errors import (
    AdjustmentError,
    ChallengeError,
    ExchangeNotAllowedError,
    GameOverError,
    NotInBagError,
    NotInLexiconError,
    NotOnRackError,
    NotYourTurnError,
    PlayerError,
)
from game.events import Event, EventKind
from game.game import Game
from game.rules import (
    SCORELESS_DE,
    SCORELESS_NASPA,
    SCORELESS_PC,
    ChallengeRule,
    EndRackRule,
    RuleSet,
    classic_english,
    german,
)
from game.squares import Position
from game.tiles import TileSet

from .helpers import pl

EN = classic_english()
WORDS = {"CAT", "CATS", "AT", "TA", "AB", "BA", "ABA", "BAA", "BAT", "TAB"}


def tiny(**options: object) -> RuleSet:
    """Six tiles, racks of three: the bag is empty from the start, so going out is one play away."""
    tiles = TileSet("tiny", "en", {"A": 3, "B": 3, "?": 0}, {"A": 1, "B": 3, "?": 0})
    return replace(EN, name="tiny", tiles=tiles, rack_size=3, bingo_tiles=3).with_options(**options)


def test_player_count_checked() -> None:
    with pytest.raises(PlayerError, match="1 players: the english rules are for 2 to 4"):
        Game(EN, ["solo"])
    with pytest.raises(PlayerError, match="5 players"):
        Game(EN, list("abcde"))


def test_seeded_game_deals_racks_and_checks_them() -> None:
    game = Game(EN, ["ann", "bob"], seed=7)
    rack = game.rack(0)
    assert rack is not None and len(rack) == 7
    assert game.bag_count == 100 - 14
    missing = next(ch for ch in "QZXJKV" if ch not in rack)
    with pytest.raises(NotOnRackError, match=f"{missing} not on the rack"):
        game.play(pl(f"H8={missing} I8={missing}"))
    # the same seed deals the same racks
    assert Game(EN, ["ann", "bob"], seed=7).rack(1) == game.rack(1)


def test_unknown_racks_track_unseen_tiles() -> None:
    game = Game(EN, ["ann", "bob"])
    assert game.bag_count == 86
    with pytest.raises(NotInBagError, match="8H ZZ: only 1 Z left unseen"):
        game.play(pl("H8=Z I8=Z"))
    game.play(pl("H8=Z I8=A"))
    assert game.scores == [22, 0]
    assert game.bag_count == 84
    with pytest.raises(NotInBagError, match="no Z left unseen"):
        game.play(pl("H9=Z"))


def test_turn_order_and_play_by_gcg_text() -> None:
    game = Game(EN, ["ann", "bob"])
    with pytest.raises(NotYourTurnError, match="it is ann's turn, not bob's"):
        game.play("8H CAT", player=1)
    scored = game.play("8H CAT")
    assert str(scored) == "8H CAT +10"
    assert game.to_move == 1
    assert game.events[-1] == Event(EventKind.PLAY, 0, 10, 10, "8H CAT", scored.placements, "", ("CAT",),
                                    position=Position.from_str("8H"), count=3)


def test_exchange_rules() -> None:
    game = Game(german(), ["ann", "bob"])
    game.exchange(3)
    assert game.events[-1].move == "-3"
    de = Game(german().with_options(rack_size=7), ["a", "b"])
    de.board.place((p.square, p.tile) for p in pl(" ".join(f"{c}{r}=E" for r in range(1, 13) for c in "ABCDEFG")))
    assert de.bag_count == 102 - 84 - 14
    assert de.bag_count < 7
    with pytest.raises(ExchangeNotAllowedError, match="4 tiles in the bag, the rules need 7"):
        de.exchange(1)
    with pytest.raises(ExchangeNotAllowedError, match="at least one tile"):
        game.exchange("")
    seeded = Game(EN, ["ann", "bob"], seed=1)
    with pytest.raises(ExchangeNotAllowedError, match="say which tiles"):
        seeded.exchange(2)
    rack = seeded.rack(0) or ""
    seeded.exchange(rack[:3])
    assert len(seeded.rack(0) or "") == 7 and seeded.bag_count == 86


def test_void_rule_refuses_phonies_with_the_lexicon() -> None:
    rules = EN.with_options(challenge=ChallengeRule.VOID)
    with pytest.raises(ChallengeError, match="needs a lexicon"):
        Game(rules, ["a", "b"])
    game = Game(rules, ["a", "b"], lexicon=WORDS)
    with pytest.raises(NotInLexiconError, match="QZX is not in the lexicon") as exc:
        game.play("8G QZX")
    assert exc.value.words == ("QZX",)
    assert game.board.is_empty
    game.play("8G CAT")
    with pytest.raises(ChallengeError, match="void rule"):
        game.challenge(1)


def test_phony_withdrawn_after_challenge() -> None:
    game = Game(EN, ["ann", "bob"], lexicon=WORDS)
    game.play("8G QAT")
    result = game.challenge(1)
    assert not result.valid and result.points == 24 and result.bad_words == ("QAT",)
    assert game.board.is_empty and game.scores == [0, 0]
    assert game.events[-1].kind is EventKind.WITHDRAWN and game.events[-1].delta == -24
    assert game.to_move == 1
    with pytest.raises(ChallengeError, match="no play to challenge"):
        game.challenge(0)


@pytest.mark.parametrize(
    ("rule", "bonus", "next_player"),
    [(ChallengeRule.DOUBLE, 0, 0), (ChallengeRule.SINGLE, 0, 1), (ChallengeRule.FIVE_POINT, 5, 1),
     (ChallengeRule.TEN_POINT, 10, 1)],
)
def test_wrong_challenge_under_each_rule(rule: ChallengeRule, bonus: int, next_player: int) -> None:
    game = Game(EN.with_options(challenge=rule), ["ann", "bob"], lexicon=WORDS)
    game.play("8G CAT")
    result = game.challenge(1)
    assert result.valid and result.points == bonus
    assert game.scores == [10 + bonus, 0]
    assert game.to_move == next_player
    if rule is ChallengeRule.DOUBLE:
        assert game.events[-1].kind is EventKind.LOST_TURN and game.events[-1].player == 1


def test_challenge_errors() -> None:
    game = Game(EN, ["ann", "bob"])
    game.play("8G CAT")
    with pytest.raises(ChallengeError, match="cannot challenge ann's play"):
        game.challenge(0, valid=True)
    with pytest.raises(ChallengeError, match="give the verdict"):
        game.challenge(1)
    game.challenge(1, valid=True)
    with pytest.raises(ChallengeError, match="already challenged"):
        game.challenge(1, valid=True)


@pytest.mark.parametrize(("seconds", "points"), [(0, 0), (1, 10), (60, 10), (61, 20), (600, 100)])
def test_time_penalty_per_started_minute(seconds: float, points: int) -> None:
    game = Game(EN, ["ann", "bob"])
    assert game.apply_time_penalty(1, seconds) == points
    assert game.scores[1] == -points


def test_a_directors_adjustment_changes_the_score_not_the_turn_and_replays() -> None:
    game = Game(EN, ["ann", "bob"])
    game.play("8G CAT")
    game.adjust_score(1, -10, "  phone rang\n during play ")
    game.adjust_score(0, 4, "the paper sheet added 4 too few")
    assert game.scores == [10 + 4, -10] and game.to_move == 1
    assert [(e.kind, e.player, e.delta, e.total, e.note) for e in game.events[1:]] == [
        (EventKind.ADJUSTMENT, 1, -10, -10, "phone rang during play"),
        (EventKind.ADJUSTMENT, 0, 4, 14, "the paper sheet added 4 too few")]
    game.challenge(1, valid=True)  # the play is still open to challenge: an adjustment is no turn
    again = Game.replay(EN, json.loads(json.dumps(game.to_dict())))
    assert again.scores == game.scores and again.events == game.events
    assert Event.from_dict(game.events[1].to_dict()) == game.events[1]


def test_an_adjustment_stays_when_the_play_before_it_is_withdrawn_and_counts_after_the_end() -> None:
    game = Game(tiny(), ["ann", "bob"])
    game.play("8G BAA")
    game.adjust_score(0, -5, "slow-play warning ignored")
    game.challenge(1, valid=False)
    assert game.scores == [-5, 0]
    assert [e.kind for e in game.events] == [EventKind.PLAY, EventKind.ADJUSTMENT, EventKind.WITHDRAWN]
    game.play("8G BAA", 1)
    assert game.over and game.winners() == [1]
    game.adjust_score(1, -200, "a ruling after the game")
    assert game.winners() == [0]


@pytest.mark.parametrize(("player", "points", "reason", "error", "match"), [
    (2, 5, "why", PlayerError, "there is no player 2"),
    (0, 0, "why", AdjustmentError, "from -1000 to 1000, not 0: 0"),
    (0, 1001, "why", AdjustmentError, "not 0: 1001"),
    (0, True, "why", AdjustmentError, "not 0: True"),
    (0, 5, "  ", AdjustmentError, "needs its reason"),
    (0, 5, "x" * 201, AdjustmentError, "at most 200 characters"),
])
def test_a_bad_adjustment_is_refused_and_changes_nothing(player: int, points: int, reason: str,
                                                        error: type[Exception], match: str) -> None:
    game = Game(EN, ["ann", "bob"])
    with pytest.raises(error, match=match):
        game.adjust_score(player, points, reason)
    assert game.scores == [0, 0] and game.events == [] and game.actions == []


def test_going_out_each_way_and_double() -> None:
    each = Game(tiny(end_racks=EndRackRule.EACH_WAY), ["ann", "bob"])
    each.play("8G BAA")  # 3 + 1 + 1 doubled = 10, + 50 "bingo" of the tiny rack
    assert each.over and each.end_reason == "ann went out"
    assert each.racks[1] is not None and each.rack(1) == "ABB"
    assert each.scores == [60 + 7, -7]
    double = Game(tiny(end_racks=EndRackRule.DOUBLE_TO_OUT), ["ann", "bob"])
    double.play("8G BAA")
    assert double.scores == [60 + 14, 0]
    with pytest.raises(GameOverError, match="the game is over"):
        double.pass_turn()


def test_withdrawing_the_last_play_resumes_the_game() -> None:
    game = Game(tiny(), ["ann", "bob"])
    game.play("8G BAA")
    assert game.over
    game.challenge(1, valid=False)
    assert not game.over and game.scores == [0, 0] and game.to_move == 1


@pytest.mark.parametrize(
    ("limit", "turns"), [(SCORELESS_PC, 6), (SCORELESS_NASPA, 6), (SCORELESS_DE, 4)]
)
def test_scoreless_turn_limits(limit: object, turns: int) -> None:
    game = Game(EN.with_options(scoreless=limit), ["ann", "bob"], seed=3)
    for _ in range(turns - 1):
        game.pass_turn()
    assert not game.over
    game.pass_turn()
    assert game.over and game.end_reason == f"{turns} scoreless turns in a row"
    racks = [game.rules.tiles.rack_value(game.rack(i) or "") for i in range(2)]
    assert game.scores == [-racks[0], -racks[1]]


def test_german_rule_counts_passes_only() -> None:
    game = Game(german(), ["ann", "bob"])
    game.pass_turn()
    game.pass_turn()
    game.pass_turn()
    game.exchange(2)
    game.pass_turn()
    game.pass_turn()
    game.pass_turn()
    assert not game.over
    game.pass_turn()
    assert game.over and game.awaiting_racks
    game.finish_with_racks({0: "AB", 1: "Q"})
    assert game.scores == [-4, -10]
    assert not game.awaiting_racks


def test_finish_with_racks_needs_every_rack() -> None:
    game = Game(EN, ["a", "b", "c"])
    for _ in range(9):
        game.pass_turn()
    assert game.awaiting_racks
    with pytest.raises(PlayerError, match="the racks of c are still needed"):
        game.finish_with_racks({0: "A", 1: "B"})
    with pytest.raises(NotInBagError, match="not among the unseen tiles"):
        game.finish_with_racks({2: "ZZ"})


def test_tie_break_on_score_before_racks() -> None:
    game = Game(EN, ["ann", "bob"])
    game.scores = [20, 10]
    for _ in range(6):
        game.pass_turn()
    game.finish_with_racks({0: "Z", 1: "A"})  # 20-10 = 10, 10-1 = 9
    assert game.winners() == [0]
    game2 = Game(EN, ["ann", "bob"])
    game2.scores = [20, 19]
    for _ in range(6):
        game2.pass_turn()
    game2.finish_with_racks({0: "AA", 1: "A"})  # 18 each: ann was ahead before the racks
    assert game2.scores == [18, 18]
    assert game2.winners() == [0]


def test_journal_replay_rebuilds_the_game() -> None:
    game = Game(EN.with_options(challenge=ChallengeRule.FIVE_POINT), ["ann", "bob"], seed=11)
    r0 = game.rack(0) or ""
    game.exchange(r0[:2])
    r1 = game.rack(1) or ""
    game.play(pl(f"H8={r1[0]} I8={r1[1]}"))
    game.challenge(0, valid=True)
    game.apply_time_penalty(0, 75)
    game.pass_turn()
    data = json.loads(json.dumps(game.to_dict()))
    again = Game.replay(game.rules, data)
    assert again.scores == game.scores
    assert str(again.board) == str(game.board)
    assert again.racks == game.racks
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    assert [Event.from_dict(e.to_dict()) for e in game.events] == game.events


def test_force_play_is_journaled() -> None:
    game = Game(EN, ["ann", "bob"])
    game.force_play(pl("A1=Q A2=I"), 7)
    assert game.scores == [7, 0]
    again = Game.replay(EN, game.to_dict())
    assert str(again.board) == str(game.board)


def test_unknown_action_in_journal() -> None:
    with pytest.raises(PlayerError, match="unknown action 'dance'"):
        Game(EN, ["a", "b"]).apply_action({"action": "dance"})


def test_from_dict_rebuilds_rules_too() -> None:
    game = Game(german().with_options(challenge=ChallengeRule.TEN_POINT), ["ann", "bob"])
    game.play("8G DÜS")
    game.challenge(1, valid=True)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.rules == game.rules and again.scores == [26, 0]


def test_exchange_errors_name_the_tiles() -> None:
    game = Game(EN, ["ann", "bob"], seed=5)
    rack = game.rack(0) or ""
    absent = next(ch for ch in "QZXJKVW" if ch not in rack)
    with pytest.raises(NotOnRackError, match=f"exchange {absent}: {absent} not on the rack {rack}"):
        game.exchange(absent)
    late = Game(EN, ["ann", "bob"])
    late.board.place((p.square, p.tile) for p in pl(" ".join(f"{c}{r}=E" for r in range(1, 13) for c in "ABCDEFG")))
    with pytest.raises(ExchangeNotAllowedError, match="exchange of 7 tiles refused: only 2 in the bag"):
        late.exchange(7)


def test_first_player_from_the_draw() -> None:
    from game.game import first_player

    assert first_player(["M", "C", "X"]) == [1]
    assert first_player(["M", "?", "A"]) == [1]
    assert first_player(["e", "E", "Z"]) == [0, 1]
    with pytest.raises(PlayerError, match="one tile per player"):
        first_player(["AB", "C"])


def test_losing_on_time_under_the_woogles_rule() -> None:
    game = Game(EN.with_options(overtime_loss_minutes=10), ["ann", "bob"])
    game.scores = [300, 200]
    assert game.apply_time_penalty(0, 600) == 100
    assert not game.over
    game.apply_time_penalty(0, 601)
    assert game.over and game.end_reason == "ann lost on time, more than 10 minutes over"
    assert game.winners() == [1]
    plain = Game(EN, ["ann", "bob"])
    plain.apply_time_penalty(0, 3600)
    assert not plain.over


def test_the_clock_ends_the_game_as_lost_on_time_at_its_limit() -> None:
    # The clock stops a loser exactly at the limit: 600 s over is not "more than" 10 minutes, so the table
    # says so itself; the penalties come after, as usual, and the journal replays both.
    game = Game(EN.with_options(overtime_loss_minutes=10), ["ann", "bob"])
    game.scores = [300, 200]
    game.lose_on_time(0)
    assert game.over and game.end_reason == "ann lost on time, 10 minutes over"
    assert game.apply_time_penalty(0, 600) == 100 and game.apply_time_penalty(1, 0) == 0
    assert game.winners() == [1] and game.lost_on_time == 0
    with pytest.raises(GameOverError, match="ann has already lost on time"):
        game.lose_on_time(1)
    with pytest.raises(GameOverError):
        game.pass_turn()
    again = Game.replay(game.rules, game.to_dict())
    assert again.lost_on_time == 0 and again.over and again.end_reason == game.end_reason
    assert again.winners() == [1]


def test_forced_play_can_be_withdrawn_and_is_written_as_gcg() -> None:
    game = Game(EN, ["ann", "bob"])
    game.force_play(pl("A1=Q A2=I"), 7)  # off the start square: a director's ruling
    assert game.events[-1].move == "A1 QI"
    judged = Game(EN, ["a", "b"], lexicon=WORDS)
    judged.force_play(pl("A1=Q A2=I"), 7)
    with pytest.raises(ChallengeError, match="a forced play has no words the lexicon can judge"):
        judged.challenge(1)
    game.challenge(1, valid=False)
    assert game.board.is_empty and game.scores == [0, 0]
    gapped = Game(EN, ["ann", "bob"])
    gapped.force_play(pl("A1=Q A3=I"), 1)
    assert gapped.events[-1].move == "A1=Q A3=I"


def test_unknown_rack_cannot_play_more_tiles_than_it_holds() -> None:
    game = Game(tiny(), ["ann", "bob"])
    with pytest.raises(NotOnRackError, match="8G ABAB: 4 tiles played, but ann holds only 3"):
        game.play("8G ABAB")


def test_a_zero_point_play_counts_as_scoreless() -> None:
    game = Game(EN, ["ann", "bob"])
    for _ in range(5):
        game.pass_turn()
    game.play("8G ab")  # two blanks: 0 points, the sixth scoreless turn [PC]
    assert game.scores == [0, 0]
    assert game.over and game.end_reason == "6 scoreless turns in a row"


def test_finish_with_racks_is_all_or_nothing_and_journaled_once() -> None:
    game = Game(EN, ["ann", "bob"])
    for _ in range(6):
        game.pass_turn()
    with pytest.raises(NotInBagError, match="together more Z than unseen"):
        game.finish_with_racks({0: "Z", 1: "Z"})
    with pytest.raises(PlayerError, match="there is no player 5"):
        game.finish_with_racks({0: "A", 5: "B"})
    assert game.racks == [None, None] and game.awaiting_racks
    game.finish_with_racks({0: "AB", 1: "Z"})
    assert [a["action"] for a in game.actions].count("finish_with_racks") == 1
    assert not any(a["action"] == "set_rack" for a in game.actions)
    again = Game.replay(EN, game.to_dict())
    assert again.scores == game.scores == [-4, -10] and again.actions == game.actions


@pytest.mark.parametrize("action", [{"action": "play"}, {"player": 0}, {"action": "finish_with_racks", "racks": 3}])
def test_malformed_journal_entry(action: dict[str, object]) -> None:
    from game.errors import DataError

    with pytest.raises(DataError, match=r"journal entry .* is malformed"):
        Game(EN, ["a", "b"]).apply_action(action)


def test_five_point_bonus_per_word_challenged() -> None:
    """[WESPA] A.i: 5 points for each word wrongly challenged; never more words than the play formed."""
    rules = EN.with_options(challenge=ChallengeRule.FIVE_POINT, challenge_bonus_per_word=True)
    game = Game(rules, ["ann", "bob"])
    game.play("8G CAT")
    game.play("H7 A.E")  # forms AAE... one word down through the A of CAT
    with pytest.raises(ChallengeError, match="3 words challenged, but the play formed 1 word"):
        game.challenge(0, valid=True, words=3)
    assert game.scores == [10, 3]
    result = game.challenge(0, valid=True, words=1)
    assert result.points == 5 and game.scores == [10, 8]
    replayed = Game.replay(rules, game.to_dict())
    assert replayed.scores == game.scores


def test_bonus_per_challenge_ignores_the_word_count() -> None:
    game = Game(EN.with_options(challenge=ChallengeRule.TEN_POINT), ["ann", "bob"])
    game.play("8G CAT")
    assert game.challenge(1, valid=True, words=1).points == 10


def test_a_turns_event_says_where_it_went_and_how_many_tiles_without_its_text_read_back() -> None:
    game = Game(EN, ["ann", "bob"])
    game.play("H7 CAT")
    game.exchange(3)
    play, exchange = game.events
    assert play.position == Position.from_str("H7") and str(play.position) == play.move.split()[0] == "H7"
    assert (play.count, exchange.position, exchange.count) == (3, None, 3)
    assert [Event.from_dict(e.to_dict()) for e in game.events] == game.events
