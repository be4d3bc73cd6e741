"""What the tests share, not tests themselves: positions from text (``positions``), seeded walks
over every configuration (``walks``), checks of rule-sheet clauses (``sheet_checks``), game
digests (``game_digests``), the argument tests' walk over the API reference (``api_walk``),
fuzz targets (``fuzz_targets``, also run by ``bench/fuzz.py``) and the Dask side of
``test_dask.py`` (``dask_games``, run as a child script).

Import them as ``from helpers.walks import ...``: pytest puts ``tests/`` on the path.
"""
