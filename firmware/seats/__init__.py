"""The far seats: a seat played from afar at this table, by the computer (``solo``) or by a
friend at another table (``remote``, with the asks between the two tables), and which seat
a table is made with (``seating``). Above the core, which they read but never change."""
