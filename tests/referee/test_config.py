from __future__ import annotations

from pathlib import Path

import pytest

from referee.config import Config, ConfigError, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "referee.example.toml"

MINIMAL = """
[game]
players = ["Anna", "Ben"]
[sensors]
board = "emulator://15x15?coded=1&buttons=2"
[web]
pin = "730591"
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_annotated_example_loads_once_its_pin_is_changed(tmp_path: Path) -> None:
    from referee.pin_policy import EXAMPLE_PIN

    text = EXAMPLE.read_text(encoding="utf-8")
    assert f'pin = "{EXAMPLE_PIN}"' in text
    with pytest.raises(ConfigError, match=r"web\.pin: is the example file's PIN"):
        load_config(EXAMPLE)  # copied unchanged, the published PIN would guard the table
    c = load_config(_write(tmp_path, text.replace(EXAMPLE_PIN, "730591")))
    assert c.game.players == ("Anna", "Ben")
    assert c.clocks.mode == "tournament"
    assert c.hardware is not None and c.hardware.buttons.clock == (5, 6)
    assert c.web.pin == "730591"


@pytest.mark.parametrize(("pin", "reason"), [
    ("0000", "at least 6"),
    ("1234", "at least 6"),
    ("71946", "at least 6"),
    ("000000", "first PINs anyone tries"),
    ("123456", "first PINs anyone tries"),
    ("987654", "first PINs anyone tries"),
    ("121212", "first PINs anyone tries"),
    ("123123", "first PINs anyone tries"),
    ("\u00b2\u00b2\u00b2\u00b2\u00b2\u00b2", "digits 0-9"),  # "²" is a digit to str.isdigit
    ("\u0663\u0661\u0664\u0661\u0665\u0669", "digits 0-9"),  # Arabic-Indic digits
    ("39 0217", "digits 0-9"),
    ("1234567890123", "at most 12"),
    ("390217", "the demo's PIN, printed in the README"),  # published like the example file's
])
def test_weak_pin_is_refused_at_start_saying_why(tmp_path: Path, pin: str, reason: str) -> None:
    path = _write(tmp_path, MINIMAL.replace('"730591"', f'"{pin}"'))
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    assert exc.value.key == "web.pin" and reason in exc.value.reason


def test_minimal_file_gets_documented_defaults(tmp_path: Path) -> None:
    c = load_config(_write(tmp_path, MINIMAL))
    assert c.game.kind == "standard" and c.game.edition == "english"
    assert c.game.challenge == "double"
    assert c.clocks.minutes_per_player == 25.0
    assert c.web.port == 8080


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        ("[game]\nplayres = []\n", "game.playres", "unknown key"),
        ("[gmae]\nkind = 'standard'\n", "[gmae]", "unknown section"),
        ("[game]\nkind = 'chess'\n", "game.kind", "must be one of"),
        ("[game]\nplayers = ['Solo']\n", "game.players", "2 to 4"),
        ("[clocks]\nminutes_per_player = 'ten'\n", "clocks.minutes_per_player", "must be a number"),
        ("[clocks]\nminutes_per_player = 0\n", "clocks.minutes_per_player", "between 1 and 600"),
        ("[web]\nport = 70000\n", "web.port", "between 1 and 65535"),
        ("[web]\npin = '12'\n", "web.pin", "at least 6"),
        ("[web]\nenabled = 'yes'\n", "web.enabled", "true or false"),
        ("[outputs]\ndevices = 'gpio'\n", "outputs.devices", "must be one of"),
        ("game = 3\n", "game", "must be a section"),
        ("[sensors]\ndice_tray = [1, 2]\n", "sensors.dice_tray", "[x, y, width, height]"),
        ("[sensors]\nboard = 'emulator'\n", "sensors.board", "neither a device path"),
        ("[sensors]\nboard = 'ttyACM0'\n", "sensors.board", "\"/dev/ttyACM0\""),
        ("[sensors]\nboard = 'http://board.local'\n", "sensors.board", "nor a pyserial URL"),
        ("[sensors]\nboard = 'emulator://99x99'\n", "sensors.board", "does not fit the protocol"),
        ("[sensors]\nboard = 'emulator://15x15?colour=red'\n", "sensors.board", "unknown emulator option 'colour'"),
        ("[sensors]\nboard = 'emulator://15x15?bounce_ms=x'\n", "sensors.board", ""),
        ("[sensors]\nboard = 3\n", "sensors.board", "must be a string"),
        ("[sensors]\nboard = 'emulator://15x15?buttons=-1'\n", "sensors.board", "buttons -1 is outside"),
        ("[sensors]\nboard = 'emulator://15x15?buttons=300'\n", "sensors.board", "buttons 300 is outside"),
        ("x = " + "[" * 3000 + "]" * 3000 + "\n", "", "nested too deeply"),
    ],
)
def test_wrong_key_or_value_names_file_key_and_reason(tmp_path: Path, text: str, key: str, reason: str) -> None:
    path = _write(tmp_path, text + "\n[web]\npin = '730591'\n" if "[web]" not in text else text)
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    assert exc.value.key == key
    assert reason in exc.value.reason
    assert str(path) in str(exc.value) and key in str(exc.value)


def test_web_without_pin_is_refused_there_is_no_default(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"web\.pin: .*no default"):
        load_config(_write(tmp_path, "[sensors]\nboard = '/dev/ttyACM0'\n"))


def test_camera_fusion_needs_a_camera_source() -> None:
    with pytest.raises(ConfigError, match=r"sensors\.camera"):
        parse_config({"sensors": {"fusion": "both", "board": "emulator://"}, "web": {"enabled": False}})


def test_dice_tray_needs_a_camera() -> None:
    data = {"sensors": {"board": "emulator://", "dice_tray": [0, 0, 100, 100]}, "web": {"enabled": False}}
    with pytest.raises(ConfigError, match=r"sensors\.dice_tray: .*camera"):
        parse_config(data)


def test_scramble_refuses_tournament_clocks() -> None:
    data = {"game": {"kind": "scramble"}, "clocks": {"mode": "tournament"}, "web": {"enabled": False},
            "sensors": {"board": "emulator://"}}
    with pytest.raises(ConfigError, match=r"clocks\.mode"):
        parse_config(data)


def test_devices_need_a_hardware_section() -> None:
    data = {"outputs": {"devices": "real"}, "web": {"enabled": False}, "sensors": {"board": "emulator://"}}
    with pytest.raises(ConfigError, match=r"outputs\.devices: .*\[hardware\]"):
        parse_config(data)


def test_hardware_section_is_checked_by_the_hardware_parser_and_named_in_the_file(tmp_path: Path) -> None:
    text = MINIMAL + "[hardware]\nplayers = 2\n[hardware.buzzer]\npin = 17\n[hardware.buttons]\nclock = [17, 27]\n"
    with pytest.raises(ConfigError) as exc:
        load_config(_write(tmp_path, text))
    assert str(tmp_path) in str(exc.value) and exc.value.key.startswith("hardware")
    assert "17" in exc.value.reason


def test_unreadable_and_broken_files_say_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(_write(tmp_path, "[game\n"))
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"[table]\nname = '\xe4'\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(bad)


def test_defaults_are_a_valid_config_object() -> None:
    assert isinstance(Config(), Config)


@pytest.mark.parametrize("url", ["/dev/ttyACM0", "/dev/serial/by-id/usb-Raspberry_Pi_Pico-if00",
                                 "emulator://15x15?coded=1&buttons=2", "emulator://", "socket://192.0.2.1:7000"])
def test_board_urls_the_link_can_open_are_taken(url: str) -> None:
    c = parse_config({"sensors": {"board": url}, "web": {"enabled": False}})
    assert c.sensors.board == url


def test_paths_may_start_at_the_home_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    c = parse_config({"table": {"state_dir": "~/referee"}, "sensors": {"board": "/dev/ttyACM0"},
                      "web": {"enabled": False}})
    assert c.table.state_dir == tmp_path / "referee"


# --- rule options of the engine offered in the file ------------------------------------------------------

def _game(**keys: object) -> Config:
    board = "emulator://" if keys.get("kind", "standard") == "standard" else "emulator://9x9"  # the game's board
    return parse_config({"game": keys, "web": {"enabled": False}, "sensors": {"board": board}})


def test_end_racks_defaults_to_the_rule_sets_own_and_takes_each_way_or_double() -> None:
    assert _game().game.end_racks == ""
    assert _game(end_racks="double").game.end_racks == "double"
    assert _game(edition="german", end_racks="each-way").game.end_racks == "each-way"


@pytest.mark.parametrize(("keys", "key", "reason"), [
    ({"end_racks": "2x"}, "game.end_racks", "must be one of 'each-way', 'double'"),
    ({"end_racks": True}, "game.end_racks", "must be one of"),
    ({"kind": "scramble", "end_racks": "double"}, "game.end_racks", "Scramble has no racks"),
])
def test_bad_rule_options_name_the_key_and_reason(keys: dict[str, object], key: str, reason: str) -> None:
    with pytest.raises(ConfigError) as exc:
        _game(**keys)
    assert exc.value.key == key and reason in exc.value.reason


def test_challenge_bonus_per_word_needs_a_points_rule() -> None:
    assert _game().game.challenge_bonus_per_word is False
    assert _game(challenge="ten-point", challenge_bonus_per_word=True).game.challenge_bonus_per_word is True
    with pytest.raises(ConfigError, match=r"game\.challenge_bonus_per_word: only the \"five-point\" and "
                                          r"\"ten-point\" challenge rules give a bonus, not 'double'"):
        _game(challenge_bonus_per_word=True)
    with pytest.raises(ConfigError, match=r"game\.challenge_bonus_per_word: must be true or false, not 'yes'"):
        _game(challenge="five-point", challenge_bonus_per_word="yes")


def test_losing_on_time_is_offered_with_the_tournament_clocks() -> None:
    base = {"web": {"enabled": False}, "sensors": {"board": "emulator://"}}
    assert parse_config(base).clocks.on_max_overtime == "flag"
    c = parse_config({**base, "clocks": {"mode": "tournament", "on_max_overtime": "lose",
                                         "overtime_limit_minutes": 5}})
    assert (c.clocks.on_max_overtime, c.clocks.overtime_limit_minutes) == ("lose", 5.0)
    with pytest.raises(ConfigError, match=r"clocks\.on_max_overtime: must be one of 'flag', 'lose', not 'forfeit'"):
        parse_config({**base, "clocks": {"mode": "tournament", "on_max_overtime": "forfeit"}})
    with pytest.raises(ConfigError, match=r"clocks\.on_max_overtime: losing on time needs the tournament clocks"):
        parse_config({**base, "clocks": {"mode": "turn", "on_max_overtime": "lose"}})


def _taught(tmp_path: Path, language: str = "en") -> Path:
    from game.scramble.dice import load_dice_set

    shipped = load_dice_set("english" if language == "en" else "german")
    path = tmp_path / "mine.json"
    path.write_text(shipped.to_json().replace('"name": "' + shipped.name + '"', '"name": "mine"'), encoding="utf-8")
    return path


def test_scramble_dice_by_name_or_from_a_taught_file(tmp_path: Path) -> None:
    assert _game(kind="scramble").game.dice_set is None  # the edition's shipped set
    assert _game(kind="scramble", dice="german", edition="german").game.dice_set.name == "german"
    c = _game(kind="scramble-advanced", dice=str(_taught(tmp_path)))
    assert c.game.dice == str(tmp_path / "mine.json") and c.game.dice_set.name == "mine"


@pytest.mark.parametrize(("keys", "reason"), [
    ({"dice": "english"}, "dice are for Scramble"),
    ({"kind": "scramble", "dice": ""}, "must not be empty"),
    ({"kind": "scramble", "dice": 7}, "must be a string"),
    ({"kind": "scramble", "dice": "/nowhere/mine.json"},
     "cannot read the dice file '/nowhere/mine.json' (No such file or directory); give a dice set file"),
    ({"kind": "scramble", "dice": "german"}, "the dice set 'german' is for language 'de', but game.edition = "
                                            "'english' plays in 'en'"),
])
def test_bad_dice_name_the_key_and_reason(keys: dict[str, object], reason: str) -> None:
    with pytest.raises(ConfigError) as exc:
        _game(**keys)
    assert exc.value.key == "game.dice" and reason in exc.value.reason


def test_a_broken_dice_file_is_refused_at_start_naming_the_file_and_the_die(tmp_path: Path) -> None:
    path = _taught(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('["Q", 10]', '["Q", 10], ["Q", 10]', 1),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_config(_write(tmp_path, MINIMAL.replace("[game]", f"[game]\nkind = 'scramble'\ndice = '{path}'")
                           .replace("15x15", "9x9")))
    assert exc.value.key == "game.dice" and str(tmp_path / "table.toml") in str(exc.value)
    assert f"{path}: die " in exc.value.reason and "a die has 6 faces, not 7" in exc.value.reason
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"game\.dice: .*mine\.json: not a dice set file"):
        _game(kind="scramble", dice=str(path))


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Windows Notepad saves UTF-8 with a byte-order mark: it was refused as "Invalid statement (line 1, column 1)"."""
    from referee.pin_policy import EXAMPLE_PIN

    text = EXAMPLE.read_text(encoding="utf-8").replace(EXAMPLE_PIN, "730591")
    path = tmp_path / "table.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))  # Notepad: BOM and CRLF
    c = load_config(path)
    assert c.game.players == ("Anna", "Ben") and c.web.pin == "730591"
    twice = tmp_path / "twice.toml"  # a mark saved twice is no text a person wrote: said in words, not columns
    twice.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf[table]\n")
    with pytest.raises(ConfigError, match="byte-order mark"):
        load_config(twice)


@pytest.mark.parametrize(("director", "reason"), [
    ("80461735", "at least 10"),
    ("1234567890", "first PINs anyone tries"),
    ("730591", "at least 10"),
])
def test_a_directors_code_must_be_long_as_nothing_locks_it(tmp_path: Path, director: str, reason: str) -> None:
    path = _write(tmp_path, MINIMAL + f'director_pin = "{director}"\n')
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    assert exc.value.key == "web.director_pin" and reason in exc.value.reason


def test_a_directors_code_is_taken_beside_the_table_pin(tmp_path: Path) -> None:
    assert load_config(_write(tmp_path, MINIMAL + 'director_pin = "8046173529"\n')).web.director_pin == "8046173529"


def test_the_simulated_table_keeps_its_published_pin() -> None:
    from referee.pin_policy import DEMO_PIN
    from referee.sim.parts import sim_config

    assert sim_config(web=False).web.pin == DEMO_PIN


def test_allowed_hosts_are_host_names(tmp_path: Path) -> None:
    ok = load_config(_write(tmp_path, MINIMAL + 'allowed_hosts = ["Table3.club.example", "referee-pi"]\n'))
    assert ok.web.allowed_hosts == ("table3.club.example", "referee-pi")
    with pytest.raises(ConfigError) as exc:
        load_config(_write(tmp_path, MINIMAL + 'allowed_hosts = ["http://evil/"]\n'))
    assert exc.value.key == "web.allowed_hosts" and "is not a host name" in exc.value.reason
