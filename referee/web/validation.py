"""Checks the parameters of a control action before they reach the table: the page's side of the action schema.

What an action takes and how each parameter is checked is the table's schema (referee/table/actions.py); this
module only turns a parameter the schema refuses into the page's refusal, `InvalidInput`: a check code and its
fields (the words, in English and German, are in referee/words/checks.py), so the page says it in the page's
language and the table's refusal ("ungültige Eingabe: ...") says it in the table's. The table checks the game
(whose turn, which squares hold blanks); the schema checks the shape of what was typed, so a player gets a clear
message naming the field ("letter: one letter, A to Z") and the table is never asked anything malformed.
"""

from __future__ import annotations

from typing import Any

from referee.table.actions import ACTIONS, MAX_WORDS, BadParam, TableShape, parse
from referee.table.api import ControlError, Snapshot
from referee.words import say
from referee.words.checks import check_phrase

__all__ = ["ACTIONS", "MAX_WORDS", "InvalidInput", "parse_control"]


class InvalidInput(ControlError):
    """A control action's parameters are malformed; `field` names the parameter at fault, `check` the check
    that refused it (a code of `CHECKS` in referee/words/checks.py) and `fields` the values its words name.
    `str()` is the English ("letter: type one letter, e.g. E"), `text("de")` the German; as a refusal of the table
    (`invalid_input`) it is "ungültige Eingabe: Buchstabe: ..." at a German table."""

    def __init__(self, field: str, check: str, /, **fields: object) -> None:
        self.said = check_phrase(check, field, **fields)
        super().__init__("invalid_input", detail=self.said)
        self.field = field
        self.check = check
        self.fields = fields

    def text(self, language: str = "en") -> str:
        return say(self.said.catalogue, self.said.code, language, **self.said.fields)


def parse_control(action: str, params: Any, snapshot: Snapshot) -> dict[str, Any]:
    """Return the clean parameters of `action`, or raise `InvalidInput` (a `ControlError`) saying what is wrong."""
    try:
        return parse(action, params, TableShape.of(snapshot))
    except BadParam as bad:
        raise InvalidInput(bad.field, bad.check, **bad.fields) from None
