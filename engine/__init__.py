"""Pure rules of the Obelisk Table games.

Nothing in this package does I/O, reads a clock, starts a thread or
touches hardware: a state and an action go in, a new state or a clear
error comes out. The firmware builds everything else on top of it.
"""
