"""The service: the table core and its settling, the hourglass, the computer's seat, the
loop between the devices and the table, the event vocabulary and stream, the command
socket, the PIN and diag. Below it only the store, the game contract and hardware."""
