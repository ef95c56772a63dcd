"""The simulated table, in one place: what `referee demo`, `referee run --sim` and the tests run on.

- `clock.ManualClock`: the one fake monotonic clock (tests, benchmarks, the simulated table).
- `table.SimulatedTable`: the real `LiveTable` with a virtual board and a `ManualClock`, scripted
  in-process (`place`, `play`, `press`, `advance`, `unplug`); `table.default_setup(**changes)`.
- `parts.sim_config/sim_parts`: the whole service on emulated hardware (board emulator over a pty, synthetic
  camera, mock GPIO), for `referee run --sim` and `referee demo`, built on the real table's builder
  (`referee.parts`); `camera`: the synthetic camera filming the emulated board.
- `console`: the typed console of `referee run --sim` (lay tiles, press clocks, the page's actions);
  `narrator`: the game told in that terminal (scores, questions, verdicts); `screen`: its bottom row, where
  the clocks and the command being typed share a line without overwriting each other.

`referee.demo.DemoDriver` (the robot players that replay a GCG record) stays outside: it drives any
service, simulated or not, and simulates no part of the table itself.
"""

from referee.sim.clock import ManualClock
from referee.sim.table import SimulatedTable, default_setup

__all__ = ["ManualClock", "SimulatedTable", "default_setup"]
