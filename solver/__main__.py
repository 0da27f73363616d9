"""``python -m solver`` runs the ``chess960`` command."""

from solver.entry import main

main()
