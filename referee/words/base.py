"""The shape of a catalogue and of a phrase: what every module of referee/words/ is made of.

Apart from `referee/words/__init__.py` (which gathers the catalogues and holds `say`) so that a catalogue
module can name these without importing the package it is part of.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from game.errors import RefereeError

LANGUAGES = ("en", "de")

# key -> language -> `str.format` template
Texts = Mapping[str, Mapping[str, str]]
# (key, the fields as given, language) -> the fields to use instead (a state named in German, a derived count)
Derive = Callable[[str, Mapping[str, object], str], dict[str, object]]


@dataclass(frozen=True)
class Catalogue:
    """One kind of words (the table's alerts, the refusals, the terminal, ...): a template per key and language.

    `derive` works out values a template names from the fields it is given, per language: a table state is
    "turn" in English and "im Zug" in a German sentence, and the caller passes the state, not the words."""

    name: str
    texts: Texts
    derive: Derive | None = None


@dataclass(frozen=True)
class Phrase:
    """Words not said yet: a catalogue's key and the fields it names, said in a language when shown.

    A field may itself be a phrase (the reason inside "The turn was not taken: {why}"), so what the table keeps
    and journals is codes and values, and the language is chosen once, where the words are shown."""

    catalogue: str
    code: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def plain(self) -> dict[str, Any]:
        """JSON-ready, for a client that says it in its own language: `{"catalogue", "code", "fields"}`."""
        return {"catalogue": self.catalogue, "code": self.code, "fields": plain_fields(self.fields)}


def plain_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {str(name): plain(value) for name, value in fields.items()}


def plain(value: Any) -> Any:
    """A field's value as JSON holds it: a phrase (or an engine error) as its code and fields, an enum as its
    value, a sequence as a list; anything else that JSON has no form for as its text."""
    if isinstance(value, Phrase):
        return value.plain()
    if isinstance(value, RefereeError):
        return {"catalogue": "engine", "code": value.message_key, "fields": plain_fields(value.fields)}
    if isinstance(value, BaseException):
        return str(value)
    if isinstance(value, Enum):
        return plain(value.value)
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, Mapping):
        return plain_fields(value)
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    return str(value)


def template_fields(template: str) -> set[str]:
    """The names a template fills in (`{play}: {tiles}` -> {"play", "tiles"})."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
