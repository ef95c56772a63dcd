"""Every code of every catalogue (referee/words/) is said in every language, and German says no English word.

The walk covers the table's alerts and refusals, the engine's errors, the doubts, the input checks, the guard,
the states, the terminal, the speech, the board's words and the pages' (the scoreboard's, the director's, the
spectators'). It generalises the checks the engine's texts and the page's input checks had on their own."""

from __future__ import annotations

import re
import string

import pytest

from referee.words import CATALOGUES, LANGUAGES, Phrase, page_script, page_words, say

# English words that do not belong in German output. Left out: words German shares ("die", "in", "an", "was",
# "will", "so", "Start", "Pause", "live", "offline", "Filter", "Journal", "Broker", "Bingo", "Overlay").
ENGLISH = re.compile(
    r"\b(the|a|is|are|of|to|and|or|for|as|at|on|with|from|by|not|no|this|that|it|its|be|can|cannot|must|has|"
    r"have|were|e\.g|type|give|send|write|only|none|nothing|yet|again|here|there|now|first|once|"
    r"letters?|squares?|tiles?|players?|racks?|blank|board|table|tables|game|games|play|plays|played|move|moves|"
    r"word|words|clock|clocks|turn|time|score|scores|points?|challenge|challenged|pass|exchange|wait|waiting|"
    r"press|take|put|check|call|director|round|alerts?|key|camera|sensor|saved|seconds|minutes|dice|face|"
    r"roll|number|whole|range|out|off|most|show|shows|takes|request|body|valid|unknown|actions?|row|column|"
    r"count|parameters|playing|paused|ended|over|wins|win|shares|behind|delay|slot|spread|unseen|bag|total|"
    r"last|moves|results?|pairings|standings|lines|because|reason|message|new|undo|hold|release|correct|"
    r"yes|cancel|sort|division|all|connected|connecting|reconnecting|lost|refused|entered|close|closed|"
    r"phony|illegal|flag|overtime|lexicon|start square|double|triple|letter|cup|tray|mat|speaker|voice)\b",
    re.IGNORECASE)

# What stays as it is in German: an API's parameter and action names, configuration keys, commands, file names.
API_NAMES = re.compile(r"\b(player|words|tiles|square|letter|points|reason|first|start|pause|resume|blank|exchange|"
                       r"pass|challenge|accept|racks|correct|roll|new_game|correct_score|help|place|lift|word|press|"
                       r"unplug|replug|clear|new|name|language|dice)\b")
# Codes whose German names such API words on purpose (the commands and parameters one types as they are).
TYPED = {"refusals.unknown_action", "refusals.challenge_seat", "refusals.challenge_words", "refusals.racks_seat",
         "refusals.racks_letters", "refusals.score_args", "refusals.next_game_first", "refusals.new_game_params",
         "terminal.type_here", "terminal.help", "terminal.hint_blank", "terminal.hint_letter", "terminal.hint_racks",
         "terminal.hint_challenge", "terminal.hint_roll", "terminal.hint_remove", "terminal.hint_start",
         "terminal.paused", "terminal.game_over", "terminal.press_number", "terminal.press_not_turn",
         "terminal.unknown", "engine.gcg.move_nick", "terminal.usage", "engine.data.dice_file",
         "refusals.adjust_reason"}
# Said the same in both languages: words of a field alone, names, and the words German borrows.
SAME = {"table.director_message", "table.game.scramble", "refusals.engine", "doubts.text", "guard.wrong",
        "speech.play", "speech.bingo", "terminal.failed", "terminal.status", "director.live", "director.filter",
        "director.tsh_error", "director.alert.paused", "director.pause.reason", "director.alert.snapshot_ahead",
        "director.alert.refused", "director.alert.offline", "director.delay_seconds", "broadcast.offline",
        "checks.on_field", "states.sentence.paused", "states.line.paused", "states.clock.paused",
        "terminal.export", "director.zip", "engine.lexicon.not_a_list", "page.live", "page.pause", "page.start"}


def _walk() -> list[tuple[str, str]]:
    return [(name, code) for name, book in sorted(CATALOGUES.items()) for code in sorted(book.texts)]


def _fields(template: str) -> dict[str, object]:
    """A neutral value for each field (data, not words: a capital letter, a number), fit for its format spec."""
    out: dict[str, object] = {}
    for _, name, spec, _ in string.Formatter().parse(template):
        if not name:
            continue
        out[name] = 0.5 if spec and "%" in spec else 3 if spec else "X"
    return out


def _data_stripped(said: str) -> str:
    """`said` without what is data, not words: quoted names and JSON, commands in backticks, file names and
    configuration keys, letters and squares in capitals, numbers."""
    said = re.sub(r'"[^"]*"|„[^“]*“|»[^«]*«|`[^`]*`|\'[^\']*\'', "", said)
    said = re.sub(r"\S+\.(md|js|toml)\b|\S*[/_=\[\]#]\S*|\b[a-z_]{2,}\.[a-z_]{2,}\b", "", said)
    said = said.replace("Write-Ahead-Log", "").replace("Content-Type", "")
    return re.sub(r"\b[A-ZÄÖÜ0-9?]+\b", "", said)


@pytest.mark.parametrize(("catalogue", "code"), _walk())
def test_every_code_is_said_in_every_language_and_german_says_no_english_word(catalogue: str, code: str) -> None:
    entry = CATALOGUES[catalogue].texts[code]
    assert set(entry) == set(LANGUAGES), f"{catalogue}.{code}: {sorted(entry)}"
    names = {lang: {n for _, n, _, _ in string.Formatter().parse(entry[lang]) if n} for lang in LANGUAGES}
    assert names["de"] <= names["en"], f"{catalogue}.{code}: the German names a field the English lacks"
    fields = _fields(entry["en"])
    english, german = say(catalogue, code, "en", **fields), say(catalogue, code, "de", **fields)
    key = f"{catalogue}.{code}"
    if english.strip() and key not in SAME:
        assert german != english, f"{key}: the German is the English"
    words = _data_stripped(german)
    if key in TYPED:
        words = API_NAMES.sub("", words)
    found = ENGLISH.findall(words)
    assert not found, f"{key}: English in the German {german!r}: {found}"


def test_the_english_words_are_found_in_the_german_of_before() -> None:
    """The issue's example (a German table with a camera doubt) and the page's check of before: caught here."""
    said = "Welcher Buchstabe liegt auf H8? H8: the camera cannot read this tile (maybe Q, 50% sure)"
    assert ENGLISH.findall(_data_stripped(said)) == ["the", "camera", "cannot", "this", "tile"]
    assert ENGLISH.findall(_data_stripped("Eingabe prüfen: letter: type one letter, e.g. E")) == [
        "letter", "type", "letter", "e.g"]


def test_a_phrase_inside_a_phrase_is_said_in_the_same_language() -> None:
    why = Phrase("doubts", "camera_unsure", {"square": "H8", "letter": "Q", "confidence": 0.5})
    assert say("table", "doubtful_letter", "de", squares="H8", why=why) == (
        "Welcher Buchstabe liegt auf H8? H8: die Kamera kann diesen Stein nicht lesen (vielleicht Q, zu 50% sicher)")
    assert say("table", "doubtful_letter", "en", squares="H8", why=why) == (
        "Which letter is on H8? H8: the camera cannot read this tile (maybe Q, 50% sure)")


def test_a_language_without_words_is_said_in_english() -> None:
    assert say("table", "board_lost", "fr") == say("table", "board_lost", "en")


# The catalogues the pages fill in the browser: plain {fields} only (no format spec, no conversion, no braces),
# as the browser's Words.say fills them.
PAGE_CATALOGUES = ("page", "director", "broadcast", "board", "states")


@pytest.mark.parametrize("catalogue", PAGE_CATALOGUES)
def test_a_pages_catalogue_names_plain_fields_only(catalogue: str) -> None:
    for code, entry in CATALOGUES[catalogue].texts.items():
        for lang, template in entry.items():
            parsed = list(string.Formatter().parse(template))
            assert all(not spec and not conversion for _, _, spec, conversion in parsed), f"{code} {lang}"
            assert "{{" not in template and "}}" not in template, f"{code} {lang}"


def test_a_page_gets_its_catalogues_in_every_language() -> None:
    words = page_words(PAGE_CATALOGUES)
    assert set(words) == set(LANGUAGES) and words["de"]["states.label.turn"] == "Spiel läuft"
    script = page_script(PAGE_CATALOGUES, "de")
    assert '"director.pause_all": "Alle anhalten"' in script and script.rstrip().endswith('"de");')
    assert "/*WORDS*/" not in script


def test_every_word_a_page_names_is_in_its_catalogue() -> None:
    """The pages name their words by key (the scoreboard: `data-i18n` and `t("key")`; the director's and the
    spectators': `data-w`, `say("key")` and `w("key")`): a key the catalogue lacks would show nothing."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    known = page_words(PAGE_CATALOGUES)["en"]
    named: list[tuple[str, str]] = []
    for path in sorted(root.glob("referee/web/static/*")):
        text = path.read_text(encoding="utf-8")
        named += [(f"page.{key}", path.name) for key in re.findall(r'data-i18n(?:-label)?="([\w.]+)"', text)]
        named += [(f"page.{key}", path.name) for key in re.findall(r'\bt\("([\w.]+)"', text)]
        named += [(key, path.name) for key in re.findall(r'\bword\("([\w.]+)"', text)]
    for path in sorted([*root.glob("tournament/director/static/*"), *root.glob("tournament/broadcast/static/*")]):
        if path.suffix not in (".html", ".js"):
            continue
        text = path.read_text(encoding="utf-8")
        named += [(key, path.name) for key in re.findall(r'data-w(?:-placeholder|-label|-title)?="([\w.]+)"', text)]
        named += [(f"director.{key}", path.name) for key in re.findall(r'\bsay\("(\w+)"', text)]
        named += [(f"broadcast.{key}", path.name) for key in re.findall(r'\bw\("(\w+)"', text)]
        named += [(key, path.name) for key in re.findall(r'Words\.say\("([\w.]+)"', text)]
    assert len(named) > 200, "the walk must see the pages' words"
    missing = sorted({f"{where}: {key}" for key, where in named if key not in known})
    assert missing == [], "words the pages name that no catalogue has:\n" + "\n".join(missing)
