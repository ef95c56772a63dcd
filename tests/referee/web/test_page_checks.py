"""A refused input on the page, in headless Chromium: a German page says it all in German (issue 25 item 5 found
"Eingabe prüfen: letter: type one letter, e.g. E"), and the English page says what it said before."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PIN = "390217"
WITHIN = 1000  # ms


def expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def test_a_bad_blank_letter_on_a_german_page_is_said_in_german(page: Any, make_recorded_table: Any,
                                                               live_server: Any, ui: Any) -> None:
    table = make_recorded_table(language="de", edition="german", players=("Jürgen", "Ömer"))
    server = live_server(table, PIN)
    table.control("start", {})
    table.place_word("8H HAUs")  # a blank for the S, laid face down
    table.press()
    ui.open(page, server.url)
    expect()(page.locator("html")).to_have_attribute("lang", "de")
    page.locator("#control summary").click()
    page.locator("#pin").fill(PIN)
    form = page.locator("#form-blank")
    expect()(form.locator("[name=square]")).to_have_value("K8")  # what the table waits for
    sent = len(table.controls)
    status = page.locator("#control-status")

    form.locator("[name=letter]").fill("12")
    form.locator("button[type=submit]").click()
    expect()(status).to_have_text("Eingabe prüfen: Buchstabe: genau einen Buchstaben eingeben, z. B. E",
                                  timeout=WITHIN)
    expect()(status).to_have_attribute("data-kind", "error")
    form.locator("[name=square]").fill("Z99")
    form.locator("[name=letter]").fill("S")
    form.locator("button[type=submit]").click()
    expect()(status).to_have_text("Eingabe prüfen: Feld: Z99 liegt nicht auf dem Brett (A1 bis O15)", timeout=WITHIN)
    form.locator("[name=square]").fill("8K")
    form.locator("button[type=submit]").click()
    expect()(status).to_have_text("Eingabe prüfen: Feld: „8K“ ist kein Feld; Spaltenbuchstabe und dann Zeilennummer "
                                  "schreiben, z. B. H8", timeout=WITHIN)
    assert len(table.controls) == sent  # nothing malformed reached the table

    # The same page switched to English says what it always said, field name and all.
    page.locator("#lang").click()
    form.locator("[name=square]").fill("K8")
    form.locator("[name=letter]").fill("12")
    form.locator("button[type=submit]").click()
    expect()(status).to_have_text("Check the input: letter: type one letter, e.g. E", timeout=WITHIN)
    form.locator("[name=square]").fill("8K")
    form.locator("[name=letter]").fill("S")
    form.locator("button[type=submit]").click()
    expect()(status).to_have_text(re.compile(r"^Check the input: square: '8K' is not a square; write column letter"),
                                  timeout=WITHIN)
    assert len(table.controls) == sent

    # And back in German, a good letter goes through.
    page.locator("#lang").click()
    form.locator("[name=square]").fill("K8")
    form.locator("button[type=submit]").click()
    expect()(status).to_have_text("Erledigt: Buchstabe eines Blankos", timeout=WITHIN)
    assert table.controls[-1] == ("blank", {"square": "K8", "letter": "S"})
