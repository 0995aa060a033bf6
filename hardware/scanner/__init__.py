"""Code that runs on the scanner board; on the Pi it is imported for tests and the sim."""
