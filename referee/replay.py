"""A photographed game played through the real table: `referee vision replay PHOTO_OR_FOLDER...`.

Clubs that photograph the board after every move get the game's record from the photos. Each photo is laid in
front of the table's camera in turn (`vision.sources.StillSource`), and the table is the one a live game with
`fusion = "camera"` runs: `TableService` with its `CameraPort`, `BoardReader`, fusion, doubt, state machine,
engine and GCG writer, on a journal in a temporary folder. After each photo the replay presses the clock of the
player on turn, as that player would (`TableService.commit`), and reports what the table did: the play scored,
or the questions it asks (square and why). Nothing is typed and nothing is guessed; the replay answers only
what the photos and the lexicon settle beyond doubt:

- a blank whose letter the lexicon pins (one letter makes every word of the play a word of the lexicon,
  cross words included: `TableReading.blank_letters`) is named as a player would name it on the page;
- a play whose tiles the next photo no longer shows was challenged off: the opponent challenges, and the
  lexicon's verdict decides (a verdict that keeps the play is a question);
- photos before the game (name tiles, then the empty board) are the pre-game board: the game starts at the
  first photo of an empty board, if the photos start with tiles that are then taken off;
- at the end, the tiles left on the one rack not yet emptied are the tiles no photo shows (the bag is empty).

The time of the table is a manual clock: one second a photo, and the challenge window runs out only when the
next photo shows no new tiles (a pass or an exchange: the next player's press must not fall in the window).
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.errors import RefereeError


class ReplayError(RefereeError, ValueError):
    """The photos, players, lexicon or calibration given to a replay cannot be used (exit 2)."""


@dataclass
class Question:
    """What the table asks before it scores: a square (or "" for the whole board) and why, in its words."""

    square: str
    why: str

    def to_json(self) -> dict[str, str]:
        return {"square": self.square, "why": self.why}


@dataclass
class Turn:
    """One photo's outcome. `result`: "pregame" (before the game), "scored", "pass" (no new tiles: a pass or an
    exchange), "withdrawn" (challenged off), "asked" (questions), or "end" (the tiles left at the end)."""

    photo: str
    turn: int  # 1 for the first turn's photo; 0 before the game and at the end
    result: str
    player: str = ""
    move: str = ""  # GCG notation, `8G DÜS` (`.` a tile already on the board)
    words: list[str] = field(default_factory=list)
    score: int | None = None
    total: int | None = None
    questions: list[Question] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    tiles: dict[str, str] = field(default_factory=dict)  # the tiles the play laid: square -> letter (a blank lowercase)

    @property
    def asked(self) -> bool:
        return bool(self.questions)

    def to_json(self) -> dict[str, Any]:
        return {"photo": self.photo, "turn": self.turn, "result": self.result, "player": self.player,
                "move": self.move, "words": list(self.words), "score": self.score, "total": self.total,
                "questions": [q.to_json() for q in self.questions], "notes": list(self.notes),
                "tiles": dict(self.tiles)}

    def line(self) -> str:
        """One line for people: `board-01.png: turn 1, Timon: 8G DÜS +16 (16)`."""
        head = f"{self.photo}: " + (f"turn {self.turn}, {self.player}: " if self.turn else "")
        if self.result == "pregame":
            body = "before the game (the pre-game board, not a play)"
        elif self.result == "scored":
            body = f"{self.move} {self.score:+d} ({self.total}) {'/'.join(self.words)}"
        elif self.result == "pass":
            body = "no new tiles: a pass or an exchange"
        elif self.result == "withdrawn":
            body = f"challenged off: {self.move} {self.score:+d} ({self.total})"
        elif self.result == "end":
            body = f"{self.player}: {self.move} {self.score:+d} ({self.total})"
        else:
            body = "asked: " + "; ".join(f"{_few(q.square)}: {q.why}" if q.square else q.why for q in self.questions)
        notes = "".join(f" [{n}]" for n in self.notes)
        return head + body + notes


@dataclass
class ReplayResult:
    turns: list[Turn]
    gcg: str
    seconds: float

    @property
    def questions(self) -> int:
        return sum(len(t.questions) for t in self.turns)

    @property
    def asked(self) -> bool:
        return any(t.asked for t in self.turns)


def photo_paths(items: Sequence[str | Path]) -> list[Path]:
    """Photos in the order given; a folder's in natural order (`vision.sources.natural_key`)."""
    from vision.sources import IMAGE_SUFFIXES, image_files

    out: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = image_files(path)
            if not found:
                raise ReplayError(f"{path}: no photos ({', '.join(IMAGE_SUFFIXES)}) in this folder")
            out += found
        elif path.is_file():
            out.append(path)
        else:
            raise ReplayError(f"{path}: no such photo or folder")
    if not out:
        raise ReplayError("no photos given")
    return out


class ManualTime:
    """The replay's table time: moves only when the replay moves it (a photo is one second)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# How long a photo is on the table, in table time; the challenge window (15 s) is closed on purpose when needed.
PHOTO_S = 1.0


class Replay:
    """Plays `photos` through a real table. Build it (the checks that can fail on bad input run here, as
    `ReplayError`), then `run()`."""

    def __init__(self, photos: Sequence[Path], players: Sequence[str], *, tiles: str = "german",
                 lexicon: str = "", calibration: str | Path | None = None, model: str | Path | None = None) -> None:
        from referee.config import ConfigError, parse_config
        from referee.table.rules import EveryWord

        self.photos = list(photos)
        self.state_dir = tempfile.TemporaryDirectory(prefix="referee-replay-")
        data: dict[str, Any] = {
            "table": {"name": "Replay", "state_dir": self.state_dir.name, "language": "en"},
            # Single challenge: a verdict the photos contradict must not also cost the challenger a turn.
            "game": {"edition": tiles, "players": list(players), "challenge": "single",
                     **({"lexicon": lexicon} if lexicon else {})},
            "clocks": {"mode": "none"},
            "sensors": {"camera": "still:photos", "fusion": "camera", "settle_ms": 0},
            "web": {"enabled": False},
        }
        try:
            self.config = parse_config(data, source="<replay>")
        except ConfigError as exc:
            self.close()
            flag = {"game.players": "--players", "game.edition": "--tiles", "game.lexicon": "--lexicon"}
            raise ReplayError(f"{flag.get(exc.key, exc.key)}: {exc.reason}") from None
        try:
            self.lexicon: Any = EveryWord()
            if lexicon:
                from referee.parts import load_lexicon

                self.lexicon = load_lexicon(self.config)
            self._open_camera(calibration, model, tiles)
        except ConfigError as exc:
            self.close()
            raise ReplayError(f"--lexicon: {exc.reason}") from None
        except RefereeError as exc:
            self.close()
            raise ReplayError(str(exc)) from None

    def _open_camera(self, calibration: str | Path | None, model: str | Path | None, tiles: str) -> None:
        from referee.sensors import CameraPort
        from vision import BoardReader, Calibration, TileClassifier
        from vision.registration import calibrate_file
        from vision.shipped import shipped_classifier
        from vision.sources import StillSource

        if calibration is not None:
            self.calibration = Calibration.load(calibration)
        else:
            self.calibration = calibrate_file(self.photos[0])  # the board must be found in the first photo
        self.classifier = TileClassifier.load(model) if model else shipped_classifier(tiles)
        self.source = StillSource()
        self.camera = CameraPort(self.source, BoardReader(self.calibration, self.classifier))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.state_dir.cleanup()

    # --- the game ---------------------------------------------------------------------------------

    def pregame(self) -> int:
        """How many of the first photos come before the game: the photos up to the first one of an empty board,
        when every photo before it shows tiles that a later photo no longer shows (name tiles laid out before
        the start). A photo whose tiles all stay in the next one is a play, and none is before the game then.
        Read with a reader of its own, so the table's reader sees each photo once, in order."""
        from vision import BoardReader
        from vision.images import read_image

        look = BoardReader(self.calibration, self.classifier)
        before: set[str] | None = None
        for i, path in enumerate(self.photos):
            reading = look.read(read_image(path))
            if reading.occluded:
                return 0
            tiles = {sq for sq, r in reading.squares.items() if r.occupied}
            if not tiles:
                return i + 1
            if before is not None and before <= tiles:
                return 0
            before = tiles
        return 0

    def run(self) -> ReplayResult:
        from referee.service import ServiceParts, TableService

        started = time.perf_counter()
        self.clock = ManualTime()
        service = TableService(ServiceParts(config=self.config, lexicon=self.lexicon, camera=self.camera, web=False,
                                            camera_interval_s=3600.0, monotonic=self.clock))
        self.service = service
        turns: list[Turn] = []
        try:
            first = self.pregame()
            if first:
                # The table sees the board the game starts on; the name tiles before it are no business of the
                # table's (tiles the journal does not know would read as a journal behind the board).
                self._show(self.photos[first - 1])
            turns += [Turn(path.name, 0, "pregame") for path in self.photos[:first]]
            self._start()
            turns += [self._turn(path, number) for number, path in enumerate(self.photos[first:], start=1)]
            turns += self._finish()
            gcg = service.table.gcg()
        finally:
            service.close()
            self.close()
        return ReplayResult(turns, gcg, time.perf_counter() - started)

    def _show(self, path: Path) -> None:
        self.clock.now += PHOTO_S
        self.source.show(path)
        self.service.look()

    def _snap(self) -> dict[str, Any]:
        return dict(self.service.table.snapshot())

    def _start(self) -> None:
        table = self.service.table
        try:
            table.control("start", {})
        except RefereeError as exc:  # the pre-game photo still shows tiles: the game cannot start
            raise ReplayError(f"{self.photos[0].parent}: the game cannot start: {exc}") from None

    def _on_turn(self) -> int:
        with self.service.table.reading() as now:
            return now.on_turn

    def _turn(self, path: Path, number: int) -> Turn:
        table = self.service.table
        self._show(path)
        snap = self._snap()
        if snap["state"] == "blank":  # still asking about an earlier turn: pressing does nothing there
            turn = Turn(path.name, number, "asked", snap["players"][self._on_turn()]["name"])
            turn.questions = _questions(snap) or [Question("", "the table still asks about an earlier turn")]
            turn.notes.append("the table still asks about an earlier turn")
            return turn
        if snap["state"] == "challenge" and _lifted(snap) & set(snap.get("last_play") or ()):
            return self._challenge(path, number, snap)
        if snap["state"] == "challenge":
            # No new tiles in this photo (a pass or an exchange): the window runs out before the next press.
            self.clock.now += self.config.game.challenge_window_s + PHOTO_S
            table.poll()
        before = len(self._snap()["moves"])
        player = self._on_turn()
        name = self.config.game.players[player]
        if not self.service.commit(player):
            why = f"the camera does not trust this photo ({self.camera.blind}); the play is not read"
            return Turn(path.name, number, "asked", name, questions=[Question("", why)])
        notes: list[str] = []
        snap = self._snap()
        if snap["state"] == "blank":
            notes = self._pin_blanks()
            snap = self._snap()
        questions = _questions(snap) if snap["state"] in ("blank", "turn") else []
        if snap["state"] == "blank":
            notes += self._go_on()
            snap = self._snap()
        moves = snap["moves"][before:]
        if questions and moves and moves[0]["kind"] == "play":  # asked, then gone on with a guess
            move = moves[0]
            return Turn(path.name, number, "asked", name, move["notation"], list(move["words"]), move["score"],
                        move["total"], questions=questions, notes=notes, tiles=_laid(snap))
        if questions or not moves:
            return Turn(path.name, number, "asked", name, questions=questions or [Question(
                "", f"the table did not take the turn (state {snap['state']})")], notes=notes)
        move = moves[0]
        if move["kind"] == "play":
            return Turn(path.name, number, "scored", name, move["notation"], list(move["words"]), move["score"],
                        move["total"], notes=notes, tiles=_laid(snap))
        return Turn(path.name, number, "pass", name, move["notation"], [], move["score"], move["total"], notes=notes)

    def _pin_blanks(self) -> list[str]:
        """Name each blank the lexicon pins, as a player would on the page; the others stay asked."""
        table = self.service.table
        with table.reading() as now:
            options = now.blank_letters()
        notes = []
        for sq, letters in options.items():
            if len(letters) == 1:
                table.control("blank", {"square": sq, "letter": letters[0]})
                notes.append(f"blank {sq} = {letters[0]}: the one letter the lexicon leaves")
            elif letters:
                notes.append(f"blank {sq}: the lexicon leaves {', '.join(letters)}")
            else:
                notes.append(f"blank {sq}: no letter makes every word one of the lexicon's")
        return notes

    def _go_on(self) -> list[str]:
        """After a question the replay cannot settle, it goes on with a guess, said on the turn's line, so that
        one doubt does not hold up the rest of the game: a doubtful letter is the camera's own best reading, a
        blank the first letter the lexicon leaves it. The turn stays asked (the exit status says so), and the
        record holds the guess. A blank no letter of the lexicon fits is not guessed: the table keeps asking."""
        table = self.service.table
        notes: list[str] = []
        seen = self.camera.last or {}
        with table.reading() as now:
            pending = now.state
        snap = self._snap()
        for sq in (snap["pending"].get("letters") or []) if pending == "blank" else []:
            guess = seen[sq].letter if sq in seen else None
            if guess and guess != "?":
                table.control("correct", {"square": sq, "letter": guess})
                notes.append(f"went on with the camera's guess {guess} for {sq}")
        snap = self._snap()
        if snap["state"] == "blank":
            with table.reading() as now:
                options = now.blank_letters()
            for sq, letters in options.items():
                if letters:
                    table.control("blank", {"square": sq, "letter": letters[0]})
                    notes.append(f"blank {sq} = {letters[0]}: " + (
                        "the one letter the lexicon leaves, given the guess above" if len(letters) == 1 else
                        f"went on with the first of {', '.join(letters)}"))
        return notes

    def _challenge(self, path: Path, number: int, snap: dict[str, Any]) -> Turn:
        """The tiles of the play just made are gone: it was challenged off. The next player challenges."""
        table = self.service.table
        challenger = self._on_turn()
        before = len(snap["moves"])
        last = snap["moves"][-1]
        player = self.config.game.players[last["player"]]
        table.control("challenge", {"player": challenger})
        snap = self._snap()
        moves = snap["moves"][before:]
        if moves and moves[0]["kind"] == "withdrawn":
            m = moves[0]
            return Turn(path.name, number, "withdrawn", player, last["notation"], list(last["words"]), m["score"],
                        m["total"], notes=[f"challenged by {self.config.game.players[challenger]}"])
        why = (f"the photo shows {last['notation']} taken off, but the lexicon holds "
               f"{', '.join(last['words'])}: the play stands")
        return Turn(path.name, number, "asked", player, last["notation"], list(last["words"]),
                    questions=[Question(sq, why) for sq in sorted(_lifted(snap))[:1]] or [Question("", why)])

    def _finish(self) -> list[Turn]:
        """The last play's window runs out; at the end, the tiles left on the one rack not emptied are the tiles
        no photo shows."""
        table = self.service.table
        snap = self._snap()
        if snap["state"] == "challenge":
            self.clock.now += self.config.game.challenge_window_s + PHOTO_S
            table.poll()
            snap = self._snap()
        if snap["state"] != "racks":
            return []
        before = len(snap["moves"])
        needed = snap["pending"].get("racks") or []
        left = snap["unseen"]
        if len(needed) != 1 or snap["bag"] != 0 or len(left) != snap["players"][needed[0]]["rack_count"]:
            return [Turn("end", 0, "asked", questions=[Question("", "the tiles left on the racks at the end")])]
        table.control("racks", {"player": needed[0], "tiles": left})
        out = []
        for m in self._snap()["moves"][before:]:
            out.append(Turn("end", 0, "end", self.config.game.players[m["player"]], m["notation"], [],
                            m["score"], m["total"]))
        return out


def _few(squares: str, most: int = 8) -> str:
    """`A1, A2, ... and 30 more`: a long list of squares cut for a line."""
    names = squares.split(", ")
    return squares if len(names) <= most else ", ".join(names[:most]) + f" and {len(names) - most} more"


def _laid(snap: dict[str, Any]) -> dict[str, str]:
    """The tiles of the play just scored, from the table's snapshot (its last play's squares on its board)."""
    from game.squares import Square

    out = {}
    for sq in snap.get("last_play") or ():
        s = Square.from_str(sq)
        out[sq] = snap["board"][s.row][s.col]
    return out


def _lifted(snap: dict[str, Any]) -> set[str]:
    return {sq for a in snap["alerts"] if a["code"] == "tile_moved" for sq in a["squares"]}


def _questions(snap: dict[str, Any]) -> list[Question]:
    """What the table asks now: its alerts that wait for a person (a blank, a doubtful letter, a refused play)."""
    out: list[Question] = []
    for a in snap["alerts"]:
        if a["code"] in ("blank_letter", "doubtful_letter") or a["level"] == "error":
            out.append(Question(", ".join(a["squares"]), a["text"]))
    return out


def replay(photos: Sequence[str | Path], players: Sequence[str], **options: Any) -> ReplayResult:
    """Replay photos (files or folders) as one game; `ReplayError` on bad input."""
    return Replay(photo_paths(photos), players, **options).run()


def json_lines(result: ReplayResult) -> Iterator[str]:
    for turn in result.turns:
        yield json.dumps(turn.to_json(), ensure_ascii=False)


@dataclass(frozen=True)
class RecordedPlay:
    """A play of a record as the engine replays it: who, the tiles laid (`H8=D`, lowercase a blank), the
    words, the score."""

    player: int
    tiles: tuple[str, ...]
    words: tuple[str, ...]
    score: int

    def transposed(self) -> RecordedPlay:
        """The same play with rows and columns swapped (ScrabScrap writes `H4` for row H, column 4)."""
        from game.squares import Square

        def swap(tile: str) -> str:
            sq, _, ch = tile.partition("=")
            s = Square.from_str(sq)
            return f"{Square(s.col, s.row)}={ch}"

        return RecordedPlay(self.player, tuple(sorted(swap(t) for t in self.tiles)), self.words, self.score)


def recorded_plays(gcg: str, tiles: str = "german") -> list[RecordedPlay]:
    """The plays of a GCG record (withdrawn ones included: they were on the board), replayed by the engine."""
    from game.events import EventKind
    from game.gcg import parse_gcg
    from game.gcg_check import replay_record
    from game.rules import german, naspa

    game, _ = replay_record(parse_gcg(gcg), german() if tiles == "german" else naspa())
    if game is None:
        return []
    return [RecordedPlay(e.player, tuple(sorted(f"{p.square}={p.tile}" for p in e.placements)), tuple(e.words),
                         e.delta) for e in game.events if e.kind is EventKind.PLAY]


def compare_plays(ours: Sequence[RecordedPlay], record: Sequence[RecordedPlay]) -> tuple[int, list[str]]:
    """How many of the record's plays the replay reproduced (same player, tiles, score, in order), and the
    differences in words. A record whose squares are the transpose of the photos' (ScrabScrap's without
    `#orientation lettered-rows`) is compared transposed when that matches more plays."""
    def matched(theirs: Sequence[RecordedPlay]) -> int:
        return sum(a == b for a, b in zip(ours, theirs, strict=False))

    flipped = [p.transposed() for p in record]
    theirs = flipped if matched(flipped) > matched(record) else list(record)
    out = []
    for k, want in enumerate(theirs):
        got = ours[k] if k < len(ours) else None
        if got != want:
            out.append(f"play {k + 1}: the record has {'/'.join(want.words)} {want.score:+d} ({' '.join(want.tiles)}), "
                       f"the replay {'/'.join(got.words) + f' {got.score:+d}' if got else 'nothing'}")
    return matched(theirs), out
