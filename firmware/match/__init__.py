"""A game between two tables: the asks between them as one pure protocol (``negotiation``)."""
