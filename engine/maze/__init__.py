"""The maze's rules, pure: the board, the walls, the obelisk's plan and what the sensors read."""
