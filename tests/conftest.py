"""Shared test set-up: the hypothesis profiles (see ``profiles.py``), and
compiled bytecode for the processes the tests start.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs more examples per property.

Many tests run the ``chess960`` command (or another Python) as a subprocess.
Where ``PYTHONDONTWRITEBYTECODE`` is set, as on the shared machines, every
one of them would compile the package from source again; so for the run,
bytecode goes to a temporary directory of its own (``PYTHONPYCACHEPREFIX``),
which is removed at the end: nothing is written beside the sources.
"""

import os
import shutil
import tempfile

import profiles  # noqa: F401  (registers and loads the profiles)
import pytest

_PREFIX_KEY = "chess960_pycache_prefix"


def pytest_configure(config: pytest.Config) -> None:
    # The marker is registered in pyproject.toml; a copy of tests/ run without
    # it (CI runs the suite against the installed wheel) registers it here.
    if not any(line.startswith("slow:") for line in config.getini("markers")):
        config.addinivalue_line("markers", "slow: a whole-family or every-id check")
    # Only the first process (not an xdist worker, which inherits the setting).
    if hasattr(config, "workerinput"):
        return
    if "PYTHONPYCACHEPREFIX" in os.environ:
        return
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        prefix = tempfile.mkdtemp(prefix="chess960-tests-pycache-")
        setattr(config, _PREFIX_KEY, prefix)
        os.environ["PYTHONPYCACHEPREFIX"] = prefix
        del os.environ["PYTHONDONTWRITEBYTECODE"]


def pytest_unconfigure(config: pytest.Config) -> None:
    made = getattr(config, _PREFIX_KEY, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
