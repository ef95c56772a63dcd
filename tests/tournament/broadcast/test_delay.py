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


def test_without_a_picture_of_then_the_position_is_worked_out_from_the_latest() -> None:
    from referee.sim.table import SimulatedTable, default_setup
    from tournament.broadcast.view import rewound

    table = SimulatedTable(default_setup(players=("Ann", "Ben")), words=["QI", "AX", "JOE", "WE", "AI", "QO",
                                                                          "AIE", "JE"])
    shots = [table.control("start", {})]
    for move in ["8G QI", "7H AX", "9F JOE", "10E WE"]:
        table.play(move)
        shots.append(table.advance(20))

    def as_view(snap: Any) -> dict[str, Any]:
        return {"game": 1, "seq": 0, "state": snap["state"], "board": list(snap["board"]), "unseen": snap["unseen"],
                "bag": snap["bag"], "moves": [dict(m) for m in snap["moves"]], "last_play": list(snap["last_play"]),
                "to_play": 0, "players": [{"name": p["name"], "score": p["score"], "on_turn": p["on_turn"],
                                           "clock": None} for p in snap["players"]], "delay": None}

    latest = as_view(shots[-1])
    for back in (1, 2, 4):
        then = shots[-1 - back]
        earlier = rewound(latest, back)
        assert earlier is not None
        assert earlier["board"] == list(then["board"])
        assert earlier["unseen"] == then["unseen"] and earlier["bag"] == then["bag"]
        assert [p["score"] for p in earlier["players"]] == [p["score"] for p in then["players"]]
        assert sorted(earlier["last_play"]) == sorted(then["last_play"])
        assert [p["on_turn"] for p in earlier["players"]] == [p["on_turn"] for p in then["players"]]
    # a line that has no picture of two moves ago (the delay set during the game) shows the worked-out one
    line = DelayLine()
    line.add(latest, 0.0, Delay(moves=2))
    shown = line.shown(0.0, Delay(moves=2))
    assert shown is not None and shown["board"] == list(shots[2]["board"]) and shown["delay"]["rewound"]
    # a notation it cannot take back exactly: nothing is shown early
    broken = dict(latest, moves=[*latest["moves"][:-1], {**latest["moves"][-1], "notation": "10E WE (E10=W)"}])
    assert rewound(broken, 1) is None
