"""When two player names are one name: the score sheet, the page and the game record must tell players apart.

"Anna" and "anna " are one name (case and spaces); so are "Anna" and "Аnna" with a Cyrillic "А", or "Βen" with
a Greek "Β": they look the same on the page and in the record, so a table refuses them as it refuses two
"Anna"s. `name_key` is what two names must differ in: Unicode compatibility forms folded (fullwidth or
mathematical letters), then the common Cyrillic and Greek look-alikes of Latin letters mapped to those letters
(a small skeleton map after Unicode's confusables, UTS #39: the letters of names, not every symbol), then case
and runs of spaces. Accents stay: "Zoë" and "Zoe" are two names, and so are "Jan" and "Ján".
"""

from __future__ import annotations

import unicodedata

# Cyrillic and Greek letters drawn like a Latin letter (upper and lower case apart: Greek "Η" looks like "H",
# its "η" like "n"). Accented forms are covered by decomposing first: Cyrillic "ё" is "е" and a diaeresis.
_LOOKALIKES: dict[str, str] = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
    # Cyrillic small letters
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "ү": "y", "ɡ": "g",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Greek small letters
    "α": "a", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c",
    "ϳ": "j",
    # Latin letters that pass for others
    "ı": "i", "ȷ": "j", "ℓ": "l",
}


def name_key(name: str) -> str:
    """The form two names are compared in: equal keys are one name to the eye (see the module docstring)."""
    text = unicodedata.normalize("NFKD", name)
    text = unicodedata.normalize("NFC", "".join(_LOOKALIKES.get(ch, ch) for ch in text))
    return " ".join(text.split()).casefold()


def same_name_text(first: int, second: int, name: str, other: str) -> str:
    """The refusal of two players (seats `first` and `second`, from 0) with one name, in one line."""
    letters = lookalike_letters(name, other)
    how = f" (written with look-alike letters ({letters}))" if letters else ""
    return (f"players {first + 1} and {second + 1} are both called {name.strip()!r}{how}: the score sheet and the "
            "game record could not tell them apart; give each player a name of their own")


def lookalike_letters(name: str, other: str) -> str:
    """Where `name` and `other` are one name only by look-alike letters: those letters by their Unicode names
    ("CYRILLIC CAPITAL LETTER A"), for a refusal that says why; "" when they differ only in case and spaces."""
    found: list[str] = []
    for text in (other, name):
        for ch in text:
            if ch.isspace() or ch.isascii():
                continue
            if _LOOKALIKES.get(ch) or unicodedata.normalize("NFKC", ch) != ch or any(
                    _LOOKALIKES.get(part) for part in unicodedata.normalize("NFKD", ch)):
                label = unicodedata.name(ch, f"U+{ord(ch):04X}")
                if label not in found:
                    found.append(label)
    return ", ".join(found[:3]) + (", ..." if len(found) > 3 else "")
