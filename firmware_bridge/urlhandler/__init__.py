"""pyserial URL handlers of this project (`protocol_<scheme>.py`, found by `serial.serial_for_url`).

`register()` adds this package to `serial.protocol_handler_packages`, as pyserial's documentation asks of
third-party handlers; `firmware_bridge.link` calls it before it makes any port, so `emulator://` opens
wherever a pyserial URL does: the link, `referee board monitor`, the configuration check.
"""

from __future__ import annotations

PACKAGE = "firmware_bridge.urlhandler"


def register() -> None:
    """Make pyserial find `emulator://` (idempotent: the package is listed once)."""
    import serial  # type: ignore[import-untyped]

    if PACKAGE not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append(PACKAGE)
