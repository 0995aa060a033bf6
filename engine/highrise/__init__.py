"""High Rise's rules, pure: the hidden values, the pyramids and what the sensors read."""
