"""The service's long-lived parts are context managers, and closing one twice is harmless."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from referee.outputs import Outputs
from referee.sensors import CameraPort
from referee.service import ServiceParts, TableService
from referee.sim import ManualClock, SimulatedTable, default_setup
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord


class _Source:
    def __init__(self) -> None:
        self.closed = 0

    def read(self) -> Any:
        raise OSError("no frame")

    def close(self) -> None:
        self.closed += 1
        if self.closed > 1:
            raise RuntimeError("the camera was released twice")


class _Reader:
    def read(self, frame: Any) -> Any:
        raise AssertionError("never read")


def test_a_camera_port_closes_its_source_once() -> None:
    source = _Source()
    with CameraPort(source, _Reader()) as port:
        assert port.read() is None  # a failed read is counted, not raised
    assert source.closed == 1
    port.close()
    assert source.closed == 1


def test_outputs_end_the_terminal_line_once() -> None:
    out = io.StringIO()
    table = SimulatedTable(default_setup(clock_mode="tournament"), words=["QUIZ"])
    with Outputs(table, None, ManualClock(), out) as outputs:
        outputs.refresh()
    drawn = out.getvalue()
    assert drawn.endswith("\n") and drawn.strip()
    outputs.close()
    assert out.getvalue() == drawn


def test_a_service_closes_once_and_frees_its_state_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)
    config = sim_config(state_dir=tmp_path, web=False, fusion="sensors")
    parts = ServiceParts(config=config, lexicon=EveryWord(), web=False, monotonic=ManualClock())
    with TableService(parts) as service:
        service.table.control("start", {})
    service.close()  # again: nothing left to close, and no error
    with TableService(parts) as again:  # the lock on the state directory was released
        assert again.table.snapshot()["state"] == "turn"  # the game resumed from the journal
