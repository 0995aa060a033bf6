"""The store: what the table keeps on disk (the journal, sealed facts, finished games, the
state directory) and the replay that rebuilds a game from it. Imports nothing above it."""
