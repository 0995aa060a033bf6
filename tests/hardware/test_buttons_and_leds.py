"""Buttons and buzzer on gpiozero mock pins; LEDs on pixel buffers."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonEvent, TableButtons
from hardware.leds import LedError, Leds
from hardware.profile import load_profile, parse_profile
from hardware.scanner import obelisk_proto as proto


@pytest.fixture
def buttons():
    config = replace(load_profile("sim").buttons, hold_s=0.08)
    heard = []
    device = TableButtons(config, pin_factory=MockFactory(), on_event=heard.append)
    device.heard = heard
    yield device
    device.close()


def test_a_press_confirms_and_a_hold_undoes(buttons):
    buttons.press("A")
    buttons.press("B", hold=True)
    buttons.press("menu")
    assert buttons.heard == [ButtonEvent("A", "press"), ButtonEvent("B", "hold"),
                             ButtonEvent("menu", "press")]
    assert buttons.events == buttons.heard


def test_the_pins_are_the_ones_in_the_profile(buttons):
    assert str(buttons.buttons["A"].pin) == "GPIO17"
    assert str(buttons.buzzer.pin) == "GPIO23"
    buttons.buttons["A"].pin.drive_low()
    assert buttons.is_pressed("A") and not buttons.is_pressed("B")
    buttons.buttons["A"].pin.drive_high()


def test_the_buzzer_beeps_on_its_pin(buttons):
    buttons.beep(times=2, on_s=0.01, off_s=0.01)
    time.sleep(0.2)
    states = [s.state for s in buttons.buzzer.pin.states]
    assert states.count(True) == 2


def test_logical_leds_map_onto_chains_in_profile_order():
    sent = []
    leds = Leds(load_profile("sim"), send=lambda kind, body: sent.append((kind, body)))
    assert leds.locate(("ring", "A", 0)) == (0, 0)
    assert leds.locate(("ring", "B", 0)) == (0, 16)
    assert leds.locate(("tower", "B", 8)) == (0, 16 + 16 + 9 + 8)
    assert leds.locate(("board", "", 63)) == (1, 63)
    assert len(list(leds.keys())) == 16 + 16 + 9 + 9 + 2 + 64
    with pytest.raises(IndexError, match="ring A has pixels 0 to 15"):
        leds.locate(("ring", "A", 16))
    with pytest.raises(KeyError, match="no LED part 'tower C'"):
        leds.locate(("tower", "C", 0))


def test_show_records_sim_frames_and_sends_scanner_frames():
    sent = []
    leds = Leds(load_profile("sim"), send=lambda kind, body: sent.append((kind, body)))
    leds[("zone", "", 1)] = (1, 2, 3)
    leds[("board", "", 2)] = (200, 100, 0)
    leds.show()
    sim_chain = leds.chains[0]
    assert sim_chain.frames[-1][16 + 16 + 18 + 1] == (1, 2, 3)
    assert [kind for kind, _ in sent] == [proto.LED_FRAME]
    start, rgb = proto.unpack_leds(sent[0][1])
    assert start == 0 and len(rgb) == 3 * 64
    assert rgb[6:9] == bytes(round(v * 0.3) for v in (200, 100, 0))  # brightness applied


def test_pi_leds_off_a_pi_say_what_to_do():
    profile = parse_profile('[[leds.chain]]\noutput = "pi"\nparts = ["ring A 4"]\n', "p.toml")
    with pytest.raises(LedError, match=r"needs a Raspberry Pi.*use the sim profile"):
        Leds(profile, model=None)  # no Pi: whatever this machine is


def test_show_sends_only_the_chains_that_changed():
    sent = []
    leds = Leds(load_profile("sim"), send=lambda kind, body: sent.append(kind))
    leds[("ring", "A", 0)] = (1, 1, 1)
    leds.show()
    assert sent == [] and len(leds.chains[0].frames) == 1   # the board chain stayed put
    leds[("board", "", 0)] = (1, 1, 1)
    leds.show()
    assert sent == [proto.LED_FRAME] and len(leds.chains[0].frames) == 1


def test_buttons_nobody_touches_keep_no_thread_awake():
    """gpiozero's Button times holds on a thread per button that wakes ten times a
    second, all day; here a hold is timed only while a button is down."""
    import threading

    before = threading.active_count()
    config = replace(load_profile("sim").buttons, hold_s=0.08)
    device = TableButtons(config, pin_factory=MockFactory())
    try:
        assert threading.active_count() == before
        device.buttons["A"].pin.drive_low()
        assert threading.active_count() == before + 1  # the hold's timer, while it is down
        device.buttons["A"].pin.drive_high()
    finally:
        device.close()


def test_a_press_let_go_before_the_hold_is_only_a_press():
    heard = []
    config = replace(load_profile("sim").buttons, hold_s=30.0)
    device = TableButtons(config, pin_factory=MockFactory(), on_event=heard.append)
    try:
        device.buttons["B"].hold_time = 0.01  # as a demo shortens it
        device.press("B", hold=True)
        device.press("A")
        assert heard == [ButtonEvent("B", "hold"), ButtonEvent("A", "press")]
    finally:
        device.close()
