"""Shared test set-up: the hypothesis profiles (see ``profiles.py``), and
compiled bytecode for the processes the tests start.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs more examples per property.

Many tests run the ``chess960`` command (or another Python) as a subprocess.
Where ``PYTHONDONTWRITEBYTECODE`` is set, as on the shared machines, every
one of them would compile the package from source again; so bytecode (and
pytest's rewritten test modules) goes to a directory of pytest's cache
(``.pytest_cache``, ``PYTHONPYCACHEPREFIX``), kept from run to run so that
only what changed is compiled again (3 to 4 s less a run here): nothing is
written beside the sources. Without pytest's cache (``-p no:cacheprovider``)
a temporary directory serves, removed at the end.

Typer's test runner (``CliRunner.invoke(app, ...)``) builds the whole Click
command from the app on every call, a twentieth of a second each, as long as
most commands take to answer; the command is built once here for as long as the
app declares the same commands (the installed command builds its own once a
run, too).
"""

import os
import shutil
import tempfile
from collections.abc import Callable
from typing import Any

import profiles  # noqa: F401  (registers and loads the profiles)
import pytest
import typer.testing

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
        cache = getattr(config, "cache", None)
        if cache is not None:
            prefix = str(cache.mkdir("chess960-pycache"))
        else:
            prefix = tempfile.mkdtemp(prefix="chess960-tests-pycache-")
            setattr(config, _PREFIX_KEY, prefix)  # (removed at the end)
        os.environ["PYTHONPYCACHEPREFIX"] = prefix
        del os.environ["PYTHONDONTWRITEBYTECODE"]


def pytest_unconfigure(config: pytest.Config) -> None:
    made = getattr(config, _PREFIX_KEY, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)


def _declared(app: Any) -> tuple[object, ...]:
    """What the Click command is built from: the app's commands, groups and
    callbacks (by identity: a test that replaces one gets a new build)."""
    commands = tuple((id(info), id(info.callback)) for info in app.registered_commands)
    groups = tuple((id(info), _declared(info.typer_instance)) for info in app.registered_groups)
    return (id(app), app._add_completion, id(app.registered_callback), id(app.info.callback),
            commands, groups)


def _built_once(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    built: dict[tuple[object, ...], tuple[Any, Any]] = {}

    def command(app: Any) -> Any:
        key = _declared(app)
        if key not in built:
            built[key] = (app, build(app))  # the app kept: its id is not reused
        return built[key][1]

    return command


if hasattr(typer.testing, "_get_command"):
    typer.testing._get_command = _built_once(typer.testing._get_command)
