"""Stones' rules, pure: the board, the three stones a player and what the sensors read."""
