"""The ``chess960`` command. This ``__init__`` imports nothing, so that start-up loads only
what a command uses (:mod:`solver.cli.entry` is the console entry point)."""
