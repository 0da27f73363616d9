"""The rule kinds: every kind of placement rule a rule file may declare.

Each kind is one class in :mod:`solver.kinds.vocabulary` that reads, states,
explains, numbers and counts itself; defining it registers it
(:data:`solver.kinds.vocabulary.KINDS`). :mod:`solver.kinds.base` holds what
the kinds share: the :class:`~solver.kinds.base.Rule` base and its registry,
the counting :class:`~solver.kinds.base.Tracker` and the
:class:`~solver.kinds.base.Placement` explanations read.
"""
