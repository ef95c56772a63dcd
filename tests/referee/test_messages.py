from __future__ import annotations

import re

import pytest

from referee import messages


@pytest.mark.parametrize("key", sorted(messages._TEXT))
def test_every_message_has_english_and_german_with_the_same_fields(key: str) -> None:
    entry = messages._TEXT[key]
    assert set(entry) == {"en", "de"}
    fields = {lang: set(re.findall(r"{(\w+)}", t)) for lang, t in entry.items()}
    assert fields["en"] == fields["de"]
    args = {f: "X" for f in fields["en"]}
    assert messages.text(key, "de", **args) != messages.text(key, "en", **args)
