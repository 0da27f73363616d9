"""Hypothesis profiles, example counts for properties that set their own, and
the default run's sample of a long parametrised list.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs 5,000 examples per
property instead of 100. A property that needs its own count (because its
examples are slow, or because it needs more than 100 to find anything) takes
it from :func:`examples`, so that the ci profile reaches it too; one whose
examples are slow gives a ``most`` there, which bounds its time in CI. Where
CI runs ``most``, the default count is a quick look only (``examples(20,
1000)``: 20 examples by default, 1,000 in CI, as ``examples(100, 1000)``).

A check over a long list of cases (every command line of a corpus, every
help example) runs a few of them by default and the rest in CI's slow step:
``@pytest.mark.parametrize("argv", sample(CORPUS, 10))`` (:func:`sample`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, settings

DEFAULT_EXAMPLES = 100
CI_EXAMPLES = 5000

settings.register_profile("default", max_examples=DEFAULT_EXAMPLES, deadline=None)
settings.register_profile(
    "ci", max_examples=CI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_PARAM = type(pytest.param())  # what pytest.param makes


def examples(n: int, most: int | None = None) -> int:
    """``n`` examples under the default profile; as many times more under
    another as that profile runs for every other property (50 times under
    ``ci``), but at most ``most`` (and never fewer than ``n``)."""
    scaled = n * settings().max_examples // DEFAULT_EXAMPLES
    if most is not None:
        scaled = min(scaled, most)
    return max(n, scaled)


def sample(cases: Iterable[object], keep: int) -> list[object]:
    """``cases`` for ``pytest.mark.parametrize``, all but about ``keep`` of them
    (evenly spread, the first always among them) marked ``slow``: the default
    run takes the sample, CI's slow step (``-m slow``) the rest.

    A case is one value, or a tuple of values for several names (as
    ``parametrize`` takes them), or a ``pytest.param``, whose marks are kept.

    >>> [c if isinstance(c, int) else c.marks[0].name for c in sample(range(5), 2)]
    [0, 'slow', 'slow', 3, 'slow']
    """
    cases = list(cases)
    step = max(1, -(-len(cases) // max(1, keep)))  # ceiling: at most ``keep`` taken
    marked: list[object] = []
    for at, case in enumerate(cases):
        if at % step == 0:
            marked.append(case)
        elif isinstance(case, _PARAM):
            marked.append(pytest.param(*case.values, marks=[*case.marks, pytest.mark.slow],
                                       id=case.id))
        else:
            values = case if isinstance(case, tuple) else (case,)
            marked.append(pytest.param(*values, marks=pytest.mark.slow))
    return marked
