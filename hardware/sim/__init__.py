"""The simulated twins of the devices: the table's physical truth (``table``), the real
scanner code run behind a pseudo-terminal (``local_board``), the board as a process of its
own (``board``) and the hands' line socket."""
