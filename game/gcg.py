"""GCG game records: read and write (https://www.poslfit.com/scrabble/gcg/, v1.2, plus Woogles pragmas).

Reading is forgiving, as real records need (see ../shared/gcg/README.md):
- encodings: UTF-8 (with or without BOM), ISO-8859-1, a wrong `#character-encoding` pragma,
  DOS line ends;
- `>nick: RACK MOVE SCORE TOTAL [anything]`, with the rack missing on end-of-game lines, extra
  tokens after the total (Quackle writes the cross words there), `0` written for `+0`;
- moves: `8D WORD` / `D8 WORD` (lowercase coordinates too), `.` or the written-out letter for
  tiles played through, `-` pass, `-ABC` exchange, `-3` exchange of unknown tiles, `--` phony
  withdrawn, `(challenge)` bonus, `(time)` penalty, `(ABC)` end-of-game rack (+ gained, - lost);
- two players with one nickname (the turn order decides who is meant);
- pragmas kept as given: `#lexicon`, `#variant`, `#tile-distribution`, `#board-layout`,
  `#incomplete`, `#rack1`..., `#note` attached to the move above it;
- a director's adjustment of points: `#note adjustment NICK -10: REASON` (what `write_gcg` writes), or in
  the older form, a `(time)` or `(challenge)` line followed by `#note adjustment: REASON`.

Writing produces the canonical form from a `Game`'s score sheet.
"""

from __future__ import annotations

import codecs
import enum
import re
from dataclasses import dataclass, field

from game.errors import GCGError
from game.events import Event, EventKind
from game.squares import Position

_NUM = re.compile(r"^[+-]?\d+$")
_MAX_DIGITS = 6  # a score or a total: the highest ever played is under 2,000


def _shown(token: str, limit: int = 20) -> str:
    """A token cut short for a message: a 5,000-digit "score" must not become a 5,000-character line."""
    return token if len(token) <= limit else f"{token[:limit]}... ({len(token):,} characters)"

# A director's adjustment of points is no turn, so it has no `>` line: `write_gcg` writes it as a note of its
# own after the line it followed, `#note adjustment NICK +N: REASON`, and the totals of the lines stay the
# game's as played on the board (docs/gcg.md says why). Every GCG reader keeps a `#note` line (Macondo refuses
# a pragma it does not know); this project's reader and checker apply it as the adjustment.
ADJUSTMENT = "adjustment"
_ADJUSTMENT = re.compile(r"adjustment\s+(?P<nick>[^\s:]+)\s+(?P<points>[+-]\d{1,6}):\s*(?P<reason>.*)",
                         re.IGNORECASE)
# The older form (records written before): a `(time)` or `(challenge)` line with `#note adjustment: REASON`
# on the line after it. Still read as the adjustment it is.
ADJUSTMENT_NOTE = "adjustment:"
# The note that marks a pass line as the turn a wrong challenger lost (double challenge): Woogles writes that
# turn as a pass, and `write_gcg` does too, with `#note lost turn: ...` after it so this project's reader
# and checker know it from a real pass (a lost turn is no scoreless turn of the six that end a game).
LOST_TURN_NOTE = "lost turn:"
# A game's record has a few hundred lines at most, notes included (about 30 moves a player, a few lines of
# notes each); a file of more is no game's record, and is refused before it is read any further.
MAX_GCG_LINES = 10_000


class MoveKind(enum.Enum):
    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    WITHDRAWN = "withdrawn"
    CHALLENGE_BONUS = "challenge-bonus"
    TIME_PENALTY = "time-penalty"
    END_RACK = "end-rack"


@dataclass(frozen=True)
class GCGAdjustment:
    """A director's adjustment of points, from its note (`#note adjustment NICK +N: REASON`)."""

    line: int  # 1-based line number of the note
    nick: str
    points: int
    reason: str


def parse_adjustment(note: str, line: int) -> GCGAdjustment | None:
    """The adjustment a note states (its text after `#note `), or None when it states none."""
    m = _ADJUSTMENT.fullmatch(note.strip())
    if m is None:
        return None
    return GCGAdjustment(line, m.group("nick"), int(m.group("points")), m.group("reason").strip())


@dataclass
class GCGMove:
    """One `>` line of a record."""

    line: int  # 1-based line number in the file
    text: str  # the line as written
    nick: str
    rack: str
    kind: MoveKind
    move: str  # `8D WORD`, `-ABC`, `-3`, `(ABC)`, ...
    score: int
    total: int
    extra: str = ""
    notes: list[str] = field(default_factory=list)
    adjustments: list[GCGAdjustment] = field(default_factory=list)  # noted after this line (not a turn)

    @property
    def adjustment(self) -> str | None:
        """The reason, when this line is itself a director's adjustment of points in the older form, written as
        `(time)` or `(challenge)` with an `#note adjustment: REASON` after it; None for any other line."""
        if self.kind not in (MoveKind.TIME_PENALTY, MoveKind.CHALLENGE_BONUS):
            return None
        for note in self.notes:
            if note.lower().startswith(ADJUSTMENT_NOTE):
                return note[len(ADJUSTMENT_NOTE):].strip()
        return None

    @property
    def lost_turn(self) -> bool:
        """Whether this pass line is the turn a wrong challenger lost (`#note lost turn: ...` after it)."""
        return self.kind is MoveKind.PASS and any(n.lower().startswith(LOST_TURN_NOTE) for n in self.notes)

    @property
    def tiles(self) -> str:
        """Exchanged tiles (`-ABC` -> `ABC`) or end-of-game rack letters (`(ABC)` -> `ABC`)."""
        if self.kind is MoveKind.EXCHANGE:
            return self.move[1:]
        if self.kind is MoveKind.END_RACK:
            return self.move.strip("()")
        return ""


@dataclass
class GCGPlayer:
    number: int
    nick: str
    name: str


@dataclass
class GCGRecord:
    """A parsed record: players in turn order, pragmas, moves."""

    players: list[GCGPlayer]
    pragmas: dict[str, str]
    moves: list[GCGMove]
    encoding: str = "utf-8"
    notes: list[str] = field(default_factory=list)
    adjustments: list[GCGAdjustment] = field(default_factory=list)  # noted before the first move line

    @property
    def variant(self) -> str | None:
        return self.pragmas.get("variant")

    @property
    def incomplete(self) -> bool:
        return "incomplete" in self.pragmas


def decode_gcg(data: bytes) -> tuple[str, str]:
    """Bytes to text and the encoding used.

    A byte-order mark decides first: UTF-8, or UTF-16 (little or big endian).
    Valid UTF-8 is taken as UTF-8 whatever the pragma says (a wrong pragma is common); otherwise the
    declared encoding when Python knows it, else ISO-8859-1 (which decodes anything).
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8"), "utf-8"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # as Windows editors save "Unicode"
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            raise GCGError(f"a UTF-16 file that does not decode ({exc.reason} at byte {exc.start})",
                           form="utf16", why=exc.reason, at=exc.start) from exc
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    m = re.search(rb"^#character-encoding[ \t]+(\S+)", data, re.MULTILINE)
    if m:
        name = m.group(1).decode("ascii", "replace").strip().lower().replace("iso8859", "iso-8859")
        try:
            codecs.lookup(name)
            return data.decode(name), name
        except (LookupError, UnicodeDecodeError):
            pass
    return data.decode("iso-8859-1"), "iso-8859-1"


def _classify(token: str) -> MoveKind | None:
    """The kind of a one-token move, or None when the token is not one."""
    if token == "-":
        return MoveKind.PASS
    if token == "--":
        return MoveKind.WITHDRAWN
    if token.lower() == "(challenge)":
        return MoveKind.CHALLENGE_BONUS
    if token.lower() == "(time)":
        return MoveKind.TIME_PENALTY
    if token.startswith("(") and token.endswith(")") and len(token) > 2:
        return MoveKind.END_RACK
    if token.startswith("-") and len(token) > 1:
        return MoveKind.EXCHANGE
    return None


def _is_position(token: str) -> bool:
    try:
        Position.from_str(token)
    except ValueError:
        return False
    return True


def parse_move_line(line: str, number: int) -> GCGMove:
    """Read one `>nick: ...` line; GCGError names the line when it cannot."""
    body = line[1:]
    nick, sep, rest = body.partition(":")
    if not sep or not nick.strip():
        raise GCGError(f"line {number}: a move line needs '>nick:' ({line.strip()!r})", form="move_nick", line=number,
                       text=line.strip())
    tokens = rest.split()
    # score and total: the last pair of numbers with nothing but words after them, found from the end in one
    # pass (a scan from the front copied the rest of the line at every token: quadratic in a long line)
    at = None
    last = next((i for i in range(len(tokens) - 1, -1, -1) if _NUM.match(tokens[i])), None)
    if last is not None and last >= 1 and _NUM.match(tokens[last - 1]):
        at = last - 1
    if at is None or at == 0:
        raise GCGError(f"line {number}: no score and total found in {line.strip()!r}", form="no_score", line=number,
                       text=line.strip())
    head = tokens[:at]
    for token in tokens[at:at + 2]:
        if len(token.lstrip("+-")) > _MAX_DIGITS:  # int() of 4,301 digits raises; no score has 7
            raise GCGError(f"line {number}: {_shown(token)!r} is not a score (more than {_MAX_DIGITS} digits)",
                           form="score_digits", line=number, token=_shown(token), digits=_MAX_DIGITS)
    score, total = int(tokens[at]), int(tokens[at + 1])
    extra = " ".join(tokens[at + 2:])
    rack = ""
    if len(head) == 3:
        rack, move_tokens = head[0], head[1:]
    elif len(head) == 2 and _is_position(head[0]):
        move_tokens = head
    elif len(head) == 2:
        rack, move_tokens = head[0], head[1:]
    elif len(head) == 1:
        move_tokens = head
    else:
        raise GCGError(f"line {number}: cannot tell rack and move apart in {line.strip()!r}", form="rack_move",
                       line=number, text=line.strip())
    if len(move_tokens) == 2:
        if not _is_position(move_tokens[0]):
            raise GCGError(f"line {number}: {move_tokens[0]!r} is not a position (like 8D or D8)",
                           form="not_position",
                           line=number, token=move_tokens[0])
        kind = MoveKind.PLAY
    else:
        found = _classify(move_tokens[0])
        if found is None:
            raise GCGError(f"line {number}: {move_tokens[0]!r} is not a move", form="not_move", line=number,
                           token=move_tokens[0])
        kind = found
    return GCGMove(number, line.rstrip("\r\n"), nick.strip(), rack, kind, " ".join(move_tokens), score, total, extra)


def parse_gcg(text: str) -> GCGRecord:
    """Parse a whole record (text already decoded: see `decode_gcg`)."""
    players: dict[int, GCGPlayer] = {}
    pragmas: dict[str, str] = {}
    moves: list[GCGMove] = []
    notes: list[str] = []
    adjustments: list[GCGAdjustment] = []
    lines = text.splitlines()
    if len(lines) > MAX_GCG_LINES:
        raise GCGError(f"the record has {len(lines)} lines, more than the {MAX_GCG_LINES} a game record can need: "
                       "not a game's record", form="too_long", lines=len(lines), limit=MAX_GCG_LINES)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        if line.startswith(">"):
            moves.append(parse_move_line(line, number))
        elif line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            key = key.strip().lower()
            value = value.strip()
            m = re.fullmatch(r"player(\d+)", key)
            if m:
                nick, _, name = value.partition(" ")
                if not nick:
                    raise GCGError(f"line {number}: #{key} needs a nickname", form="player_nick", line=number,
                                   key=key)
                players[int(m.group(1))] = GCGPlayer(int(m.group(1)), nick, name.strip() or nick)
            elif key == "note":
                (moves[-1].notes if moves else notes).append(value)
                adjustment = parse_adjustment(value, number)
                if adjustment is not None:
                    (moves[-1].adjustments if moves else adjustments).append(adjustment)
            else:
                pragmas.setdefault(key, value)
        # other lines (continuations of notes in some files) are ignored
    if len(players) < 1:
        # some records have no #player lines; take the nicks in order of appearance
        for m_ in moves:
            if m_.nick not in (p.nick for p in players.values()):
                players[len(players) + 1] = GCGPlayer(len(players) + 1, m_.nick, m_.nick)
    return GCGRecord([players[k] for k in sorted(players)], pragmas, moves, notes=notes, adjustments=adjustments)


# --- writing ---------------------------------------------------------------------------------


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text: str) -> str:
    """`text` as one line of printable text: line breaks, tabs and other control characters become one
    space. What a name or pragma holds can never start a line of its own (a fake `>` move or `#` pragma)."""
    return " ".join(_CONTROL.sub(" ", text).split())


def gcg_nick(name: str, number: int) -> str:
    """A GCG nickname for a player's name: one token of printable characters without ':' (which ends the
    nickname on a move line), spaces written as `_`; `player<number>` when nothing printable is left."""
    nick = "_".join(one_line(name).replace(":", "_").split()).lstrip("#>")
    return nick or f"player{number}"


def _rack_letters(letters: str) -> str:
    """Rack letters in the order GCG writers use: letters sorted, blanks (`?`) last."""
    return "".join(sorted(letters, key=lambda c: (c == "?", c)))


def _played_tiles(event: Event) -> str:
    """The rack letters a play put down (`?` for a blank)."""
    return _rack_letters("".join(p.tile.rack_letter for p in event.placements))


def _event_line(nick: str, event: Event, events: list[Event], index: int, total: int) -> str | None:
    """One `>` line for an event, in the form GCG readers (Quackle, Macondo/Woogles) match.

    A lost turn (a wrong challenge under double challenge) is written as Woogles writes it, a pass of the
    challenger (`write_gcg` adds `#note lost turn: ...` after it), so the record has a line for every turn.

    The rack field holds what the player is known to have held: the whole rack where it is known (a
    rack entered at the table, Scramble's rolled dice), else at least the tiles played (a play, and a
    phony withdrawn or a challenge bonus after it) or exchanged. A loss of tiles at the end is written
    `RACK (RACK) -N`, a gain `(RACK) +N`, as the spec and Macondo have them.

    A director's adjustment is no turn and has no `>` line (None): `write_gcg` writes its note instead.
    `total` is the player's total as played on the board (the adjustments left out: docs/gcg.md).
    """
    if event.kind is EventKind.LOST_TURN:
        return f">{nick}: {event.rack} - +0 {total}"
    if event.kind is EventKind.ADJUSTMENT:
        return None
    rack = event.rack
    if event.kind is EventKind.PLAY:
        move = event.move
        rack = rack or _played_tiles(event)
    elif event.kind is EventKind.EXCHANGE:
        tiles = event.move.removeprefix("-")
        move = f"-{tiles}"
        if not rack and not tiles.isdigit():
            rack = _rack_letters(tiles)
    elif event.kind is EventKind.PASS:
        move = "-"
    elif event.kind in (EventKind.WITHDRAWN, EventKind.CHALLENGE_BONUS):
        move = "--" if event.kind is EventKind.WITHDRAWN else "(challenge)"
        if not rack:
            play = next((e for e in reversed(events[:index])
                         if e.kind is EventKind.PLAY and e.player == event.player), None)
            rack = (play.rack or _played_tiles(play)) if play is not None else ""
    elif event.kind is EventKind.TIME_PENALTY:
        move = "(time)"
    else:  # END_RACK
        move = event.move
        if event.delta >= 0:
            return f">{nick}: {move} {event.delta:+d} {total}"
        rack = event.move.strip("()")
    # An unknown rack leaves the field empty, two spaces wide, as Macondo writes it.
    return f">{nick}: {rack} {move} {event.delta:+d} {total}"


def write_gcg(
    players: list[str], events: list[Event], pragmas: dict[str, str] | None = None
) -> str:
    """A GCG record (UTF-8 text) from a game's players and score sheet (`Game.events`).

    Names and pragma values are written on one line each whatever they hold (see `one_line`), and two
    players whose names give the same nickname get distinct ones, so a record always reads back as the
    game it was written from.

    A director's adjustment is written as `#note adjustment NICK +N: REASON` after the line it followed, and
    the totals of the `>` lines are the game's as played on the board, without the adjustments: a reader that
    knows no adjustment (Macondo, Quackle) reads a game whose every line adds up, and this project's reader
    applies the notes and reaches the adjusted scores (docs/gcg.md, "A director's adjustment")."""
    nicks: list[str] = []
    for i, name in enumerate(players):
        nick = gcg_nick(name, i + 1)
        while nick in nicks:
            nick = f"{nick}_{i + 1}"
        nicks.append(nick)
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{i + 1} {nick} {one_line(name) or nick}"
              for i, (nick, name) in enumerate(zip(nicks, players, strict=True))]
    for key, value in (pragmas or {}).items():
        lines.append(f"#{one_line(key).replace(' ', '-')} {one_line(value)}".rstrip())
    adjusted = [0] * len(players)  # each player's adjustments so far, left out of the totals written
    for index, event in enumerate(events):
        if event.kind is EventKind.ADJUSTMENT:
            adjusted[event.player] += event.delta
            lines.append(f"#note {ADJUSTMENT} {nicks[event.player]} {event.delta:+d}: {one_line(event.note)}".rstrip())
            continue
        line = _event_line(nicks[event.player], event, events, index, event.total - adjusted[event.player])
        if line is not None:
            lines.append(line)
        if event.kind is EventKind.LOST_TURN:
            lines.append(f"#note {LOST_TURN_NOTE} a wrong challenge of the play before")
    return "\n".join(lines) + "\n"
