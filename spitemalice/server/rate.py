"""How often one connection of the play server may send: a token bucket."""

from __future__ import annotations

import time
from collections.abc import Callable

from spitemalice.limits import MESSAGE_BURST, MESSAGES_PER_SECOND


class Rate:
    """A token bucket: :meth:`allow` is true for at most ``burst`` calls at once and
    ``per_second`` calls per second on average (one per connection of the play server,
    :data:`MESSAGES_PER_SECOND` and :data:`MESSAGE_BURST`).

    ``clock`` gives seconds (default :func:`time.monotonic`; tests pass their own).
    """

    def __init__(self, per_second: float = MESSAGES_PER_SECOND, burst: int = MESSAGE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.tokens, self.last = float(burst), clock()

    def allow(self) -> bool:
        """Whether one more message may pass now (it is counted when it may)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
