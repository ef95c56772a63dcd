"""The emulator in simulated time: realistic bounce on the matrix, and through the firmware and LinkCore
exactly the net changes come out - no bounce, no brushed neighbour, nothing lost across unplug/replug."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_bridge.core import LinkCore
from firmware_bridge.emulator import EmulatedBoard, InProcessLink
from firmware_bridge.errors import EmulatorCommandError, SquareNameError
from firmware_bridge.events import (
    BoardDump,
    ButtonEvent,
    DiceTray,
    Event,
    Heartbeat,
    LinkLost,
    LinkRestored,
    SquareChanged,
)


def squares(events: list[Event]) -> list[SquareChanged]:
    return [e for e in events if isinstance(e, SquareChanged)]


def started(**kwargs: object) -> InProcessLink:
    link = InProcessLink(EmulatedBoard(**kwargs))  # type: ignore[arg-type]
    events = link.advance(50)
    assert any(isinstance(e, BoardDump) for e in events)
    return link


def test_presence_board_reports_a_word_once_per_square_with_settle_times() -> None:
    link = started(seed=3, glitch=1.0)
    board = link.board
    placed = board.place_word("H8", "across", "QUIZ")
    events = link.advance(100)
    changes = squares(events)
    assert sorted(c.square for c in changes) == sorted(placed) == ["H8", "I8", "J8", "K8"]
    assert all(c.occupied and c.letter is None and not c.resync for c in changes)
    assert all(50 <= c.board_ms <= 50 + 12 for c in changes)
    assert set(link.core.picture().squares) == {"H8", "I8", "J8", "K8"}


def test_coded_board_reads_letters_and_the_blank() -> None:
    link = started(coded=True, seed=5, glitch=1.0)
    link.board.place_word("G8", "down", "ZOÖ?")
    changes = squares(link.advance(100))
    assert {(c.square, c.letter) for c in changes} == {("G8", "Z"), ("G9", "O"), ("G10", "Ö"), ("G11", "?")}
    assert link.core.picture().squares["G11"] == "?"
    assert "Z" in link.core.picture().render()


def test_buttons_and_dice_tray() -> None:
    link = started(buttons=2, slots=3, seed=1)
    link.board.press(1)
    link.board.roll(2, die=11, face=5)
    link.advance(60)
    link.board.release(1)
    link.board.clear_slot(2)
    events = link.advance(60)
    kinds = [e for e in events if isinstance(e, ButtonEvent | DiceTray)]
    assert [str(e).split(" @")[0] for e in kinds] == ["button 1 released", "tray slot 2 empty"]
    assert link.core.picture().tray == {}


def test_scripting_errors_say_what_and_where() -> None:
    board = EmulatedBoard(coded=True, buttons=2, slots=1)
    with pytest.raises(SquareNameError, match="P1 is off the board"):
        board.place("P1", "A")
    with pytest.raises(EmulatorCommandError, match="say which tile"):
        board.place("A1")
    board.place("A1", "A")
    with pytest.raises(EmulatorCommandError, match="A1 already holds a tile"):
        board.place("A1", "B")
    with pytest.raises(EmulatorCommandError, match="B2 is empty"):
        board.lift("B2")
    with pytest.raises(EmulatorCommandError, match="button 2 does not exist"):
        board.press(2)
    with pytest.raises(EmulatorCommandError, match="tray slot 4 does not exist"):
        board.roll(4, 0, 0)
    with pytest.raises(SquareNameError, match="runs off the board"):
        board.place_word("N1", "across", "WORD")
    with pytest.raises(EmulatorCommandError, match="outlast"):
        EmulatedBoard(bounce_ms=40, debounce_ms=30)


ACTIONS = st.lists(
    st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(0, 45), st.sampled_from("ABCEZ?")),
    min_size=1,
    max_size=25,
)


@settings(max_examples=25, deadline=None)
@given(ACTIONS, st.integers(0, 2**16), st.booleans())
# A tile swapped for another on a coded board within the debounce: A1 reports the A, then the C that held.
@example([(0, 0, 0, "A"), (0, 0, 0, "A"), (0, 0, 33, "A"), (0, 0, 0, "A"), (0, 0, 0, "C")], 0, True)
def test_random_play_yields_exactly_the_net_changes(actions, seed: int, coded: bool) -> None:  # type: ignore[no-untyped-def]
    """Tiles go down and come up at random moments on a 9x9 mat with bounce and brushed neighbours:
    every settled change is reported once, in order per square, and no bounce ever leaks. A change is of
    what the square holds: on a coded board a tile swapped for another is one (occupied both times)."""
    link = started(width=9, height=9, coded=coded, seed=seed, glitch=0.5)
    board = link.board
    expected: list[tuple[str, bool]] = []
    events: list[Event] = []
    for row, col, gap, letter in actions:
        name = f"{'ABCDEFGHI'[col]}{row + 1}"
        before = board.occupied().get(name)
        if before:
            board.lift(name)
            expected.append((name, False))
        else:
            board.place(name, letter if coded else None)
            expected.append((name, True))
        # Changes closer than the debounce on one square merge: the firmware reports what held.
        events += link.advance(gap)
    events += link.advance(100)
    got = [(c.square, (c.occupied, c.letter)) for c in squares(events)]
    assert not any(c.resync for c in squares(events))
    # Nothing for a square nobody touched (brushed neighbours), never more reports than real changes,
    # and per square the reports alternate and end in the physical state.
    assert {n for n, _ in got} <= {n for n, _ in expected}
    for name in {n for n, _ in expected}:
        mine = [occ for n, occ in got if n == name]
        assert len(mine) <= sum(1 for n, _ in expected if n == name)
        assert all(a != b for a, b in itertools.pairwise(mine)), (name, mine)
        assert (mine[-1][0] if mine else False) == (name in board.occupied()), name
    assert set(link.core.picture().squares) == set(board.occupied())


def test_unplug_and_replug_mid_game_loses_no_change() -> None:
    link = started(coded=True, seed=9)
    board = link.board
    board.place_word("H8", "across", "CAT")
    link.advance(100)
    board.place("H9", "A")  # placed, and the cable pulled while it still bounces
    board.advance(3)
    board.unplug()
    events = link.advance(200)
    assert any(isinstance(e, LinkLost) for e in events)
    board.lift("I8")  # changes while the board is dead
    board.place("H10", "B")
    link.advance(300)
    board.replug()
    events = link.advance(300)
    restored = [i for i, e in enumerate(events) if isinstance(e, LinkRestored)]
    assert len(restored) == 1
    resynced = {(c.square, c.letter) for c in squares(events) if c.resync}
    assert resynced == {("H9", "A"), ("I8", None), ("H10", "B")}
    assert dict(link.core.picture().squares) == {"H8": "C", "J8": "T", "H9": "A", "H10": "B"}
    assert link.core.stats["links_lost"] == link.core.stats["links_restored"] == 1


def test_silent_board_is_declared_lost_within_three_heartbeat_periods() -> None:
    link = InProcessLink(EmulatedBoard(heartbeat_ms=200, seed=2), LinkCore(heartbeat_ms=200))
    link.advance(1000)
    last_beat = max(e.uptime_ms for e in link.advance(500) if isinstance(e, Heartbeat))
    link.board.mute()
    events = link.advance(2000)
    lost = [e for e in events if isinstance(e, LinkLost)]
    assert len(lost) == 1 and "silent" in lost[0].reason
    # Board time and link time share the simulated clock here: detection within 3 periods of the last beat.
    assert lost[0].at * 1000 - last_beat <= 3 * 200
    link.board.unmute()
    events = link.advance(2000)
    assert any(isinstance(e, LinkRestored) for e in events)


def test_without_the_debounce_the_bounce_would_leak() -> None:
    """The control for the tests above: the simulated contacts chatter enough that a 1 ms debounce
    reports phantom changes, so 'no bounce leaks' is a property of the firmware, not of a tame matrix."""
    link = started(coded=True, seed=12, glitch=1.0)
    link.board.firmware.debounce_ms = 1
    link.board.place_word("C3", "across", "BOUNCE")
    changes = squares(link.advance(100))
    assert len(changes) > 6
    assert {c.letter for c in changes} - set("BOUNCE")  # partial codes read as other letters


def test_events_read_like_a_log() -> None:
    from firmware_bridge.events import CommandRefused, Hello, Pong

    hello = Hello(1, 9, 9, True, 2, 0, 30, 1000)
    assert str(SquareChanged("H8", True, "E", 1200)) == "H8 E @1200ms"
    assert str(SquareChanged("H8", True, None, 1200, resync=True)) == "H8 occupied (resync) @1200ms"
    assert str(SquareChanged("H8", False, None, 5)) == "H8 empty @5ms"
    assert str(ButtonEvent(1, False, 7)) == "button 1 released @7ms"
    assert str(DiceTray(2, 11, 5, 9)) == "tray slot 2 die 11 face 5 @9ms"
    assert str(LinkLost("board silent for 2500 ms", 1.0)) == "board link lost: board silent for 2500 ms"
    assert str(LinkRestored(hello, 2.0)) == "board link restored (9x9)"
    assert str(CommandRefused("SET_CONFIG", 3, "value out of range")).endswith("(seq 3): value out of range")
    assert str(Pong(5, 10)) == "pong 5 @10ms"


def test_the_package_exports_the_public_api() -> None:
    import firmware_bridge

    for name in firmware_bridge.__all__:
        assert getattr(firmware_bridge, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        firmware_bridge.Nope  # noqa: B018


def test_a_tile_set_down_upside_down_reads_as_its_letter() -> None:
    link = started(coded=True, seed=21)
    link.board.place("B2", "Q", upside_down=True)
    link.board.place("C2", "Ü")
    changes = squares(link.advance(100))
    assert {(c.square, c.letter) for c in changes} == {("B2", "Q"), ("C2", "Ü")}
    assert link.core.stats["unknown_codes"] == 0


def test_a_board_that_reboots_under_a_live_link_is_resynchronised() -> None:
    """A brown-out: the board boots afresh (HELLO unasked) while the host still has the port open. The
    host notices by the HELLO, asks for the board, and reports what changed; the link never went down."""
    link = started(coded=True, seed=30)
    link.board.place("D4", "R")
    link.advance(100)
    link.board.lift("D4")
    link.board.replug()  # the lift happened as the board rebooted: its new life starts with D4 empty
    events = link.advance(200)
    assert [(c.square, c.occupied, c.resync) for c in squares(events)] == [("D4", False, True)]
    assert not any(isinstance(e, LinkLost | LinkRestored) for e in events)
    assert any(isinstance(e, BoardDump) for e in events)
    assert dict(link.core.picture().squares) == {}
