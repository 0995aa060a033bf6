"""The table's devices and their simulated twins (issue 3 fills this in)."""
