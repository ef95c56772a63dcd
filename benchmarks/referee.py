"""Referee service latency: from a player's clock button to the score on the scoreboard's snapshot.

Run from the project root: `.venv/bin/python benchmarks/referee.py`.

The real path end to end: real tournament games (GCG records from ../shared/gcg/liwords when present,
else the built-in demo game) are played through the simulated table by `referee.demo.DemoDriver`:
tiles laid on the sensor board's firmware running in the emulator behind a pseudo-terminal, the
mover's clock button pressed there (debounced by the firmware, 30 ms by default), the host link over
the pty, the service's commit worker, the fused picture, the table state machine and the rules
engine, until the snapshot with the new score is published to the views. Each play is timed from the
button going down to that snapshot.

Second run: with a camera frame of 1000x1000 pixels read by `vision.BoardReader` at every commit and
fused with the board's letters (the worst case: the service normally reuses the frame its camera thread
took when the board last changed, and skips this read), the process pinned to one core (OpenCV on one
thread). The frame of the board is rendered before the press: rendering is the simulated camera taking
the picture, not the referee's work.

The machine is shared by several developers (2 cores): figures are noisy; treat them as such.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.demo import DemoDriver, RecordJudge, load_record  # noqa: E402
from referee.service import TableService  # noqa: E402
from referee.sim.parts import sim_config, sim_parts  # noqa: E402
from referee.table.api import Snapshot  # noqa: E402

SHARED_GAMES = ROOT.parent / "shared" / "gcg" / "liwords"
GAMES = ["pkg_omgwords_testdata_vs_josh.gcg", "pkg_puzzles_testdata_r10_james.gcg",
         "pkg_puzzles_testdata_r1_mike.gcg", "pkg_puzzles_testdata_r2_tim.gcg"]


class PreparedCamera:
    """A synthetic camera whose frame is rendered from the board before the press (see above)."""

    def __init__(self, service_ref: list[Any], size: int) -> None:
        self.service_ref = service_ref
        self.size = size
        self.frame: Any = None

    def prepare(self) -> None:
        from vision.synth import render_scene

        grid = [["."] * 15 for _ in range(15)]
        for name, letter in self.service_ref[0].link.picture().squares.items():
            grid[int(name[1:]) - 1][ord(name[0]) - 65] = letter or "?"
        self.frame = render_scene(["".join(r) for r in grid], tiles="english", seed=7,
                                  size=(self.size, self.size)).frame

    def read(self) -> Any:
        if self.frame is None:
            self.prepare()
        return self.frame

    def close(self) -> None:
        """Nothing to release."""


class TimedDriver(DemoDriver):
    """The demo's robot players, timing each play from the clock button to the snapshot with its score."""

    def __init__(self, *args: Any, camera: PreparedCamera | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.camera = camera
        self.latencies: list[float] = []
        self.referee_part: list[float] = []  # from the board's button event reaching the referee to the score
        self.event_at = 0.0
        link = self.service.link
        forward = link.on_event

        def on_event(ev: Any) -> None:
            from firmware_bridge import events as fe

            if isinstance(ev, fe.ButtonEvent) and ev.pressed:
                self.event_at = time.perf_counter()
            forward(ev)

        link.on_event = on_event

    def press(self, player: int, what: str, done: Callable[[Snapshot], bool]) -> Snapshot:
        timed = what == "take the commit"
        if self.camera is not None and timed:
            self.camera.prepare()
        hit = threading.Event()
        stamp = [0.0]

        def listener(snap: Snapshot) -> None:
            if not hit.is_set() and done(snap):
                stamp[0] = time.perf_counter()
                hit.set()

        unsubscribe = self.table.subscribe(listener)
        t0 = time.perf_counter()
        self.emu.press(player)
        try:
            snap = self.wait(what, done)
        finally:
            self.emu.release(player)
            unsubscribe()
        if timed and hit.is_set():
            self.latencies.append((stamp[0] - t0) * 1000)
            self.referee_part.append((stamp[0] - self.event_at) * 1000)
        return snap


def play(record_path: str | None, camera: bool) -> tuple[list[float], list[float]]:
    record = load_record(record_path)
    names = tuple(p.name for p in record.players)
    cfg = sim_config(state_dir=tempfile.mkdtemp(prefix="referee-bench-"), web=False, players=names,
                     fusion="both" if camera else "sensors", clock_mode="tournament")
    parts = sim_parts(cfg)
    judge = RecordJudge()
    parts.lexicon = judge
    ref: list[Any] = []
    cam = None
    if camera:
        from referee.sensors import CameraPort
        from vision import BoardReader, calibrate
        from vision.shipped import shipped_classifier

        cam = PreparedCamera(ref, 1000)
        from vision.synth import render_scene

        empty = render_scene(["." * 15] * 15, tiles="english", seed=7, size=(1000, 1000)).frame
        parts.camera = CameraPort(cam, BoardReader(calibrate(empty), shipped_classifier("english")))
        parts.camera_interval_s = 3600.0  # only the commits read frames
    service = TableService(parts)
    ref.append(service)
    if camera:
        # The worst case the goal is about: the press comes right after the last tile, so the commit reads
        # a fresh frame itself (normally the camera has looked at the board since, and the commit reuses that).
        service._camera_current = lambda: False  # type: ignore[method-assign]
    service.start()
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(0.02):
            service.step()

    threading.Thread(target=loop, daemon=True).start()
    try:
        deadline = time.monotonic() + 10
        while not service.link.picture().connected:
            if time.monotonic() > deadline:
                raise SystemExit("the emulated board did not connect within 10 s")
            time.sleep(0.01)
        driver = TimedDriver(service, record, judge, camera=cam)
        result = driver.run()
        if result.mismatches:
            raise SystemExit(f"{record_path}: totals differ from the record: {result.mismatches[:3]}")
        return driver.latencies, driver.referee_part
    finally:
        stop.set()
        service.close()


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> int:
    records: list[str | None] = [str(SHARED_GAMES / g) for g in GAMES if (SHARED_GAMES / g).is_file()] or [None]
    board: list[float] = []
    board_referee: list[float] = []
    for r in records:
        total, part = play(r, camera=False)
        board += total
        board_referee += part
    source = "../shared/gcg/liwords" if records[0] else "the built-in demo game"
    print(f"# games from {source}; the board's button debounce (30 ms, the firmware's default) is included",
          file=sys.stderr)
    print(f"games_played: {len(records)} games")
    print(f"plays_timed_board: {len(board)} plays")
    print(f"button_to_score_board_median: {statistics.median(board):.1f} ms")
    print(f"button_to_score_board_p99: {p99(board):.1f} ms")
    print(f"board_event_to_score_median: {statistics.median(board_referee):.1f} ms")
    print(f"board_event_to_score_p99: {p99(board_referee):.1f} ms")
    try:
        import cv2

        cv2.setNumThreads(1)
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (ImportError, AttributeError, OSError):
        pass
    cam: list[float] = []
    cam_referee: list[float] = []
    for r in records[:2]:
        total, part = play(r, camera=True)
        cam += total
        cam_referee += part
    print(f"plays_timed_camera: {len(cam)} plays")
    print(f"button_to_score_camera_1000px_median: {statistics.median(cam):.1f} ms")
    print(f"button_to_score_camera_1000px_p99: {p99(cam):.1f} ms")
    print(f"board_event_to_score_camera_1000px_median: {statistics.median(cam_referee):.1f} ms")
    print("board_button_debounce: 30 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
