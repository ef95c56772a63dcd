"""The referee service: one table's sensors, camera, buttons, outputs, journal and page, wired together.

Threads and who owns what:

- the sensor board's link thread (`firmware_bridge.BoardLink`) calls `_on_board_event` with each observation,
  and the service keeps the board's reading from their content (a change, a slot, a whole dump): the fused
  picture is made from what the events said, never pulled back from the link;
- gpiozero's thread calls `_on_button` for the Pi's own buttons;
- one *commit worker* turns a clock press into a commit: it reads a fresh camera frame first (so the
  letters are those on the board at the moment of the press), waits until the board has been still
  for `settle_ms`, then presses the table's clock;
- the camera thread reads a frame every `camera_interval_s` between commits;
- the asyncio loop serves the page and runs `step()` every 50 ms: timers, heartbeat, outputs,
  the systemd watchdog.

The `LiveTable` serialises everything that reaches the game; the journal is written before any event
takes effect, so a SIGKILL or a power cut at any moment resumes the same game (`LiveTable.resume`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_bridge import events as fe
from referee.fusion import DICE_MIN_CONFIDENCE, fuse
from referee.journal import Journal
from referee.outputs import Outputs
from referee.parts import ServiceParts, table_setup
from referee.sd_notify import Watchdog, notify
from referee.sensors import CameraPort
from referee.speech.announcer import Announcer, SpeechListener
from referee.table.api import ControlError
from referee.table.live import LiveTable
from referee.table.picture import Picture
from referee.table.rules import TableRules, table_rules
from referee.table.setup import TableSetup
from referee.table.state import TableState
from referee.tournament_restart import keeps_last_game
from referee.words import Phrase

if TYPE_CHECKING:  # the link imports pyserial, the buttons gpiozero: only when a table has them
    from firmware_bridge.link import BoardLink
    from hardware.buttons import ButtonEvent

__all__ = ["ServiceParts", "TableService"]  # ServiceParts: made by referee.parts, taken here

log = logging.getLogger(__name__)

STEP_S = 0.05
# The watchdog is pinged while the table's loop has finished a round within this many seconds (or waits for the
# disk); WatchdogSec in systemd/referee.service is 30.
WATCHDOG_GRACE_S = 10.0


def _same_setup(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


class TableService:
    # How old (service clock, seconds) the camera's last frame may be for a commit to use it without another
    # look, when it was taken after the board last changed: old enough for the camera thread's frame to
    # still serve a press right after the last tile, young enough that a hand over the board since is unlikely.
    camera_fresh_s: float = 2.0

    def __init__(self, parts: ServiceParts) -> None:
        self.parts = parts
        self.config = parts.config
        self.mono = parts.monotonic
        self._settings_kept_game: int | None = None  # the resumed game that kept its settings (its note is up)
        # The journal's writer lock (a flock on the database file) is the one guarantee that one referee runs here.
        self.journal = Journal(Path(self.config.table.state_dir) / "games.sqlite3", writer=True)
        try:
            damage = self.journal.quick_check()  # a file cut short on the card: an alert, never a silent resume
            self.table = self._open_table()  # a damaged journal raises JournalError (exit 2), naming what
        except BaseException:
            self.journal.close()
            raise
        if damage:
            log.error("%s is damaged (quick_check: %s); the game goes on, copy the journal now and restore a backup "
                      "(docs/backup.md)", self.journal.path, "; ".join(damage))
            self.table.set_alert("journal_malformed", publish=False, finding=damage[0])
        self._known_squares: set[str] | None = self._journal_squares()  # compared with the board's first picture
        self.link: BoardLink | None = None  # the sensor board's link, from `start`
        # The sensor board's reading as its events said it (`_on_board_event`, the link's thread): replaced whole,
        # never changed in place, so another thread reading it (a commit, the camera) sees one reading or the next.
        self._board_squares: dict[str, str | None] = {}
        self._board_tray: dict[int, tuple[int, int]] = {}
        self._tray_resynced = False
        self.relaid = 0  # tiles an emulated board got again from the journal at start (a resumed game)
        self.tournament: Any = None  # referee.tournament_link.TournamentLink with a [tournament] section
        self.camera = parts.camera
        if self.camera is not None:
            self.camera.clock = self.mono  # frame times and board changes on one clock
            self._tell_camera_the_tiles(self.camera)
        self.outputs = Outputs(self.table, parts.devices, self.mono, parts.terminal, self.config.table.language)
        self.announcer: Announcer | None = None
        if parts.voice is not None:
            self.announcer = Announcer(parts.voice, clock=self.mono, on_trouble=self._speech_trouble)
            self.table.subscribe(SpeechListener(self.announcer))
        self.watchdog = Watchdog(self.mono)
        self._presses: queue.Queue[int | None] = queue.Queue()
        self._stop = threading.Event()
        self._look = threading.Event()  # wakes the camera thread early
        self._threads: list[threading.Thread] = []
        self._last_change = self.mono()
        self._last_publish = float("-inf")
        self._last_status = float("-inf")
        self._camera_retry_at = float("-inf")
        self._table_loop_stop = threading.Event()
        self._table_round_at = self.mono()
        self.web_url = ""  # the page's best address for a phone (the first of web_urls)
        self.web_urls: list[str] = []
        self.web_listen = ""  # what the page listens on, said to people
        self.ready = threading.Event()
        self._closed = False

    # --- start-up ---------------------------------------------------------------------------------

    def _rules(self, setup: TableSetup) -> TableRules:
        return table_rules(setup, self.parts.lexicon)

    def _open_table(self) -> LiveTable:
        resumed = LiveTable.resume(self.journal, self._rules, monotonic=self.mono)
        if resumed is not None:
            return self._resumed(resumed)
        setup = table_setup(self.config)
        last = self.journal.last_game()
        seated = last is not None and keeps_last_game(self.config, last.setup, setup.to_dict())
        if last is not None and (seated or _same_setup(last.setup, setup.to_dict())):
            # The last game here has ended: it stays on the page, complete, until someone starts the next one
            # (the page's "new game"). A changed configuration (other players, other rules) starts a new one,
            # but for the players of a tournament table: the director seats those (referee/tournament_restart.py).
            shown = LiveTable.resume(self.journal, self._rules, monotonic=self.mono, game_id=last.id)
            if shown is not None and shown.machine.state == "ended":
                log.info("game %s has ended: shown until %s", last.id,
                         "the director's next pairing" if seated else "the next game is started")
                return shown
        table = LiveTable.new_game(setup, self._rules(setup), journal=self.journal, monotonic=self.mono)
        log.info("new game %s at %s: %s", table.game_id, setup.table, " v ".join(setup.players))
        return table

    def _resumed(self, resumed: LiveTable) -> LiveTable:
        """The unfinished game of the journal, against the configuration: a game not yet started takes the
        configuration's new settings (as a new game: the unplayed one is closed in the journal, as the director's
        next pairing closes it); a game under way keeps its own and says which, and why (referee/setup_changes)."""
        from referee.setup_changes import changes_text, setup_changes

        kept = resumed.machine.setup
        configured = table_setup(self.config)
        game_id = resumed.game_id
        assert game_id is not None  # a game read from the journal has its row
        seating = self._director_seating(game_id)
        if seating is not None:
            configured = replace(configured, players=kept.players)  # the director's pairing, not the file's names
        changes = setup_changes(kept, configured)
        if not changes:
            log.info("resumed game %s: the time the referee was down counted as a pause", game_id)
            return resumed
        said = changes_text(changes)
        if resumed.machine.state is TableState.WAITING:
            self.journal.end_game(game_id)
            table = LiveTable.new_game(configured, self._rules(configured), journal=self.journal,
                                       monotonic=self.mono)
            if seating is not None:  # the new game is the director's seating still, as the closed one was
                table.director("set_players", seating.get("args", {}), by=str(seating.get("by", "")),
                               command_id=str(seating.get("id", "")))
            log.warning("game %s had not started and the configuration has changed (%s): it is closed unplayed, "
                        "and game %s takes the new settings", game_id, said, table.game_id)
            return table
        log.warning("resumed game %s keeps the settings it started with, not the configuration's new ones (%s): "
                    "a game's rules and clocks cannot change while it is played; the game after it takes them",
                    game_id, said)
        resumed.set_alert("settings_kept", level="info", publish=False, changes=said)
        self._settings_kept_game = game_id
        return resumed

    def _director_seating(self, game_id: int) -> Mapping[str, Any] | None:
        """The director's `set_players` event of the game (its data), when the director seated its players."""
        return next((ev.data for ev in self.journal.events(game_id)
                     if ev.kind == "director" and ev.data.get("cmd") == "set_players"), None)

    def start(self) -> None:
        """Open the sensors and start the worker threads (the page starts in `run`)."""
        if self.parts.board_url:
            from firmware_bridge.link import BoardLink

            self.link = BoardLink(self.parts.board_url, on_event=self._on_board_event, accept=self._board_fits,
                                  port=self.parts.board_port)
            if self.link.emulator is not None:
                self._lay_emulated_board(self.link.emulator.board)
            self.link.start()
            if self.link.emulator is not None:
                log.info("sensor board emulator at %s", self.link.emulator.path)
        if self.parts.devices is not None:
            self.parts.devices.buttons.subscribe(self._on_button)
        self._spawn(self._commit_worker, "commit")
        if self.camera is None and self.parts.camera_opener is not None:
            # The camera was not there at start: the table plays on without it, says so, and looks again.
            self.table.link("camera", False)
            self._camera_retry_at = self.mono() + self.parts.camera_retry_s
        if self.camera is not None or self.parts.camera_opener is not None:
            self._spawn(self._camera_loop, "camera")
        if self.config.tournament is not None:
            from referee.tournament_link import TournamentLink

            self.tournament = TournamentLink(self.table, self.journal, self.config.tournament,
                                             name=self.config.table.name)
            self.tournament.start()

    def _lay_emulated_board(self, board: Any) -> None:
        """An emulated board is made empty at every start, unlike a real one whose tiles stay put across a
        restart: a resumed game's tiles are laid on it again from the journal's last picture (before it boots,
        so its first report already holds them), else the game would see every tile lifted outside a turn."""
        with self.table.reading() as now:
            picture = now.last_picture()
        self.relaid = len(picture)
        for square, cell in picture.items():
            try:
                board.place(square, cell.letter if cell.letter and not cell.blank else "?")
            except (ValueError, KeyError) as exc:  # another board size or tile set than the journal's game
                log.warning("the emulated board cannot hold the journal's tile on %s: %s", square, exc)
        if picture:
            log.info("the emulated board laid again from the journal: %d tile(s)", len(picture))

    def _speech_trouble(self, error: Exception | None) -> None:
        """The voice failed (no sound device, espeak-ng broken) or speaks again: said on the page."""
        if error is None:
            self.table.clear_alert("speech_failed")
            return
        sound = getattr(error, "sound", "")
        why = Phrase("table", "speech_no_device", {"sound": sound}) if sound else \
            Phrase("table", "speech_error", {"error": str(error)})
        self.table.set_alert("speech_failed", level="warning", why=why)

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        t = threading.Thread(target=target, name=f"referee-{name}", daemon=True)
        t.start()
        self._threads.append(t)

    # --- sensors ----------------------------------------------------------------------------------

    def _sensor_squares(self) -> dict[str, str | None] | None:
        """The sensor board's squares as its last events said them; None without a board."""
        return self._board_squares if self.link is not None else None

    def refresh_picture(self) -> None:
        """Fuse the newest board picture and camera reading and hand it to the table."""
        mode = self.config.sensors.fusion
        sensors = self._sensor_squares() if mode in ("sensors", "both") else None
        # A lost camera's last reading is stale (it may predate the tiles now on the board): not used.
        cam = self.camera
        camera = cam.last if cam is not None and cam.up and mode in ("camera", "both") else None
        if mode == "camera" and camera is None:
            return
        picture: Picture = fuse(sensors, camera, self.config.sensors.min_confidence)
        self._compare_with_journal(picture)
        self.table.board_seen(picture)

    def _journal_squares(self) -> set[str]:
        """The squares the journal knows tiles on: the game's board and the last picture it recorded."""
        with self.table.reading() as now:
            return set(now.committed) | set(now.last_picture())

    def _compare_with_journal(self, picture: Picture) -> None:
        """From start until they agree: tiles on squares the journal never saw mean the journal is behind the
        board (a lost write-ahead log, a restored old backup). That is an alert, never silence."""
        if self._known_squares is None:
            return
        unknown = sorted(set(picture) - self._known_squares)
        if not unknown:
            self._known_squares = None
            self.table.clear_alert("journal_behind")
            return
        shown = ", ".join(unknown[:8]) + (" ..." if len(unknown) > 8 else "")
        log.error("the board holds tiles on %d squares the journal does not know (%s)", len(unknown), shown)
        self.table.set_alert("journal_behind", count=len(unknown), squares=shown)

    def _board_fits(self, hello: fe.Hello) -> str | None:
        """The link asks at each HELLO: why this board cannot play the table's game (then it is refused and
        tried again every few seconds, and the page says why), or None. The game's own kind, as journaled: a
        resumed game keeps its kind even if the file was edited."""
        from referee.board_fit import board_misfit

        with self.table.reading_unless_busy() as now:  # the link's thread must not wait for a stalled card
            kind = now.kind if now is not None else self.config.game.kind
        misfit = board_misfit(kind, hello.width, hello.height, hello.slots)
        if misfit is None:
            return None
        self.table.set_alert("board_unfit", why=misfit.phrase)
        return str(misfit)

    def _on_board_event(self, ev: fe.Event) -> None:
        """An observation of the sensor board (the link's thread). Its content is the board's reading: a changed
        square or tray slot is taken in as it says, a dump replaces the reading whole. The changes a dump found
        (`resync`) arrive just before it: they are taken in, and the dump makes the one picture of them."""
        try:
            if isinstance(ev, fe.BoardDump):
                self._board_squares = dict(ev.picture.squares)
                self._board_tray = dict(ev.picture.tray)
                # The first dump after the handshake says the board is there (LinkRestored only follows a loss).
                self.table.clear_alert("board_unfit")  # a board that fits was plugged in instead
                self.table.link("board", True)
            elif isinstance(ev, fe.SquareChanged):
                squares = {sq: letter for sq, letter in self._board_squares.items() if sq != ev.square}
                if ev.occupied:
                    squares[ev.square] = ev.letter
                self._board_squares = squares
            if isinstance(ev, fe.SquareChanged | fe.BoardDump):
                self._last_change = self.mono()
                if not (isinstance(ev, fe.SquareChanged) and ev.resync):
                    self.refresh_picture()
                self._look.set()  # a tile moved: the camera takes a look now, so its letter shows at once
            if isinstance(ev, fe.BoardDump) and self._tray_resynced:
                self._tray_resynced = False
                self.tray_changed()
            elif isinstance(ev, fe.LinkLost):
                self.table.link("board", False)
            elif isinstance(ev, fe.LinkRestored):  # the dump that follows brings the board as it is now
                self.table.link("board", True)
            elif isinstance(ev, fe.ButtonEvent) and ev.pressed and ev.button < len(self.config.game.players):
                self.request_commit(ev.button)
            elif isinstance(ev, fe.DiceTray):
                tray = {slot: held for slot, held in self._board_tray.items() if slot != ev.slot}
                if ev.die is not None and ev.face is not None:
                    tray[ev.slot] = (ev.die, ev.face)
                self._board_tray = tray
                if ev.resync:
                    self._tray_resynced = True
                else:
                    self.tray_changed()
        except Exception:  # an event must never kill the link's thread
            log.exception("board event %r failed", ev)

    def tray_changed(self) -> None:
        """Scramble: once the dice tray holds as many dice as the player rolls, their faces are the roll."""
        if self.link is None:
            return
        tray = self._board_tray
        with self.table.reading() as now:
            if now.state is not TableState.ROLL or not now.scramble:
                return
            expected = now.dice_to_draw
            dice = now.dice
        if len(tray) != expected:
            return
        try:
            held = [tray[s] for s in sorted(tray)]
            letters = "".join(dice[die].faces[face].letter for die, face in held)
            self.table.roll(letters, [die for die, _ in held])
        except (IndexError, ControlError) as exc:
            log.warning("the dice tray's roll was not taken: %s", exc)

    def _on_button(self, ev: ButtonEvent) -> None:
        """The Pi's own buttons (hardware.buttons.ButtonEvent)."""
        try:
            if ev.action == "clock" and ev.player is not None:
                self.request_commit(ev.player)
            elif ev.action == "challenge":
                with self.table.reading() as now:
                    challenger = now.on_turn
                self.table.control("challenge", {"player": challenger})
            elif ev.action == "pause":
                state = self.table.snapshot()["state"]
                self.table.control("resume" if state == TableState.PAUSED else "pause", {})
            elif ev.action == "confirm":
                self.table.control("accept", {})
        except ControlError as exc:
            log.info("button %s refused: %s", ev.action, exc)
        except Exception:
            log.exception("button event %r failed", ev)

    def request_commit(self, player: int) -> None:
        """A clock button was pressed: hand it to the commit worker (camera reads must not block the link)."""
        self._presses.put(player)

    def _commit_worker(self) -> None:
        while not self._stop.is_set():
            player = self._presses.get()
            if player is None:
                return
            try:
                self.commit(player)
            except Exception:
                log.exception("commit of player %s failed", player)

    def commit(self, player: int) -> bool:
        """A clock press taken to the table: the board still, a current camera frame, the picture, the press.
        The commit worker calls it for every press; `referee vision replay` calls it after each photo. False when
        the press was not taken to the table because the camera, the table's only eyes, could not see the board
        at the press (the `camera_blind` alert says why; the player presses again once the board is clear)."""
        # First the board must be still (a tile still being slid into place), then the camera looks.
        wait = self._last_change + self.config.sensors.settle_ms / 1000.0 - self.mono()
        if wait > 0:
            self._stop.wait(wait)
        if self.camera is not None and (not self._camera_current() or self.camera.blind):
            self.camera.read()  # a frame the reader doubted is looked at again: the hand may have gone
            self._camera_link()
        if self._camera_blind():
            return False
        self.refresh_picture()
        self.table.clear_alert("camera_blind")
        self.table.press_clock(player)
        return True

    def look(self) -> None:
        """One look of the camera between commits (the camera thread's round): a clear frame becomes the
        table's picture."""
        cam = self.camera
        if cam is None:
            return
        if cam.read() is not None:
            self.refresh_picture()
            self.table.clear_alert("camera_blind")
        self._camera_link()

    def _camera_blind(self) -> bool:
        """With the camera alone, a press whose frame the reader does not trust (a hand over the board, blur,
        something covers) must not be scored on an older frame: that frame may predate the tiles just laid, and
        the play would be read as a pass. The press is not taken; the `camera_blind` alert says why."""
        cam = self.camera
        if self.config.sensors.fusion != "camera" or cam is None or not cam.up or not cam.blind:
            return False
        self.table.set_alert("camera_blind", why=cam.blind)
        return True

    def _camera_current(self) -> bool:
        """Whether the camera's last good frame was taken after the board last changed (and lately): then it
        shows the board as it is, and the commit need not wait for another frame."""
        cam = self.camera
        if cam is None or cam.last_at is None or not cam.up:
            return False
        return cam.last_at >= self._last_change and self.mono() - cam.last_at < self.camera_fresh_s

    def _camera_link(self) -> None:
        if self.camera is not None:
            self.table.link("camera", self.camera.up)

    def retry_camera(self) -> bool:
        """Open the camera again if it is missing or lost, at most every `camera_retry_s` (the service's clock).
        The camera_lost alert stays up until it is back. True when a camera was opened."""
        opener = self.parts.camera_opener
        old = self.camera
        if opener is None or (old is not None and old.up):
            return False
        now = self.mono()
        if now < self._camera_retry_at:
            return False
        self._camera_retry_at = now + self.parts.camera_retry_s
        if old is not None:
            with contextlib.suppress(Exception):
                old.close()  # a lost camera is released first: left open, the device stays busy
        try:
            port = opener()
        except Exception as exc:
            log.warning("the camera is still not available (%s); next try in %.0f s", exc, self.parts.camera_retry_s)
            self.table.link("camera", False)
            return False
        port.clock = self.mono
        self._tell_camera_the_tiles(port)
        self.camera = port
        self.table.link("camera", True)
        log.info("the camera is back")
        return True

    def _tell_camera_the_tiles(self, port: CameraPort) -> None:
        """A camera opened mid-game (a restart, a camera back after a loss) learns the game's committed tiles,
        so that a bump before its first clear frame is mended against them (`vision` BoardReader.remember)."""
        remember = getattr(port.reader, "remember", None)
        if remember is None:
            return
        with self.table.reading() as now:
            tiles = {sq: "?" if ch.islower() else ch for sq, ch in now.committed.items()}
        if tiles:
            remember(tiles)

    def _camera_loop(self) -> None:
        """Read a frame every `camera_interval_s`, and soon after the board feels a tile move."""
        while not self._stop.is_set():
            self._look.wait(self.parts.camera_interval_s)
            self._look.clear()
            if self._stop.is_set():
                return
            try:
                self.retry_camera()
                if self.camera is None:
                    continue
                self.look()
                self.dice_seen()
                self.rack_seen()
            except Exception:
                log.exception("camera loop failed")

    def rack_seen(self) -> None:
        """At the end, with a camera on the rack area: the tiles a player lays there, every one read with
        confidence and as many as that player holds, are their rack left (players lay them one rack at a
        time, in the order the page asks). Anything doubtful leaves the rack to be typed on the page."""
        if self.camera is None or self.camera.rack_reader is None:
            return
        with self.table.reading() as now:
            if now.state is not TableState.RACKS or not now.racks_needed:
                return
            player = now.racks_needed[0]
            size = now.rack_size(player)
        tiles = self.camera.read_dice(self.camera.rack_reader)
        if tiles is None or len(tiles) != size:
            return
        if any(t.uncertain or t.confidence < self._dice_floor() for t in tiles):
            return
        try:
            self.table.control("racks", {"player": player, "tiles": "".join(t.letter for t in tiles)})
        except ControlError as exc:
            log.warning("the rack the camera read was not taken: %s", exc)

    def _dice_floor(self) -> float:
        """The confidence a die or a rack tile needs (referee.fusion.DICE_MIN_CONFIDENCE)."""
        return max(self.config.sensors.min_confidence, DICE_MIN_CONFIDENCE)

    def dice_seen(self) -> None:
        """Scramble with a camera on the dice tray: once it sees as many dice as the player rolls, each
        read with confidence, their letters are the roll. A doubtful die leaves the roll to be typed in."""
        if self.camera is None or self.camera.dice_reader is None:
            return
        with self.table.reading() as now:
            if now.state is not TableState.ROLL or not now.scramble:
                return
            expected = now.dice_to_draw
        dice = self.camera.read_dice()
        if dice is None or len(dice) != expected:
            return
        if any(d.uncertain or d.confidence < self._dice_floor() for d in dice):
            return
        try:
            self.table.roll("".join(d.letter for d in dice))
        except ControlError as exc:
            log.warning("the camera's roll was not taken: %s", exc)

    # --- the loop ---------------------------------------------------------------------------------

    def step(self) -> None:
        """One round of the service loop: timers due, heartbeat, outputs, watchdog, clocks on the page
        (`run` does the same from two places: the table's part on a thread, the rest on the page's loop)."""
        self.table_step()
        self.loop_step()

    def table_step(self) -> None:
        """Timers due, the heartbeat, the LED clocks, the page's clocks each second. This may wait for the disk
        (a timer's event is journaled before it takes effect), so `run` calls it on a thread of its own."""
        self.table.poll()
        if self._settings_kept_game is not None:
            self._settings_note_done()
        self.outputs.refresh()
        now = self.mono()
        if now - self._last_publish >= 1.0:
            self.table.publish()
            self._last_publish = now
        self._table_round_at = now

    def _settings_note_done(self) -> None:
        """The "settings kept" note stays up for the game that kept its settings, until it ends."""
        with self.table.reading() as now:
            over = now.state is TableState.ENDED
        if over or self.table.game_id != self._settings_kept_game:
            self._settings_kept_game = None
            self.table.clear_alert("settings_kept")

    def loop_step(self) -> None:
        """The watchdog and systemd's status line: never waits for the disk or the table."""
        now = self.mono()
        # A table round that ended lately, or one waiting for the disk (a stall is not a hang: restarting
        # would not make the card answer, and would stop the clocks for the time of a restart).
        if now - self._table_round_at < WATCHDOG_GRACE_S or self.journal.waiting_s() > 0:
            self.watchdog.ping()
        if self.watchdog.interval is not None and now - self._last_status >= 10.0:
            notify(f"STATUS={self.status()}")  # what `systemctl status referee` shows
            self._last_status = now

    def _table_loop(self) -> None:
        while not self._stop.is_set() and not self._table_loop_stop.is_set():
            try:
                self.table_step()
            except Exception:
                log.exception("the table's loop failed; it goes on")
            self._table_loop_stop.wait(STEP_S)

    async def run(self, stop: asyncio.Event | None = None, started: Callable[[], None] | None = None) -> None:
        """Serve until `stop` is set (or the task is cancelled)."""
        stop = stop or asyncio.Event()
        web_task = None
        if self.parts.web and self.config.web.enabled:
            web_task = await self._start_web()
        summary = self.status()
        notify(f"READY=1\nSTATUS={summary}")
        log.info("ready: %s", summary)
        self.ready.set()
        if started is not None:
            started()
        self._table_loop_stop.clear()
        table_thread = threading.Thread(target=self._table_loop, name="referee-table", daemon=True)
        table_thread.start()
        try:
            while not stop.is_set():
                self.loop_step()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), STEP_S)
        finally:
            self._table_loop_stop.set()
            await asyncio.to_thread(table_thread.join, 10)
            notify("STOPPING=1")
            if web_task is not None:
                web_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await web_task

    async def _start_web(self) -> asyncio.Task[None] | None:
        from referee.web import serve

        web = self.config.web
        started = asyncio.Event()
        task = asyncio.create_task(serve(self.table, web.host, web.port, web.pin or None, started=started,
                                         director_pin=web.director_pin or None,
                                         allowed_hosts=web.allowed_hosts))
        done, _ = await asyncio.wait({task, asyncio.create_task(started.wait())},
                                     return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # raises: the port is taken, say so at start
        from referee.web.addresses import page_urls

        self.web_listen, self.web_urls = page_urls(web.host, web.port, self.config.table.language)
        self.web_url = self.web_urls[0]
        return task

    def status(self) -> str:
        snap = self.table.snapshot()
        players = ", ".join(f"{p['name']} {p['score']}" for p in snap["players"])
        where = f"; page {self.web_url}" if self.web_url else ""
        return f"game {self.table.game_id} {snap['state']}: {players}{where}"

    def __enter__(self) -> TableService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the threads, the sensors and the outputs, record table time, release the journal and the state
        directory. Safe to call again (a `with` block and a signal handler may both close the service)."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._look.set()
        self._presses.put(None)
        for t in self._threads:
            t.join(timeout=5)
        if self.link is not None:
            self.link.stop()
        if self.camera is not None:
            self.camera.close()
        self.outputs.close()
        if self.announcer is not None:
            self.announcer.close()
        if self.tournament is not None:
            self.tournament.stop()  # saves the broker cursor and says "offline"
        self.table.checkpoint()  # a clean stop loses no clock time at all
        self.journal.close()
