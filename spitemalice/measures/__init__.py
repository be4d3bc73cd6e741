"""What a run of games is measured with, shared by the studies and ``validate``.

Every figure a command reports states its uncertainty the same way: an estimate with its
interval (:mod:`~spitemalice.measures.interval`), kept within the range its quantity can take;
a rate or a difference of two rates measured on the same games with a score interval
(:mod:`~spitemalice.measures.rates`); a mean or a mean of paired differences with Student's t
interval (:mod:`~spitemalice.measures.means`); Wald's sequential test on paired differences
(:mod:`~spitemalice.measures.sequential`); three-valued verdicts against a threshold, pass,
fail or undecided (:mod:`~spitemalice.measures.verdicts`); the checks of their arguments in
one place (:mod:`~spitemalice.measures.checks`).  Beside them, the game-quality metrics of a run
(:mod:`~spitemalice.measures.metrics`), the designer metrics of a game's shape (lead,
comeback, choice; :mod:`~spitemalice.measures.shape`) and the rule coverage of its games as a report
(:mod:`~spitemalice.measures.coverage`).

Import the modules themselves.
"""
