"""The conformance kit for variant authors, a pytest plugin.

``pip install 'spitemalice[kit]'`` brings what the kit needs; see ``docs/variants.md``.  Import
it from here: ``from spitemalice.testing import VariantConformance``
(:mod:`spitemalice.testing.conformance` holds it, with the ``clause`` marker and the fixtures).
The invariants it checks after every move are the engine's (:mod:`spitemalice.engine.invariants`).
"""

from spitemalice.testing.conformance import VariantConformance

__all__ = ["VariantConformance"]
