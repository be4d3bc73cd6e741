"""For variant authors: the conformance kit (a pytest plugin) and the engine's named invariants.

``pip install 'spitemalice[kit]'`` brings what the kit needs; see ``docs/variants.md``.
"""
