"""Shared for the tournament tests: a score sheet played by the real table (SimulatedTable), so exported GCG
is checked against what a table really sends, not against a hand-written copy."""

from __future__ import annotations

from typing import Any

import pytest

from referee.sim_table import SimulatedTable

PLAYS = ["8G QI", "7H AX", "9F JOE", "10E WE"]


def play_game() -> list[dict[str, Any]]:
    """Four plays, a pass and an exchange of three, as the table's snapshot lists them."""
    table = SimulatedTable()
    table.control("start", {})
    for move in PLAYS:
        table.play(move)
        table.advance(20)
    table.control("pass", {})
    table.advance(20)
    snap = table.control("exchange", {"count": 3})
    return [dict(m) for m in snap["moves"]]


@pytest.fixture(scope="session")
def table_moves() -> list[dict[str, Any]]:
    return play_game()
