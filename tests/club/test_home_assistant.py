"""Home Assistant's discovery: published retained, and only when the table's owner asks."""

from __future__ import annotations

import json

import pytest

from tests.support.broker import Heard
from tests.support.club import ended, start_publisher
from tests.support.processes import until


@pytest.mark.processes
@pytest.mark.parametrize("home_assistant", [True, False])
def test_home_assistant_discovery_is_retained_and_only_when_asked(tmp_path, broker,
                                                                   home_assistant):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker, "homeassistant/#,obelisk/#")
    publisher = start_publisher(state, broker, "ha",
                                f"home_assistant = {str(home_assistant).lower()}")
    try:
        # the state is published after discovery on the same connection, so it is heard after
        until(lambda: heard.on("obelisk/ha/state"), 30, "the table's state")
    finally:
        assert ended(publisher) == 0
        heard.close()
    discovery = heard.matching("homeassistant/")
    if not home_assistant:
        assert discovery == []
        return
    assert sorted(t for t, _ in discovery) == [
        "homeassistant/binary_sensor/obelisk_ha/status/config",
        "homeassistant/sensor/obelisk_ha/game/config"]
    late = Heard(broker, "homeassistant/#", client_id="home-assistant")  # retained for it
    try:
        until(lambda: len(late.messages) == 2, 20, "the retained discovery configs")
        assert all(retained for _, _, retained in late.messages)
        configs = {t.split("/")[1]: json.loads(p) for t, p, _ in late.messages}
    finally:
        late.close()
    status, game = configs["binary_sensor"], configs["sensor"]
    assert (status["state_topic"], status["payload_on"], status["payload_off"]) == (
        "obelisk/ha/status", "online", "offline")
    assert game["state_topic"] == game["json_attributes_topic"] == "obelisk/ha/state"
    assert game["availability_topic"] == "obelisk/ha/status"
    assert status["unique_id"] != game["unique_id"]
    assert status["device"] == game["device"] and status["device"]["identifiers"] == [
        "obelisk_ha"]
