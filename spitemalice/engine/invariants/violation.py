"""What an invariant check returns: its violations, as messages (:data:`Violations`) or named
(:class:`Violation`)."""

from __future__ import annotations

import attrs

Violations = list[str]


@attrs.frozen
class Violation:
    """One broken invariant: the invariant's name (its function's name) and what broke."""

    invariant: str
    message: str

    def __str__(self) -> str:
        return self.message
