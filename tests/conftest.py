"""Shared test set-up: hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs more examples per property.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None)
settings.register_profile(
    "ci", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
