"""The table referee service: ties sensors, clocks and the rules engine into a game players can trust.

Public API (what the views, the commands and the tests use)::

    from referee.sim import SimulatedTable, ManualClock, default_setup
    table = SimulatedTable(default_setup(challenge="double"), words=["QUIZ", "ZA"])  # in-process, scriptable
    table.control("start", {})
    table.play("8E QUIZ")            # lay the tiles and press the mover's clock; blanks lowercase
    table.place("H9", "A"); table.lift("H9"); table.place_doubtful("H9"); table.press(player)
    table.advance(15)                # the injected clock moves; timers fall due; a snapshot is published
    table.unplug(); table.replug()   # the sensor board's link
    table.snapshot(); table.subscribe(listener); table.control(action, params); table.gcg()

- `referee.table.api`: the contract with the views (`TableView`, `TableControl`, `Snapshot`).
- `referee.table.live.LiveTable`: the table players use (machine + journal + listeners + table time);
  `LiveTable.new_game(setup, rules, journal=...)`, `LiveTable.resume(journal, rules_for_setup)`; inputs
  `board_seen(picture)`, `link(source, up)`, `press_clock(player)`, `roll(letters)`, `poll()`.
- `referee.table.machine.TableMachine`: the pure state machine (`referee.table.state.TableState`: waiting,
  turn, blank, challenge, takeback, removal, roll, paused, racks, ended; `TRANSITIONS`: state x event ->
  handler); events in, snapshots out.
- `LiveTable.reading()`: the one way to read a running table from outside `referee.table` (a read-only
  `referee.table.reading.TableReading`, under the table's lock).
- `referee.config`: `load_config(path) -> Config` (one TOML file; `ConfigError` names file, key, reason).
- `referee.journal.Journal`: SQLite (WAL) of games and their events; `referee games list|export`.
- `referee.fusion.fuse(sensors, camera, min_confidence)`: one board picture from the sensor board and the
  camera; doubt is kept, never resolved by guessing.
- `referee.table.rules`: the engine's rule set and lexicon for a table (`rules_for`, `TableRules`, `WordSet`).
- `referee.table.records`: `game_gcg(machine)`, `export_gcg(journal, game_id)`: the game as GCG.
- `referee.service.TableService(ServiceParts)`: the running service (board link, camera, buttons, outputs,
  page, sd_notify); `referee.parts.real_parts` builds a real table's parts, `referee.sim.parts.sim_config/
  sim_parts` the simulated table's on top of it.
- `referee.table.actions.ACTIONS`: the control actions and their parameters, one schema for the page's checks,
  its list of actions and the machine's checks.
- `referee.demo.DemoDriver(service, record)`: robot players replaying a GCG record through a service on
  the emulated board (`referee demo`, the benchmark, the end-to-end tests).
- `referee.table.api.PENDING_KEYS`, `ALERT_CODES`: what snapshots and controls hold beyond
  the base contract (`roll` for Scramble, `new_game` after the end).
"""

__version__ = "0.1.0"
