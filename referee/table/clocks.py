"""The clocks a table runs, and how they follow its state: the tournament game clocks, a turn timer, Scramble's.

Which clocks a table has comes from its setup (`table_clocks`). Whose time runs is a rule of the table
(`TableMachine.clock_holder`); after every event the machine hands that here (`follow`), so that no path through
a turn can leave a clock running for a player the page does not mark. Both clocks read the machine's own time
(`TableTime`), so a replay of the journal runs them exactly as they ran.
"""

from __future__ import annotations

from game.clock import ClockConfig, GameClock, TurnTimer, TurnTimerConfig
from referee.table.rules import TableRules
from referee.table.setup import TableSetup
from referee.table.state import TableTime


def table_clocks(setup: TableSetup, rules: TableRules, time: TableTime) -> tuple[GameClock | None, TurnTimer | None]:
    """The game clocks (clocks.mode "tournament") and the turn timer ("turn", or Scramble's own) of a table."""
    clock = timer = None
    if setup.clock_mode == "tournament":
        clock = GameClock(ClockConfig(
            players=len(setup.players), budget_s=setup.minutes_per_player * 60.0,
            max_overtime_s=setup.overtime_limit_minutes * 60.0, increment_s=setup.increment_seconds,
            penalty_points_per_minute=setup.overtime_penalty_points,
            on_max_overtime="lose" if setup.on_max_overtime == "lose" else "flag"), time)
    if setup.scramble:
        seconds = float(getattr(rules.ruleset, "turn_seconds", 60.0))  # the Scramble rules' own timer
        timer = TurnTimer(TurnTimerConfig.scramble(seconds), time)
    elif setup.clock_mode == "turn":
        timer = TurnTimer(TurnTimerConfig.standard(setup.turn_seconds), time)
    return clock, timer


def follow(clock: GameClock | None, timer: TurnTimer | None, *, holder: int | None, hold: bool) -> None:
    """Make the clocks agree with the table: `holder`'s game clock runs and no other (None: nobody's); the turn
    timer stands still while `hold` (the game is paused or waits for a lost sensor). A player whose clock stops
    for good (their turn ended) gets the increment; a hold gives none."""
    if clock is not None and clock.state in ("running", "paused"):
        if holder is None:
            if clock.state == "running":
                clock.pause()
        else:
            if clock.state == "paused":
                clock.resume()
            if clock.state == "running" and clock.on_move != holder:
                clock.switch_to(holder)
    if timer is not None:
        if hold and timer.state == "running":
            timer.pause()
        elif not hold and timer.state == "paused":
            timer.resume()


def dues_ms(clock: GameClock | None, timer: TurnTimer | None) -> list[float]:
    """The table times (ms) at which the clocks have something to say (a time up, a turn over)."""
    dues = []
    if clock is not None and (d := clock.next_due()) is not None:
        dues.append(d * 1000)
    if timer is not None and (d := timer.next_due()) is not None:
        dues.append(d * 1000)
    return dues
