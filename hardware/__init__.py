"""The table's devices and their simulated twins: the scanner link, buttons, LEDs, profiles."""
