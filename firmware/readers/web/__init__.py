"""``obelisk web``: the table's page, served from its event stream."""
