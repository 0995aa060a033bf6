"""The service process: the loop between the devices and the table, the event stream and
the command socket with the commands' vocabulary and handlers, the PIN. Below it the table
core and the far seats."""
