"""Hypothesis profiles, and example counts for properties that set their own.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs 5,000 examples per
property instead of 100. A property that needs its own count (because its
examples are slow, or because it needs more than 100 to find anything) takes
it from :func:`examples`, so that the ci profile reaches it too.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

DEFAULT_EXAMPLES = 100
CI_EXAMPLES = 5000

settings.register_profile("default", max_examples=DEFAULT_EXAMPLES, deadline=None)
settings.register_profile(
    "ci", max_examples=CI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def examples(n: int, most: int | None = None) -> int:
    """``n`` examples under the default profile; as many times more under
    another as that profile runs for every other property (50 times under
    ``ci``), but at most ``most`` (and never fewer than ``n``)."""
    scaled = n * settings().max_examples // DEFAULT_EXAMPLES
    if most is not None:
        scaled = min(scaled, most)
    return max(n, scaled)
