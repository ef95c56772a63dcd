from __future__ import annotations

from referee.fusion import CameraSquare, fuse
from referee.table.picture import Cell, picture_from_json, picture_to_json


def cam(letter: str | None, conf: float = 0.99, occupied: bool = True, uncertain: bool = False) -> CameraSquare:
    return CameraSquare(occupied, letter, conf, uncertain)


def test_sensor_presence_with_confident_camera_letters() -> None:
    pic = fuse({"H8": None, "H9": None}, {"H8": cam("Q"), "H9": cam("I")})
    assert pic == {"H8": Cell("Q"), "H9": Cell("I")}


def test_presence_only_board_without_camera_leaves_letters_to_ask() -> None:
    pic = fuse({"H8": None}, None)
    assert pic["H8"].letter is None and not pic["H8"].sure


def test_low_confidence_or_uncertain_is_doubt_never_a_letter() -> None:
    pic = fuse({"H8": None, "H9": None}, {"H8": cam("Q", conf=0.6), "H9": cam("I", uncertain=True)}, 0.9)
    assert pic["H8"].letter is None and "60% sure" in pic["H8"].doubt and "maybe Q" in pic["H8"].doubt
    assert pic["H9"].letter is None and pic["H9"].doubt


def test_a_letter_the_camera_trusts_is_scored_above_the_default_floor() -> None:
    """camera C's C tiles read at 0.65-0.76 and were right on every shared photo: the default floor (0.5) scores
    them, where 0.9 asked about each at every turn; below it, or doubted by the reader, it is still asked."""
    pic = fuse(None, {"D3": cam("C", conf=0.76), "L14": cam("C", conf=0.45), "C7": cam("Q", 0.8, uncertain=True)})
    assert pic["D3"] == Cell("C")
    assert pic["L14"].letter is None and "45% sure" in pic["L14"].doubt
    assert pic["C7"].letter is None and pic["C7"].doubt


def test_sensor_wins_on_presence_and_disagreement_is_doubt() -> None:
    pic = fuse({"H8": None}, {"H8": cam(None, occupied=False), "A1": cam("E")})
    assert set(pic) == {"H8"}
    assert "camera does not see" in pic["H8"].doubt
    coded = fuse({"H8": "Q"}, {"H8": cam("O")})
    assert coded["H8"].letter is None and "board reads Q, the camera reads O" in coded["H8"].doubt
    agree = fuse({"H8": "Q"}, {"H8": cam("Q")})
    assert agree["H8"] == Cell("Q")


def test_blank_tiles_are_blanks_from_either_source() -> None:
    assert fuse({"H8": None}, {"H8": cam("?")})["H8"].blank
    assert fuse({"H8": "?"}, None)["H8"].blank
    assert fuse(None, {"H8": cam("?")})["H8"].blank


def test_camera_only() -> None:
    pic = fuse(None, {"H8": cam("Q"), "H9": cam(None, occupied=False)})
    assert pic == {"H8": Cell("Q")}


def test_picture_json_round_trip() -> None:
    pic = {"H8": Cell("Q"), "H9": Cell(None, blank=True), "H10": Cell(None, doubt="why")}
    assert picture_from_json(picture_to_json(pic)) == pic


def test_a_square_outside_the_cameras_frame_is_never_taken_for_empty() -> None:
    outside = CameraSquare(False, ".", 0.0, True, unseen=True)
    # The sensor board feels a tile there: it stays, asked about, never dropped as the camera's "empty".
    with_sensors = fuse({"O8": None, "N8": None}, {"O8": outside, "N8": cam("A")})
    assert with_sensors["O8"].letter is None and "outside the camera's view" in with_sensors["O8"].doubt
    assert fuse({"O8": "Q"}, {"O8": outside})["O8"] == Cell("Q")
    # The camera alone: a tile next to an unseen square may be part of a word going on past the frame's
    # edge, so it is asked about; a tile away from the edge is read as usual.
    alone = fuse(None, {"O8": outside, "N8": cam("A"), "H8": cam("Q")})
    assert set(alone) == {"N8", "H8"} and alone["H8"] == Cell("Q")
    assert alone["N8"].letter is None and "cannot see past" in alone["N8"].doubt
