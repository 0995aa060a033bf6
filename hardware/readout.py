"""What a table's devices read, drawn as text: the towers' grids, the board, the load cells,
the buttons and the scanner link's health. ``obelisk diag`` (``firmware.diag``) shows it
live, and the running service draws it of its own devices when diag asks it."""

from __future__ import annotations

from hardware.devices import TableDevices
from hardware.sensors import BoardStatus, Snapshot


def render_towers(snapshot: Snapshot) -> list[str]:
    """Both towers, top level first; each level shows rows 3, 2, 1 of rods a-c."""
    towers = snapshot.layout.towers
    if not towers:
        return []
    lines = ["   " + "    ".join(f"tower {'AB'[t]}".ljust(11) for t in range(towers))]
    for z in reversed(range(snapshot.layout.levels)):
        groups = []
        for t in range(towers):
            cells = snapshot.tower_cells(t)
            rows = ["".join("#" if (x, y, z) in cells else "." for x in range(3))
                    for y in reversed(range(3))]
            groups.append(" ".join(rows))
        lines.append(f"{z + 1:>2} " + "    ".join(groups))
    lines.append("   " + "    ".join("r3  r2  r1 " for _ in range(towers)))
    return lines


def render_board(snapshot: Snapshot, walls: bool = False) -> list[str]:
    """The board squares, top row first; ``walls``: the second switch sees maze walls.

    The board's hello says only how many switches each square has (2 for
    stack heights up to 2 and for the maze alike), so the profile tells
    which: with ``walls`` a square shows o (a piece), w (a wall) or W (both).
    """
    lay = snapshot.layout
    if not lay.rows:
        return []
    if walls and lay.stack == 2:
        pieces, standing = snapshot.board_level(0), snapshot.board_level(1)
        lines = [f"board {lay.rows}x{lay.cols} with wall switches (o piece, w wall, W both)"]
        for r in reversed(range(lay.rows)):
            row = " ".join("W" if (r, c) in pieces and (r, c) in standing
                           else "o" if (r, c) in pieces else "w" if (r, c) in standing else "."
                           for c in range(lay.cols))
            lines.append(f"{r + 1:>2} {row}")
        lines.append("   " + " ".join("abcdefgh"[: lay.cols]))
        return lines
    heights = dict(snapshot.square_heights())
    lines = [f"board {lay.rows}x{lay.cols}"
             + (f" (stack heights up to {lay.stack})" if lay.stack > 1 else "")]
    for r in reversed(range(lay.rows)):
        row = " ".join("." if (r, c) not in heights else "o" if lay.stack == 1
                       else str(heights[(r, c)]) for c in range(lay.cols))
        lines.append(f"{r + 1:>2} {row}")
    lines.append("   " + " ".join("abcdefgh"[: lay.cols]))
    return lines


def render(devices: TableDevices, led_note: str = "") -> str:
    """One screen of the diagnostic view."""
    profile = devices.profile
    link = devices.link
    h = link.health
    bad = ", ".join(f"{k} {v}" for k, v in sorted(h.bad_frames.items())) or "0"
    kind = "simulated table" if profile.simulated else f"scanner on {profile.scanner.port}"
    out = [f"obelisk diag: profile {profile.name} ({kind})",
           f"link: {'connected' if h.connected else 'NOT CONNECTED'}, "
           f"{'synced' if link.synced else 'waiting for a snapshot'}; frames {h.frames}, "
           f"bad frames {bad}, sequence gaps {h.gaps}, reconnects {h.reconnects}, "
           f"resyncs {h.resyncs}"]
    for missing in devices.missing():
        out.append(f"MISSING {missing.device}: {missing.words}")
    if h.layout_mismatch:
        out.append(f"LAYOUT MISMATCH: {h.layout_mismatch}")
    elif h.last_error and not link.synced:
        out.append(f"last error: {h.last_error}")
    out.append(f"scanner: {_figures(h.board_status)}")
    snapshot = link.snapshot()
    if snapshot is None:
        out.append(f"waiting for the scanner board on {link.port} ...")
    else:
        out.append(f"firmware: {snapshot.layout.firmware}")
        out += render_towers(snapshot)
        out += render_board(snapshot, walls=profile.scanner.wall_sensors)
        if snapshot.loads:
            out.append("load cells (raw): " + " ".join(str(v) for v in snapshot.loads))
    if any(m.device == "buttons" for m in devices.missing()):
        out.append("buttons: not readable here (see MISSING above)")
    else:
        buttons = "  ".join(f"{name} {'DOWN' if devices.buttons.is_pressed(name) else 'up'}"
                            for name in devices.buttons.buttons)
        recent = ", ".join(f"{e.button} {e.kind}"
                           for e in devices.buttons.events[-4:]) or "none"
        out.append(f"buttons: {buttons}; last events: {recent}")
    if led_note:
        out.append(led_note)
    return "\n".join(out)


def _figures(status: BoardStatus | None) -> str:
    """The board's own measured periods (the one true figure for this table)."""
    if status is None:
        return "no figures from the board yet (it sends them with its heartbeat, each second)"
    dropped = (f"; {status.dropped} frames dropped since it started (the Pi did not read)"
               if status.dropped else "")
    return status.words() + dropped
