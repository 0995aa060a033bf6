"""High Rise weights: sizes within tolerance, and every change that is no move."""

from __future__ import annotations

import json
import os
import stat

import pytest

from engine.errors import NothingPlacedError
from engine.highrise.game import HighriseGame, Place, Size
from engine.highrise.sensing import (
    Calibration,
    CalibrationError,
    WeightError,
    check_covers,
    read_placement,
)
from engine.players import Player
from firmware.highrise.calibrate import FILE, load_calibration, save_calibration
from firmware.store.seal import KEY_FILE, Sealer, SealError

CAL = Calibration.measured((500,) * 9, (700, 1300, 1900), noise=20)
BASE = (500 + 1900,) * 9
S, M, L = Size.SMALL, Size.MEDIUM, Size.LARGE


def _after(**added):
    reading = list(BASE)
    for index, counts in added.items():
        reading[int(index[1:])] += counts
    return tuple(reading)


@pytest.fixture
def state():
    return HighriseGame().state_with((3,) * 9, Player.A)


def test_the_tolerance_is_a_third_of_the_closest_gap():
    assert CAL.tolerance == 200
    assert CAL.size_of(700 + 199) is S and CAL.size_of(1300 - 200) is M
    assert CAL.size_of(1000) is None and CAL.size_of(0) is None


def test_pieces_too_alike_are_refused_at_calibration():
    with pytest.raises(CalibrationError, match="too close to tell apart"):
        Calibration.measured((0,), (700, 720, 1900), noise=5)
    with pytest.raises(CalibrationError, match="too close"):
        Calibration.measured((0,), (700, 1300, 1900), noise=150)   # noisier than a third


@pytest.mark.parametrize(("size", "counts"), [(S, 690), (M, 1350), (L, 1870)])
def test_one_square_heavier_by_one_piece_is_a_placement(state, size, counts):
    assert read_placement(state, BASE, _after(p4=counts), CAL) == Place((1, 1), size)


@pytest.mark.parametrize(("after", "words", "squares"), [
    (_after(p0=700, p8=1300), "a1 and c3 changed at once", ((0, 0), (2, 2))),
    (_after(p2=-1900), "the stack on c1 got lighter", ((0, 2),)),
    (_after(p3=1000), "weighs like no pyramid", ((1, 0),)),
    (_after(p3=4000), "weighs like no pyramid", ((1, 0),)),        # two at once on one square
])
def test_changes_that_are_no_placement_name_the_squares(state, after, words, squares):
    with pytest.raises(WeightError, match=words) as caught:
        read_placement(state, BASE, after, CAL)
    assert caught.value.squares == squares


def test_noise_below_the_tolerance_is_nothing(state):
    with pytest.raises(NothingPlacedError):
        read_placement(state, BASE, _after(p1=150, p2=-150), CAL)


def test_every_square_must_carry_its_cover_and_nothing_else(state):
    check_covers(state, BASE, CAL)                            # within the tolerance: set
    check_covers(state, _after(p0=150, p8=-150), CAL)
    with pytest.raises(WeightError, match=r"put a cover .* on b1") as caught:
        check_covers(state, _after(p1=-1900, p5=700), CAL)   # one fix at a time, in order
    assert caught.value.squares == ((0, 1),)
    with pytest.raises(WeightError, match="c2 holds more than its cover") as caught:
        check_covers(state, _after(p5=700), CAL)
    assert caught.value.squares == ((1, 2),)


def test_the_calibration_file_round_trips_and_bad_ones_say_how_to_fix(tmp_path):
    save_calibration(tmp_path, CAL)
    assert load_calibration(tmp_path, 9) == CAL
    with pytest.raises(CalibrationError, match="measured on 9 load cells, but this board has 25"):
        load_calibration(tmp_path, 25)
    (tmp_path / FILE).write_text('{"zero": [1, 2], "sizes": [3]}')
    with pytest.raises(CalibrationError, match=r"damaged.*obelisk calibrate highrise"):
        load_calibration(tmp_path, 2)
    (tmp_path / FILE).write_text(json.dumps({"zero": [0] * 9, "sizes": [9, 5, 1],
                                             "tolerance": 1}))
    with pytest.raises(CalibrationError, match="three piece sizes"):
        load_calibration(tmp_path, 9)
    with pytest.raises(CalibrationError, match=r"not calibrated.*is missing"):
        load_calibration(tmp_path / "nowhere", 9)


def test_sealed_values_round_trip_and_hide_their_contents(tmp_path):
    sealer = Sealer(tmp_path)
    secret = {"seed": 123456789, "base": [2400, 2401]}
    text = sealer.seal(secret)
    assert "123456789" not in text and "seed" not in text
    assert sealer.seal(secret) != text                      # a fresh nonce every time
    assert Sealer(tmp_path).unseal(text) == secret          # a restart opens it
    mode = stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode)
    assert mode == 0o600                                    # only the service's user


def test_a_changed_or_foreign_seal_is_refused(tmp_path):
    text = Sealer(tmp_path / "a").seal({"seed": 1})
    flipped = text[:30] + ("A" if text[30] != "A" else "B") + text[31:]
    with pytest.raises(SealError, match="changed"):
        Sealer(tmp_path / "a").unseal(flipped)
    Sealer(tmp_path / "b").seal({})                         # another table's key
    with pytest.raises(SealError, match="another key"):
        Sealer(tmp_path / "b").unseal(text)
    with pytest.raises(SealError, match="base64"):
        Sealer(tmp_path / "a").unseal("not base64 at all!")
    with pytest.raises(SealError, match="missing"):
        Sealer(tmp_path / "c").unseal(text)
