"""A fixed pure-Python reference workload: the eight-queens count by brute force over
permutations generated in pure Python (as in pyperformance's nqueens).

It touches no spitemalice code, so its CPU time says how fast this interpreter on this machine
is at the moment; engine figures divided by it compare across machines and busy moments.

    python bench/reference.py       prints the median CPU milliseconds of 5 runs
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator


def permutations(items: range) -> Iterator[tuple[int, ...]]:
    """Every ordering of ``items``, generated in pure Python (the itertools algorithm)."""
    pool = tuple(items)
    n = len(pool)
    indices = list(range(n))
    cycles = list(range(n, 0, -1))
    yield tuple(pool[i] for i in indices)
    while n:
        for i in reversed(range(n)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices)
                break
        else:
            return


def queens(count: int) -> int:
    """The number of ways to place ``count`` non-attacking queens (92 for 8)."""
    cols = range(count)
    return sum(1 for vec in permutations(cols)
               if count == len({vec[i] + i for i in cols}) == len({vec[i] - i for i in cols}))


def reference_seconds(runs: int = 5) -> float:
    """The median CPU seconds of ``runs`` counts of the eight queens."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        assert queens(8) == 92
        times.append(time.process_time() - start)
    return statistics.median(times)


if __name__ == "__main__":
    print(f"{reference_seconds() * 1000:.0f} ms CPU")
