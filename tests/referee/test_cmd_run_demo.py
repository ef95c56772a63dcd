"""The commands as a user runs them: `referee demo` (what `make run` does) and `referee run` refusing a bad file."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.sim.parts import SIM_PIN

from .wordlists import write_word_list


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.pty
def test_demo_command_plays_the_builtin_game_and_says_where_to_watch(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.run([sys.executable, "-m", "referee", "demo", "--pause", "0", "--exit", "--no-camera",
                           "--port", str(port), "--state-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"watch the game at http://127.0.0.1:{port}/" in proc.stdout
    assert "every one of 10 totals agrees with the record" in proc.stdout
    assert (tmp_path / "games.sqlite3").is_file()


def test_run_refuses_a_bad_configuration_naming_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[clocks]\nmode = 'hourglass'\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "referee", "run", "--config", str(bad)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert f"{bad}: clocks.mode: must be one of" in proc.stderr


def test_run_needs_a_lexicon_for_a_real_german_table(tmp_path: Path) -> None:
    # An English table without game.lexicon plays with the shipped ENABLE; a German one needs its list named.
    cfg = tmp_path / "table.toml"
    cfg.write_text("[table]\nlanguage = 'de'\n[game]\nedition = 'german'\n[sensors]\nboard = '/dev/ttyACM0'\n"
                   "[web]\npin = '730591'\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "referee", "run", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "REFEREE_DATA_DIR": str(tmp_path / "data")})
    assert proc.returncode == 2 and "game.lexicon: a german table needs a lexicon" in proc.stderr


@pytest.mark.pty
def test_run_tells_systemd_it_is_ready_and_pings_the_watchdog(
        tmp_path: Path, emulated_table_file: Callable[[str], Path]) -> None:
    """What `Type=notify` and `WatchdogSec=` rely on: READY=1 once the table is up, then WATCHDOG=1."""
    import os
    import signal

    cfg = emulated_table_file("enabled = false")
    sock_path = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(sock_path)
        sock.settimeout(60)
        env = {**os.environ, "NOTIFY_SOCKET": sock_path, "WATCHDOG_USEC": "1000000"}
        proc = subprocess.Popen([sys.executable, "-m", "referee", "run", "--config", str(cfg)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        try:
            messages: list[str] = []
            while not any(m.startswith("WATCHDOG=1") for m in messages):
                messages.append(sock.recv(4096).decode())
            ready = next(m for m in messages if "READY=1" in m)
            assert "STATUS=game 1 waiting: Player 1 0, Player 2 0" in ready
            assert messages[0].startswith("STATUS=loading the lexicon\nEXTEND_TIMEOUT_USEC=")
            assert messages.index(ready) < len(messages) - 1  # the watchdog pings come after READY
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(20)
        assert proc.returncode == 0


@pytest.mark.parametrize(("name", "edition"), [("german/nu19_timon-alex.gcg", "german"),
                                               ("liwords/pkg_omgwords_testdata_vs_josh.gcg", "english")])
def test_demo_plays_a_record_with_the_tiles_its_letters_need(shared_dir: Path, name: str, edition: str) -> None:
    from referee.commands.demo import record_edition
    from referee.demo import load_record

    assert record_edition(load_record(str(shared_dir / "gcg" / name))) == edition


def test_run_on_a_port_in_use_names_web_port(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    write_word_list(words)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        cfg = tmp_path / "table.toml"
        cfg.write_text(f"""
[table]
state_dir = "{tmp_path / 'state'}"
[game]
lexicon = "{words}"
[sensors]
board = "/dev/ttyACM0"
[web]
host = "127.0.0.1"
port = {port}
pin = "730591"
""", encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "referee", "run", "--config", str(cfg)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1
    assert f"referee: {cfg}: web.port: port {port} is already in use" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "state" / "games.sqlite3").exists()  # no game row for a table that never served


def test_run_with_an_unresolvable_host_exits_2_before_opening_a_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    def no_such_host(*args: object, **kwargs: object) -> object:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)  # no resolver is asked: tests stay off the network
    words = tmp_path / "words.txt"
    write_word_list(words)
    cfg = tmp_path / "table.toml"
    cfg.write_text(f"[table]\nstate_dir = \"{tmp_path / 'state'}\"\n[game]\nlexicon = \"{words}\"\n"
                   "[sensors]\nboard = \"/dev/ttyACM0\"\n[web]\nhost = \"referee-pi.lcoal\"\npin = \"730591\"\n",
                   encoding="utf-8")
    assert main(["run", "--config", str(cfg)]) == 2  # a configuration error: systemd does not restart it
    err = capsys.readouterr().err
    assert err.startswith(f"referee: {cfg}: web.host: 'referee-pi.lcoal' is not an address of this Pi")
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "state" / "games.sqlite3").exists()


def test_sim_options_with_a_configuration_are_refused_not_ignored(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["run", "--config", str(tmp_path / "table.toml"), "--port", "9000", "--state-dir", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("referee: --port, --state-dir are for --sim; with --config the file says it (web.port")


@pytest.mark.pty
def test_run_with_an_emulated_board_in_the_file_says_where_it_is(emulated_table_file: Callable[[str], Path]) -> None:
    import os
    import signal

    cfg = emulated_table_file(f'host = "127.0.0.1"\nport = {_free_port()}\npin = "730591"')
    proc = subprocess.Popen([sys.executable, "-m", "referee", "run", "--config", str(cfg)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = ""
        while "sensor board emulator at" not in line:
            line = proc.stdout.readline()
            assert line, "the referee ended without naming its emulator"
        assert line.rstrip().endswith("start the game on the page") and "730591" not in line
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


@pytest.mark.pty
def test_ctrl_c_stops_the_demo_mid_game_not_at_the_records_end(tmp_path: Path) -> None:
    import os
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "referee", "demo", "--pause", "30", "--exit", "--no-camera",
                             "--port", str(_free_port()), "--state-dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = ""
    while "engine" not in line:  # the first move is played; the robot now pauses 30 s before the next
        line = proc.stdout.readline()
        assert line, "the demo ended before its first move"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)  # well before the 30 s pause, let alone the record's end
    assert proc.returncode == 130, out + err
    assert "referee demo: stopped after 1 move: Anna 44, Ben 0" in out and "Traceback" not in err


@pytest.mark.pty
def test_demo_of_a_record_with_one_wrong_total_says_so_and_exits_one(tmp_path: Path) -> None:
    record = tmp_path / "slip.gcg"
    record.write_text("#player1 Anna Anna\n#player2 Ben Ben\n>Anna: ?AEIQUZ 8E QUIZ +45 45\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "referee", "demo", str(record), "--pause", "0", "--exit",
                           "--no-camera", "--port", str(_free_port()), "--state-dir", str(tmp_path / "state")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "referee demo: 1 total differs from the record:\n  line 3 (>Anna: ?AEIQUZ 8E QUIZ +45 45): " \
           "engine total 44, record 45" in proc.stdout


def test_demo_of_a_record_in_another_language_says_which_letters(tmp_path: Path) -> None:
    from game.errors import RefereeError
    from game.gcg import parse_gcg
    from referee.commands.demo import record_edition

    record = parse_gcg("#player1 a a\n#player2 b b\n>a: ĄBCDEĘF 8G ĄĘ +10 10\n")
    with pytest.raises(RefereeError, match="the record's letters ĄĘ are neither English nor German tiles"):
        record_edition(record)


@pytest.mark.pty
def test_run_sim_keeps_the_terminal_for_commands_and_says_where_the_game_is_on_ctrl_c(tmp_path: Path) -> None:
    # A German simulated table: its terminal speaks German, the web server's log goes to the state folder's
    # referee.log (not between the commands typed), and Ctrl-C names the journal and the export command.
    import os
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "referee", "run", "--sim", "--no-camera", "--language", "de",
                             "--port", str(_free_port()), "--state-dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    seen = []
    while not any("Sensorbrett-Emulator" in line for line in seen):
        line = proc.stdout.readline()
        assert line, "the simulated table ended before naming its emulator: " + "".join(seen)
        seen.append(line)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    said = "".join(seen) + out
    assert "Partie 1 vor dem Start: Anna 0, Ben 0" in said
    assert f"das Spiel auf der Seite starten (PIN {SIM_PIN})" in said
    assert f"Journal {tmp_path / 'games.sqlite3'}" in said
    assert f"games export 1 --gcg --state-dir {tmp_path}" in said
    assert " INFO " not in said + err  # the log is in the file, warnings alone reach the terminal
    assert " INFO " in (tmp_path / "referee.log").read_text(encoding="utf-8")
    assert "Traceback" not in err


def test_demo_of_a_german_record_is_a_german_table_under_the_records_end_rack_rule(shared_dir: Path,
                                                                                     tmp_path: Path) -> None:
    # nu19_timon-alex ends with (ERYH) +28: twice the rack to the player out, as `referee gcg check` reads it.
    from referee.journal import Journal

    record = shared_dir / "gcg" / "german" / "nu19_timon-alex.gcg"
    if not record.is_file():
        pytest.skip("no shared German records")
    proc = subprocess.run([sys.executable, "-m", "referee", "demo", str(record), "--pause", "0", "--exit",
                           "--no-camera", "--port", str(_free_port()), "--state-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "referee demo: alle 26 Stände stimmen mit dem Partieformular überein" in proc.stdout  # a German terminal
    assert "die Partie läuft unter http://127.0.0.1:" in proc.stdout
    journal = Journal(tmp_path / "games.sqlite3")
    try:
        setup = journal.games()[-1].setup
    finally:
        journal.close()
    assert setup["language"] == "de" and setup["edition"] == "german" and setup["end_racks"] == "double"
