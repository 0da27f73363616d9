"""Counting a family's ranks without listing them: dynamic programming over the files.

A rank is built file by file, left to right. After some files the rest of
the rank may be completed in a number of ways that depends only on the
pieces still to place and, for each rule, a small *state* summing up what
the placed files mean for it: each rule kind makes its own
:class:`~solver.kinds.base.Tracker` (:meth:`Rule.tracker <solver.kinds.base.Rule.tracker>`).

:class:`Counting` (:mod:`solver.numbering.counting.engine`) memoises the number of
completions of every state it meets, which gives the exact count of one
side's ranks, a uniform draw, the ranks one by one, and
(:meth:`Counting.rank_id`, :meth:`Counting.rank_of`) the canonical numbering
of any family, enumerated numbering included, by one more state that follows
the canonical order (:mod:`solver.numbering.counting.order`); plain steps (each
placing all of one letter anywhere) are walked projection by projection instead,
counting together the kinds no rule names
(:mod:`solver.numbering.counting.levels`). No solver and no listing
is involved: this is the second, independent method :mod:`solver.check`
compares with the solver.

>>> from solver.ruleset.reader import load
>>> counting = Counting(load("chess960"))
>>> counting.count, counting.rank_id("RNBQKBNR"), counting.rank_of(105)
(960, 518, 'QNRBBNKR')
"""

from solver.kinds.base import DONE, State, Tracker
from solver.numbering.counting.engine import Counting, arrangements, strangers

__all__ = ["DONE", "Counting", "State", "Tracker", "arrangements", "strangers"]
