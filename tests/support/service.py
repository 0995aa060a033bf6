"""The table service in the test's own process: its commands carried out, its loop running.

``Pressed`` carries out the control socket's commands on a harness's table and keeps every
button input they became; ``running_service`` runs a towers table's whole service loop on
the simulated devices, with its command socket open (the ``service`` fixture).
"""

from __future__ import annotations

import json
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.towers.game import TowersGame
from firmware.service.command_runner import CommandRunner
from firmware.service.command_socket import CommandServer
from firmware.service.commands import parse
from firmware.service.loop import TableService
from firmware.service.table_maker import TableMaker
from firmware.store.journal import Journal
from firmware.towers.table import TowersTable
from firmware.towers.view import view_of
from hardware.devices import open_table
from hardware.profile import load_profile
from tests.support.tables import TableHarness


class Pressed:
    """A stand-in service whose table records every button input it is given."""

    def __init__(self, helper: TableHarness) -> None:
        self.helper = helper
        self.table = helper.table
        self.inputs: list[tuple[str, str]] = []
        real = self.table.on_button

        def on_button(event: Any, now: float) -> None:
            self.inputs.append((event.button, event.kind))
            real(event, now)

        self.table.on_button = on_button
        self.runner = CommandRunner(self, TableMaker(load_profile("sim"), helper.journal))

    def do(self, name: str, **fields: Any) -> dict:
        return self.runner.carry_out(parse(json.dumps({"command": name, **fields})),
                                       self.helper.now)


@contextmanager
def running_service(state: Path, block_set: Any) -> Iterator[types.SimpleNamespace]:
    """A towers table's service on ``state`` (made here): its loop on a thread, its
    command socket open; what it runs on (``dir``, ``service``, ``devices``, ``journal``)."""
    state.mkdir()
    devices = open_table(load_profile("sim"))
    journal = Journal(state)
    table = TowersTable(TowersGame(block_set), journal, toss_s=0.2)
    running = TableService(devices, table, view_of, pin_dir=state)  # as `obelisk run` makes it
    running.load_pin()
    server = CommandServer(state, running, TableMaker(load_profile("sim"), journal)).open()
    loop = threading.Thread(target=running.run, daemon=True)
    loop.start()
    try:
        yield types.SimpleNamespace(dir=state, service=running, devices=devices,
                                    journal=journal)
    finally:
        server.close()
        running.stopping.set()
        loop.join(10)
        devices.close()
