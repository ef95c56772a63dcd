"""Why a guarded request was refused (tournament/pagekit/guards.py `PinGuard`): a wrong, missing or rate-limited key.

The guard guards a table's PIN on the scoreboard and the director key on the director's pages; it is told which
(`noun`: "pin" or "director_key") and the words name it in each language ("wrong PIN", "falscher Schlüssel der
Turnierleitung"), so no message is reworded after the fact.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.words.base import Catalogue

# What the guard guards, in the forms its messages need: (English, German)
NOUNS: dict[str, dict[str, tuple[str, str]]] = {
    "pin": {"wrong": ("wrong PIN", "falsche PIN"), "wrongs": ("wrong PINs", "falsche PINs"),
            "the_noun": ("the table PIN", "die Tisch-PIN")},
    "director_key": {"wrong": ("wrong director key", "falscher Schlüssel der Turnierleitung"),
                     "wrongs": ("wrong director keys", "falsche Schlüssel der Turnierleitung"),
                     "the_noun": ("the director key", "der Schlüssel der Turnierleitung")},
}

GUARD: dict[str, dict[str, str]] = {
    "control_disabled.pin": {
        "en": "control is disabled: this table has no PIN configured (set web.pin)",
        "de": "die Steuerung ist aus: für diesen Tisch ist keine PIN eingestellt (web.pin setzen)"},
    "control_disabled.director_key": {
        "en": "commands are off: no director credential is configured ([director] credential_file)",
        "de": "Befehle sind aus: es ist kein Schlüssel der Turnierleitung eingestellt ([director] credential_file)"},
    "rate_limited": {
        "en": "too many {wrongs}: wait {wait:.0f} s before the next try",
        "de": "zu viele {wrongs}: {wait:.0f} s bis zum nächsten Versuch warten"},
    "rate_limited_all.pin": {
        "en": "too many wrong PINs at this table: wait {wait:.0f} s before the next try (a phone that has given "
              "the right PIN before may go on)",
        "de": "zu viele falsche PINs an diesem Tisch: {wait:.0f} s bis zum nächsten Versuch warten (ein Telefon, "
              "das die richtige PIN schon eingegeben hat, darf weiter)"},
    "rate_limited_all.director_key": {
        "en": "too many wrong director keys: wait {wait:.0f} s before the next try (a browser that has given the "
              "right key before may go on)",
        "de": "zu viele falsche Schlüssel der Turnierleitung: {wait:.0f} s bis zum nächsten Versuch warten (ein "
              "Browser, der den richtigen Schlüssel schon angegeben hat, darf weiter)"},
    "required": {
        "en": "this needs {the_noun}",
        "de": "dafür ist {the_noun} nötig"},
    "wrong_left": {
        "en": "{wrong} ({left} more tries before a wait)",
        "de": "{wrong} (noch {left} Versuche bis zu einer Wartezeit)"},
    "wrong_last": {
        "en": "{wrong}: the next wrong one makes you wait",
        "de": "{wrong}: nach dem nächsten Fehlversuch heißt es warten"},
    "wrong": {
        "en": "{wrong}",
        "de": "{wrong}"},
    "wrong_wait": {
        "en": "{wrong}: wait {delay:.0f} s before the next try",
        "de": "{wrong}: {delay:.0f} s bis zum nächsten Versuch warten"},
    "not_director_code": {  # {wrong} at a table whose PIN is being guessed: only the director's code is looked at
        "en": "not the director's code (while someone guesses the table PIN, a phone that has not given it before "
              "needs the director's code)",
        "de": "nicht der Code der Turnierleitung (solange jemand die Tisch-PIN rät, braucht ein Telefon, das sie "
              "noch nicht eingegeben hat, den Code der Turnierleitung)"},
}


def _noun_forms(code: str, fields: Mapping[str, object], lang: str) -> dict[str, object]:
    """The guarded noun's forms from `noun` ("pin" or "director_key"); a `wrong` given (a phrase) stays."""
    forms = NOUNS.get(str(fields.get("noun", "pin")), NOUNS["pin"])
    said: dict[str, object] = {name: pair[1] if lang == "de" else pair[0] for name, pair in forms.items()}
    if "wrong" in fields:
        del said["wrong"]
    return said


CATALOGUES = (Catalogue("guard", GUARD, _noun_forms),)
