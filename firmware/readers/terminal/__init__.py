"""The terminal's reader: the table's events drawn as lines and boards, for the demos,
``obelisk watch`` and the log of ``obelisk run``."""
