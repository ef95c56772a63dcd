"""What a tournament table shows when it starts again after its game ended (its Pi crashed between rounds).

A table's file names placeholder players ("Player 7", "Player 8"): the director seats the real ones with
each round's pairing (`set_players`, `LiveTable.next_game`), so the last game's setup differs from the file
in its players only. A table off the tournament network starts a new game when its file names other players
(the next round's, typed in); a tournament table must not: it would start "Player 7 v Player 8", and its hall
tile would lose the finished result. It keeps its last game, ended, on every view, and waits for the
director's next pairing. Any other difference (rules, clocks, edition changed in the file) still starts a
game of the file's setup, as it does off the network.
"""

from __future__ import annotations

import json
from typing import Any


def _without_players(setup: Any) -> str:
    data = dict(setup) if isinstance(setup, dict) else {}
    data.pop("players", None)
    return json.dumps(data, sort_keys=True, default=str)


def keeps_last_game(config: Any, last_setup: Any, file_setup: dict[str, Any]) -> bool:
    """True when a table on the tournament network keeps its ended last game although its file's players
    differ: the director seated those players, and the director seats the next ones."""
    if getattr(config, "tournament", None) is None:
        return False
    return _without_players(last_setup) == _without_players(file_setup)
