"""Devices on the Pi's pins (LED timer, buttons, buzzer, displays), each behind a factory with a mock backend.

Public API (what the table service builds against; issue 6):

Configuration (`hardware.config`)
    `parse_hardware_config(mapping) -> HardwareConfig` takes the already-parsed `[hardware]` table
    (a dict of plain values) and validates it: BCM pin numbers 2-27, no pin used twice, no GPIO pin
    on the SPI bus the LED ring uses, unknown keys refused. Raises `HardwareConfigError`
    (a `RefereeError` and `ValueError`) whose message names the key, e.g.
    ``"buttons.clock[1]: pin 17 is already used by buzzer.pin"``. Schema in `docs/hardware-timer.md`.

Factory (`hardware.factory`)
    `build_devices(config, backend="mock" | "real", clock=time.monotonic) -> TableDevices`.
    Opening failures raise `DeviceOpenError` naming the device, after closing what was opened.
    "real" imports gpiozero's default pin factory and `spidev` lazily; "mock" builds the very same
    drivers on gpiozero's `MockFactory` and a fake SPI device (the simulated table, the tests).
    `TableDevices` holds `.ring` (WS2812 strip or None), `.bar` (LEDBarGraph or None), `.displays`
    (one TM1637 per player, possibly empty), `.buzzer` (or None), `.buttons` (a `ButtonPanel`),
    `.faults` (failed writes per output: a broken output is logged once, counted, and never stops
    the clock), `.sim` (mock backend only: press/release button pins, read the fake chips and SPI),
    and `.close()`.

Controller (`hardware.controller`)
    `ClockController(devices, timer, clock=time.monotonic)` where `timer` is a
    `game.clock.GameClock` (tournament clock) or a `game.timers.TurnTimer` (sand-timer replacement).
    - Buttons drive it (unless `buttons_drive_clock=False`): a player's clock button switches the
      game clock (on the turn timer: ends the turn of the player on turn, whose timer restarts for
      the next player; `controller.turn_player`); before the game it starts the other
      player's clock, as on a chess clock; the pause button pauses/resumes. Every button action
      is also passed to listeners: `controller.subscribe(fn)` with `fn(ButtonEvent)`;
      `ButtonEvent(button, action, kind, at, player)`, `kind` "press" or "hold"; actions: "clock"
      (with `player`), "challenge", "pause", "confirm", and the configured long-press actions
      (default: confirm held -> "undo").
    - `controller.refresh()`: call it from the service loop (10-50 Hz); it polls the timer for
      events (the buzzer sounds at zero; events are returned as `game.timers.TimerEvent`s and
      passed to `subscribe_timer(fn)` listeners), checks long presses, and pushes new frames to the
      LEDs and digits (only when they changed). `controller.next_refresh()` tells when it is needed.
    - Thread-safe: gpiozero calls button handlers from its own thread; `controller.lock` (an RLock)
      guards the timer: hold it when the service calls the clock's methods itself.
    - `hardware.controller.draw(devices, faces)` pushes readings to every output, for a caller that
      keeps its clocks itself (no button handling, no polling).
    - `controller.clock_views()` gives `referee.table.api.ClockView`-shaped dicts; `controller.render_line(names)`
      the terminal line.

Clocks (`game.clock`, pure): `GameClock(ClockConfig(...), clock)` with start/press/switch_to/pause/
resume/adjust/end/poll/penalties/to_dict/from_dict; `TurnTimer(TurnTimerConfig.standard() or
.scramble(), clock)`; `overtime_penalty(overtime_ms, points_per_minute=10)`.

Pure frames (`hardware.frames`), the same picture for every output:
    `readings(timer) -> list[Reading]` (one per player for a game clock, one for a turn timer);
    `ring_frame(readings, leds, style) -> list[(r, g, b)]`, `bar_lit(reading, leds) -> int`,
    `clock_text(remaining_ms) -> str` ("25:00", "0:07", "-3:04"), `tm1637_bytes(text) -> bytes`.

Terminal (`hardware.terminal`)
    `render_line(readings, names=None, width=12) -> str`: one line for the simulated table, e.g.
    ``"Ann [#######.....] 14:03 *  |  Ben [############] 25:00"``.
"""
