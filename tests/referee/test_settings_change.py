"""Issue 28 item 3: a configuration edited between two starts of the referee. A game created but not started
takes the new settings; a game under way keeps its own and says which and why (the page's alert, the log)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from referee.journal import Journal
from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord


def _service(state: Path, **config: Any) -> TableService:
    cfg = sim_config(state_dir=state, web=False, fusion="sensors", **config)
    return TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False))


def _alert(service: TableService, code: str) -> dict[str, Any] | None:
    return next((a for a in service.table.snapshot()["alerts"] if a["code"] == code), None)


def test_a_game_not_started_takes_the_new_settings(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = _service(tmp_path, minutes=1)
    try:
        assert first.table.snapshot()["players"][0]["clock"]["remaining_ms"] == 60_000
        old_game = first.table.game_id
    finally:
        first.close()
    with caplog.at_level(logging.WARNING, logger="referee.service"):
        again = _service(tmp_path, minutes=2, challenge="single")
    try:
        snap = again.table.snapshot()
        assert snap["state"] == "waiting" and again.table.game_id != old_game
        assert snap["players"][0]["clock"]["remaining_ms"] == 120_000  # the new clocks, not 1:00
        assert again.table.machine.setup.challenge == "single"
        assert _alert(again, "settings_kept") is None
        said = caplog.text
        assert f"game {old_game} had not started" in said
        assert "clocks.minutes_per_player 1 -> 2" in said and "game.challenge double -> single" in said
    finally:
        again.close()
    journal = Journal(tmp_path / "games.sqlite3")
    try:
        games = {g.id: g for g in journal.games()}
        assert games[old_game].ended_utc is not None
        assert games[old_game].setup["minutes_per_player"] == 1  # the unplayed game is kept as it was, closed
    finally:
        journal.close()


def test_a_game_under_way_keeps_its_settings_and_says_which_and_why(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    first = _service(tmp_path, minutes=1)
    try:
        first.table.control("start", {})
        game = first.table.game_id
    finally:
        first.close()
    with caplog.at_level(logging.WARNING, logger="referee.service"):
        again = _service(tmp_path, minutes=2)
    try:
        assert again.table.game_id == game and again.table.machine.setup.minutes_per_player == 1
        alert = _alert(again, "settings_kept")
        assert alert is not None and alert["level"] == "info"
        assert "(clocks.minutes_per_player 1 -> 2)" in alert["text"] and "keeps its own to the end" in alert["text"]
        assert f"resumed game {game} keeps the settings it started with" in caplog.text
        for turn in range(6):  # six scoreless turns end it
            again.table.press_clock(turn % 2)
        again.table.control("racks", {"player": 0, "tiles": "AEEIOUS"})
        again.table.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
        again.table_step()
        assert _alert(again, "settings_kept") is None  # the note goes with the game that kept its settings
    finally:
        again.close()


def test_a_german_table_says_it_in_german(tmp_path: Path) -> None:
    first = _service(tmp_path, language="de", edition="german")
    try:
        first.table.control("start", {})
    finally:
        first.close()
    again = _service(tmp_path, language="de", edition="german", challenge="single")
    try:
        alert = _alert(again, "settings_kept")
        assert alert is not None and "behält ihre bis zum Ende" in alert["text"]
        assert "game.challenge double -> single" in alert["text"]
    finally:
        again.close()


def test_the_players_a_director_seated_are_not_the_files_placeholders(tmp_path: Path) -> None:
    first = _service(tmp_path, players=("Player 7", "Player 8"))
    try:
        first.table.next_game(["Cleo", "Dan"], 0, by="director", command_id="c1")
        seated = first.table.game_id
    finally:
        first.close()
    again = _service(tmp_path, players=("Player 7", "Player 8"), minutes=3)
    try:  # the clocks from the file, the players from the director
        assert again.table.game_id != seated and again.table.machine.setup.players == ("Cleo", "Dan")
        assert again.table.machine.setup.minutes_per_player == 3
    finally:
        again.close()
    same = _service(tmp_path, players=("Player 7", "Player 8"), minutes=3)
    try:  # nothing changed since: the same game, resumed
        assert same.table.machine.setup.players == ("Cleo", "Dan")
    finally:
        same.close()
