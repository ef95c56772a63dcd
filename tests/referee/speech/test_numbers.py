"""Numbers as the announcer says them."""

from __future__ import annotations

import pytest

from referee.speech.numbers import number_words


@pytest.mark.parametrize(("n", "en", "de"), [
    (0, "zero", "null"),
    (1, "one", "eins"),
    (16, "sixteen", "sechzehn"),
    (21, "twenty-one", "einundzwanzig"),
    (32, "thirty-two", "zweiunddreißig"),
    (70, "seventy", "siebzig"),
    (100, "one hundred", "hundert"),
    (101, "one hundred and one", "hunderteins"),
    (104, "one hundred and four", "hundertvier"),
    (361, "three hundred and sixty-one", "dreihunderteinundsechzig"),
    (1000, "one thousand", "tausend"),
    (1005, "one thousand and five", "tausendfünf"),
    (2517, "two thousand five hundred and seventeen", "zweitausendfünfhundertsiebzehn"),
    (-20, "minus twenty", "minus zwanzig"),
])
def test_numbers_read_as_a_scorekeeper_says_them(n: int, en: str, de: str) -> None:
    assert number_words(n, "en") == en
    assert number_words(n, "de") == de


def test_an_unknown_language_or_an_absurd_number_is_refused() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        number_words(3, "fr")
    with pytest.raises(ValueError, match="too large"):
        number_words(10**7, "en")
