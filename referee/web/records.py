"""What the web layer may ask a table beyond `TableView` and `TableControl`.

`TableView` has no game record, and a table (a bare fake, an early simulator) need not keep one. The
download asks for it only when the table offers it, through this small protocol, and otherwise tells
the user plainly that this table keeps no record.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class GcgSource(Protocol):
    """A table that can write its game so far as a GCG record (text, one event per line)."""

    def gcg(self) -> str: ...
