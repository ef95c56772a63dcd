"""Where the twelve dice are: in the cup, in the hand of the player to move, or on the mat.

Every die is always in exactly one place, so cup + hand + mat is always the whole set (twelve).
"Hand" is the faces the player to move has this turn: in advanced play it starts with the dice
the previous player passed on, letters up; the player then draws and rolls from the cup up to
seven in all (all that remain if fewer; never more than seven).

Rolls come from two places. In simulation a seeded `random.Random` picks the dice and their faces,
so a game replays exactly from its seed. At the real table the sensors read the faces but cannot
tell which physical die shows which face; `read` then finds dice in the cup that can show the
faces read (a matching), and only refuses a reading that no assignment of real dice explains.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from game.errors import NotOnRackError
from game.scramble.dice import DICE_PER_SET, DiceSet, Face
from game.scramble.errors import RollError
from game.squares import Square
from game.tiles import BLANK

MAX_ROLL = 7


@dataclass(frozen=True, slots=True)
class ShownDie:
    """A die out of the cup and the face it shows; `die` is its 0-based index in the set."""

    die: int
    face: Face

    def __str__(self) -> str:
        return f"{self.face}@{self.die + 1}"


@dataclass(frozen=True)
class Dice:
    """The whereabouts of every die. Immutable: each step returns a new `Dice`."""

    cup: frozenset[int] = frozenset(range(DICE_PER_SET))
    hand: tuple[ShownDie, ...] = ()
    mat: Mapping[Square, ShownDie] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "mat", MappingProxyType(dict(self.mat)))
        out = [d.die for d in self.hand] + [d.die for d in self.mat.values()]
        if len(set(out)) != len(out) or set(out) & self.cup:
            raise RollError(f"a die is in two places at once: cup {sorted(self.cup)}, out {sorted(out)}",
                            form="die_twice",
                            cup=sorted(self.cup), out=sorted(out))
        if len(self.cup) + len(out) != DICE_PER_SET:
            raise RollError(f"{len(self.cup) + len(out)} dice accounted for, a set has {DICE_PER_SET}",
                            form="dice_count",
                            count=len(self.cup) + len(out), per_set=DICE_PER_SET)

    def __deepcopy__(self, memo: dict[int, object]) -> Dice:
        """Immutable: a game snapshot (for a phony taken back) shares it."""
        return self

    @property
    def rack(self) -> str:
        """The letters in hand as a GCG rack (`?` for a blank), in hand order: passed on first, then rolled."""
        return "".join(d.face.letter for d in self.hand)

    def to_draw(self) -> int:
        """How many dice the player draws from the cup now: up to seven in hand, all that remain if fewer."""
        return max(0, min(MAX_ROLL - len(self.hand), len(self.cup)))

    def roll(self, dice_set: DiceSet, rng: random.Random) -> Dice:
        """Draw `to_draw()` dice from the cup at random and roll them (simulation)."""
        drawn = rng.sample(sorted(self.cup), self.to_draw())
        shown = tuple(ShownDie(i, rng.choice(dice_set.dice[i].faces)) for i in drawn)
        return Dice(self.cup - set(drawn), self.hand + shown, self.mat)

    def read(self, dice_set: DiceSet, faces: Sequence[Face | str], *, exact: bool = True,
             dice: Sequence[int] | None = None) -> Dice:
        """The faces the sensors read on the dice just rolled (not those passed on).

        Refuses a reading of the wrong size (the player must roll exactly `to_draw()` dice) or one
        that the dice in the cup cannot show. If the cup cannot explain it because an earlier reading
        was matched to the wrong physical dice, the dice out of the cup are re-identified as a whole.
        `exact=False` accepts fewer faces than dice rolled: a record that gives no rack names only the
        faces played, and the other dice rolled stay unknown (in the cup).
        `dice`: which die (0-based) shows each face, when the sensors know (a coded dice tray reads each die's
        number): taken as they are when they are distinct dice in the cup that have those faces, so the cup is
        the one on the table; otherwise the faces are matched as without.
        """
        read = [f if isinstance(f, Face) else Face.from_str(f) for f in faces]
        if len(read) > self.to_draw() or (exact and len(read) != self.to_draw()):
            raise RollError(
                f"{len(read)} dice read, but the player rolls {self.to_draw()} "
                f"({len(self.hand)} in hand, {len(self.cup)} in the cup, never more than {MAX_ROLL} in all)",
                form="roll_count", read=len(read), to_draw=self.to_draw(), hand=len(self.hand), cup=len(self.cup),
                max=MAX_ROLL,
            )
        for face in read:
            if not any(face in die.faces for die in dice_set.dice):
                raise RollError(f"no die of the set {dice_set.name!r} has the face {face}", form="no_face",
                                dice_set=dice_set.name, face=str(face))
        if (dice is not None and len(dice) == len(read) and len(set(dice)) == len(dice) and set(dice) <= self.cup
                and all(f in dice_set.dice[d].faces for d, f in zip(dice, read, strict=True))):
            shown = tuple(ShownDie(i, f) for i, f in zip(dice, read, strict=True))
            return Dice(self.cup - set(dice), self.hand + shown, self.mat)
        ids = match_faces(dice_set, read, sorted(self.cup))
        if ids is not None:
            shown = tuple(ShownDie(i, f) for i, f in zip(ids, read, strict=True))
            return Dice(self.cup - set(ids), self.hand + shown, self.mat)
        # Re-identify every die out of the cup together with the new reading.
        squares = list(self.mat)
        old = [d.face for d in self.hand] + [self.mat[s].face for s in squares]
        every = match_faces(dice_set, old + read, range(DICE_PER_SET))
        if every is None:
            wanted = " ".join(str(f) for f in read)
            raise RollError(f"the dice left in the cup cannot show {wanted}", form="cup_cannot_show",
                            wanted=str(wanted))
        n_hand = len(self.hand)
        hand = tuple(ShownDie(i, f) for i, f in zip(every[:n_hand], old[:n_hand], strict=True))
        mat = {s: ShownDie(i, f) for s, i, f in zip(squares, every[n_hand : len(old)], old[n_hand:], strict=True)}
        new = tuple(ShownDie(i, f) for i, f in zip(every[len(old) :], read, strict=True))
        return Dice(frozenset(range(DICE_PER_SET)) - set(every), hand + new, mat)

    def place(self, placements: Iterable[tuple[Square, str]], forced_from: DiceSet | None = None) -> Dice:
        """Move dice from the hand to the mat. Each placement names the rack letter it uses (`?` for a
        blank face, whatever letter the blank is played as).

        `forced_from`: a play forced past the rules (a director's ruling) may use a letter not in hand;
        it is then taken from a die in the cup that has that face (or a die in hand, turned to it), so
        the dice still number twelve.
        """
        hand = list(self.hand)
        mat = dict(self.mat)
        cup = set(self.cup)
        for square, letter in placements:
            k = next((k for k, d in enumerate(hand) if d.face.letter == letter), None)
            if k is not None:
                mat[square] = hand.pop(k)
                continue
            spare: tuple[int, Face] | None = None
            if forced_from is not None:
                # a die in the cup with that face; failing that, a die in hand turned to it
                pool = sorted(cup) + [d.die for d in hand]
                faces = ((i, f) for i in pool for f in forced_from.dice[i].faces)
                spare = next(((i, f) for i, f in faces if f.letter == letter), None)
            if spare is None:
                has = "".join(d.face.letter for d in self.hand) or "no dice"
                what = "a blank" if letter == BLANK else letter
                raise NotOnRackError(f"{square}: {what} is not among the faces in hand ({has})",
                                     form="face_not_in_hand",
                                     square=str(square), face=str(what), hand=str(has))
            cup.discard(spare[0])
            hand = [d for d in hand if d.die != spare[0]]
            mat[square] = ShownDie(*spare)
        return Dice(frozenset(cup), tuple(hand), mat)

    def to_cup(self, squares: Iterable[Square] = (), hand: bool = True) -> Dice:
        """Return the dice on `squares` (and, unless `hand` is False, every die in hand) to the cup."""
        mat = dict(self.mat)
        back = {mat.pop(s).die for s in set(squares)}
        if hand:
            back |= {d.die for d in self.hand}
        return Dice(self.cup | back, () if hand else self.hand, mat)


def match_faces(dice_set: DiceSet, faces: Sequence[Face], candidates: Iterable[int]) -> list[int] | None:
    """Distinct dice among `candidates` that can show `faces` (in order), or None if there are none.

    A bipartite matching by augmenting paths; twelve dice make it instant.
    """
    pool = list(candidates)
    owner: dict[int, int] = {}  # die -> index into faces

    def assign(k: int, seen: set[int]) -> bool:
        for die in pool:
            if die in seen or faces[k] not in dice_set.dice[die].faces:
                continue
            seen.add(die)
            if die not in owner or assign(owner[die], seen):
                owner[die] = k
                return True
        return False

    for k in range(len(faces)):
        if not assign(k, set()):
            return None
    by_face = {k: die for die, k in owner.items()}
    return [by_face[k] for k in range(len(faces))]


def opening_order(faces: Sequence[Face], alphabet: str) -> list[int]:
    """Who plays first: each player rolls one die; the letter closest to A wins, a blank beats any
    letter. Returns the indices of the players tied for first (one index: that player starts; more:
    those players roll again). `alphabet` gives the letter order (German: A Ä B ... O Ö ... U Ü ...)."""
    if not faces:
        raise RollError("nobody rolled for the first play", form="nobody_rolled")

    def rank(face: Face) -> int:
        if face.is_blank:
            return -1
        if face.letter not in alphabet:
            raise RollError(f"{face.letter} is not in the alphabet {alphabet}", form="not_in_alphabet",
                            letter=face.letter,
                            alphabet=alphabet)
        return alphabet.index(face.letter)

    best = min(rank(f) for f in faces)
    return [k for k, f in enumerate(faces) if rank(f) == best]


ALPHABETS = {"en": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "de": "AÄBCDEFGHIJKLMNOÖPQRSTUÜVWXYZ"}
