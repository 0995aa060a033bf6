"""Towers' rules, pure: the blocks, a tower's packing, the turns and what the sensors read."""
