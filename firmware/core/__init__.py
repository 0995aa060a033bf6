"""The table core: what every game's table is (its machine, settling, the turn and its
repair, choices and takebacks, start and resume, lights), the events it tells in one
vocabulary, the hourglass and the LED palette. It knows no process, socket or far seat;
below it only the store, the game contract and hardware."""
