"""A camera missing at start or lost in play: the table runs on the sensor board with the camera_lost alert up,
and the camera is looked for again every `camera_retry_s` on the service's (injected) clock."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from referee.config import ConfigError, parse_config
from referee.parts import real_parts
from referee.sensors import CameraPort
from referee.service import ServiceParts, TableService
from referee.sim.clock import ManualClock
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord
from vision.errors import FrameSourceError

from .wordlists import write_word_list


class Still:
    """A camera that films an empty board, or fails every read once `unplugged`."""

    def __init__(self) -> None:
        self.unplugged = False
        self.closed = False

    def read(self) -> str:
        if self.unplugged or self.closed:
            raise FrameSourceError("v4l2:0: the camera gave no frame")
        return "frame"

    def close(self) -> None:
        self.closed = True


class EmptyBoard:
    def read(self, frame: Any) -> Any:
        return SimpleNamespace(occluded=False, uncertain=[], squares={})


class FlakyOpener:
    """A CameraOpener whose camera is missing the first `missing` times it is asked for."""

    def __init__(self, missing: int) -> None:
        self.missing = missing
        self.calls = 0
        self.sources: list[Still] = []

    def __call__(self) -> CameraPort:
        self.calls += 1
        if self.calls <= self.missing:
            raise FrameSourceError("picamera2:0: no such camera, or it is busy (Camera(s) not found)")
        self.sources.append(Still())
        return CameraPort(self.sources[-1], EmptyBoard())


def _alerts(service: TableService) -> list[str]:
    return [a["code"] for a in service.table.snapshot()["alerts"]]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def _service(tmp_path: Path, clock: ManualClock, opener: FlakyOpener) -> TableService:
    config = sim_config(state_dir=tmp_path, web=False, fusion="sensors")
    parts = ServiceParts(config=config, lexicon=EveryWord(), board_url=None, camera=None, camera_opener=opener,
                         camera_retry_s=30.0, camera_interval_s=3600.0, monotonic=clock)
    return TableService(parts)


def test_a_camera_missing_at_start_is_retried_on_the_clock_and_the_alert_cleared(tmp_path: Path,
                                                                               clock: ManualClock) -> None:
    opener = FlakyOpener(missing=2)
    service = _service(tmp_path, clock, opener)
    try:
        service.start()
        assert "camera_lost" in _alerts(service) and service.camera is None
        clock.now += 29
        assert not service.retry_camera() and opener.calls == 0  # not yet: 30 s between tries
        clock.now += 1
        assert not service.retry_camera() and opener.calls == 1  # still missing
        assert "camera_lost" in _alerts(service)
        clock.now += 30
        assert not service.retry_camera() and opener.calls == 2
        clock.now += 30
        assert service.retry_camera() and opener.calls == 3
        assert service.camera is not None and service.camera.clock is clock
        assert "camera_lost" not in _alerts(service)
        assert service.camera.read() == {} and service.camera.last_at == clock.now
        assert not service.retry_camera() and opener.calls == 3  # a camera that works is left alone
    finally:
        service.close()
    assert opener.sources[-1].closed


def test_a_camera_lost_in_play_is_released_and_opened_again(tmp_path: Path, clock: ManualClock) -> None:
    opener = FlakyOpener(missing=0)
    service = _service(tmp_path, clock, opener)
    service.parts.camera = service.camera = opener()
    try:
        service.start()
        assert "camera_lost" not in _alerts(service)
        first = opener.sources[0]
        first.unplugged = True  # the USB cable comes out: the device is gone for this VideoCapture
        for _ in range(service.camera.lost_after):
            service.camera.read()
        service._camera_link()
        assert "camera_lost" in _alerts(service)
        opener.missing = 2  # still out at the first try
        assert not service.retry_camera() and first.closed  # released before trying again
        assert "camera_lost" in _alerts(service)
        clock.now += 30
        assert service.retry_camera() and service.camera.source is opener.sources[-1]
        assert "camera_lost" not in _alerts(service)
    finally:
        service.close()


def _config(tmp_path: Path, **sensors: Any) -> Any:
    words = tmp_path / "words.txt"
    write_word_list(words, ("QUIZ", "QI"))
    return parse_config({"table": {"state_dir": str(tmp_path / "state")}, "game": {"lexicon": str(words)},
                         "sensors": sensors, "web": {"enabled": False}}, source="table.toml")


def test_referee_run_starts_without_a_missing_camera_when_there_is_a_board(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.sensors

    opener = FlakyOpener(missing=1)
    monkeypatch.setattr(referee.sensors, "CameraOpener", lambda *args: opener)
    parts = real_parts(_config(tmp_path, board="/dev/ttyACM0", camera="picamera2:", fusion="both"))
    assert parts.camera is None and parts.camera_opener is opener and opener.calls == 1
    assert parts.camera_retry_s > 0


def test_referee_run_refuses_at_start_with_neither_board_nor_camera(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.sensors

    monkeypatch.setattr(referee.sensors, "CameraOpener", lambda *args: FlakyOpener(missing=1))
    with pytest.raises(ConfigError, match=r"table.toml: sensors.camera: picamera2:0: no such camera.*"
                                          r"no sensors.board to play on meanwhile"):
        real_parts(_config(tmp_path, camera="picamera2:", fusion="camera"))


def test_referee_run_refuses_a_bad_camera_url_at_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"sensors\.camera: picamera2:abc: 'abc' is not a camera number"):
        real_parts(_config(tmp_path, board="/dev/ttyACM0", camera="picamera2:abc", fusion="both"))


class Remembering(EmptyBoard):
    """A board reader that records the tiles the service tells it (vision's BoardReader.remember)."""

    def __init__(self) -> None:
        self.told: list[dict[str, str]] = []

    def remember(self, tiles: dict[str, str]) -> None:
        self.told.append(dict(tiles))


def test_a_camera_opened_mid_game_is_told_the_committed_tiles(tmp_path: Path, clock: ManualClock) -> None:
    """So that a bump before the camera's first clear frame can be checked against the game's tiles."""
    from referee.table.picture import Cell

    opener = FlakyOpener(missing=0)
    service = _service(tmp_path, clock, opener)  # the camera is opened at the first try, 30 s in
    try:
        service.start()
        table = service.table
        table.control("start", {})
        mover = next(i for i, p in enumerate(table.snapshot()["players"]) if p["on_turn"])
        table.link("board", True)  # a sensor board reads the tiles meanwhile: the missing camera stops no play
        table.board_seen({"H8": Cell("Q"), "H9": Cell("I")})
        table.press_clock(mover)
        clock.now += 20  # the challenge window closes
        table.poll()
        with table.reading() as now:
            assert now.committed == {"H8": "Q", "H9": "I"}  # H8 and H9: down column H
        readers: list[Remembering] = []
        plain = opener.__call__

        def opening() -> CameraPort:
            port = plain()
            readers.append(Remembering())
            port.reader = readers[-1]
            return port

        service.parts.camera_opener = opening
        clock.now += 30
        assert service.retry_camera()
        assert readers[-1].told == [{"H8": "Q", "H9": "I"}]
    finally:
        service.close()


class Frames:
    """A board reader that reads each frame as it is given: `(occluded, {square: letter})`."""

    def read(self, frame: Any) -> Any:
        occluded, tiles = frame
        squares = {sq: SimpleNamespace(occupied=True, letter=ch, confidence=1.0, uncertain=False)
                   for sq, ch in tiles.items()}
        notes = ["something covers or changed 2 square(s): H10, H11"] if occluded else []
        return SimpleNamespace(occluded=occluded, uncertain=["H10", "H11"] if occluded else [], squares=squares,
                               notes=notes)


class Shown:
    """A camera whose frame is what the test lays in front of it."""

    def __init__(self) -> None:
        self.frame: Any = (False, {})

    def read(self) -> Any:
        return self.frame

    def close(self) -> None:
        """Nothing to release."""


def test_a_press_the_camera_alone_cannot_see_is_not_scored_on_an_older_frame(tmp_path: Path,
                                                                            clock: ManualClock) -> None:
    """Camera only: the frame at the press is covered (a hand): the table must not score the last clear frame
    (taken before the tiles went down: a pass). The press is not taken, the alert says why, and the next press
    on a clear frame scores the play."""
    source = Shown()
    camera = CameraPort(source, Frames())
    config = sim_config(state_dir=tmp_path, web=False, fusion="camera", clock_mode="none")
    service = TableService(ServiceParts(config=config, lexicon=EveryWord(), camera=camera, camera_interval_s=3600.0,
                                        monotonic=clock))
    try:
        table = service.table
        service.look()  # the empty board
        table.control("start", {})
        mover = next(i for i, p in enumerate(table.snapshot()["players"]) if p["on_turn"])
        clock.now += 5
        source.frame = (True, {"H8": "Q"})
        assert service.commit(mover) is False
        snap = table.snapshot()
        assert snap["moves"] == [] and snap["state"] == "turn"
        blind = [a["text"] for a in snap["alerts"] if a["code"] == "camera_blind"]
        assert blind and "something covers or changed 2 square(s): H10, H11" in blind[0]
        source.frame = (False, {"H8": "Q", "H9": "I"})
        assert service.commit(mover) is True
        snap = table.snapshot()
        assert [m["words"] for m in snap["moves"]] == [["QI"]]
        assert "camera_blind" not in [a["code"] for a in snap["alerts"]]
    finally:
        service.close()
