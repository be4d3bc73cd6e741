"""Balance studies: per-game rows, game-quality metrics, paired comparisons, tournaments,
per-game data out and pictures.

Every study is built on :func:`~spitemalice.study.runner.play_one`, which plays game ``g`` of a
configuration from a seed derived from the run seed and ``g``: a game is a pure function of
(configuration, bots, seed), so any backend may play the games in any order.
"""
