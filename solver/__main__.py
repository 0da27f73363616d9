"""``python -m solver`` runs the ``chess960`` command."""

from solver.cli.entry import main

main()
