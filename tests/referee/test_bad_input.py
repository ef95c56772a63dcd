"""Bad input on the command line: one clear line on stderr naming what and where, a non-zero exit, and never
a traceback or a wait for something that cannot come."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from referee.cli import main

pytestmark = pytest.mark.filterwarnings("error")


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Errno" not in err, err
    return lines[0]


def test_gcg_board_on_random_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "noise.gcg"
    path.write_bytes(bytes(range(256)) * 8 + b"\x00\xff\xfe" * 50)
    assert main(["gcg", "board", str(path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "noise.gcg" in line and "not a GCG record" in line


def test_gcg_board_reads_a_utf16_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "utf16.gcg"
    path.write_bytes("#player1 Anna Anna\n#player2 Ben Ben\n>Anna: QUIZ 8E QUIZ +44 44\n".encode("utf-16"))
    assert main(["gcg", "board", str(path)]) == 0
    out = capsys.readouterr()
    assert "Anna: 44" in out.out and out.err == ""


def test_demo_on_a_file_that_is_no_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"game": {"players": 5}}\n', encoding="utf-8")
    assert main(["demo", str(path), "--exit", "--state-dir", str(tmp_path / "state")]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "settings.json" in line and "not a GCG record" in line
    assert "game.players" not in line  # not a setting of the table it never made


def test_demo_on_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", str(tmp_path / "nope.gcg"), "--exit", "--state-dir", str(tmp_path / "state")]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == f"referee demo: {tmp_path / 'nope.gcg'}: No such file or directory"


@pytest.mark.parametrize(("wait", "said"), [("0", "give 1 to 3600 seconds"), ("soon", "'soon' is not a number")])
def test_demo_wait_outside_its_range_is_one_argparse_line(wait: str, said: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--wait", wait])
    assert exc.value.code == 2 and said in capsys.readouterr().err


@pytest.mark.parametrize("size", ["0", "-5", "500", "120", "77.6", "9.9"])
def test_marker_sizes_the_sheet_cannot_hold_are_refused(size: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "markers.png"
    assert main(["vision", "markers", f"--size-mm={size}", "-o", str(out)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "--size-mm" in line and "from 10 to 77.5 mm" in line
    assert not out.exists()


@pytest.mark.parametrize("size", [10.0, 30.0, 77.5])
def test_every_marker_size_the_sheet_takes_prints_four_readable_markers(size: float, tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    from vision.markers import find_markers

    out = tmp_path / "markers.png"
    assert main(["vision", "markers", f"--size-mm={size}", "-o", str(out)]) == 0
    sheet = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    found = find_markers(sheet)
    assert sorted(found) == [0, 1, 2, 3]
    px_per_mm = 200 / 25.4
    for quad in found.values():  # each the size asked for, none cut or overlapped
        side = quad[:, 0].max() - quad[:, 0].min() + 1
        assert abs(side - size * px_per_mm) <= 2


def test_board_monitor_on_a_device_that_does_not_exist(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    assert main(["board", "monitor", "/dev/ttyNOPE-referee-test"]) == 2
    assert time.monotonic() - started < 5  # at once, not after the 10 s connect timeout
    captured = capsys.readouterr()
    line = _one_line(captured.err)
    assert "/dev/ttyNOPE-referee-test: no such device" in line
    assert captured.out == ""


def test_vision_dice_on_an_image_too_small_for_a_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv2 = pytest.importorskip("cv2")
    np = pytest.importorskip("numpy")
    path = tmp_path / "tiny.png"
    cv2.imwrite(str(path), np.zeros((2, 2, 3), np.uint8))
    assert main(["vision", "dice", str(path)]) == 2
    captured = capsys.readouterr()
    line = _one_line(captured.err)
    assert "tiny.png: too small to hold a die: it is 2x2 pixels" in line
    assert captured.out == ""


@pytest.mark.parametrize("word", ["", "123", "  ", "Q1"])
def test_lexicon_check_of_something_that_is_no_word(word: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "check", word, "--data-dir", str(tmp_path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "is not a word: give letters only" in line
