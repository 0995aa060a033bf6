"""The simulated table's people and processes: the demos' runner, a person's hands and
fingers on the simulated board, and ``obelisk play``'s three processes."""
