from __future__ import annotations

from pathlib import Path

from referee.fusion import CameraSquare, fuse
from referee.journal import Event, Journal
from referee.table.live import LiveTable
from referee.table.picture import Cell, Doubt, picture_from_json, picture_to_json
from referee.table.rules import WordSet, table_rules
from referee.table.setup import TableSetup
from referee.words import say


def said(cell: Cell, lang: str = "en") -> str:
    """The cell's doubt as the table says it in `lang`."""
    assert cell.doubt is not None
    return say("doubts", cell.doubt.code, lang, **cell.doubt.fields)


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
    assert pic["H8"].letter is None and "60% sure" in said(pic["H8"]) and "maybe Q" in said(pic["H8"])
    assert pic["H9"].letter is None and pic["H9"].doubt


def test_a_letter_the_camera_trusts_is_scored_above_the_default_floor() -> None:
    """camera C's C tiles read at 0.65-0.76 and were right on every shared photo: the default floor (0.5) scores
    them, where 0.9 asked about each at every turn; below it, or doubted by the reader, it is still asked."""
    pic = fuse(None, {"D3": cam("C", conf=0.76), "L14": cam("C", conf=0.45), "C7": cam("Q", 0.8, uncertain=True)})
    assert pic["D3"] == Cell("C")
    assert pic["L14"].letter is None and "45% sure" in said(pic["L14"])
    assert pic["C7"].letter is None and pic["C7"].doubt


def test_sensor_wins_on_presence_and_disagreement_is_doubt() -> None:
    pic = fuse({"H8": None}, {"H8": cam(None, occupied=False), "A1": cam("E")})
    assert set(pic) == {"H8"}
    assert "camera does not see" in said(pic["H8"])
    coded = fuse({"H8": "Q"}, {"H8": cam("O")})
    assert coded["H8"].letter is None and "board reads Q, the camera reads O" in said(coded["H8"])
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
    doubt = Doubt("camera_unsure", {"square": "H10", "letter": "Q", "confidence": 0.5})
    pic = {"H8": Cell("Q"), "H9": Cell(None, blank=True), "H10": Cell(None, doubt=doubt)}
    assert picture_from_json(picture_to_json(pic)) == pic


def test_a_square_outside_the_cameras_frame_is_never_taken_for_empty() -> None:
    outside = CameraSquare(False, ".", 0.0, True, unseen=True)
    # The sensor board feels a tile there: it stays, asked about, never dropped as the camera's "empty".
    with_sensors = fuse({"O8": None, "N8": None}, {"O8": outside, "N8": cam("A")})
    assert with_sensors["O8"].letter is None and "outside the camera's view" in said(with_sensors["O8"])
    assert fuse({"O8": "Q"}, {"O8": outside})["O8"] == Cell("Q")
    # The camera alone: a tile next to an unseen square may be part of a word going on past the frame's
    # edge, so it is asked about; a tile away from the edge is read as usual.
    alone = fuse(None, {"O8": outside, "N8": cam("A"), "H8": cam("Q")})
    assert set(alone) == {"N8", "H8"} and alone["H8"] == Cell("Q")
    assert alone["N8"].letter is None and "cannot see past" in said(alone["N8"])


def test_a_doubt_is_a_code_and_its_fields_said_in_either_language() -> None:
    pic = fuse(None, {"H8": cam("Q", conf=0.5, uncertain=True), "H9": cam(None)})
    assert pic["H8"].doubt == Doubt("camera_unsure", {"square": "H8", "letter": "Q", "confidence": 0.5})
    assert said(pic["H8"]) == "H8: the camera cannot read this tile (maybe Q, 50% sure)"
    assert said(pic["H8"], "de") == "H8: die Kamera kann diesen Stein nicht lesen (vielleicht Q, zu 50% sicher)"
    assert said(pic["H9"], "de") == "H9: die Kamera kann diesen Stein nicht lesen"
    differ = fuse({"H8": "Q"}, {"H8": cam("O")})["H8"]
    assert said(differ, "de") == "H8: das Brett liest Q, die Kamera liest O"


def test_a_confidence_is_kept_to_the_whole_per_cent_so_a_wobble_journals_nothing_new() -> None:
    one, two = (fuse(None, {"H8": cam("Q", conf=c)}) for c in (0.4512, 0.4538))
    assert picture_to_json(one) == picture_to_json(two)


# A board event as the journal held it before doubts had codes: the doubt was its English words.
OLD_CELLS = {"H8": ["", 0, "H8: the camera cannot read this tile (maybe Q, 50% sure)"], "G8": ["A", 0, ""]}


def test_a_journal_with_the_doubts_of_before_still_replays(tmp_path: Path) -> None:
    """A journal written before doubts had codes: its string doubts are read as `text` doubts, shown as they were
    written, and the game goes on from them."""
    assert picture_from_json(OLD_CELLS) == {
        "H8": Cell(None, doubt=Doubt("text", {"text": OLD_CELLS["H8"][2]})), "G8": Cell("A")}
    setup = TableSetup(table="Old", players=("Anna", "Ben"))
    journal = Journal(tmp_path / "games.sqlite3", writer=True)
    game = journal.new_game(setup.table, setup.kind, list(setup.players), setup.to_dict())
    for t, kind, data in [(0, "board", {"cells": {}}), (1, "link", {"source": "board", "up": True}),
                          (2, "control", {"action": "start", "params": {}}), (3, "board", {"cells": OLD_CELLS}),
                          (4, "clock", {"player": 0})]:
        journal.append(game, Event(kind, t, data))
    table = LiveTable.resume(journal, lambda s: table_rules(s, WordSet(["QA", "AQ"])))
    assert table is not None
    snap = table.snapshot()
    asked = [a for a in snap["alerts"] if a["code"] == "doubtful_letter"]
    assert snap["state"] == "blank" and snap["pending"]["letters"] == ["H8"]
    assert asked[0]["text"] == "Which letter is on H8? H8: the camera cannot read this tile (maybe Q, 50% sure)"
    assert asked[0]["fields"]["why"] == {"catalogue": "doubts", "code": "text", "fields": {"text": OLD_CELLS["H8"][2]}}
    snap = table.control("correct", {"square": "H8", "letter": "Q"})
    assert snap["moves"][-1]["notation"] == "8G AQ"
    journal.close()
