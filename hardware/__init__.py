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
    `.draw(faces)` (clock faces from `hardware.frames.readings` to every output: the ring turned by its
    configured offset, the idle player's digits dimmed, each write guarded) and `.close()`. The clocks are
    kept by whoever owns them (the table's journaled machine); the devices only show them.

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
