"""Engine evaluations of start positions: the shipped tables and their provenance
(:mod:`~solver.evaluation.sources`), the table format
(:mod:`~solver.evaluation.table`), balanced draws (:mod:`~solver.evaluation.band`)
and making a table with any UCI engine (:mod:`~solver.evaluation.uci`,
:mod:`~solver.evaluation.run`). Importing this package imports nothing.
"""
