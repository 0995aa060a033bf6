"""The far seats: a seat played from afar at this table (``far_seat``), by the computer
(``solo``) or by a friend at another table (``firmware.match.seat``, with the asks between
the two tables), and which seat a table is made with (``seating``). Above the core, which
they read but never change."""
