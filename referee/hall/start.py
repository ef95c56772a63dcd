"""`referee hall start DIR`: the broker and the director of a hall folder, on this machine, until Ctrl-C.

For a trial (or a small hall whose broker is the director's laptop): Mosquitto with DIR/broker/trial.conf and
`referee director --config DIR/director/director.toml`, each its own process, stopped by their ids on
Ctrl-C or SIGTERM (the director first, so its last words reach the broker). `with_tables` also starts
tables of a trial folder as `referee run --config DIR/tables/table-N/table.toml`, their output in
DIR/tables/table-N/referee.out. A process that ends by itself ends the hall, saying which and where its log is.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from referee.hall.kit import HallError, read_hall
from tournament.acl import table_user
from tournament.testing.broker import mosquitto_path

READY_TIMEOUT_S = 20.0


@dataclass
class Child:
    name: str
    process: subprocess.Popen[bytes]
    log: Path


@dataclass
class Hall:
    """The processes of a started hall; `stop` ends them by their ids, the director and tables first."""

    folder: Path
    director_url: str
    children: list[Child] = field(default_factory=list)

    def stop(self) -> None:
        for child in reversed(self.children):  # tables, then the director, then the broker
            if child.process.poll() is None:
                child.process.send_signal(signal.SIGTERM)
                try:
                    child.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    child.process.kill()
                    child.process.wait(timeout=10)
        self.children.clear()

    def ended(self) -> Child | None:
        return next((c for c in self.children if c.process.poll() is not None), None)


def _wait_port(port: int, child: Child, clock: Callable[[], float] = time.monotonic) -> None:
    deadline = clock() + READY_TIMEOUT_S
    while clock() < deadline:
        if child.process.poll() is not None:
            raise HallError(f"{child.name} ended at start (exit {child.process.returncode}); its log: {child.log}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        time.sleep(0.05)  # readiness poll of a child process, bounded by READY_TIMEOUT_S
    raise HallError(f"{child.name} did not listen on port {port} within {READY_TIMEOUT_S:.0f} s; its log: {child.log}")


def _spawn(name: str, argv: Sequence[str], log: Path) -> Child:
    log.parent.mkdir(parents=True, exist_ok=True)
    out: IO[bytes] = log.open("ab")
    try:
        process = subprocess.Popen(list(argv), stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    finally:
        out.close()
    return Child(name, process, log)


def referee_command() -> list[str]:
    """This referee, run again: the same Python and package (a checkout's .venv, or an installed one)."""
    return [sys.executable, "-m", "referee"]


def start_hall(folder: Path, *, with_tables: Sequence[int] = ()) -> Hall:
    """Start the broker, the director and (trial) `with_tables`; HallError saying what did not start."""
    folder = folder.resolve()
    plan = read_hall(folder)
    broker_conf = folder / "broker" / "trial.conf"
    if not broker_conf.is_file():
        raise HallError(f"{broker_conf}: missing: write the folder with `referee hall init`")
    if with_tables and not plan.get("trial"):
        raise HallError(f"--tables: {folder} was written without --trial: its tables are the hall's Pis")
    unknown = [n for n in with_tables if not 1 <= n <= plan["tables"]]
    if unknown:
        raise HallError(f"--tables: the hall has tables 1 to {plan['tables']}, not {unknown[0]}")
    binary = mosquitto_path()
    if binary is None:
        raise HallError("mosquitto is not installed (Debian package 'mosquitto'; `make system-deps`)")
    hall = Hall(folder, f"http://127.0.0.1:{plan['director_port']}/")
    try:
        broker = _spawn("the broker", [binary, "-c", str(broker_conf)], folder / "broker" / "mosquitto.out")
        hall.children.append(broker)
        _wait_port(plan["broker_port"], broker)
        director = _spawn("the director", [*referee_command(), "director", "--config",
                                           str(folder / "director" / "director.toml")],
                          folder / "director" / "director.out")
        hall.children.append(director)
        _wait_port(plan["director_port"], director)
        for n in with_tables:
            table_dir = folder / "tables" / table_user(n)
            hall.children.append(_spawn(f"table {n}", [*referee_command(), "run", "--config",
                                                       str(table_dir / "table.toml")], table_dir / "referee.out"))
    except BaseException:
        hall.stop()
        raise
    return hall


def run_until_stopped(hall: Hall, say: Callable[[str], None]) -> int:
    """Wait for Ctrl-C or SIGTERM (0), or for a process to end by itself (1, naming it), then stop the hall."""
    stop = threading.Event()
    old = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stop.wait(0.5):
            ended = hall.ended()
            if ended is not None:
                say(f"{ended.name} ended (exit {ended.process.returncode}); its log: {ended.log}")
                return 1
        return 0
    finally:
        hall.stop()
        for sig, handler in old.items():
            signal.signal(sig, handler)
