"""What the table tells its page follows the game (issue 25 item 4): the actions its state takes, one alert
for a phony, no "Time is up" once the game is lost on time."""

from __future__ import annotations

from referee.sim.table import SimulatedTable, default_setup


def _codes(snap: dict) -> list[str]:
    return [a["code"] for a in snap["alerts"]]


def test_each_state_offers_its_own_actions() -> None:
    t = SimulatedTable(default_setup(challenge="double"), words=["QUIZ"])
    assert t.snapshot()["actions"] == ["start"]  # no Pass or Exchange before the game
    snap = t.control("start", {})
    assert {"pass", "exchange", "pause"} <= set(snap["actions"]) and "start" not in snap["actions"]
    assert "racks" not in snap["actions"] and "new_game" not in snap["actions"]
    snap = t.control("pause", {})
    assert snap["actions"] == ["resume"]
    t.control("resume", {})
    snap = t.play("8E QUIZ")
    assert {"challenge", "accept"} <= set(snap["actions"]) and "pass" not in snap["actions"]
    t.control("accept", {})
    for _ in range(6):
        t.control("pass", {})
    snap = t.snapshot()
    assert snap["state"] == "racks" and snap["actions"] == ["pause", "racks"]
    t.control("racks", {"player": 0, "tiles": "AEINRST"})
    snap = t.control("racks", {"player": 1, "tiles": "BCDEFGH"})
    assert snap["state"] == "ended" and snap["actions"] == ["new_game"]  # no Exchange after the game


def test_scramble_offers_no_exchange() -> None:
    t = SimulatedTable(default_setup(kind="scramble", clock_mode="none"))
    t.control("start", {})
    snap = t.snapshot()
    assert snap["state"] == "roll" and "roll" in snap["actions"]  # the tray's report, and the page's entry too
    t.roll("OATZEEE")
    assert "exchange" not in t.snapshot()["actions"] and "pass" in t.snapshot()["actions"]


def test_a_phony_under_void_is_one_alert_with_its_one_instruction() -> None:
    t = SimulatedTable(default_setup(challenge="void"), words=["QUIZ"])
    t.control("start", {})
    t.place_word("8G ZQ")
    snap = t.press(0)
    assert snap["state"] == "takeback"
    assert _codes(snap) == ["not_in_lexicon"], snap["alerts"]
    assert "G8, H8" in snap["alerts"][0]["text"]  # the instruction is in it


def test_a_phony_challenged_off_is_one_alert_too() -> None:
    t = SimulatedTable(default_setup(challenge="double"), words=["QI"])
    t.control("start", {})
    t.play("8E QUIZ")
    snap = t.control("challenge", {"player": 1})
    assert snap["state"] == "takeback"
    assert _codes(snap) == ["not_in_lexicon"], snap["alerts"]


def test_time_is_up_goes_once_the_game_is_lost_on_time() -> None:
    setup = default_setup(minutes_per_player=1.0, overtime_limit_minutes=2.0, on_max_overtime="lose")
    t = SimulatedTable(setup, words=["QUIZ"])
    t.control("start", {})
    snap = t.advance(61)
    assert "time_up" in _codes(snap)  # in overtime, the game still on: the warning is right
    snap = t.advance(120)
    assert snap["state"] == "ended" and "lost_on_time" in _codes(snap)
    assert "time_up" not in _codes(snap), snap["alerts"]


def test_a_scrambles_dice_are_on_the_score_sheet() -> None:
    # 5D OAT, then E4 Z. (ZA through the A): O and T were on the mat and are not in ZA, so they go back to the cup.
    t = SimulatedTable(default_setup(kind="scramble", clock_mode="none"), words=["OAT", "ZA", "OATS"])
    t.control("start", {})
    t.roll("OATZEEE")
    t.play("5D OAT")
    t.advance(15)
    t.roll("ZEEEEEE")
    t.play("E4 Z.")
    snap = t.advance(15)
    first, second = snap["moves"]
    assert "scrambled" not in first  # the first word of a round sends nothing back
    assert second["scrambled"] == snap["pending"]["remove"] == ["D5", "F5"]
    assert snap["players"][0]["rack_count"] == 0 and snap["game"] == "scramble"  # no rack: the page shows no count
