"""`referee vision ...`: calibrate a camera, print the marker sheet, teach tiles, read boards and dice.

`referee vision read IMAGE... --calibration CALIB.json [--model MODEL] [--tiles english|german] --json` is a
stable interface (checks outside the project call it): one JSON object per line,
{"image", "board": [15 strings], "occluded", "uncertain": [squares], "ms"}, and "unseen": [squares] when the
frame cuts the grid (absent otherwise). OpenCV is imported in handlers.

`referee vision replay PHOTO_OR_FOLDER... --players NAME NAME` plays a photographed game through the table
(`referee.replay`): one line per turn (`--json`: one object per turn), the record with `--gcg OUT`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("vision", help="the camera: calibrate, markers, teach, read")
    vsub = p.add_subparsers(dest="vision_command", metavar="ACTION", required=True)

    read = vsub.add_parser("read", help="read the board in photos")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--calibration", required=True, metavar="CALIB.json")
    read.add_argument("--model", metavar="MODEL", help="a model from `referee vision teach` (default: shipped)")
    read.add_argument(
        "--tiles", choices=("english", "german"), default="german", help="the shipped classifier's letters"
    )
    read.add_argument("--json", action="store_true", help="one JSON object per line")
    read.set_defaults(handler=handle_read)

    cal = vsub.add_parser("calibrate", help="find the board in a photo and save the calibration")
    cal.add_argument("image", metavar="IMAGE")
    cal.add_argument("-o", "--output", required=True, metavar="CALIB.json")
    cal.add_argument("--no-markers", action="store_true", help="ignore ArUco markers, use the board's grid")
    cal.add_argument("--any-layout", action="store_true", help="the board's premium squares are not the standard ones")
    cal.set_defaults(handler=handle_calibrate)

    mk = vsub.add_parser("markers", help="write the printable sheet of corner markers (PNG)")
    mk.add_argument("-o", "--output", default="markers.png", metavar="PNG")
    mk.add_argument("--size-mm", type=float, default=30.0)
    mk.set_defaults(handler=handle_markers)

    dice = vsub.add_parser("dice", help="read the letter dice in a tray area of photos (SCRABBLE Scramble)")
    dice.add_argument("images", nargs="+", metavar="IMAGE")
    dice.add_argument("--tray", metavar="X,Y,W,H", help="the tray area in pixels (default: the whole image)")
    dice.add_argument("--model", metavar="MODEL", help="a model from `referee vision teach` (default: shipped)")
    dice.add_argument("--tiles", choices=("english", "german"), default="english")
    dice.set_defaults(handler=handle_dice)

    rp = vsub.add_parser("replay", help="play a photographed game through the table: its record, or its questions",
                         description="Play the photos of a game (one per turn, in order; a folder in natural "
                                     "order) through the table a live game with the camera alone runs, pressing "
                                     "the clock after each photo. Prints one line per turn. Exit 0 when every "
                                     "turn scored without a question, 1 when the table asked, 2 on bad input.")
    rp.add_argument("photos", nargs="+", metavar="PHOTO_OR_FOLDER")
    rp.add_argument("--players", nargs="+", required=True, metavar="NAME", help="the players, in playing order")
    rp.add_argument("--tiles", choices=("english", "german"), default="german", help="the edition (default german)")
    rp.add_argument("--lexicon", default="", metavar="NAME",
                    help="an installed lexicon or a word-list file: pins blanks and judges challenges (without "
                         "it every blank is asked)")
    rp.add_argument("--calibration", metavar="CALIB.json", help="default: calibrate on the first photo")
    rp.add_argument("--model", metavar="MODEL", help="a model from `referee vision teach` (default: shipped)")
    rp.add_argument("--gcg", metavar="OUT.gcg", help="write the game's record here")
    rp.add_argument("--json", action="store_true", help="one JSON object per turn")
    rp.set_defaults(handler=handle_replay)

    teach = vsub.add_parser("teach", help="learn your tiles from labelled photos")
    teach.add_argument("labels", metavar="LABELS.json")
    teach.add_argument("-o", "--output", required=True, metavar="MODEL")
    teach.add_argument(
        "--tiles",
        choices=("english", "german"),
        help="teach this set's rendered tiles too, so a few photos (the first turns) are enough",
    )
    teach.set_defaults(handler=handle_teach)


def _fail(message: str) -> int:
    print(f"referee vision: {message}", file=sys.stderr)
    return 2


def handle_read(args: argparse.Namespace) -> int:
    from game.squares import Square
    from vision.calibration import Calibration
    from vision.classifier import TileClassifier
    from vision.errors import VisionError
    from vision.images import read_image
    from vision.reader import BoardReader
    from vision.shipped import shipped_classifier

    try:
        calib = Calibration.load(args.calibration)
        model = TileClassifier.load(args.model) if args.model else shipped_classifier(args.tiles)
    except VisionError as exc:
        return _fail(str(exc))
    reader = BoardReader(calib, model)
    status = 0
    for path in args.images:
        try:
            image = read_image(path)
        except VisionError as exc:
            status = _fail(str(exc))
            continue
        try:
            reading = reader.read(image, where=path)
        except VisionError as exc:
            status = _fail(str(exc))
            continue
        if args.json:
            print(json.dumps(reading.to_json(path), ensure_ascii=False), flush=True)
        else:
            print(f"{path}: {'OCCLUDED ' if reading.occluded else ''}{reading.ms:.1f} ms")
            unseen = set(reading.unseen)
            for r, row in enumerate(reading.board):  # a square outside the frame shows as `#`, not as empty
                print("  " + "".join("#" if str(Square(r, c)) in unseen else ch for c, ch in enumerate(row)))
            if unseen:
                print("  unseen (outside the frame): " + " ".join(reading.unseen))
            doubted = [name for name in reading.uncertain if name not in unseen]
            if doubted:
                print("  uncertain: " + " ".join(doubted))
            for note in reading.notes:  # why the frame or its squares are doubted, in words
                print(f"  why: {note}")
    return status


def handle_calibrate(args: argparse.Namespace) -> int:
    from vision.errors import VisionError
    from vision.registration import calibrate_file

    try:
        calib = calibrate_file(args.image, use_markers=not args.no_markers, standard_layout=not args.any_layout)
        calib.save(args.output)
    except VisionError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.output}: cannot write ({exc.strerror})")
    print(f"{args.output}: board found by {calib.method}, grid fit residual {calib.residual:.3f} squares")
    cut = calib.cut_edges()
    if cut:
        from vision.geometry import move_camera_hint

        unseen = int((~calib.visible()).sum())
        print(f"{args.output}: {unseen} square(s) outside the frame will be read as unseen; "
              f"{move_camera_hint(cut)}")
    return 0


def handle_markers(args: argparse.Namespace) -> int:
    import cv2

    from vision.errors import VisionError
    from vision.markers import marker_sheet

    try:
        sheet = marker_sheet(args.size_mm)
    except VisionError as exc:
        return _fail(f"--size-mm: {exc}")
    if not cv2.imwrite(args.output, sheet):
        return _fail(f"{args.output}: cannot write the marker sheet")
    print(f"{args.output}: print at 100% scale; markers 0-3 go on the grid's corners, clockwise from top-left")
    return 0


def handle_teach(args: argparse.Namespace) -> int:
    from vision.errors import VisionError
    from vision.teach import load_labels, teach

    try:
        model = teach(load_labels(args.labels), tiles=args.tiles)
        model.save(args.output)
    except VisionError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.output}: cannot write ({exc.strerror})")
    own = model.meta.get("own_examples", model.meta.get("examples"))
    print(f"{args.output}: taught {own} of your tiles, letters {''.join(model.classes)}")
    return 0


def handle_dice(args: argparse.Namespace) -> int:
    from vision.classifier import TileClassifier
    from vision.dice import DiceReader
    from vision.errors import VisionError
    from vision.images import read_image
    from vision.shipped import shipped_classifier

    try:
        model = TileClassifier.load(args.model) if args.model else shipped_classifier(args.tiles)
    except VisionError as exc:
        return _fail(str(exc))
    tray = None
    if args.tray:
        try:
            x, y, w, h = (int(v) for v in args.tray.split(","))
        except ValueError:
            return _fail(f"--tray {args.tray!r}: give four whole numbers X,Y,W,H")
        tray = (x, y, w, h)
    status = 0
    for path in args.images:
        try:
            image = read_image(path)
        except VisionError as exc:
            status = _fail(str(exc))
            continue
        area = tray or (0, 0, image.shape[1], image.shape[0])
        reader = DiceReader(model, area)
        height, width = image.shape[:2]
        x, y, w, h = area
        seen_w, seen_h = min(x + w, width) - max(x, 0), min(y + h, height) - max(y, 0)
        if min(seen_w, seen_h) < reader.min_side:
            # Nothing this small can show a die: say why no dice come back, rather than an empty list.
            where = f"the tray area {x},{y},{w},{h} of its {width}x{height} pixels" if tray else \
                f"it is {width}x{height} pixels"
            status = _fail(f"{path}: too small to hold a die: {where}, and a die needs at least "
                           f"{reader.min_side}x{reader.min_side} (a photo of the tray from above)")
            continue
        dice = reader.read(image)
        if not dice:
            print(f"referee vision: {path}: no dice found in the tray area {x},{y},{w},{h}", file=sys.stderr)
        out = {
            "image": path,
            "dice": [
                {
                    "letter": d.letter,
                    "confidence": round(d.confidence, 3),
                    "uncertain": d.uncertain,
                    "centre": [round(d.centre[0], 1), round(d.centre[1], 1)],
                }
                for d in dice
            ],
        }
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return status


def handle_replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from game.errors import RefereeError
    from referee.replay import ReplayError, json_lines, replay

    if args.gcg and Path(args.gcg).is_dir():
        return _fail(f"--gcg {args.gcg}: is a folder; give the file to write")
    try:
        result = replay(args.photos, args.players, tiles=args.tiles, lexicon=args.lexicon,
                        calibration=args.calibration, model=args.model)
    except ReplayError as exc:
        return _fail(f"replay: {exc}")
    except RefereeError as exc:  # a photo that cannot be read, a calibration file that is not one
        return _fail(f"replay: {exc}")
    if args.json:
        for line in json_lines(result):
            print(line, flush=True)
    else:
        for turn in result.turns:
            print(turn.line(), flush=True)
        asked = sum(t.asked for t in result.turns)
        scored = sum(t.result == "scored" for t in result.turns)
        print(f"{scored} play(s) scored, {asked} turn(s) asked ({result.questions} question(s)), "
              f"{result.seconds:.1f} s")
    if args.gcg:
        try:
            Path(args.gcg).write_text(result.gcg, encoding="utf-8")
        except OSError as exc:
            return _fail(f"--gcg {args.gcg}: cannot write ({exc.strerror})")
    return 1 if result.asked else 0
