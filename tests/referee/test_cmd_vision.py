"""`referee vision ...` end to end on synthetic photos written to a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cli import main
from vision.synth import random_board, render_scene


@pytest.fixture(scope="module")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the module: the shipped classifier is built once, never in the user's ~/.cache."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture()
def cache(tmp_path: Path, model_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(model_cache))
    return tmp_path


def test_calibrate_then_read_json(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = render_scene(["." * 15] * 15, seed=7, tilt=0.05)
    board = random_board(np.random.default_rng(7), count=30)
    played = render_scene(board, seed=7, tilt=0.05)
    cv2.imwrite(str(cache / "empty.png"), empty.frame)
    cv2.imwrite(str(cache / "played.png"), played.frame)
    calib = cache / "calib.json"
    assert main(["vision", "calibrate", str(cache / "empty.png"), "-o", str(calib)]) == 0
    assert "board found by grid" in capsys.readouterr().out
    assert json.loads(calib.read_text(encoding="utf-8"))["format"] == "scrabble-referee-calibration"
    status = main(
        [
            "vision",
            "read",
            str(cache / "played.png"),
            str(cache / "empty.png"),
            "--calibration",
            str(calib),
            "--tiles",
            "german",
            "--json",
        ]
    )
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["image"] == str(cache / "played.png")
    assert first["board"] == board and first["occluded"] is False and first["uncertain"] == []
    assert isinstance(first["ms"], float)
    assert second["board"] == ["." * 15] * 15


def test_calibrate_without_a_board_fails_clearly(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv2.imwrite(str(cache / "wall.png"), np.full((400, 500, 3), 200, np.uint8))
    assert main(["vision", "calibrate", str(cache / "wall.png"), "-o", str(cache / "c.json")]) == 2
    err = capsys.readouterr().err
    assert "no board found in" in err and "wall.png" in err
    assert not (cache / "c.json").exists()


def test_read_with_a_missing_calibration_fails_clearly(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "read", "x.png", "--calibration", str(cache / "none.json"), "--json"]) == 2
    assert "calibration file not found" in capsys.readouterr().err


def test_markers_sheet_is_written(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = cache / "markers.png"
    assert main(["vision", "markers", "-o", str(out)]) == 0
    sheet = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert sheet is not None and sheet.shape[0] > 1000
    assert "100% scale" in capsys.readouterr().out


def test_teach_writes_a_model_the_reader_uses(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = []
    (cache / "g1").mkdir()
    for k in range(3):
        board = random_board(np.random.default_rng(20 + k), count=60)
        cv2.imwrite(str(cache / "g1" / f"p{k}.png"), render_scene(board, seed=20).frame)
        entries.append({"game": "g1", "file": f"p{k}.png", "board": board})
    (cache / "labels.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    model = cache / "tiles.model"
    assert main(["vision", "teach", str(cache / "labels.json"), "-o", str(model)]) == 0
    assert "taught" in capsys.readouterr().out
    calib = cache / "c.json"
    assert main(["vision", "calibrate", str(cache / "g1" / "p0.png"), "-o", str(calib)]) == 0
    capsys.readouterr()
    assert (
        main(
            [
                "vision",
                "read",
                str(cache / "g1" / "p1.png"),
                "--calibration",
                str(calib),
                "--model",
                str(model),
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["board"] == entries[1]["board"]


def test_read_refuses_frames_of_another_camera_and_missing_models(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = render_scene(["." * 15] * 15, seed=3)
    cv2.imwrite(str(cache / "board.png"), scene.frame)
    cv2.imwrite(str(cache / "small.png"), cv2.resize(scene.frame, (480, 450)))
    calib = cache / "c.json"
    assert main(["vision", "calibrate", str(cache / "board.png"), "-o", str(calib)]) == 0
    capsys.readouterr()
    status = main(
        ["vision", "read", str(cache / "small.png"), str(cache / "board.png"), "--calibration", str(calib), "--json"]
    )
    captured = capsys.readouterr()
    assert status == 2
    assert "small.png: frame is 480x450" in captured.err
    assert len(captured.out.strip().splitlines()) == 1  # the good image is still read
    assert (
        main(
            [
                "vision",
                "read",
                str(cache / "board.png"),
                "--calibration",
                str(calib),
                "--model",
                str(cache / "none.model"),
            ]
        )
        == 2
    )
    assert "model file not found" in capsys.readouterr().err


def test_dice_command_reads_a_tray(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.synth import render_dice

    scene = render_dice(["Q", "A", "?", "Z"], seed=4, size=(480, 360))
    framed = cv2.copyMakeBorder(scene.frame, 0, 0, 0, 200, cv2.BORDER_CONSTANT, value=(20, 20, 20))
    cv2.imwrite(str(cache / "tray.png"), framed)
    assert main(["vision", "dice", str(cache / "tray.png"), "--tray", "0,0,480,360"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(d["letter"] for d in out["dice"]) == ["?", "A", "Q", "Z"]
    assert main(["vision", "dice", str(cache / "tray.png"), "--tray", "0,0,480"]) == 2
    assert "four whole numbers" in capsys.readouterr().err


def test_a_frame_that_cuts_the_grid_shows_unseen_squares_and_which_edge(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.perturb import cut

    frame = render_scene(["." * 15] * 15, seed=3, tilt=0.02).frame
    cv2.imwrite(str(cache / "cut.png"), cut(frame, "left", 0.2))  # the margin and a column of the grid
    cv2.imwrite(str(cache / "far.png"), cut(frame, "left", 0.3))
    calib = cache / "calib.json"
    assert main(["vision", "calibrate", str(cache / "far.png"), "-o", str(calib)]) == 2
    assert "move the camera so the whole board is in the frame: the left edge is cut" in capsys.readouterr().err
    assert main(["vision", "calibrate", str(cache / "cut.png"), "-o", str(calib)]) == 0
    assert "the left edge is cut" in capsys.readouterr().out
    assert main(["vision", "read", str(cache / "cut.png"), "--calibration", str(calib)]) == 0
    out = capsys.readouterr().out
    assert "unseen (outside the frame): A1 B1 " in out and "why: 30 square(s) outside the frame" in out
    assert "  ##............." in out


def test_teach_with_a_tile_set_keeps_letters_the_photos_lack(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One photo with a handful of letters, taught with `--tiles german`: the model reads all of the set."""
    (cache / "g1").mkdir()
    board = ["." * 15] * 7 + ["....HAUS.......", *(["." * 15] * 7)]
    cv2.imwrite(str(cache / "g1" / "p0.png"), render_scene(board, seed=21).frame)
    entries = [{"game": "g1", "file": "p0.png", "board": board}]
    (cache / "labels.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    model = cache / "tiles.model"
    assert main(["vision", "teach", str(cache / "labels.json"), "-o", str(model), "--tiles", "german"]) == 0
    out = capsys.readouterr().out
    assert "taught 4 of your tiles" in out and "Ä" in out and "Z" in out
    assert main(["vision", "teach", str(cache / "labels.json"), "-o", str(model), "--tiles", "english"]) == 0
    assert main(["vision", "teach", str(cache / "labels.json"), "-o", str(model)]) == 0
    assert "letters AHSU" in capsys.readouterr().out  # without the set's renders: only what the photo shows
