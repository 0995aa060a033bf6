"""A match: two tables that play one game through the club's broker. The other table's seat
here and the match's setting (``seat``), what one table asks the other (``asks``) and the
asks as one pure protocol (``negotiation``), the service's handlers of the match's commands
(``commands``), and ``obelisk remote``, the link between a table and the broker (``link``,
with its two sides, the match it follows, what crosses and how it is sealed). Its modules sit
at three levels: the seat, the asks and their protocol with the far seats, the commands with
the service, the link with the readers."""
