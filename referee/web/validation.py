"""Checks the parameters of a control action before they reach the table: the page's side of the action schema.

What an action takes and how each parameter is checked is the table's schema (referee/table/actions.py); this
module only turns a parameter the schema refuses into the page's refusal, `InvalidInput`, worded from the check's
code in the page's language (referee/web/checks.py). The table checks the game (whose turn, which squares hold
blanks); the schema checks the shape of what was typed, so a player gets a clear message naming the field
("letter: one letter, A to Z") and the table is never asked anything malformed.
"""

from __future__ import annotations

from typing import Any

from referee.table.actions import ACTIONS, MAX_WORDS, BadParam, TableShape, parse
from referee.table.api import ControlError, Snapshot
from referee.web.checks import check_text

__all__ = ["ACTIONS", "MAX_WORDS", "InvalidInput", "parse_control"]


class InvalidInput(ControlError):
    """A control action's parameters are malformed; `field` names the parameter at fault, `check` the check
    that refused it (a code of `CHECKS` in referee/web/checks.py) and `fields` the values its words name.
    `str()` is the English ("letter: type one letter, e.g. E"), `text("de")` the German."""

    def __init__(self, field: str, check: str, /, **fields: object) -> None:
        super().__init__("invalid_input", detail=check_text(check, "en", field, fields))
        self.field = field
        self.check = check
        self.fields = fields

    def text(self, language: str = "en") -> str:
        return check_text(self.check, language, self.field, self.fields)


def parse_control(action: str, params: Any, snapshot: Snapshot) -> dict[str, Any]:
    """Return the clean parameters of `action`, or raise `InvalidInput` (a `ControlError`) saying what is wrong."""
    try:
        return parse(action, params, TableShape.of(snapshot))
    except BadParam as bad:
        raise InvalidInput(bad.field, bad.check, **bad.fields) from None
