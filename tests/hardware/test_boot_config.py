"""config.txt keeps one "Obelisk Table" block, the one the Pi it boots needs, however often
setup.sh runs and whichever Pi the SD card moved from; a person's own lines stay theirs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hardware.boot_config import BLOCK_HEADING, boot_config
from hardware.pi_models import pi_model
from tests.support import ROOT

FRESH = ("# For more options and information see\n# http://rptl.io/configtxt\n\n"
         "dtparam=audio=on\n\n[all]\n")
"""A Raspberry Pi OS config.txt before setup.sh (the lines tools/pi-root.sh writes)."""
PI_4, PI_3, PI_5 = ("Raspberry Pi 4 Model B Rev 1.4", "Raspberry Pi 3 Model B Rev 1.2",
                    "Raspberry Pi 5 Model B Rev 1.0")
OLD_PI_4_BLOCK = (f"\n{BLOCK_HEADING}\n[all]\ndtparam=spi=on\ncore_freq_min=500\n")
"""What setup.sh appended on a Pi 4 before it kept one block (word for word)."""


def _for(model: str, text: str) -> str:
    return boot_config(text, pi_model(model).boot_config).text


def _blocks(text: str) -> list[list[str]]:
    """Each block of the table's: its lines after the heading, up to the next blank one."""
    found = []
    for part in text.split(BLOCK_HEADING)[1:]:
        found.append(part.strip("\n").split("\n\n")[0].splitlines())
    return found


def test_a_card_moved_from_a_pi_4_to_a_pi_3_keeps_one_block_for_the_pi_3():
    moved = _for(PI_3, FRESH + OLD_PI_4_BLOCK)
    assert _blocks(moved) == [["[all]", "dtparam=spi=on", "core_freq=250"]], moved
    assert "core_freq_min" not in moved and moved.startswith(FRESH)


@pytest.mark.parametrize("path", [(PI_4, PI_3, PI_4), (PI_3, PI_5, PI_4), (PI_4, PI_5)])
def test_a_card_moved_between_models_always_holds_the_one_block_its_pi_needs(path):
    text = FRESH
    for model in path:
        text = _for(model, text)
        wanted = list(pi_model(model).boot_config)
        assert _blocks(text) == ([["[all]", *wanted]] if wanted else []), (model, text)
        assert _for(model, text) == text  # a second run on the same Pi changes nothing
    assert text.startswith(FRESH)


def test_a_block_setup_wrote_before_stays_as_it_is_on_the_same_pi():
    assert _for(PI_4, FRESH + OLD_PI_4_BLOCK) == FRESH + OLD_PI_4_BLOCK


def test_two_blocks_left_by_an_older_setup_become_one():
    """main before issue 49 added a second block on a Pi 3 card that had a Pi 4's."""
    twice = FRESH + OLD_PI_4_BLOCK + f"\n{BLOCK_HEADING}\n[all]\ncore_freq=250\n"
    assert _blocks(_for(PI_3, twice)) == [["[all]", "dtparam=spi=on", "core_freq=250"]]


def test_a_persons_own_lines_stay_and_their_settings_are_not_overruled():
    own = FRESH + "core_freq=400\n" + OLD_PI_4_BLOCK + "dtoverlay=i2c-rtc,ds3231\n"
    made = boot_config(own, pi_model(PI_3).boot_config)
    assert "dtoverlay=i2c-rtc,ds3231\n" in made.text  # appended right after the block: kept
    assert made.text.count("core_freq=") == 1 and "core_freq=400" in made.text
    assert _blocks(made.text) == [["[all]", "dtparam=spi=on"]]
    assert made.notes == ("config.txt sets core_freq=400; the LEDs want core_freq=250, so it "
                          "is left for you to decide",)


@pytest.mark.processes
def test_setup_rewrites_the_block_through_the_command(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text(FRESH + OLD_PI_4_BLOCK, "utf-8")
    run = subprocess.run([sys.executable, "-m", "hardware.boot_config", str(config),
                          "--model", PI_3], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert _blocks(run.stdout) == [["[all]", "dtparam=spi=on", "core_freq=250"]]
    assert "-m hardware.boot_config" in (ROOT / "setup.sh").read_text("utf-8")
