"""The pin factory seam: what the drivers here ask of gpiozero's pin `Factory`, typed.

gpiozero ships no type hints, so its factory would be `Any` at every constructor. The drivers pass the
factory on to gpiozero's own devices (`pin_factory=`), and the TM1637 driver bit-bangs two pins itself
through `pin()`, reserving them first so that no other device takes them; a test or the simulated table
hands in a `MockFactory`, a Pi gpiozero's default (lgpio). Both have these methods.
"""

from __future__ import annotations

from typing import Any, Protocol


class PinFactory(Protocol):
    """gpiozero's pin Factory, as far as this package calls it directly."""

    def pin(self, name: int) -> Any:
        """The pin object for BCM number `name` (gpiozero's `Pin`: `.state`, `.function`, `.close()`)."""
        ...

    def reserve_pins(self, requester: object, *pins: int) -> None:
        """Claim pins for `requester`; gpiozero raises if another device holds one."""
        ...

    def release_all(self, reserver: object) -> None:
        """Give back every pin `reserver` claimed."""
        ...
