"""The spectators' delay on an injected clock: seconds, moves, a new game, the end of a game."""

from __future__ import annotations

from typing import Any

import pytest

from tournament.broadcast.delay import Delay, DelayError, DelayLine


def picture(seq: int, moves: int, *, game: int = 1, state: str = "turn", running: bool = True) -> dict[str, Any]:
    return {"game": game, "seq": seq, "state": state, "board": ["." * 15] * 15, "last_play": [], "unseen": "AB",
            "bag": 80, "spread": moves, "to_play": moves % 2, "result": None, "last": None, "delay": None,
            "moves": [{"player": i % 2, "kind": "play", "notation": f"8D W{i}", "score": 10, "total": 10}
                      for i in range(moves)],
            "players": [{"name": "Ann", "score": moves, "on_turn": True, "clock": {"ms": 60000, "running": running}},
                        {"name": "Ben", "score": 0, "on_turn": False, "clock": {"ms": 50000, "running": False}}]}


def test_a_delay_in_seconds_shows_the_picture_of_that_long_ago() -> None:
    delay = Delay(seconds=60)
    line = DelayLine()
    line.add(picture(0, 0), 100.0, delay)
    shown = line.shown(120.0, delay)
    assert shown is not None and shown["delay"]["waiting"] and shown["moves"] == []
    assert shown["players"][0]["score"] == 0
    line.add(picture(1, 1), 130.0, delay)
    line.add(picture(2, 2), 170.0, delay)
    assert line.shown(159.9, delay)["delay"].get("waiting")  # type: ignore[index]
    assert line.shown(160.0, delay)["seq"] == 0  # type: ignore[index]
    assert line.shown(190.0, delay)["seq"] == 1  # type: ignore[index]
    assert line.shown(230.0, delay)["seq"] == 2  # type: ignore[index]
    assert line.latest()["seq"] == 2  # type: ignore[index]


def test_a_delay_in_moves_shows_the_position_n_moves_ago_with_its_clocks_stopped() -> None:
    delay = Delay(moves=2)
    line = DelayLine()
    for seq in range(5):
        line.add(picture(seq, seq), float(seq), delay)
    shown = line.shown(5.0, delay)
    assert shown is not None and len(shown["moves"]) == 2 and shown["seq"] == 2
    assert not any(p["clock"]["running"] for p in shown["players"])
    line.add(picture(5, 4, state="ended", running=False), 6.0, delay)  # the game is over: nothing to hide
    assert line.shown(6.0, delay)["seq"] == 5  # type: ignore[index]


def test_a_new_game_starts_a_new_line_and_no_delay_shows_the_latest() -> None:
    delay = Delay(moves=1)
    line = DelayLine()
    line.add(picture(3, 3), 0.0, delay)
    line.add(picture(0, 0, game=2), 1.0, delay)
    line.add(picture(1, 1, game=2), 2.0, delay)
    assert line.shown(2.0, delay)["game"] == 2 and line.shown(2.0, delay)["seq"] == 0  # type: ignore[index]
    assert line.shown(2.0, Delay())["seq"] == 1  # type: ignore[index]


@pytest.mark.parametrize(("kwargs", "words"), [({"moves": -1}, "delay moves"), ({"seconds": 4000}, "delay seconds"),
                                               ({"moves": 2, "seconds": 5}, "not both"), ({"moves": True}, "moves")])
def test_a_bad_delay_says_which_value(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(DelayError, match=words):
        Delay(**kwargs)
