"""The CLI tests run `skillforge` as a user does, in a process of its own."""

import pytest


@pytest.fixture(autouse=True)
def _warm(warm_caches):
    """Each process finds the caches an earlier run would have left (tests/conftest.py)."""
