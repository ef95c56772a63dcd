"""Reading the files a person names on the command line: only regular files, and only up to a size.

`referee run --config /dev/zero` once read 3.5 GB before the kernel killed it, `--config /dev/urandom` ended
in a MemoryError traceback, and a FIFO (or `referee demo FIFO`) hung for ever waiting for a writer. A
configuration or a game record is a small text file; anything else is refused in one line, before a byte of
it is read:

- the file is opened without blocking (`O_NONBLOCK`: a FIFO with no writer does not hang the open) and its
  kind is asked of the open descriptor (`fstat`), so what is checked is what is read;
- a device, a FIFO, a socket or a folder is refused as "not a regular file";
- at most `max_bytes` + 1 bytes are read, and a longer file is refused with the limit in the message.

A game record is also checked for being a game (`check_game_record`): one with no moves, more than four
players or more moves than any game has is refused, so `referee demo` never "agrees with every one of 0
totals" and `referee gcg check` never spends minutes on 100,000 passes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from game.errors import RefereeError

MAX_CONFIG_BYTES = 256 * 1024  # a table's configuration is 1-5 KB; the annotated example about 9 KB
MAX_GCG_BYTES = 1024 * 1024  # a tournament game's record is 2-6 KB, a heavily annotated one 50 KB
MAX_GCG_MOVES = 500  # move lines (plays, passes, exchanges, challenges, penalties): a real game has 20-60
MAX_PLAYERS = 4  # the board game's own limit


class InputFileError(RefereeError, ValueError):
    """A file named on the command line that is not a regular file, is too big, or holds no game."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else f"{n // 1024} KB"


def read_regular_file(path: str | Path, *, max_bytes: int, what: str) -> bytes:
    """The bytes of the regular file at `path`, at most `max_bytes` of them.

    `what` names the file for people ("configuration file", "game record"). A missing or unreadable file
    raises `OSError` as `open` does (callers word it already); a file of another kind, or a bigger one,
    raises `InputFileError` saying which."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"{path}: is {_kind(info.st_mode)}, not a {what} (give a regular file)")
        if info.st_size > max_bytes:
            raise InputFileError(f"{path}: is {info.st_size:,} bytes, more than a {what} can be "
                                 f"({_size(max_bytes)} at most)")
        chunks: list[bytes] = []
        got = 0
        while got <= max_bytes:  # the size was checked, but a file may grow while it is read
            chunk = os.read(fd, min(64 * 1024, max_bytes + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > max_bytes:
            raise InputFileError(f"{path}: is more than {_size(max_bytes)}, more than a {what} can be")
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_game_record(record: Any, source: str) -> None:
    """Refuse a parsed GCG record (`game.gcg.GCGRecord`) that is not a game a table could have played."""
    players = len(record.players)
    if players > MAX_PLAYERS:
        raise InputFileError(f"{source}: names {players:,} players; a game has 2 to {MAX_PLAYERS}")
    moves = len(record.moves)
    if moves == 0 and players == 0:  # random bytes, an empty file: no record at all
        raise InputFileError(f"{source}: no #player lines and no moves (lines starting with '>'): not a GCG "
                             "record")
    if moves == 0:
        raise InputFileError(f"{source}: has no moves (lines starting with '>'): not a game record")
    if moves > MAX_GCG_MOVES:
        raise InputFileError(f"{source}: has {moves:,} moves; a game has far fewer (at most {MAX_GCG_MOVES} "
                             "are read)")


def load_game_record(path: str | Path) -> Any:
    """Read, decode, parse and check the GCG record at `path` (a `game.gcg.GCGRecord`)."""
    from game.gcg import decode_gcg, parse_gcg

    text, _ = decode_gcg(read_regular_file(path, max_bytes=MAX_GCG_BYTES, what="game record"))
    record = parse_gcg(text)
    check_game_record(record, str(path))
    return record
