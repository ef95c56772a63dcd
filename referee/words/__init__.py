"""Every word a person reads or hears, in English and German, and the one function that says them.

How German text is chosen: whatever shows or says something keeps a *code and its fields* (an alert, a refusal,
a doubt, a terminal line, a spoken sentence), never a sentence; where it is shown, `say(catalogue, code, lang,
**fields)` looks up the code's template in the catalogue, in the table's language (`TableSetup.language`,
`table.language` in the configuration; the director's pages: `[director] language`), and fills in the fields.
A field may itself be words not said yet (a `Phrase`: the reason inside "The turn was not taken: {why}"), or an
engine error (said from its own code), and those are said in the same language. The pages (the scoreboard, the
director's hall and table pages, the spectators' view and overlays) get their catalogue from the server
(`page_words`) and fill it in the browser with the same templates.

The catalogues, one module each: table.py (the table's alerts and notices; why an action was refused),
engine.py (the rules engine's errors), doubts.py (why the sensors doubt a letter), checks.py (the page's input
checks), guard.py (a wrong PIN or director key), states.py (the one table of state names), terminal.py,
speech.py, board.py (premium squares, kinds of moves), page.py (the scoreboard page), director.py (the director's
and the spectators' pages). tests/referee/words/test_words.py walks every code of every catalogue in every language and
fails on an English word in German.

This package imports only the rules engine (`game/`), so the tournament director, which never imports the table's
service, says its pages' words from here too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.errors import RefereeError
from referee.words import board, checks, director, doubts, engine, guard, page, speech, states, table, terminal
from referee.words.base import LANGUAGES, Catalogue, Phrase, plain, plain_fields, template_fields

__all__ = ["CATALOGUES", "LANGUAGES", "Catalogue", "Phrase", "page_script", "page_words", "plain", "plain_fields",
           "say", "template_fields"]

CATALOGUES: dict[str, Catalogue] = {c.name: c for module in (table, engine, doubts, checks, guard, states,
                                                             terminal, speech, board, page, director)
                                    for c in module.CATALOGUES}


def say(catalogue: str, code: str, lang: str, **fields: Any) -> str:
    """The words of `code` in `catalogue`, in `lang` ("en" or "de"; English where a language has none), with its
    fields filled in: each a value, a `Phrase` or an engine error, said in `lang` too."""
    book = CATALOGUES[catalogue]
    entry = book.texts[code]
    template = entry.get(lang) or entry["en"]
    values = {name: _said(value, lang) for name, value in fields.items()}
    if book.derive is not None:
        values.update({name: _said(value, lang) for name, value in book.derive(code, fields, lang).items()})
    return template.format(**values)


def _said(value: Any, lang: str) -> Any:
    """A field's value as it goes into a template: words said in `lang`, anything else as it is."""
    if isinstance(value, Phrase):
        return say(value.catalogue, value.code, lang, **value.fields)
    if isinstance(value, RefereeError):
        return _engine_error(value, lang)
    if isinstance(value, BaseException):
        return str(value)
    return value


def _engine_error(err: RefereeError, lang: str) -> str:
    """The engine's error in `lang`, from its code and fields; its own message when it has no words here, or when
    its fields do not fit them (an error raised outside the engine)."""
    fields = engine.error_fields(err, lang)
    if fields is None:
        return str(err)
    try:
        return say("engine", err.message_key, lang, **fields)
    except (KeyError, IndexError, ValueError):
        return str(err)


def page_words(catalogues: tuple[str, ...], lang: str | None = None) -> dict[str, dict[str, str]]:
    """The templates of `catalogues` for a page, by language (only `lang` when given): `{"de": {key: template}}`.

    A key is "<catalogue>.<code>" (`states.label.turn`, `page.on_turn`), so a page's lookups say where its words
    come from; a page fills `{name}` fields as `say` does (its catalogues name no format spec)."""
    langs = LANGUAGES if lang is None else (lang,)
    return {lg: {f"{name}.{code}": entry.get(lg) or entry["en"] for name in catalogues
                 for code, entry in CATALOGUES[name].texts.items()} for lg in langs}


_SCRIPT = Path(__file__).with_name("static") / "words.js"


def page_script(catalogues: tuple[str, ...], lang: str = "en") -> str:
    """/words.js of a page: its catalogues (`page_words`, every language) and the browser's `Words.say`, which
    fills a template as `say` does; `lang` is the language the page starts in."""
    data = json.dumps(page_words(catalogues), ensure_ascii=False, sort_keys=True)
    script = _SCRIPT.read_text(encoding="utf-8")
    return script.replace("/*WORDS*/{}", data).replace('/*LANGUAGE*/"en"', json.dumps(lang))
