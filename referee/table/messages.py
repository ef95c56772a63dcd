"""Words the table says to players, in English and German.

Kept apart from the state machine so that a translation is one place and the machine reads as
logic. Each message takes named arguments; squares come already formatted (`H8, H9`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

_TEXT: dict[str, dict[str, str]] = {
    "board_lost": {
        "en": "The sensor board is not answering: check its cable. The game waits.",
        "de": "Das Sensorbrett antwortet nicht: Kabel prüfen. Das Spiel wartet.",
    },
    "camera_lost": {
        "en": "The camera is not sending pictures: check it. The game waits.",
        "de": "Die Kamera liefert keine Bilder: bitte prüfen. Das Spiel wartet.",
    },
    "camera_lost_board_up": {
        "en": "The camera is not sending pictures: check it. Play goes on; letters the sensor board cannot read "
              "are asked.",
        "de": "Die Kamera liefert keine Bilder: bitte prüfen. Es wird weitergespielt; Buchstaben, die das "
              "Sensorbrett nicht lesen kann, werden abgefragt.",
    },
    "tile_moved": {
        "en": "A tile was moved or lifted outside a turn: {squares}. Put it back.",
        "de": "Ein Stein wurde außerhalb eines Zuges bewegt oder entfernt: {squares}. Bitte zurücklegen.",
    },
    "tile_changed": {
        "en": "A different letter now lies on {squares}. Put the original tile back.",
        "de": "Auf {squares} liegt jetzt ein anderer Buchstabe. Bitte den ursprünglichen Stein zurücklegen.",
    },
    "tiles_added": {
        "en": "Tiles were put down outside a turn: {squares}. Take them off.",
        "de": "Steine wurden außerhalb eines Zuges gelegt: {squares}. Bitte wegnehmen.",
    },
    "doubtful_letter": {
        "en": "Which letter is on {squares}? {why}",
        "de": "Welcher Buchstabe liegt auf {squares}? {why}",
    },
    "blank_letter": {
        "en": "Which letter does the blank on {squares} stand for?",
        "de": "Für welchen Buchstaben steht der Blanko auf {squares}?",
    },
    "illegal_play": {
        "en": "Not a legal play: {why}. Fix the tiles and press the clock again.",
        "de": "Kein gültiger Zug: {why}. Steine korrigieren und die Uhr erneut drücken.",
    },
    "commit_refused": {
        "en": "The turn was not taken: {why}",
        "de": "Der Zug wurde nicht gewertet: {why}",
    },
    "play_lifted": {
        "en": "a tile of the play was lifted; press the clock again when the play is down",
        "de": "ein Stein des Zuges wurde hochgenommen; die Uhr erneut drücken, wenn der Zug liegt",
    },
    "board_not_clear": {
        "en": "clear the board before the start",
        "de": "vor dem Start das Brett abräumen",
    },
    "not_in_lexicon": {
        "en": "{words} not in the lexicon: take the tiles off {squares}.",
        "de": "{words} nicht im Wörterbuch: bitte die Steine von {squares} nehmen.",
    },
    "take_back": {
        "en": "Take the tiles off {squares}.",
        "de": "Bitte die Steine von {squares} nehmen.",
    },
    "remove_dice": {
        "en": "Scrambled: take the dice off {squares} and put them in the cup.",
        "de": "Durcheinander: die Würfel von {squares} in den Becher zurücklegen.",
    },
    "challenge_open": {
        "en": "{player} may challenge now.",
        "de": "{player} kann jetzt anzweifeln.",
    },
    "challenge_good": {
        "en": "Challenge: the play stands; {words} are good.",
        "de": "Anzweiflung: der Zug zählt; {words} sind gültig.",
    },
    "time_up": {
        "en": "Time is up for {player}: overtime now costs points.",
        "de": "Die Zeit von {player} ist abgelaufen: Überzeit kostet jetzt Punkte.",
    },
    "max_overtime": {
        "en": "{player} is past the overtime limit: call the director.",
        "de": "{player} hat die Überzeitgrenze überschritten: bitte die Turnierleitung rufen.",
    },
    "lost_on_time": {
        "en": "{player} passed the overtime limit and loses on time: the game is over.",
        "de": "{player} hat die Überzeitgrenze überschritten und verliert auf Zeit: die Partie ist zu Ende.",
    },
    "turn_timer": {
        "en": "The turn timer ran out.",
        "de": "Die Zugzeit ist abgelaufen.",
    },
    "roll_letters": {
        "en": "Roll the dice: {count} to roll.",
        "de": "Bitte würfeln: {count} Würfel.",
    },
    "not_rolled": {
        "en": "{letters} was not rolled.",
        "de": "{letters} wurde nicht gewürfelt.",
    },
    "racks_needed": {
        "en": "Game over: enter the tiles left on the racks of {players}.",
        "de": "Spielende: bitte die Reststeine von {players} eingeben.",
    },
}


def _unseen_de(match: re.Match[str]) -> str:
    """'only 1 Q, no Z' (the engine's tiles short of the unseen ones) in German."""
    parts = []
    for part in match.group(1).split(", "):
        only = re.fullmatch(r"only (\d+) (.+)", part)
        parts.append(f"nur noch {only.group(1)} {only.group(2)}" if only else f"kein {part.removeprefix('no ')}")
    return f"{', '.join(parts)} ungesehen"


# The rules engine words its reasons in English, each "SQUARES: reason"; the table shows them in its language.
_German = str | Callable[[re.Match[str]], str]  # a replacement, or a function of the match
_RULE_REASONS_DE: list[tuple[re.Pattern[str], _German]] = [(re.compile(f"^{en}$"), de) for en, de in list[
    tuple[str, _German]]([
    (r"no tiles were placed", "es wurden keine Steine gelegt"),
    (r"say which letter the blank stands for", "für welchen Buchstaben steht der Blanko?"),
    (r"'(.+)' is not a letter", r"»\1« ist kein Buchstabe"),
    (r"the (\w+) tile set has no letter (.+)", r"der Steinsatz »\1« hat keinen Buchstaben \2"),
    (r"off the board \(the board is (\d+x\d+)\)", r"außerhalb des Bretts (das Brett hat \1 Felder)"),
    (r"two tiles placed on one square", "zwei Steine auf einem Feld"),
    (r"already holds (.+)", r"dort liegt schon \1"),
    (r"tiles are not in one line", "die Steine liegen nicht in einer Reihe"),
    (r"there is a gap at (.+)", r"bei \1 ist eine Lücke"),
    (r"the first play must cover the start square (.+)", r"der erste Zug muss das Startfeld \1 bedecken"),
    (r"the first word needs at least (\d+) letters", r"das erste Wort braucht mindestens \1 Buchstaben"),
    (r"the play does not touch any tile on the board", "der Zug berührt keinen Stein auf dem Brett"),
    (r"a single tile forms no word", "ein einzelner Stein bildet kein Wort"),
    # the rack and the unseen tiles ("8E QUIZ: Q not on the rack AEIRST", "8E QQ: only 1 Q left unseen")
    (r"(.+) not on the rack (.*)", r"\1 nicht auf dem Bänkchen \2"),
    (r"(\d+) tiles played, but (.+) holds only (\d+)", r"\1 Steine gelegt, aber \2 hat nur \3"),
    (r"((?:only \d+ \S+|no \S+)(?:, (?:only \d+ \S+|no \S+))*) left unseen", _unseen_de),
])]


def rule_reason(reason: str, language: str = "en") -> str:
    """An engine's reason (`G7, H9: tiles are not in one line`) in `language`; one it does not know stays
    as it is, in English."""
    if language != "de":
        return reason
    where, sep, what = reason.rpartition(": ")
    for pattern, german in _RULE_REASONS_DE:
        if pattern.match(what):
            return f"{where}{sep}{pattern.sub(german, what)}"
    return reason


def text(key: str, language: str = "en", **args: object) -> str:
    """The message `key` in `language` ("en" or "de"), with its arguments filled in."""
    entry = _TEXT[key]
    return entry.get(language, entry["en"]).format(**args)
