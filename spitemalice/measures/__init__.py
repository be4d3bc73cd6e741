"""What a run of games is measured with, shared by the studies and ``validate``: rates and
means with their intervals and sequential tests (:mod:`~spitemalice.measures.stats`), the
game-quality metrics of a run (:mod:`~spitemalice.measures.metrics`) and the rule coverage of
its games as a report (:mod:`~spitemalice.measures.coverage`).

Import the modules themselves.
"""
