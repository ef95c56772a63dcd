"""The director's MQTT side: the network's `DirectorLink` (tournament/director_link.py), handed to the hall.

`DirectorLink` subscribes to every table, applies each event once and in order per game (its `Receiver`
asks a table to replay any gap) and publishes commands. Its callbacks run on paho's network thread; this
module hands each one to the director's asyncio loop, so the hall is only ever touched by one thread.
At start the receiver is told how far the director's own store goes for every game, so a restarted director
asks the tables only for what it lacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from tournament.director.broker_watch import BrokerWatch
from tournament.director.core import Director
from tournament.director_link import DirectorLink
from tournament.payloads import AckMessage, EventMessage, SnapshotMessage, StatusMessage
from tournament.settings import BrokerSettings

log = logging.getLogger(__name__)


class BrokerLink:
    """Connects `director` to the broker; `start()` on the director's loop, `stop()` to disconnect cleanly."""

    def __init__(self, director: Director, settings: BrokerSettings, *, client_id: str | None = None) -> None:
        self.director = director
        self.settings = settings
        self._loop: asyncio.AbstractEventLoop | None = None
        self.link = DirectorLink(settings, director.event, on_event=self._on_event, on_snapshot=self._on_snapshot,
                                 on_status=self._on_status, on_ack=self._on_ack,
                                 on_broker=self._on_broker, by=director.by,
                                 client_id=client_id or f"{director.event}-director")
        self.watch = BrokerWatch(settings.url)  # the hall page and the log say when the broker is out of reach
        self.watch.attach(self.link.client)

    @property
    def receiver_stats(self) -> Any:
        return self.link.receiver.stats

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        for (table, game), next_seq in self.director.resume_points().items():
            self.link.receiver.restore(table, game, next_seq)
        self.director.sender = self._send
        self.director.link_stats = self._stats
        self.director.broker_state = self.watch.state
        self.director.forget_streams = self._forget
        self.link.start()

    def _forget(self, table: int, games: list[int]) -> None:
        with self.link.lock:
            self.link.receiver.forget(table, games)

    def _stats(self) -> dict[str, int]:
        stats = self.link.receiver.stats
        return {"applied": stats.applied, "duplicates": stats.duplicates, "held": stats.held,
                "replay_requests": stats.replay_requests, "missing": self.link.receiver.missing(),
                "dropped": self.link.dropped}

    async def wait_connected(self, timeout: float) -> bool:
        return await asyncio.to_thread(self.link.connected.wait, timeout)

    def stop(self) -> None:
        self.link.stop()

    def _send(self, table: int | None, cmd: str, args: dict[str, Any], command_id: str) -> None:
        """Publish now, or refuse: paho would queue a command while the broker is away and send it when it is
        back, however late (the 120 s expiry runs on the broker only), so a pause could land minutes later."""
        if not self.link.client.is_connected():
            raise RuntimeError("the director has lost the broker: the command was not sent (try again once the "
                               "hall page shows it live)")
        self.link.send(table, cmd, args, command_id=command_id)  # type: ignore[arg-type]

    # paho's thread -------------------------------------------------------------------------------

    def _hand_over(self, fn: Any, *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            # the loop may close between the check and the call: the director is stopping
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(fn, *args)

    def _on_event(self, message: EventMessage, published_ms: int | None) -> None:
        self._hand_over(self.director.on_event, message, published_ms)

    def _on_snapshot(self, message: SnapshotMessage) -> None:
        self._hand_over(self.director.on_snapshot, message)

    def _on_status(self, message: StatusMessage) -> None:
        self._hand_over(self.director.on_status, message.table, message)

    def _on_broker(self, up: bool) -> None:
        self._hand_over(self.director.on_broker, up)

    def _on_ack(self, message: AckMessage) -> None:
        self._hand_over(self.director.on_ack, message)
