"""CircuitPython boot.py: open the second USB serial channel for the protocol.

The first channel stays the REPL console; the Pi talks to the data channel.
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
