"""The simulated table's camera: it films the emulated sensor board it is built beside.

`MirrorCamera` renders each frame (perspective, light, blur, noise) with `vision.synth.render_scene` from what
lies on the `ScriptedBoard` (the emulated board's world: square -> letter), and the real `vision.BoardReader`
reads it, so the simulated table exercises the camera's whole path. It sees the board as an eye does, the
moment a tile lies there: not through the sensor board's serial line and the service.
"""

from __future__ import annotations

from typing import Any

from firmware_bridge.scripted import ScriptedBoard
from game.squares import Square
from referee.sensors import CameraPort


class MirrorCamera:
    """A synthetic camera filming `board` (`ScriptedBoard.tiles`: square -> letter, `?` a blank)."""

    def __init__(self, board: ScriptedBoard | None, edition: str = "english", size: int = 1000,
                 seed: int = 7) -> None:
        self.board = board
        self.edition = edition
        self.size = size
        self.seed = seed
        self.fail = False  # the simulated camera can be "unplugged"

    def rows(self) -> list[str]:
        grid = [["."] * 15 for _ in range(15)]
        for name, letter in (self.board.tiles() if self.board is not None else {}).items():
            s = Square.from_str(name)
            grid[s.row][s.col] = letter
        return ["".join(r) for r in grid]

    def read(self) -> Any:
        if self.fail:
            raise OSError("the simulated camera is unplugged")
        from vision.synth import render_scene

        return render_scene(self.rows(), tiles=self.edition, seed=self.seed, size=(self.size, self.size)).frame

    def close(self) -> None:
        """Nothing to release."""


def open_mirror_camera(board: ScriptedBoard | None, edition: str = "english", size: int = 1000) -> CameraPort:
    """The simulated table's camera on `board` (None: a table without an emulated board, which it sees empty),
    calibrated on a first frame of the empty board."""
    from vision import BoardReader, calibrate
    from vision.shipped import shipped_classifier

    cam = MirrorCamera(None, edition, size)
    calib = calibrate(cam.read())
    cam.board = board
    return CameraPort(cam, BoardReader(calib, shipped_classifier(edition)))
