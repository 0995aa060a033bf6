"""The readers of a table's events: the page on the players' phones (``web``) and the
club's publisher and page (``club``). They read the event stream and send commands; the
table never waits for them."""
