# Types for scanner.py, which stays annotation-free so that it runs unchanged on MicroPython.
from collections.abc import Callable
from typing import Final, Protocol

from firmware_bridge.firmware import wire

DEFAULT_DEBOUNCE_MS: Final[int]
DEFAULT_HEARTBEAT_MS: Final[int]
MIN_DEBOUNCE_MS: Final[int]
MAX_DEBOUNCE_MS: Final[int]
MIN_HEARTBEAT_MS: Final[int]
MAX_HEARTBEAT_MS: Final[int]

class Hal(Protocol):
    def ticks_ms(self) -> int: ...
    def ticks_diff(self, a: int, b: int) -> int: ...
    def scan(self, buf: bytearray) -> None: ...
    def read(self) -> bytes | None: ...
    def write(self, data: bytes) -> bool: ...

class Firmware:
    hal: Hal
    width: int
    height: int
    squares: int
    buttons: int
    slots: int
    caps: int
    raw: bytearray
    stable: bytearray
    cand: bytearray
    since: list[int]
    pending: int
    pending_list: list[int]
    debounce_ms: int
    heartbeat_ms: int
    report: int
    reader: wire.FrameReader
    seq: int
    bad_commands: int
    tx_drops: int
    scans: int
    uptime: int
    def __init__(
        self,
        hal: Hal,
        width: int = ...,
        height: int = ...,
        coded: bool = ...,
        buttons: int = ...,
        slots: int = ...,
        debounce_ms: int = ...,
        heartbeat_ms: int = ...,
    ) -> None: ...
    def send(self, msg_type: int, payload: bytes) -> None: ...
    def hello_payload(self) -> bytes: ...
    def dump_payload(self) -> bytes: ...
    def step(self) -> None: ...
    def scan(self, now: int) -> None: ...
    def changed(self, i: int, code: int, at: int) -> None: ...
    def heartbeat(self, now: int) -> None: ...
    def handle(self, msg_type: int, seq: int, payload: bytes) -> None: ...
    def refuse(self, msg_type: int, seq: int, reason: int) -> None: ...
    def run(self, idle: Callable[[], None] | None = ...) -> None: ...
