"""Entry point on the Pico: copy wire.py, scanner.py, hal_pico.py, config.py (optional) and this file
to the board (`mpremote cp firmware_bridge/firmware/*.py :`).

config.py, when present, sets the build: WIDTH, HEIGHT, CODED, BUTTONS, SLOTS, UART (None for USB),
SCAN_MS (the scan period, default 5: see docs/performance.md for the budget), DEBOUNCE_MS and HEARTBEAT_MS
(what the board uses until the host's SET_CONFIG; defaults 30 and 1000).
"""

import hal_pico
import machine
import scanner

try:
    import config
except ImportError:
    config = None


def _get(name, default):
    return getattr(config, name, default) if config is not None else default


def maintenance():
    """The maintenance jumper (GP22 to GND) is fitted: stay out of the way of mpremote and the REPL."""
    return machine.Pin(hal_pico.PIN_MAINTENANCE, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def main():
    coded = _get("CODED", False)
    width = _get("WIDTH", 15)
    height = _get("HEIGHT", 15)
    buttons = _get("BUTTONS", 4)
    slots = _get("SLOTS", 0)
    hal = hal_pico.PicoHal(
        width=width,
        height=height,
        bits_per_square=6 if coded else 1,
        buttons=buttons,
        slots=slots,
        uart_id=_get("UART", None),
        scan_period_ms=_get("SCAN_MS", 5),
    )
    fw = scanner.Firmware(
        hal,
        width=width,
        height=height,
        coded=coded,
        buttons=buttons,
        slots=slots,
        debounce_ms=_get("DEBOUNCE_MS", scanner.DEFAULT_DEBOUNCE_MS),
        heartbeat_ms=_get("HEARTBEAT_MS", scanner.DEFAULT_HEARTBEAT_MS),
    )
    fw.run(hal.idle)


if not maintenance():
    try:
        main()
    except Exception:  # a bug must not leave a silent board: reboot; the host sees HELLO and resynchronises
        machine.reset()
