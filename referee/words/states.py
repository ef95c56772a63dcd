"""The one table of state names: the table's states and a game clock's, in every form they are said.

A German sentence ("der Tisch ist im Zug"), the terminal's status line ("Partie 3 am Zug: ...") and the pages'
labels ("Spiel läuft") name the same state three ways; English says the state's own word in a sentence and on
the status line. The engine's clock messages ("the clock is running") name a clock's state.
"""

from __future__ import annotations

from referee.words.base import Catalogue

# The table's states (referee.table.state.TableState), and "exchange", which only a page shows:
#   state         German in a sentence        German status line       page, English        page, German
_TABLE_STATES: dict[str, tuple[str, str, str, str]] = {
    "waiting": ("vor dem Start", "vor dem Start", "waiting to start", "wartet auf Start"),
    "roll": ("beim Würfeln", "Würfeln", "roll the dice", "würfeln"),
    "turn": ("im Zug", "am Zug", "playing", "Spiel läuft"),
    "blank": ("beim Nachfragen", "Blanko-Frage", "blank letter?", "Blanko-Buchstabe?"),
    "challenge": ("im Anzweiflungsfenster", "Anzweifeln möglich", "challenge window", "Zweifelfrist"),
    "takeback": ("beim Zurücknehmen", "Steine zurücknehmen", "take back tiles", "Steine zurücknehmen"),
    "removal": ("beim Abräumen der Würfel", "Würfel abräumen", "remove dice", "Würfel entfernen"),
    "paused": ("angehalten", "angehalten", "paused", "Pause"),
    "racks": ("bei den Reststeinen", "Reststeine eingeben", "racks at the end", "Reststeine"),
    "ended": ("am Ende", "beendet", "game over", "Spielende"),
    "exchange": ("beim Tauschen", "Tausch", "exchange", "Tausch"),
}

# A game clock's states (game.clock), as the engine's clock messages name them ("it is running").
_CLOCK_STATES: dict[str, str] = {
    "ready": "bereit", "running": "am Laufen", "paused": "angehalten", "ended": "beendet",
    "idle": "nicht gestartet", "expired": "abgelaufen",
}

# The forms, each a key prefix of the catalogue: "sentence.turn", "line.turn", "label.turn", "clock.running".
FORMS = ("sentence", "line", "label", "clock")

STATES: dict[str, dict[str, str]] = {
    **{f"sentence.{s}": {"en": s, "de": row[0]} for s, row in _TABLE_STATES.items()},
    **{f"line.{s}": {"en": s, "de": row[1]} for s, row in _TABLE_STATES.items()},
    **{f"label.{s}": {"en": row[2], "de": row[3]} for s, row in _TABLE_STATES.items()},
    **{f"clock.{s}": {"en": s, "de": de} for s, de in _CLOCK_STATES.items()},
}


def state_name(state: str, form: str, lang: str) -> str:
    """`state` in `form` ("sentence", "line", "label", "clock") and `lang`; a state the table does not know (a
    newer table's) keeps its own word."""
    entry = STATES.get(f"{form}.{state}")
    if entry is None:
        return state
    return entry.get(lang, entry["en"])


CATALOGUES = (Catalogue("states", STATES),)
