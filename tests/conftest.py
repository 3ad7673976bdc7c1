from __future__ import annotations

import pytest

from tests.doubles import tally


@pytest.fixture(autouse=True, scope="session")
def _register_test_double() -> None:
    tally.install()
