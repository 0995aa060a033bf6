"""The obelisk command as a person uses it."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from engine.towers.blocks import Colour
from firmware.cli import main


def test_rules_towers_prints_the_rules_with_the_real_numbers(capsys):
    assert main(["rules", "towers"]) == 0
    out = capsys.readouterr().out
    for colour in Colour:
        assert f"- {colour.label} ({colour.volume} cube" in out
        point = "point" if abs(colour.points) == 1 else "points"
        assert f"{colour.count} blocks, {colour.points:+d} {point} each" in out
    assert "60 seconds" in out and "sudden-death" in out and "29" in out


def test_rules_follow_the_options(capsys):
    assert main(["rules", "towers", "--hourglass", "45", "--sudden-death"]) == 0
    out = capsys.readouterr().out
    assert "45 seconds" in out and "Now on." in out


def test_a_bad_set_file_is_refused_with_the_reason(tmp_path: Path, capsys):
    bad = tmp_path / "set.toml"
    bad.write_text('[[block]]\nid = "X1"\ncolour = "green"\ncells = [[0,0,0]]\n', "utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "towers", "--set", str(bad)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --set: set file {bad}: block X1: a green block has 4 cubes" in err


@pytest.mark.parametrize("command", [["rules", "towers"], ["run"], ["demo", "towers"]])
@pytest.mark.parametrize("seconds", ["-3", "0", "0.001", "9.9", "601", "inf", "nan", "1e400"])
def test_an_hourglass_out_of_its_range_is_refused(capsys, command, seconds):
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--hourglass", seconds])
    assert exit_.value.code == 2
    assert "the hourglass is 10 to 600 seconds" in capsys.readouterr().err


@pytest.mark.processes
def test_the_installed_command(tmp_path: Path):
    scripts = Path(sys.executable).parent
    obelisk = scripts / "obelisk"
    assert obelisk.exists(), "the obelisk command is not installed: run ./setup.sh"
    version = subprocess.run([obelisk, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"obelisk {metadata.version('obelisk-table')}"
    helped = subprocess.run([obelisk, "--help"], capture_output=True, text=True, check=True)
    assert "rules" in helped.stdout


def test_rules_stones_speak_the_editions_words(capsys):
    assert main(["rules", "stones"]) == 0
    classic = capsys.readouterr().out
    assert "cornerstone" in classic and "Vault:" in classic and "Pillar:" in classic
    assert main(["rules", "stones", "--edition", "second", "--mode", "bounded",
                 "--size", "8x5", "--ply-limit", "200"]) == 0
    second = capsys.readouterr().out
    assert "base, a pedestal" in second and "Ra's Revenge:" in second
    assert "cornerstone" not in second and "Now: bounded play" in second
    assert "8 rows between the players and 5 columns" in second and "(now 200)" in second
    with pytest.raises(SystemExit):
        main(["rules", "stones", "--size", "9x9"])
    assert "a stones board is 4x4 to 8x8" in capsys.readouterr().err  # its own, as --help
    with pytest.raises(SystemExit):
        main(["rules", "stones", "--size", "3x3"])
    assert "a stones board is 4x4 to 8x8, not 3x3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["rules", "highrise", "--size", "2x2"])
    assert "a highrise board is 3x3 to 8x8, not 2x2" in capsys.readouterr().err


def test_rules_highrise_follow_the_board_size(capsys):
    assert main(["rules", "highrise"]) == 0
    three = " ".join(capsys.readouterr().out.split())
    assert ("25 pyramids in their own colours: 5 small (1 pip), 10 medium (2 pips) and 10 "
            "large (3 pips). From a Looney Pyramids set that is 2 stashes each") in three
    assert main(["rules", "highrise", "--size", "5x5"]) == 0
    assert ("70 pyramids in their own colours: 20 small (1 pip), 25 medium (2 pips) and 25 "
            "large (3 pips). From a Looney Pyramids set that is 5 stashes each") in \
        " ".join(capsys.readouterr().out.split())


def test_rules_maze_follow_the_turn_limit(capsys):
    assert main(["rules", "maze", "--turns", "25"]) == 0
    text = capsys.readouterr().out
    assert "within 25 turns" in text and "both ways round its corner" in text
    with pytest.raises(SystemExit):
        main(["rules", "maze", "--turns", "18"])


@pytest.mark.processes
def test_the_command_line_imports_no_game_and_the_service_only_its_own():
    """Every engine costs start-up time (the service must be ready within 0.3 s), so
    ``obelisk --help`` imports none, and a towers service only towers."""
    probe = ("import sys\n"
             "import firmware.cli\n"
             "from firmware.cli_parser import build_parser\n"
             "build_parser()\n"
             "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('engine.')}))\n"
             "from firmware.games import GAMES\n"
             "from firmware.run import run_service\n"
             "from firmware.towers.table import TowersTable\n"
             "GAMES['towers'].make(GAMES['towers'].options())\n"
             "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('engine.')"
             " and m.count('.') > 1}))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "['errors']"
    assert out[1] == "['towers']"


@pytest.mark.processes
def test_importing_the_command_line_leaves_the_importers_signals_be():
    """Only the ``obelisk`` program ends at once on a stop while it starts; code that
    imports firmware.cli (a test run, a bench) keeps its own answer to SIGTERM and Ctrl-C."""
    probe = ("import signal\n"
             "before = [signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)]\n"
             "import firmware.cli\n"
             "print([signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)] == before)\n")
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert got.stdout.strip() == "True", got.stderr


def test_the_flags_words_are_the_engines():
    """The registry writes each flag's words so that building the parser imports no
    engine; here they are checked against the engines' own."""
    from engine.maze.game import TURN_LIMITS
    from engine.stones.game import Edition, Mode
    from firmware.contract import load
    from firmware.games import GAMES

    flags = {f.name: f for game in GAMES.values() for f in game.flags}
    assert flags["--turns"].choices == TURN_LIMITS
    assert flags["--mode"].choices == tuple(m.value for m in Mode)
    assert flags["--edition"].choices == tuple(e.value for e in Edition)
    for game in GAMES.values():
        for flag in game.flags:
            if flag.enum:
                assert tuple(e.value for e in load(flag.enum)) == flag.choices


@pytest.mark.parametrize(("given", "words"), [
    (["--broker", "mqtt://127.0.0.1:1"], "--broker needs --table too"),
    (["--table", "ta"], "--table needs --broker too"),
    (["--broker", "mqtt://127.0.0.1:1", "--table", "ta", "--config", "mqtt.toml"],
     "either --broker with --table, or a configuration file (--config), not both"),
])
def test_the_link_says_which_of_its_broker_options_is_missing_or_too_many(
        given, words, tmp_path, capsys):
    assert main(["remote", "--state-dir", str(tmp_path), *given]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
