"""What the tests share: the harnesses they drive and the rules every run keeps.

Tests reach these through fixtures (``tests/conftest.py``) or by importing them from here;
no test module imports another.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The project's checkout: the folder holding engine/, hardware/, firmware/ and tests/."""
