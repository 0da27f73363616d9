"""Shared test set-up: the hypothesis profiles (see ``profiles.py``).

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs more examples per property.
"""

import profiles  # noqa: F401  (registers and loads the profiles)
import pytest


def pytest_configure(config: pytest.Config) -> None:
    # The marker is registered in pyproject.toml; a copy of tests/ run without
    # it (CI runs the suite against the installed wheel) registers it here.
    if not any(line.startswith("slow:") for line in config.getini("markers")):
        config.addinivalue_line("markers", "slow: a whole-family or every-id check")
