"""PGN collections: games counted, chosen and tagged by their start position.

Games are read as bytes, streamed (:mod:`solver.games.reading`): only each
game's header block is looked at, never its moves, so memory stays flat in
the number of games and a game whose moves no program could parse is still
counted; stretches of plainly written games are counted in bulk by
:mod:`solver.games.fast` (a plain file mapped a window at a time, a large one
in worker processes), with the careful reader's answers.
:mod:`solver.games.headers` reads the few tags that matter and finds the
start position; :mod:`solver.games.labels` writes and reads a
position's number as tournaments tag it (``FRC 518``); :mod:`solver.games.stats`,
:mod:`solver.games.select` and :mod:`solver.games.tag` are the three commands.
"""
