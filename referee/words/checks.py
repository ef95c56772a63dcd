"""The words of the page's input checks, by code, in English and German.

A check (referee/web/validation.py) raises a code and its fields, not a sentence: the API answers the code,
the fields and the English text (`error`, as it always did), and the page says it in the page's language from
this catalogue (served in `/api/session` as `input_checks`), so a German page no longer says "Eingabe prüfen:
letter: type one letter, e.g. E". The templates are `str.format` templates: `{name}` is a field, `{name!r}` a
field quoted as Python quotes it (the English of before), `{{`/`}}` a brace; app.js `fillCheck` reads the same.

A check about one field is said after the field's name (`on_field`: "letter: type one letter, e.g. E"); the
field's name is `field.<name>` (a parameter the page does not send keeps its own name).
"""

from __future__ import annotations

from referee.words.base import LANGUAGES, Catalogue, Phrase

# The JSON example the English has always given (braces doubled for str.format).
_EXAMPLE = '{{"square": "H8", "letter": "E"}}'

CHECKS: dict[str, dict[str, str]] = {
    "square_missing": {
        "en": "name a square, column letter then row number, e.g. H8",
        "de": "ein Feld angeben, Spaltenbuchstabe und dann Zeilennummer, z. B. H8"},
    "square_malformed": {
        "en": "{value!r} is not a square; write column letter then row number, e.g. H8",
        "de": "„{value}“ ist kein Feld; Spaltenbuchstabe und dann Zeilennummer schreiben, z. B. H8"},
    "square_off_board": {
        "en": "{square} is off the board (A1 to {last})",
        "de": "{square} liegt nicht auf dem Brett (A1 bis {last})"},
    "letter_one": {
        "en": "type one letter, e.g. E",
        "de": "genau einen Buchstaben eingeben, z. B. E"},
    "count_whole": {
        "en": "give the number of tiles as a whole number from {low} to {high}",
        "de": "die Anzahl der Steine als ganze Zahl von {low} bis {high} angeben"},
    "count_range": {
        "en": "{value} is out of range: the number of tiles is {low} to {high}",
        "de": "{value} ist nicht möglich: die Anzahl der Steine ist {low} bis {high}"},
    "player_whole": {
        "en": "give the player number as a whole number from {low} to {high}",
        "de": "die Spielernummer als ganze Zahl von {low} bis {high} angeben"},
    "player_range": {
        "en": "{value} is out of range: the player number is {low} to {high}",
        "de": "{value} ist nicht möglich: die Spielernummer ist {low} bis {high}"},
    "words_whole": {
        "en": "give the number of words challenged as a whole number from {low} to {high}",
        "de": "die Anzahl der angezweifelten Wörter als ganze Zahl von {low} bis {high} angeben"},
    "words_range": {
        "en": "{value} is out of range: the number of words challenged is {low} to {high}",
        "de": "{value} ist nicht möglich: die Anzahl der angezweifelten Wörter ist {low} bis {high}"},
    "no_players": {
        "en": "the table has no players yet",
        "de": "am Tisch sitzen noch keine Spieler"},
    "tiles_missing": {
        "en": "type the letters left on the rack, ? for a blank, e.g. AEQ?",
        "de": "die Buchstaben eingeben, die auf der Bank übrig sind, ? für einen Blanko, z. B. AEQ?"},
    "tiles_too_many": {
        "en": "a rack holds at most {most} tiles, not {count}",
        "de": "auf eine Bank passen höchstens {most} Steine, nicht {count}"},
    "tiles_bad": {
        "en": "only letters and ? for a blank, not {bad}",
        "de": "nur Buchstaben und ? für einen Blanko, nicht {bad}"},
    "letters_missing": {
        "en": "type the letters the dice show, ? for a blank face, e.g. {example}",
        "de": "die Buchstaben der Würfel eingeben, ? für eine Blankoseite, z. B. {example}"},
    "letters_missing_n": {
        "en": "type the letters the {dice} dice show, ? for a blank face, e.g. {example}",
        "de": "die Buchstaben der {dice} Würfel eingeben, ? für eine Blankoseite, z. B. {example}"},
    "letters_bad": {
        "en": "only the letters the dice show and ? for a blank face, not {bad}",
        "de": "nur die Buchstaben der Würfel und ? für eine Blankoseite, nicht {bad}"},
    "letters_count": {
        "en": "the table asks for {dice} dice: type {dice} letters, not {count}",
        "de": "der Tisch verlangt {dice} Würfel: {dice} Buchstaben eingeben, nicht {count}"},
    "letters_count_one": {
        "en": "the table asks for 1 die: type 1 letter, not {count}",
        "de": "der Tisch verlangt einen Würfel: einen Buchstaben eingeben, nicht {count}"},
    "letters_too_many": {
        "en": "a roll is at most {most} dice, not {count}",
        "de": "ein Wurf hat höchstens {most} Würfel, nicht {count}"},
    "unknown_action": {
        "en": "unknown action {action!r}; the actions are {actions}",
        "de": "unbekannte Aktion „{action}“; die Aktionen sind {actions}"},
    "not_an_object": {
        "en": "send the parameters as a JSON object, e.g. " + _EXAMPLE,
        "de": "die Parameter als JSON-Objekt senden, z. B. " + _EXAMPLE},
    "unknown_parameter": {
        "en": "{action} takes no parameter {name!r} (its parameters: {allowed})",
        "de": "{action} kennt keinen Parameter „{name}“ (seine Parameter: {allowed})"},
    "no_parameters": {
        "en": "{action} takes no parameter {name!r} (its parameters: none)",
        "de": "{action} kennt keinen Parameter „{name}“ (es hat keine)"},
    "body_content_type": {
        "en": "send the parameters as JSON (Content-Type: application/json), not {content_type}",
        "de": "die Parameter als JSON senden (Content-Type: application/json), nicht als {content_type}"},
    "body_content_type_missing": {
        "en": "send the parameters as JSON (Content-Type: application/json), not nothing",
        "de": "die Parameter als JSON senden (Content-Type: application/json): die Angabe fehlt"},
    "body_too_deep": {
        "en": "the request body is nested too deeply: send a flat JSON object, e.g. " + _EXAMPLE,
        "de": "die Anfrage ist zu tief verschachtelt: ein flaches JSON-Objekt senden, z. B. " + _EXAMPLE},
    "body_not_json": {  # the reason is Python's own (English) words: the German leaves it out
        "en": "the request body is not valid JSON ({reason})",
        "de": "die Anfrage ist kein gültiges JSON"},
}

# The fields as the page's forms name them; a parameter not listed (one the page does not send) keeps its name.
FIELDS: dict[str, dict[str, str]] = {
    "square": {"en": "square", "de": "Feld"},
    "letter": {"en": "letter", "de": "Buchstabe"},
    "count": {"en": "count", "de": "Steine"},
    "player": {"en": "player", "de": "Spieler"},
    "tiles": {"en": "tiles", "de": "Steine"},
    "letters": {"en": "letters", "de": "Buchstaben"},
    "words": {"en": "words", "de": "Wörter"},
}


def check_phrase(check: str, field: str = "", **fields: object) -> Phrase:
    """What a check says, led by the field it is about ("letter: ..."), not said yet."""
    said = Phrase("checks", check, fields)
    if not field:
        return said
    name: object = Phrase("checks", f"field.{field}") if field in FIELDS else field
    return Phrase("checks", "on_field", {"field": name, "check": said})


def catalogue() -> dict[str, dict[str, dict[str, str]]]:
    """The catalogue for the page, by language: `{"de": {"checks": {...}, "fields": {...}}, "en": ...}`."""
    return {lang: {"checks": {code: entry[lang] for code, entry in CHECKS.items()},
                   "fields": {name: entry[lang] for name, entry in FIELDS.items()}}
            for lang in LANGUAGES}


CATALOGUES = (Catalogue("checks", {**CHECKS, "on_field": {"en": "{field}: {check}", "de": "{field}: {check}"},
                                   **{f"field.{name}": entry for name, entry in FIELDS.items()}}),)
