"""`referee run` with a [tournament] section: the service starts its table on the broker and stops it cleanly."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord
from tournament.acl import table_user
from tournament.settings import BrokerSettings, TableLinkSettings
from tournament.testing.broker import Broker

EVENT = "test-open"


def test_the_service_reports_to_the_broker_and_takes_commands(broker: Broker, director: Any, tmp_path: Path) -> None:
    user = table_user(2)
    config = replace(sim_config(state_dir=tmp_path / "state", web=False, fusion="sensors"),
                     tournament=TableLinkSettings(BrokerSettings(broker.host, broker.port, username=user,
                                                                 password=f"pw-{user}"), EVENT, 2))
    service = TableService(ServiceParts(config=config, lexicon=EveryWord(), web=False))
    try:
        service.start()
        director.wait(lambda: director.status.get(2) == "online", "table 2 online")
        cid = director.send(2, "message", {"text": "Round 2 at 14:00"})
        director.wait(lambda: cid in director.acks, "the ack")
        assert director.acks[cid].ok
        director.wait(lambda: any(e.kind == "director" and e.data["id"] == cid for e in director.events),
                      "the journaled command on the event stream")
        assert any(a["code"] == "director_message" for a in service.table.snapshot()["alerts"])
    finally:
        service.close()
    director.wait(lambda: director.status.get(2) == "offline", "the clean 'offline'")
