"""Draws an arbiter can defend: exclusion presets, certificates, dice, audits.

* :mod:`solver.draws.presets`: named exclusions (``chess959``, ``chess958``);
* :mod:`solver.draws.certificate`: a draw's certificate, written and verified;
* :mod:`solver.draws.procedure`: a physical procedure described as data, and
  its exact distribution;
* :mod:`solver.draws.dice`: a uniform procedure with dice or cards for any
  number of positions;
* :mod:`solver.draws.audit`: a sample of draws tested against uniform draws
  (its distributions in :mod:`solver.draws.stats`).

The draws themselves are :mod:`solver.sampling`'s. This package imports
nothing at import time.
"""
