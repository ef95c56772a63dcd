"""Reading a frame: which squares hold a tile, which letter, how sure, and whether to trust the frame at all.

Per square, in order:
1. Occupancy from the share of tile-face pixels (pale, unsaturated) in the middle of the square. Board
   squares are saturated colours, so the two are far apart on real boards; a share in between is doubt.
2. Something foreign: an empty-looking square whose colour is far from the colour that square had in the
   calibration frame, or a tile-looking square that is too dark or half covered (a hand, a shadow, a tile
   in motion). Such squares and their neighbours are uncertain, and the whole frame is `occluded`.
3. A tile with no glyph is a blank (`?`); otherwise the glyph-centred patch goes to the letter classifier,
   whose doubt (two letters alike, or nothing like anything taught) makes the square uncertain.
4. A blurred frame (much less fine detail than the last clear frame, `vision.blur`) is occluded with every
   square uncertain.
The board picture always carries the best guess; `uncertain` says which squares not to trust.
"""

from __future__ import annotations

import time
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

from vision import blur, cells, faces, light, orientation, parallax, recalibration
from vision.calibration import Calibration
from vision.classifier import LetterGuess, TileClassifier
from vision.geometry import ALL_SQUARES, SIZE, move_camera_hint, parse_square, premium_layout
from vision.tilesets import BLANK, EMPTY

TILE_FACE = 0.35  # share of tile-face pixels above which a square holds a tile
EMPTY_FACE = 0.12  # ... and below which it is empty; in between is doubt
MAX_COLOUR_SHIFT = 32.0  # Lab distance of an empty square from its calibration colour (light drift removed)
# ... plus this share of the square's own chroma (Lab distance from grey): a camera that saturates its
# colours more or less as the scene changes moves a saturated square further than a pale one (camera C's
# red squares moved 27-34 over game13, its green ones half as far); a hand changes a square's lightness and
# hue by far more.
CHROMA_SLACK = 0.2
SHADE = 40.0  # Lab lightness a square beside a tile may lose to the tile's shadow (see _shift_beside_tiles)
MOVED_HINT = 40  # foreign squares from which the notes suggest checking the calibration
TURN_CHECK_NOVELTY = 1.5  # tiles less unusual than this as they lie are not checked for being turned
TURN_CLEARER = 0.85  # a turned tile's novelty, as a share of its own, below which it is taken as turned
UMLAUT_TALL = 1.1  # a letter this much taller than the board's has its umlaut's dots merged into it
NOTE_SQUARES = 8  # squares named in a note before "and N more"


@dataclass(frozen=True)
class SquareReading:
    """What one square holds, as far as the camera can tell."""

    name: str  # "H8"
    occupied: bool
    letter: str  # "." empty, "?" blank tile, or the letter (the best guess, even when uncertain)
    confidence: float  # 0..1; a letter: its margin over the next letter; occupancy: 1 unless in doubt
    uncertain: bool  # do not trust this square in this frame


@dataclass
class BoardReading:
    """One frame's reading of the whole board."""

    squares: dict[str, SquareReading]
    occluded: bool  # something covers part of the board, or the frame is blurred: wait for a clear frame
    ms: float = 0.0
    notes: list[str] = field(default_factory=list)  # why, in words
    # Squares outside the frame (a camera that cuts the grid's edge): nothing is known of them, not even
    # whether they are empty. They are also `uncertain`; their letter in `board` is "." only for the format.
    unseen: list[str] = field(default_factory=list)

    @property
    def board(self) -> list[str]:
        """15 strings, top row first, in the characters of labels.json."""
        return ["".join(self.squares[ALL_SQUARES[r * SIZE + c]].letter for c in range(SIZE)) for r in range(SIZE)]

    @property
    def uncertain(self) -> list[str]:
        return [name for name in ALL_SQUARES if self.squares[name].uncertain]

    def to_json(self, image: str = "") -> dict[str, object]:
        """The stable JSON line of `referee vision read --json` (`unseen` only when the frame cuts the grid)."""
        out: dict[str, object] = {
            "image": image,
            "board": self.board,
            "occluded": self.occluded,
            "uncertain": self.uncertain,
            "ms": round(self.ms, 2),
        }
        if self.unseen:
            out["unseen"] = list(self.unseen)
        return out


class BoardReader:
    """Reads frames of one fixed camera. Give it the camera's calibration and a letter classifier.

    With `recalibrate` (the default), a camera bumped mid-game is found again on the frame itself: see
    `vision.recalibration`. `recalibrations` counts the grids it switched to.
    """

    def __init__(self, calibration: Calibration, classifier: TileClassifier, *, recalibrate: bool = True) -> None:
        self.classifier = classifier
        self.recalibrate = recalibrate
        self.recalibrations = 0
        self.tiles: dict[str, str] = {}  # the tiles read clearly so far: square -> letter ("?" a blank)
        self._wait = 0  # frames to read before looking for the grid again
        self._foreign: set[int] = set()  # squares that looked foreign in the last frame read
        # The camera's lift (see `vision.parallax`): how far the tiles' top faces lie out from the board's
        # grid; measured on the frames' own tiles, again whenever half as many more tiles are down.
        self.lift = float(calibration.extra.get("lift", 0.0) or 0.0)
        self._lift_measured = False
        self._use(calibration)

    def _use(self, calibration: Calibration) -> None:
        """Read with `calibration` from now on (at start, and once the tiles have settled the orientation)."""
        self.calibration = calibration
        self.settled = orientation.is_settled(calibration)
        self._matrix = calibration.matrix
        self._foot = parallax.foot(calibration)
        # Squares the frame cuts: reported unseen, never read (their pixels are not in the frame).
        self._seen = calibration.visible()
        self._unseen = [ALL_SQUARES[i] for i in np.flatnonzero(~self._seen)]
        extra = calibration.extra
        refs = extra.get("empty_colours")
        refs = refs if isinstance(refs, list) and len(refs) == SIZE * SIZE else [None] * (SIZE * SIZE)
        self._known = np.array([r is not None for r in refs])
        self._refs = np.array([r if r is not None else (0.0, 0.0, 0.0) for r in refs], np.float32)
        # Squares hidden by a tile at calibration borrow the mean colour of their premium kind (standard layout).
        kinds = np.array(list("".join(premium_layout())))
        self._has_ref = self._known.copy()
        for kind in np.unique(kinds):
            seen, unseen = (kinds == kind) & self._known, (kinds == kind) & ~self._known
            if seen.any():
                self._refs[unseen] = self._refs[seen].mean(axis=0)
                self._has_ref |= unseen
        self._max_shift = MAX_COLOUR_SHIFT + CHROMA_SLACK * np.hypot(self._refs[:, 1] - 128, self._refs[:, 2] - 128)
        self._light = extra.get("light")
        self._lamp_checked = False
        # The faces' own light (`vision.faces`), measured on every frame with lettered tiles and followed
        # from frame to frame; in the board's coordinates, so it starts afresh with a new grid.
        self._faces = faces.Follower()
        value = extra.get("board_value")
        self._board_value = float(value) if isinstance(value, (int, float)) else 0.0
        sharp = extra.get("sharpness")
        self._detail = blur.Detail(float(sharp) if isinstance(sharp, (int, float)) else 2.2)

    def _settle(self, frame: np.ndarray) -> str:
        """Settle which way round the board lies from the tiles of `frame`, if they are enough and agree.

        Returns a note when the frame has tiles but the orientation is still open (their letters are then
        read as the camera sees them, and not trusted), else "".
        """
        rect = light.apply(cells.rectify(frame, self._matrix), self._light)
        seen_faces = self._faces.kept or faces.measure(rect, self._seen)
        stats = cells.colour_stats(rect, cells.planes(rect, self._board_value, seen_faces))
        tiles = [i for i in range(SIZE * SIZE) if stats[i, 0] >= TILE_FACE and self._seen[i]]
        if not tiles:
            return ""
        verdict = orientation.vote(rect, tiles, self.classifier, self._board_value, seen_faces)
        if verdict.sure:
            self._use(orientation.turn(self.calibration, verdict.quarters))
            return ""
        return (
            f"which way round the board lies is not settled yet: {len(tiles)} tile(s) do not tell "
            "(the letters are read as the camera sees them until more tiles are down)"
        )

    def read(self, frame: np.ndarray, where: str = "frame") -> BoardReading:
        """Read one frame; when it shows the camera moved, find the grid again (see `vision.recalibration`)."""
        start = time.perf_counter()
        reading = self._read(frame, where)
        if self.recalibrate:
            reading = self._watch(frame, where, reading)
        reading.ms = (time.perf_counter() - start) * 1000.0
        return reading

    def _watch(self, frame: np.ndarray, where: str, reading: BoardReading) -> BoardReading:
        """Remember the tiles of clear frames; on a frame that looks moved, look for the grid again."""
        letters = {n: sq.letter for n, sq in reading.squares.items() if sq.occupied}
        doubted = set(reading.uncertain)
        lost = recalibration.lost_tiles(self.tiles, letters, doubted)
        many_lost = len(self.tiles) >= recalibration.MIN_KNOWN and 2 * len(lost) >= len(self.tiles)
        if not recalibration.looks_moved(self._foreign) and not many_lost:
            if not reading.occluded:
                self._remember(reading)
            return reading
        if self._wait > 0:
            self._wait -= 1
            return _doubted(reading, "the camera may have moved; looking for the board again in a few frames")
        from vision.errors import BoardNotFoundError
        from vision.registration import calibrate

        try:
            found = calibrate(frame, where=where)
        except BoardNotFoundError as exc:
            self._wait = recalibration.RETRY_FRAMES
            return _doubted(reading, f"the camera may have moved, and the board is not found again yet: {exc}")
        quarters, distance = recalibration.moved_by(self.calibration, found)
        if distance < recalibration.NOT_MOVED:
            # The same grid: a hand or a sleeve, or tiles taken back; nothing to mend.
            self._wait = recalibration.RETRY_FRAMES
            if not reading.occluded:
                self._remember(reading)
            return reading
        turns = [0] if found.method == "aruco" else [quarters] + [q for q in range(4) if q != quarters]
        best: tuple[Calibration, BoardReading, recalibration.TileCheck] | None = None
        for q in turns:
            candidate = orientation.turn(found, q) if found.method != "aruco" else found
            trial = BoardReader(candidate, self.classifier, recalibrate=False)
            seen = trial._read(frame, where)
            check = recalibration.check_tiles(
                self.tiles, {n: sq.letter for n, sq in seen.squares.items() if sq.occupied}, set(seen.unseen)
            )
            if best is None or len(check.differ) < len(best[2].differ):
                best = (candidate, seen, check)
            if check.same:
                break
            if not self.tiles and not seen.occluded and not any(sq.occupied for sq in seen.squares.values()):
                best = (found, seen, check)  # an empty board: no tile to misplace, its turn is settled later
                break
        assert best is not None
        candidate, seen, check = best
        empty_board = not self.tiles and not any(sq.occupied for sq in seen.squares.values())
        if not (check.same or empty_board) or seen.occluded:
            self._wait = recalibration.RETRY_FRAMES
            why = (
                f"{len(check.differ)} of the {check.checked} known tile(s) do not read the same there "
                f"({_names(list(check.differ))})" if check.checked else
                "no tile read before can be checked there" if not seen.occluded else
                "the board found again is not clear yet"
            )
            return _doubted(reading, f"the camera moved by about {distance:.1f} squares; the grid found again "
                                     f"is not used: {why}; waiting for a frame that shows the board as it was")
        self._use(candidate if not empty_board else found)
        self.recalibrations += 1
        seen.notes.insert(0, f"the camera moved by about {distance:.1f} squares; calibrated again on this "
                             f"frame ({check.checked} known tile(s) read where they were)")
        if not seen.occluded:
            self._remember(seen)
        return seen

    def remember(self, tiles: Mapping[str, str]) -> None:
        """Take `tiles` (square -> letter, "?" a blank) as the tiles known to lie on the board, e.g. the game's
        committed tiles when a table restarts mid-game: a bump before the first clear frame can then be
        checked against them instead of waiting for a human."""
        for name, letter in tiles.items():
            parse_square(name)  # a wrong name is an error here, not a tile that never matches
            if len(letter) != 1:
                raise ValueError(f"{name}: {letter!r} is not one letter")
        self.tiles = dict(tiles)

    def _remember(self, reading: BoardReading) -> None:
        """The tiles of a clear frame, to check a grid found again against. A remembered tile on a square this
        frame does not show, or shows occupied but doubted, stays remembered."""
        unseen = set(reading.unseen)
        kept = {
            sq: letter
            for sq, letter in self.tiles.items()
            if sq in unseen or (reading.squares[sq].occupied and reading.squares[sq].uncertain)
        }
        sure = {n: sq.letter for n, sq in reading.squares.items() if sq.occupied and not sq.uncertain}
        self.tiles = {**kept, **sure}

    def _read(self, frame: np.ndarray, where: str) -> BoardReading:
        """One frame read with the calibration in use (no search for a moved grid)."""
        start = time.perf_counter()
        self.calibration.check_frame(frame, where)
        unsettled = "" if self.settled else self._settle(frame)
        raw = cells.rectify(frame, self._matrix)
        if not self._lamp_checked:
            self._check_lamp(raw)
        rect = light.apply(raw, self._light)
        face_light = self._faces.offer(faces.measure(rect, self._seen))
        pl = cells.planes(rect, self._board_value, face_light)
        stats = cells.colour_stats(rect, pl)
        top_pl, stats, lab = self._boxes(frame, rect, pl, stats, face_light)
        results: dict[str, SquareReading] = {}
        foreign = self._occupancy(lab, stats, results)
        tiles = [i for i, name in enumerate(ALL_SQUARES) if name not in results]
        foreign |= self._letters(top_pl, stats, tiles, results)
        self._foreign = set(foreign)
        notes = []
        if foreign:
            self._spread_doubt(foreign, results)
            names = _names([ALL_SQUARES[i] for i in sorted(foreign)])
            notes.append(f"something covers or changed {len(foreign)} square(s): {names}")
            if len(foreign) >= MOVED_HINT:
                notes.append(
                    "so many squares changed colour that the camera or the board may have moved; "
                    "check with vision.registration.check_alignment or calibrate again"
                )
        sharp = cells.sharpness(pl.gray)
        limit = self._detail.limit
        blurred = self._detail.smeared(sharp)
        if blurred:
            # A smeared frame (the camera or the table bumped, a tile in flight): nothing in it is trusted.
            notes.append(f"motion blur: sharpness {sharp:.2f}, below {limit:.2f} (the last clear frame's "
                         f"{self._detail.reference:.2f})")
            results = {n: SquareReading(n, r.occupied, r.letter, 0.0, True) for n, r in results.items()}
        if unsettled:
            notes.append(unsettled)
            results = {
                n: SquareReading(n, r.occupied, r.letter, 0.0, True) if r.occupied else r for n, r in results.items()
            }
        if self._unseen:
            edges = self.calibration.cut_edges()
            notes.append(
                f"{len(self._unseen)} square(s) outside the frame are unseen (not known to be empty): "
                f"{_names(self._unseen)}; {move_camera_hint(edges)}"
            )
        ms = (time.perf_counter() - start) * 1000.0
        self._faces.settle(clear=not (foreign or blurred))
        if not (foreign or blurred):
            self._detail.clear(sharp)
        return BoardReading(
            results, occluded=bool(foreign) or blurred, ms=ms, notes=notes, unseen=list(self._unseen)
        )

    def _check_lamp(self, raw: np.ndarray) -> None:
        """Ask the game's first tiles whether the calibration's lamp is the light or the board's design.

        A lamp measured on a frame with few tiles or none (the empty board, three name tiles) is the board's
        colours taken for the light's; the tiles, the frame's white, tell. If taking it out leaves the first
        `parallax.MIN_TILES` tiles of the game more saturated than the camera saw them, its tone curve goes
        (camera C's board read from its name tiles: tiles at 0.24 saturation instead of 0.08), and if that is
        not enough, the lamp. The reader's own per-frame fit of the light then carries the difference."""
        if not isinstance(self._light, dict):
            self._lamp_checked = True
            return
        if int(faces.candidates(raw, self._seen).squares.sum()) < parallax.MIN_TILES:
            return
        self._lamp_checked = True
        from vision.registration import tints_tiles

        if not tints_tiles(raw, light.apply(raw, self._light)):
            return
        untoned = {**self._light, "tone": 1.0}
        self._light = None if tints_tiles(raw, light.apply(raw, untoned)) else untoned

    def _boxes(
        self, frame: np.ndarray, rect: np.ndarray, pl: cells.Planes, stats: np.ndarray,
        face_light: faces.TileLight | None,
    ) -> tuple[cells.Planes, np.ndarray, np.ndarray]:
        """The tiles as boxes: the planes to read letters on (the top faces' grid when the camera's lift
        needs it), each square's colour stats (a tile's on its top face, an empty square beside a tile on
        the part of it no neighbour's box reaches) and each square's mean Lab colour, measured alike."""
        tiles = (stats[:, 0] >= TILE_FACE) & self._seen
        if not self._lift_measured and int(tiles.sum()) >= parallax.FEW_TILES:
            # The first frame whose tiles tell it: measured on the board's own grid (lift 0); after that,
            # followed from each frame's letters as read on the top faces' grid (`_letters`).
            measured = _lift_of(cells.board_glyphs(pl, [divmod(int(i), SIZE) for i in np.flatnonzero(tiles)]),
                                self._foot, 0.0)
            if measured is not None:
                self.lift, self._lift_measured = measured, True
        top_pl, top_stats = pl, stats
        if self.lift >= parallax.USE_LIFT:
            top = light.apply(cells.rectify(frame, parallax.top_matrix(self._matrix, self._foot, self.lift)),
                              self._light)
            top_pl = cells.planes(top, self._board_value, face_light)
            top_stats = cells.colour_stats(top, top_pl)
            # A tile is pale on both grids. On the top faces' grid alone, an empty square whose outer
            # neighbour holds a tile shows that tile's side over its outer part (the side runs from the
            # tile's foot, nearer the camera's foot on this grid, up to its top face): camera C's corner
            # square N14, boxed in by two tiles, was half side and read as a blank. On the board's grid
            # that side lies over the tile's own square, and the empty square is clear.
            tiles &= (top_stats[:, 0] >= TILE_FACE) & self._seen
        lab_plane = cv2.cvtColor(rect, cv2.COLOR_BGR2LAB)
        lab = cells.per_square_mean(lab_plane, inset=0.25)
        if not tiles.any():
            return top_pl, top_stats, lab
        grid = tiles.reshape(SIZE, SIZE)
        beside = np.zeros_like(grid)
        beside[1:, :] |= grid[:-1, :]
        beside[:-1, :] |= grid[1:, :]
        beside[:, 1:] |= grid[:, :-1]
        beside[:, :-1] |= grid[:, 1:]
        beside = beside.ravel() & ~tiles
        out = stats.copy()
        out[tiles] = top_stats[tiles]
        lift = self.lift if self.lift >= parallax.USE_LIFT else 0.0
        boxes = parallax.boxes_away_from(tiles, 0.2, lift, self._foot)
        out[beside] = cells.colour_stats_in(rect, pl, boxes)[beside]
        lab[beside] = cells.per_box_mean(lab_plane, *parallax.boxes_away_from(tiles, 0.25, lift, self._foot))[beside]
        return top_pl, out, lab

    def _occupancy(self, lab: np.ndarray, stats: np.ndarray, results: dict[str, SquareReading]) -> set[int]:
        """Settle the empty and the doubtful squares in `results`; return the foreign ones. Tiles are left.

        `lab`: each square's mean Lab colour (as `cells.square_lab`, beside tiles as `_boxes` measures)."""
        # The light changes over a game (clouds, lamps): what most empty squares share is the light, not a
        # hand; only what a square changes beyond it counts.
        lab = _undo_light(lab, self._refs, self._known, stats[:, 0])
        shift = _shift_beside_tiles(lab - self._refs, stats[:, 0] >= TILE_FACE)
        foreign: set[int] = set()
        for i, name in enumerate(ALL_SQUARES):
            if not self._seen[i]:
                results[name] = SquareReading(name, False, EMPTY, 0.0, True)
                continue
            face, sat = float(stats[i, 0]), float(stats[i, 2])
            if face <= EMPTY_FACE:
                strange = shift[i] > self._max_shift[i] if self._has_ref[i] else sat < 0.2
                if strange:
                    foreign.add(i)
                results[name] = SquareReading(name, False, EMPTY, 0.0 if strange else 1.0, bool(strange))
            elif face < TILE_FACE:
                foreign.add(i)
                likely = BLANK if face > (EMPTY_FACE + TILE_FACE) / 2 else EMPTY
                results[name] = SquareReading(name, likely != EMPTY, likely, 0.0, True)
        return foreign

    def _letters(
        self, pl: cells.Planes, stats: np.ndarray, tiles: list[int], results: dict[str, SquareReading]
    ) -> set[int]:
        """Read the letter of every tile square into `results`; return the squares that look foreign."""
        foreign: set[int] = set()
        glyphs = cells.board_glyphs(pl, [divmod(i, SIZE) for i in tiles])
        if self._lift_measured:
            read_at = self.lift if self.lift >= parallax.USE_LIFT else 0.0
            measured = _lift_of(glyphs, self._foot, read_at)
            if measured is not None:
                self.lift = parallax.follow(self.lift, measured)
        lettered: list[int] = []
        patches: list[np.ndarray] = []
        heights: list[float] = []
        dots_misplaced: list[bool] = []
        dots_above: list[bool] = []
        for i in tiles:
            name = ALL_SQUARES[i]
            patch, glyph = glyphs[divmod(i, SIZE)]
            if patch is None:
                # No glyph: a blank, if the face is clean; a hand, a shadow or a smudged letter leaves doubt.
                clean = stats[i, 0] > 0.6 and glyph.height == 0.0
                results[name] = SquareReading(name, True, BLANK, 1.0 if clean else 0.3, not clean)
                if not clean:
                    foreign.add(i)
                continue
            lettered.append(i)
            patches.append(patch)
            heights.append(glyph.height)
            dots_misplaced.append(glyph.dots_misplaced)
            dots_above.append(glyph.dots_above)
        typical = float(np.median(heights)) if heights else 0.0
        stack = np.stack(patches) if patches else np.empty((0, cells.PATCH, cells.PATCH), np.uint8)
        guesses = self.classifier.predict(stack)
        tall = [k for k, h in enumerate(heights) if len(heights) >= 5 and h > cells.TALL_GLYPH * typical]
        if any(guesses[k].doubtful for k in tall):
            # A mark much taller than the board's letters, read in doubt, may be a letter merged with a tile's
            # dark edge (a corner of a tall tile's side): looked for again, cut down to the letter in it, and
            # taken if that reads sure. (A Q with its tail reads sure as it is, and is left.)
            tall = [k for k in tall if guesses[k].doubtful]
            sure = self._look_again(pl, [lettered[k] for k in tall], typical)
            for k in tall:
                if lettered[k] in sure:
                    stack[k], glyph, guesses[k] = sure[lettered[k]]
                    heights[k] = glyph.height
        merged = [
            k for k, h in enumerate(heights)
            if guesses[k].doubtful and len(heights) >= 5 and UMLAUT_TALL * typical < h <= cells.TALL_GLYPH * typical
        ]
        if merged:
            # A letter a little taller than the board's, read in doubt, may have its umlaut's dots joined to it
            # by grey pixels (game13's Ü under a dark tone curve): looked for again on the darker ink alone,
            # and taken if that reads sure (an umlaut only with its dots seen).
            sure = self._look_again(pl, [lettered[k] for k in merged], typical, strict=True)
            for k in merged:
                if lettered[k] not in sure:
                    continue
                patch, glyph, guess = sure[lettered[k]]
                if not _has_dots(guess.letter) or glyph.dots_above:
                    stack[k], guesses[k], heights[k] = patch, guess, glyph.height
                    dots_above[k], dots_misplaced[k] = glyph.dots_above, glyph.dots_misplaced
        turned = self._turned(stack, guesses)
        for k, (i, guess, height) in enumerate(zip(lettered, guesses, heights, strict=True)):
            # A glyph much bigger or smaller than the others is not a letter of this set seen cleanly.
            odd_size = len(heights) >= 5 and typical > 0 and abs(height / typical - 1.0) > 0.3
            # An umlaut read where no dots were seen above the letter (nor a letter grown tall by dots merged
            # into it) is the letter's tile edge taken for dots: on the shared photos, 3 of 186 umlauts had
            # their dots merged or lost, and a tall tile's top edge over a U read as a sure Ü.
            undotted = _has_dots(guess.letter) and not dots_above[k] and height <= UMLAUT_TALL * typical
            if undotted:
                # Read the letter alone, without the mark above it: the U under a tile's edge.
                alone = self._without_marks_above(pl, lettered[k])
                if alone is not None and not alone.doubtful and not _has_dots(alone.letter):
                    guess, undotted = alone, False
            doubt = guess.doubtful or odd_size or k in turned or dots_misplaced[k] or undotted
            name = ALL_SQUARES[i]
            results[name] = SquareReading(name, True, guess.letter, guess.confidence, doubt)
        return foreign

    def _look_again(
        self, pl: cells.Planes, squares: list[int], letter_px: float, strict: bool = False
    ) -> dict[int, tuple[np.ndarray, cells.Glyph, LetterGuess]]:
        """The letters of `squares` looked for again, knowing the board's letter height (and on the darker ink
        alone when `strict`, as `cells.find_glyph` says), and read: those that read sure, by square."""
        again = cells.board_glyphs(pl, [divmod(i, SIZE) for i in squares], letter_px, strict)
        found = [(i, patch, glyph) for i in squares for patch, glyph in [again[divmod(i, SIZE)]] if patch is not None]
        if not found:
            return {}
        guesses = self.classifier.predict(np.stack([patch for _i, patch, _g in found]))
        return {i: (patch, glyph, guess) for (i, patch, glyph), guess in zip(found, guesses, strict=True)
                if not guess.doubtful}

    def _without_marks_above(self, pl: cells.Planes, square: int) -> LetterGuess | None:
        """The letter of `square` read alone, centred on its body without the marks found above it."""
        gray, face, tile = cells.glyph_window(pl, *divmod(square, SIZE))
        glyph = cells.find_glyph(gray, face, tile, edge=cells.ON_EDGE[divmod(square, SIZE)])
        if not glyph.found or glyph.body_cy < 0:
            return None
        patch = cells.cut_glyph(gray, replace(glyph, cy=glyph.body_cy), glyph.height)
        return self.classifier.predict(patch[None])[0]

    def _turned(self, stack: np.ndarray, guesses: list[LetterGuess]) -> set[int]:
        """Indices of patches that look like a tile laid sideways or upside down.

        An upside-down A looks like a V, a sideways F like a T. A patch that, turned a quarter, a half or three
        quarters round, is clearly more like a taught tile of another letter than as it lies (the value digit
        then sits where it should) is not trusted. Only tiles that look somewhat unusual as they lie are
        turned round, to keep the cost down.
        """
        check = [k for k, g in enumerate(guesses) if g.novelty > TURN_CHECK_NOVELTY]
        if not check:
            return set()
        out: set[int] = set()
        for quarter in (1, 2, 3):
            rotated = np.ascontiguousarray(np.rot90(stack[check], quarter, axes=(1, 2)))
            for k, alt in zip(check, self.classifier.predict(rotated), strict=True):
                mine = guesses[k]
                if alt.letter != mine.letter and not alt.doubtful and alt.novelty < TURN_CLEARER * mine.novelty:
                    out.add(k)
        return out

    @staticmethod
    def _spread_doubt(foreign: set[int], results: dict[str, SquareReading]) -> None:
        """A hand is bigger than what shows: its edge may pass for a board colour (skin on a pink square), and
        the palm or a sleeve over empty squares for blank tiles (a face with no ink, of about a tile's colour).
        Every square next to a foreign one is doubtful too, and so is every blank-looking tile joined to them
        through other blank-looking tiles: a hand is one piece, and so is what it covers."""
        doubted: set[int] = set()
        todo = list(foreign)
        while todo:
            i = todo.pop()
            for r in range(i // SIZE - 1, i // SIZE + 2):
                for c in range(i % SIZE - 1, i % SIZE + 2):
                    j = r * SIZE + c
                    if not (0 <= r < SIZE and 0 <= c < SIZE) or j in doubted:
                        continue
                    doubted.add(j)
                    sq = results[ALL_SQUARES[j]]
                    if sq.occupied and sq.letter == BLANK and j not in foreign:
                        todo.append(j)  # inkless and touching the hand: the hand may go on under it
        for i in doubted:
            sq = results[ALL_SQUARES[i]]
            results[sq.name] = SquareReading(sq.name, sq.occupied, sq.letter, min(sq.confidence, 0.5), True)


def _lift_of(glyphs: Mapping[tuple[int, int], tuple[np.ndarray | None, cells.Glyph]], at: np.ndarray,
             lift: float) -> float | None:
    """The camera's lift from where the letters of `glyphs` (`cells.board_glyphs`, read on the grid of lift
    `lift`) lie in their squares (`parallax.lift_from_letters`)."""
    found = [(sq, g) for sq, (_patch, g) in glyphs.items() if g.found]
    if not found:
        return None
    squares = np.array([(c, r) for (r, c), _g in found], np.float64)
    letters = np.empty_like(squares)
    for k, ((r, c), g) in enumerate(found):
        x0, y0, _side = cells.window_box(r, c)
        letters[k] = ((x0 + g.cx) / cells.PITCH - cells.PAD, (y0 + g.cy) / cells.PITCH - cells.PAD)
    return parallax.lift_from_letters(squares, letters, at, lift)


@cache
def _has_dots(letter: str) -> bool:
    """Is `letter` written with a diaeresis (Ä, Ö, Ü)?"""
    return "\u0308" in unicodedata.normalize("NFD", letter)


def _doubted(reading: BoardReading, why: str) -> BoardReading:
    """`reading` not to be trusted as a whole (occluded), with the reason."""
    return BoardReading(reading.squares, True, reading.ms, [*reading.notes, why], reading.unseen)


def _names(shown: list[str]) -> str:
    """`H8, H9, ... and 3 more`: the first squares of a list, for a note."""
    more = f" and {len(shown) - NOTE_SQUARES} more" if len(shown) > NOTE_SQUARES else ""
    return ", ".join(shown[:NOTE_SQUARES]) + more


def _undo_light(lab: np.ndarray, refs: np.ndarray, known: np.ndarray, face: np.ndarray) -> np.ndarray:
    """`lab` (225 x 3) with the change of light since calibration taken out.

    The light's change is what most empty squares share: per Lab channel, now = gain * then + offset, fitted
    on the empty squares with a calibration colour, then refitted without the squares that fit worst (a hand
    must not bend the fit towards itself).
    """
    usable = known & (face <= EMPTY_FACE)
    if usable.sum() < 10:
        return lab
    x, y = refs[usable], lab[usable]
    keep = np.ones(len(x), bool)
    # A camera's colour processing moves the channels together (its saturation and white balance follow the
    # scene), so the change is fitted as one affine map of Lab (3 x 3 and an offset), not channel by channel:
    # a frame exposed otherwise than the calibration frame turns its red squares from orange to pink, which
    # no per-channel gain gives. With few squares, per channel only (the map would fit noise).
    # A light that changes over a game changes unevenly: the sun moves along the table, a lamp is on one
    # side. On camera C the board's far corner brightens by 31 in lightness over the game while the near
    # corner darkens by 32; one map for the whole board leaves both past `MAX_COLOUR_SHIFT`. So the map has a
    # term for the square's place as well (a plane over the board, each channel), fitted with the rest: a
    # hand changes a few squares, a plane moves all of them.
    full = usable.sum() >= 40
    ones = np.ones((len(x), 1), np.float64)
    place = _places()
    design = np.hstack([x.astype(np.float64), ones] + ([place[usable]] if full else []))
    mapping = np.vstack([np.eye(3), np.zeros((1 + (place.shape[1] if full else 0), 3))])
    for _ in range(2):
        if full:
            mapping, *_ = np.linalg.lstsq(design[keep], y[keep].astype(np.float64), rcond=None)
        else:
            for ch in range(3):
                xs, ys = x[keep, ch], y[keep, ch]
                spread = float(xs.std())
                gain = (
                    float(np.clip(((xs - xs.mean()) * (ys - ys.mean())).mean() / spread**2, 0.3, 3.0))
                    if spread > 2
                    else 1.0
                )
                mapping[:, ch] = 0.0
                mapping[ch, ch], mapping[3, ch] = gain, float(ys.mean() - gain * xs.mean())
        residual = np.linalg.norm(y - design @ mapping, axis=1)
        keep = residual <= max(float(np.percentile(residual, 75)), 1.0)
    linear, offset = mapping[:3], mapping[3]
    if abs(np.linalg.det(linear)) < 1e-3:
        return lab
    shifted = lab.astype(np.float64) - offset
    if full:
        shifted -= place @ mapping[4:]
    out: np.ndarray = shifted @ np.linalg.inv(linear)
    # What the change does to one kind of square beyond that fit (a camera's white balance moves the red
    # squares more than the green ones the fit is mostly made of): per premium kind, the median of what is
    # left over its empty squares. A hand covers a few squares of a kind, never most of them (the corners'
    # and edges' triple words lie too far apart for one hand to cover two of three).
    left = out - refs
    for kind in _kind_masks():
        mine = usable & kind
        if np.count_nonzero(mine) >= 3:  # the median of three still outvotes one square under a hand
            ordered = np.sort(left[mine], axis=0)  # the median, without np.median's overhead (a read does 5)
            out[kind] -= (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2
    undone: np.ndarray = out.astype(np.float32)
    return undone


def _shift_beside_tiles(change: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """How far each square's colour moved (225 Lab differences) from its calibration colour, in Lab units,
    forgiving the shade of standing tiles on the squares beside them.

    A tile is a box about a quarter of a square tall: beside it, the board lies in its shadow, and a camera
    that looks at it slantwise sees the tile's side and the edge of its top face over the next square. On
    the board of camera C (a lamp above one side) a green square with tiles on three sides reads 32 darker
    than when the board was empty, with its hue unchanged. So on a square with a tile next to it, darkening
    up to `SHADE` counts for nothing; a hand or a sleeve changes the hue too, and a tile side seen over the
    square brightens it, and both still count in full.
    """
    grid = tiles.reshape(SIZE, SIZE)
    beside = np.zeros_like(grid)
    beside[1:, :] |= grid[:-1, :]
    beside[:-1, :] |= grid[1:, :]
    beside[:, 1:] |= grid[:, :-1]
    beside[:, :-1] |= grid[:, 1:]
    light_change = change[:, 0].copy()
    shaded = beside.ravel() & (light_change < 0)
    light_change[shaded] = np.minimum(light_change[shaded] + SHADE, 0.0)
    out: np.ndarray = np.sqrt(light_change**2 + change[:, 1] ** 2 + change[:, 2] ** 2)
    return out


@cache
def _places() -> np.ndarray:
    """Each square's place on the board (225 x 2, column and row from -1 to 1), the light's plane's terms."""
    rows, cols = np.divmod(np.arange(SIZE * SIZE), SIZE)
    half = (SIZE - 1) / 2
    return np.stack([(cols - half) / half, (rows - half) / half], axis=1).astype(np.float64)


@cache
def _kind_masks() -> tuple[np.ndarray, ...]:
    """One mask of the 225 squares per premium kind of the standard layout."""
    kinds = np.array(list("".join(premium_layout())))
    return tuple(kinds == kind for kind in np.unique(kinds))


def combine_readings(readings: Sequence[BoardReading]) -> BoardReading:
    """One reading from several frames of a still board: per square, the letter the trusted frames agree on.

    A square stays uncertain unless a majority of frames read it with confidence and none of those disagree;
    the result is occluded only if every frame was (one clear frame is enough to see the board).
    """
    if not readings:
        raise ValueError("combine_readings: no readings to combine")
    out: dict[str, SquareReading] = {}
    for name in ALL_SQUARES:
        trusted = [r.squares[name] for r in readings if not r.squares[name].uncertain]
        votes = Counter(s.letter for s in trusted)
        if votes and len(votes) == 1 and len(trusted) * 2 > len(readings):
            letter = next(iter(votes))
            conf = float(np.mean([s.confidence for s in trusted]))
            out[name] = SquareReading(name, letter != EMPTY, letter, conf, False)
        else:
            every = Counter(r.squares[name].letter for r in readings)
            letter = (votes or every).most_common(1)[0][0]
            out[name] = SquareReading(name, letter != EMPTY, letter, 0.0, True)
    unseen = sorted({n for r in readings for n in r.unseen}, key=ALL_SQUARES.index)
    return BoardReading(
        out, occluded=all(r.occluded for r in readings), ms=sum(r.ms for r in readings), unseen=unseen
    )
