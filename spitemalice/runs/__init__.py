"""The machinery of a run of games, below the studies and ``validate``: the basic game loop
(:mod:`~spitemalice.runs.loop`), a configuration's game ``g`` as a pure function of ``g`` and
its per-game row (:mod:`~spitemalice.runs.runner`), games played on every core or a Dask
cluster (:mod:`~spitemalice.runs.parallel`, :mod:`~spitemalice.runs.workers`), outputs written
whole as games are committed (:mod:`~spitemalice.runs.commit`,
:mod:`~spitemalice.runs.outputs`, :mod:`~spitemalice.runs.games_out`), progress on a terminal
(:mod:`~spitemalice.runs.progress`) and the configuration a run names in its header
(:mod:`~spitemalice.runs.provenance`).

Import the modules themselves; the studies built on them are in :mod:`spitemalice.study`.
"""
