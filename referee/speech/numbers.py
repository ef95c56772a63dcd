"""Numbers as words, in English and German, for the announcer.

Written out here rather than left to the speech engine so that what the table says is text we can read
and test (and a German "104" is "hundertvier", never read digit by digit by a wrong voice).
"""

from __future__ import annotations

_EN_SMALL = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)
_EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")

_DE_SMALL = (
    "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
    "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn",
)
_DE_TENS = ("", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig")


def _en(n: int) -> str:
    if n < 20:
        return _EN_SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _EN_TENS[tens] + (f"-{_EN_SMALL[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_EN_SMALL[hundreds]} hundred" + (f" and {_en(rest)}" if rest else "")
    thousands, rest = divmod(n, 1000)
    head = f"{_en(thousands)} thousand"
    if not rest:
        return head
    return f"{head} and {_en(rest)}" if rest < 100 else f"{head} {_en(rest)}"


def _de_compound(n: int) -> str:
    """German inside a compound: 1 is "ein" (einhundert, einundzwanzig), standing alone "eins"."""
    if n == 1:
        return "ein"
    if n < 20:
        return _DE_SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return (f"{_de_compound(ones)}und" if ones else "") + _DE_TENS[tens]
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = "hundert" if hundreds == 1 else f"{_DE_SMALL[hundreds]}hundert"
        return head + (_de_tail(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    head = "tausend" if thousands == 1 else f"{_de_compound(thousands)}tausend"
    return head + (_de_tail(rest) if rest else "")


def _de_tail(n: int) -> str:
    """The end of a compound: 101 is "hunderteins", with the standalone "eins"."""
    return "eins" if n == 1 else _de_compound(n)


def number_words(n: int, lang: str) -> str:
    """`n` (a score, a total, minutes) in words: 104 -> "one hundred and four" / "hundertvier"."""
    if not -1_000_000 < n < 1_000_000:
        raise ValueError(f"{n}: too large to say")
    if lang == "de":
        words = "null" if n == 0 else _de_tail(abs(n))
        return f"minus {words}" if n < 0 else words
    if lang != "en":
        raise ValueError(f"{lang!r}: the announcer speaks 'en' or 'de'")
    return f"minus {_en(-n)}" if n < 0 else _en(n)
