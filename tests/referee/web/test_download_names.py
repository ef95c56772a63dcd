"""The GCG download's file name: RFC 6266 `filename*` in UTF-8 and a readable ASCII `filename`."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from referee.web.download_names import ascii_name, attachment, unicode_name


def test_a_german_table_name_keeps_its_umlauts_and_spells_them_out_in_ascii() -> None:
    header = attachment("Tisch 3 Nürnberg", ".gcg")
    assert header == ("attachment; filename=\"Tisch-3-Nuernberg.gcg\"; "
                      "filename*=UTF-8''Tisch-3-N%C3%BCrnberg.gcg")
    assert unquote(header.split("UTF-8''")[1]) == "Tisch-3-Nürnberg.gcg"


def test_names_in_ascii_read_as_words() -> None:
    assert ascii_name("Großer Saal / Straße") == "Grosser-Saal-Strasse"
    assert ascii_name("Öhringen Ärzte Übach") == "Oehringen-Aerzte-Uebach"
    assert ascii_name("Café Zoë") == "Cafe-Zoe"
    assert unicode_name('Tisch "7"\\..') == "Tisch-7"
    assert attachment("Table 1", ".gcg") == 'attachment; filename="Table-1.gcg"'  # nothing to add
    assert attachment("***", ".gcg") == 'attachment; filename="game.gcg"'


def test_the_gcg_download_is_named_after_a_german_table(make_sim_table: Any, run_async: Any) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from referee.web import create_app

    table = make_sim_table(language="de", table="Tisch 3 Nürnberg")  # a German club's table

    async def fetch() -> str:
        async with TestClient(TestServer(create_app(table, "4711"))) as client:
            response = await client.get("/game.gcg")
            assert response.status == 200
            return response.headers["Content-Disposition"]

    assert run_async(fetch()) == ("attachment; filename=\"Tisch-3-Nuernberg.gcg\"; "
                                  "filename*=UTF-8''Tisch-3-N%C3%BCrnberg.gcg")
