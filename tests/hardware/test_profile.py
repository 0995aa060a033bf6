"""Hardware profiles: the built-ins load, and bad ones are refused helpfully."""

from __future__ import annotations

import os

import pytest

from hardware.profile import (
    BUILT_IN,
    MAX_PROFILE_BYTES,
    ProfileError,
    load_profile,
    parse_profile,
)


@pytest.mark.parametrize("name", BUILT_IN)
def test_built_in_profiles_load(name):
    profile = load_profile(name)
    assert profile.name == name
    assert profile.chains, "every built-in table has LEDs"


def test_the_sim_profile_is_all_simulated():
    profile = load_profile("sim")
    assert profile.simulated and profile.buttons.pin_factory == "mock"
    assert {chain.output for chain in profile.chains} <= {"sim", "scanner"}


GOOD = """
name = "mine"
[scanner]
port = "/dev/ttyACM0"
board = "5x5"
[buttons]
player_a = "GPIO5"
[[leds.chain]]
output = "pi"
pin = "D18"
parts = ["ring A 8", "ring B 8", "board"]
"""


def test_a_minimal_profile_gets_sensible_defaults():
    profile = parse_profile(GOOD, "mine.toml")
    assert (profile.scanner.rows, profile.scanner.cols, profile.scanner.baud) == (5, 5, 115200)
    assert profile.buttons.player_b == "GPIO27" and profile.brightness == 0.3
    assert profile.chains[0].parts[-1] == ("board", "", 25)


@pytest.mark.parametrize(("change", "words"), [
    (("board = \"5x5\"", "board = \"9x9\""), ["[scanner] board = '9x9'", "3x3 to 8x8"]),
    (("player_a = \"GPIO5\"", "player_a = \"GPIO27\""),
     ["player_b and player_a both use GPIO27", "own pin"]),
    (("player_a = \"GPIO5\"", "player_a = \"pin five\""), ["is not a GPIO pin", "GPIO17"]),
    (("player_a = \"GPIO5\"", "palyer_a = \"GPIO5\""), ["unknown key 'palyer_a'", "player_a"]),
    (("pin = \"D18\"", "pin = \"D4\""), ["cannot drive NeoPixels", "D18"]),
    (("\"ring A 8\"", "\"ring C 8\""), ["part 'ring C 8' is unknown", "ring A 16"]),
    (("\"ring B 8\"", "\"ring A 9\""), ["'ring A' is on two chains"]),
    (("\"ring A 8\"", "\"ring A 99\""), ["a ring has 1 to 64 pixels"]),
    (("output = \"pi\"", "output = \"laser\""), ["output = 'laser'", "sim, pi, scanner"]),
    (("[scanner]", "[scanner]\nbaud = \"fast\""), ["baud = 'fast' should be a whole number"]),
    (("[scanner]", "[scanner]\nbaud = 99999999999999999"),
     ["[scanner] baud = 99999999999999999 is out of range", "300 to 4000000", "115200"]),
    (("[scanner]", "[scanner]\nbaud = 0"), ["baud = 0 is out of range"]),
    (("port = \"/dev/ttyACM0\"", "port = \"\""), ["[scanner] port = '' is not a serial port",
                                                  "/dev/ttyACM0"]),
    (("name = \"mine\"", "name = "), ["not valid TOML"]),
    (("board = \"5x5\"", "board = \"5x5\"\nstack_levels = 4"),
     ["stack_levels = 4", "2 to 3 (stack-height sensors"]),
    (("board = \"5x5\"", "board = \"none\"\nstack_levels = 2"),
     ["stack_levels = 2, but board = \"none\""]),
    (("port = \"/dev/ttyACM0\"", "port = \"gpio\"\nstack_levels = 2"),
     ["needs more drive lines"]),
])
def test_bad_profiles_name_the_key_the_problem_and_the_fix(change, words):
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(ProfileError) as err:
        parse_profile(text, "mine.toml")
    message = str(err.value)
    assert message.startswith("mine.toml")
    for word in words:
        assert word in message


def test_a_scanner_chain_needs_a_scanner_board():
    text = GOOD.replace('port = "/dev/ttyACM0"', 'port = "gpio"').replace(
        'output = "pi"\npin = "D18"', 'output = "scanner"')
    with pytest.raises(ProfileError, match="no scanner board"):
        parse_profile(text, "mine.toml")


def test_profile_files_and_unknown_names(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(GOOD, "utf-8")
    assert load_profile(path).name == "mine"
    with pytest.raises(ProfileError, match="use one of sim, sim-maze, reference, gpio-only"):
        load_profile("kitchen")


@pytest.mark.parametrize("value", ["5", "1.5", "true", "\"ring A 4\"", "{ output = \"sim\" }"])
def test_leds_chain_that_is_no_list_of_tables_is_refused(value):
    with pytest.raises(ProfileError) as err:
        parse_profile(f"[leds]\nchain = {value}\n", "mine.toml")
    message = str(err.value)
    assert message.startswith("mine.toml: [leds] chain = ")
    assert "[[leds.chain]]" in message


@pytest.mark.parametrize("baud", [299, 4_000_001, 2**31, 99999999999999999, -115200])
def test_a_baud_out_of_range_is_refused_before_it_reaches_the_port(baud):
    with pytest.raises(ProfileError, match=rf"\[scanner\] baud = {baud} is out of range"):
        parse_profile(f"[scanner]\nbaud = {baud}\n", "mine.toml")
    assert parse_profile("[scanner]\nbaud = 4000000\n", "mine.toml").scanner.baud == 4_000_000


def test_a_profile_path_that_is_no_regular_file_is_refused_without_reading(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    for path in (str(tmp_path), "/dev/zero", str(fifo)):
        with pytest.raises(ProfileError) as err:
            load_profile(path)
        assert str(err.value).startswith(f"profile {path}: cannot be read (it is a ")
        assert "not a regular file)" in str(err.value)
        assert "sim, sim-maze, reference, gpio-only" in str(err.value)


def test_a_huge_profile_file_is_refused(tmp_path):
    huge = tmp_path / "huge.toml"
    huge.write_text(GOOD + "#" * MAX_PROFILE_BYTES, "utf-8")
    with pytest.raises(ProfileError, match=r"huge.toml: cannot be read \(it is larger than such "
                                           r"a file can be \(at most 64 KiB\)"):
        load_profile(huge)
    with pytest.raises(ProfileError, match="no profile"):
        load_profile(tmp_path / "missing.toml")
