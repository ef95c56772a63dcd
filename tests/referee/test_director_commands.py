"""Director commands at the table: journaled as "director" events with who sent them, applied like a
button, refused with the reason, and replayed from the journal like any other input."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.journal import Journal
from referee.sim.table import ManualClock, SimulatedTable, default_setup
from referee.table.api import ControlError
from referee.table.live import LiveTable
from referee.table.rules import WordSet, table_rules

WORDS = ["QUIZ", "ZA", "QI"]


def make(tmp_path: Path) -> SimulatedTable:
    return SimulatedTable(default_setup(), words=WORDS, journal=Journal(tmp_path / "games.sqlite3"))


def director_rows(t: SimulatedTable) -> list[dict[str, object]]:
    assert t.journal is not None and t.game_id is not None
    return [dict(e.data) for e in t.journal.events(t.game_id) if e.kind == "director"]


def test_start_pause_resume_are_journaled_with_who_sent_them(tmp_path: Path) -> None:
    t = make(tmp_path)
    t.director("start", {}, by="director", command_id="c1")
    t.advance(10)
    t.director("pause", {}, by="director", command_id="c2")
    assert t.snapshot()["state"] == "paused"
    t.advance(60)
    t.director("resume", {}, by="director", command_id="c3")
    assert t.snapshot()["players"][0]["clock"]["remaining_ms"] == 25 * 60_000 - 10_000
    assert [(r["cmd"], r["by"], r["id"]) for r in director_rows(t)] == [
        ("start", "director", "c1"), ("pause", "director", "c2"), ("resume", "director", "c3")]


def test_a_refused_command_changes_nothing_and_is_not_journaled(tmp_path: Path) -> None:
    t = make(tmp_path)
    with pytest.raises(ControlError, match="nothing to pause"):
        t.director("pause", {}, by="director", command_id="c1")
    with pytest.raises(ControlError, match="unknown director command"):
        t.director("explode", {}, by="director", command_id="c2")
    assert director_rows(t) == []


def test_the_page_cannot_send_a_director_command(tmp_path: Path) -> None:
    t = make(tmp_path)
    t.control("start", {})
    with pytest.raises(ControlError, match="unknown action"):
        t.control("adjust_time", {"player": 0, "seconds": 600})


def test_adjust_time_gives_and_takes_clock_time(tmp_path: Path) -> None:
    t = make(tmp_path)
    t.control("start", {})
    t.director("adjust_time", {"player": 1, "seconds": 90}, by="director", command_id="c1")
    t.director("adjust_time", {"player": 0, "seconds": -60}, by="director", command_id="c2")
    players = t.snapshot()["players"]
    assert players[1]["clock"]["remaining_ms"] == 25 * 60_000 + 90_000
    assert players[0]["clock"]["remaining_ms"] == 25 * 60_000 - 60_000
    with pytest.raises(ControlError, match="player must be a seat"):
        t.director("adjust_time", {"player": 2, "seconds": 5}, by="director", command_id="c3")


def test_hold_stops_the_clocks_during_a_challenge_until_released(tmp_path: Path) -> None:
    t = make(tmp_path)
    t.control("start", {})
    t.play("8E QUIZ")
    assert t.snapshot()["state"] == "challenge"
    t.director("hold", {"hold": True}, by="director", command_id="h1")
    held = t.snapshot()
    assert held["state"] == "paused"
    assert any(a["code"] == "challenge_held" for a in held["alerts"])
    t.advance(120)  # the 15 s window does not run out while held
    t.director("hold", {"hold": False}, by="director", command_id="h2")
    after = t.snapshot()
    assert after["state"] == "challenge"
    assert not any(a["code"] == "challenge_held" for a in after["alerts"])
    with pytest.raises(ControlError, match="no challenge is held"):
        t.director("hold", {"hold": False}, by="director", command_id="h3")


def test_message_shows_on_the_table(tmp_path: Path) -> None:
    t = make(tmp_path)
    t.director("message", {"text": "Round 3 starts at 14:00"}, by="director", command_id="m1")
    alerts = t.snapshot()["alerts"]
    assert {"level": "info", "code": "director_message", "text": "Round 3 starts at 14:00", "squares": [],
            "fields": {"text": "Round 3 starts at 14:00"}} in alerts


def test_undo_takes_the_last_play_back_and_the_mover_plays_again(tmp_path: Path) -> None:
    t = make(tmp_path)
    t.control("start", {})
    t.play("8E QUIZ")
    assert t.snapshot()["players"][0]["score"] > 0
    t.director("undo", {}, by="director", command_id="u1")
    snap = t.snapshot()
    assert snap["players"][0]["score"] == 0
    assert snap["state"] == "takeback"
    for sq in ("E8", "F8", "G8", "H8"):
        t.lift(sq)
    snap = t.snapshot()
    assert snap["state"] == "turn" and snap["players"][0]["on_turn"]
    assert snap["players"][0]["clock"]["running"]
    with pytest.raises(ControlError, match="only the last play"):
        t.director("undo", {}, by="director", command_id="u2")


def test_set_players_seats_the_next_game_with_the_first_player_first(tmp_path: Path) -> None:
    t = make(tmp_path)
    first_game = t.game_id
    t.next_game(["Carla", "Dirk"], 1, by="director", command_id="p1")
    assert t.game_id != first_game
    snap = t.snapshot()
    assert [p["name"] for p in snap["players"]] == ["Dirk", "Carla"]
    assert snap["state"] == "waiting"
    assert director_rows(t)[0]["cmd"] == "set_players"
    with pytest.raises(ControlError, match="set up for 2 players"):
        t.next_game(["Eva", "Fritz", "Gus"], 0, by="director", command_id="p3")
    t.control("start", {})
    with pytest.raises(ControlError, match="before a game starts or after it ends"):
        t.next_game(["Eva", "Fritz"], 0, by="director", command_id="p2")


def test_director_events_replay_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    t = SimulatedTable(default_setup(), words=WORDS, journal=Journal(path))
    t.director("start", {}, by="director", command_id="c1")
    t.director("adjust_time", {"player": 1, "seconds": 30}, by="director", command_id="c2")
    t.play("8E QUIZ")
    t.director("hold", {}, by="director", command_id="c3")
    before = t.snapshot()
    resumed = LiveTable.resume(Journal(path), lambda s: table_rules(s, WordSet(WORDS)), monotonic=ManualClock(5000))
    assert resumed is not None
    after = resumed.snapshot()
    for key in ("state", "board", "alerts"):
        assert after[key] == before[key]  # type: ignore[literal-required]
    assert [p["clock"] for p in after["players"]] == [p["clock"] for p in before["players"]]


def test_correct_score_corrects_a_misread_letter_and_the_engine_scores_again(tmp_path: Path) -> None:
    t = SimulatedTable(default_setup(), journal=Journal(tmp_path / "games.sqlite3"))  # every word is good
    t.control("start", {})
    t.play("8E QUIZ")
    before = t.snapshot()["players"][0]["score"]
    t.director("correct_score", {"square": "E8", "letter": "A"}, by="director", command_id="s1")  # AUIZ
    after = t.snapshot()["players"][0]["score"]
    assert after == before - 18, "Q (10 points) read where an A (1) lay, on a double word square"


def test_correct_score_by_points_is_its_own_row_in_the_totals_the_result_and_the_gcg(tmp_path: Path) -> None:
    from game.gcg import parse_gcg
    from referee.table.records import export_gcg

    path = tmp_path / "games.sqlite3"
    t = SimulatedTable(default_setup(), journal=Journal(path))
    t.control("start", {})
    t.play("8E QUIZ")  # Anna 44, Ben to play (the challenge window runs)
    t.director("correct_score", {"player": 1, "points": -10, "reason": "phone rang"}, by="td-ann", command_id="a1")
    t.director("correct_score", {"player": 0, "points": 6, "reason": "ruling"}, by="td-ann", command_id="a2")
    snap = t.snapshot()
    assert [p["score"] for p in snap["players"]] == [50, -10]
    assert snap["state"] == "challenge" and snap["players"][1]["on_turn"], "the turn goes on as it was"
    assert snap["moves"][1:] == [
        {"player": 1, "kind": "adjustment", "notation": "(adjustment)", "words": [], "score": -10, "total": -10,
         "note": "phone rang"},
        {"player": 0, "kind": "adjustment", "notation": "(adjustment)", "words": [], "score": 6, "total": 50,
         "note": "ruling"}]
    notice = next(a for a in snap["alerts"] if a["code"] == "score_adjusted")
    assert notice["text"] == "The director adjusted the score of Anna by +6 points (now 50): ruling"
    assert [(r["cmd"], r["by"], r["id"]) for r in director_rows(t)][-2:] == [("correct_score", "td-ann", "a1"),
                                                                              ("correct_score", "td-ann", "a2")]
    # the journal replays it, and the record carries it in a form GCG readers take
    assert t.game_id is not None
    record = parse_gcg(export_gcg(Journal(path), t.game_id))
    assert len(record.moves) == 1  # no turn: notes of their own after the play
    assert [(a.nick, a.points, a.reason) for a in record.moves[0].adjustments] == [
        ("Ben", -10, "phone rang"), ("Anna", 6, "ruling")]


def test_an_adjustment_does_not_stand_in_the_way_of_an_undo_and_stays(tmp_path: Path) -> None:
    t = SimulatedTable(default_setup(), journal=Journal(tmp_path / "games.sqlite3"))
    t.control("start", {})
    t.play("8E QUIZ")
    t.director("correct_score", {"player": 1, "points": 3, "reason": "x"}, by="director", command_id="a0")
    t.director("undo", {}, by="director", command_id="u1")
    snap = t.snapshot()
    assert [p["score"] for p in snap["players"]] == [0, 3]
    assert [m["kind"] for m in snap["moves"]] == ["adjustment"]


@pytest.mark.parametrize(("args", "match"), [
    ({"player": 0, "points": 5}, "needs its reason"),
    ({"player": 0, "points": 0, "reason": "x"}, "not 0: 0"),
    ({"player": 0, "points": "5", "reason": "x"}, "not 0: '5'"),
    ({"player": 2, "points": 5, "reason": "x"}, "player must be a seat from 0 to 1"),
    ({"player": 0}, "correct_score takes a misread letter"),
])
def test_a_bad_points_adjustment_is_refused_with_the_reason(tmp_path: Path, args: dict[str, object],
                                                            match: str) -> None:
    t = make(tmp_path)
    with pytest.raises(ControlError, match="once the game has started"):
        t.director("correct_score", {"player": 0, "points": 5, "reason": "x"}, by="director", command_id="w")
    t.control("start", {})
    with pytest.raises(ControlError, match=match):
        t.director("correct_score", args, by="director", command_id="bad")
    assert [p["score"] for p in t.snapshot()["players"]] == [0, 0]
    assert [r["cmd"] for r in director_rows(t)] == []


def test_a_german_table_shows_the_directors_notices_in_german(tmp_path: Path) -> None:
    from referee.words import say
    from referee.words.table import DIRECTOR_NOTICES, TABLE

    t = SimulatedTable(default_setup(language="de"), words=WORDS, journal=Journal(tmp_path / "games.sqlite3"))
    t.control("start", {})
    t.play("8E QUIZ")
    t.director("hold", {"hold": True}, by="director", command_id="h1")
    t.director("correct_score", {"player": 1, "points": -5, "reason": "Handy"}, by="director", command_id="a1")
    shown = {a["code"]: a["text"] for a in t.snapshot()["alerts"]}
    t.director("hold", {"hold": False}, by="director", command_id="h2")
    t.director("undo", {}, by="director", command_id="u1")
    shown.update({a["code"]: a["text"] for a in t.snapshot()["alerts"]})
    assert shown["challenge_held"] == say("table", "challenge_held", "de")
    assert shown["play_undone"] == say("table", "play_undone", "de", squares="E8, F8, G8, H8")
    assert shown["score_adjusted"] == "Die Turnierleitung hat den Punktestand von Ben um -5 Punkte korrigiert " \
                                      "(jetzt -5): Handy"
    for code in DIRECTOR_NOTICES:
        assert shown[code] != TABLE[code]["en"].format(squares="E8, F8, G8, H8", player="Ben",
                                                                   points="-5", total=-5, reason="Handy")


def test_an_adjustment_after_the_end_changes_the_result_and_replays_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    t = SimulatedTable(default_setup(), words=WORDS, journal=Journal(path))
    t.control("start", {})
    t.play("8E QUIZ")
    t.advance(15)
    for _ in range(6):  # six scoreless turns in a row end a two-player game
        t.press()
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})  # 7
    snap = t.control("racks", {"player": 1, "tiles": "BCDFGHL"})  # 3+3+2+4+2+4+1 = 19
    assert snap["state"] == "ended" and snap["result"] == {"winners": [0], "reason": "score"}
    snap = t.director("correct_score", {"player": 1, "points": 70, "reason": "the paper sheet missed a bingo"},
                      by="director", command_id="late")
    assert [p["score"] for p in snap["players"]] == [44 - 7, -19 + 70]
    assert snap["result"] == {"winners": [1], "reason": "score"} and snap["state"] == "ended"
    from referee.table.records import replay_game

    assert t.game_id is not None
    again = replay_game(Journal(path), t.game_id).snapshot()  # an ended game is rebuilt from its journal
    assert again["result"] == snap["result"] and again["moves"] == snap["moves"]


def _messages(snap: object) -> list[str]:
    return [a["text"] for a in snap["alerts"] if a["code"] == "director_message"]  # type: ignore[index]


def test_a_message_expires_after_its_minutes_and_after_ten_by_default(tmp_path: Path) -> None:
    """A director's message stayed on the table's page for the rest of the game ("Round 3 starts at 14:00"
    still there at 16:00): it goes after the minutes it was sent for, ten when none were given."""
    t = make(tmp_path)
    t.director("message", {"text": "Table 4, please wait", "minutes": 2}, by="director", command_id="m1")
    assert _messages(t.advance(119)) == ["Table 4, please wait"]
    assert _messages(t.advance(2)) == []
    t.director("message", {"text": "Round 3 at 14:00"}, by="director", command_id="m2")
    assert _messages(t.advance(9 * 60)) == ["Round 3 at 14:00"]
    assert _messages(t.advance(61)) == []
    with pytest.raises(ControlError, match="minutes"):
        t.director("message", {"text": "x", "minutes": 0}, by="director", command_id="m3")


def test_a_message_expires_at_the_same_time_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    t = SimulatedTable(default_setup(), words=WORDS, journal=Journal(path))
    t.director("message", {"text": "Lunch until 13:30", "minutes": 5}, by="director", command_id="m1")
    t.advance(60)
    t.checkpoint()

    def resumed(seconds: float) -> list[str]:
        again = LiveTable.resume(Journal(path), lambda s: table_rules(s, WordSet(WORDS)),
                                 monotonic=ManualClock(seconds))
        assert again is not None
        again.poll()
        return _messages(again.snapshot())

    assert resumed(0) == ["Lunch until 13:30"]  # table time resumes at the last heartbeat: 4 minutes left
    t.advance(4 * 60 + 1)
    t.checkpoint()
    assert resumed(0) == []
