"""The controller service that runs on the Pi, and the ``obelisk`` command."""
