"""One seed source for every unseeded game (issue 20, class 7; design notes §8 "Privacy"):
128 bits from ``secrets`` (``spitemalice.engine.deal.new_seed``), never a 48-bit draw from
a Mersenne Twister, so no seat can search for the seed from its view.

Every way to start a game without a seed is listed in UNSEEDED and held to it; a source scan
finds any other module that draws randomness of its own.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.engine.deal import SEED_BITS

PACKAGE = Path(sm.__file__).parent
BF = sm.load("blackwood-frey")


def _deal() -> int:
    return sm.deal(BF).seed


def _session() -> int:
    from spitemalice.play import HUMAN, Session

    return Session(BF, [HUMAN, "greedy"]).state.seed


def _aec() -> int:
    from spitemalice import env

    made = env.make(BF)
    made.reset()
    return made.game.seed


def _aec_again() -> int:
    """The second of two unseeded resets (the first once drew a sequence generator)."""
    from spitemalice import env

    made = env.make(BF)
    made.reset()
    made.reset()
    return made.game.seed


def _parallel() -> int:
    from spitemalice import env

    made = env.parallel_env(BF)
    made.reset()
    return made.aec.game.seed


def _single() -> int:
    from spitemalice import env

    made = env.single_agent(BF)
    made.reset()
    return made.game.seed


def _single_after_gymnasium_seeding() -> int:
    """gymnasium seeds its own generator from the OS when reset has no seed; the game's seed
    is still the library's."""
    from spitemalice import env

    made = env.single_agent(BF)
    made.reset()
    made.reset()
    return made.game.seed


def _vector() -> int:
    """An unseeded vectorised reset (its games and the games autoreset deals later come from
    one EpisodeSeeds, as the other environments')."""
    from spitemalice import env

    made = env.vector_env(BF, 2)
    made.reset()
    return made.games[1].seed


UNSEEDED: dict[str, Callable[[], int]] = {
    "deal()": _deal, "Session()": _session, "make().reset()": _aec,
    "make().reset() twice": _aec_again, "parallel_env().reset()": _parallel,
    "single_agent().reset()": _single, "single_agent().reset() twice":
        _single_after_gymnasium_seeding,
    "vector_env().reset()": _vector,
}


@pytest.mark.parametrize("name", UNSEEDED)
def test_every_unseeded_game_draws_128_bits(name: str) -> None:
    """Eight draws of a 128-bit seed all fall below 2**100 with probability 2**-224; eight
    48-bit draws always do.  And no two are equal."""
    seeds = [UNSEEDED[name]() for _ in range(8)]
    assert max(seeds) >= 2**100 and max(seeds) < 2**SEED_BITS
    assert len(set(seeds)) == len(seeds)


def test_a_seeded_environment_replays_its_whole_sequence() -> None:
    """After reset(seed=s), resets without a seed continue a sequence fixed by s (so a
    seeded run is reproducible), each game from 128 bits drawn from s."""
    from spitemalice import env

    runs = []
    for _ in range(2):
        made = env.make(BF)
        made.reset(seed=11)
        seeds = [made.game.seed]
        for _ in range(3):
            made.reset()
            seeds.append(made.game.seed)
        runs.append(seeds)
    assert runs[0] == runs[1] and runs[0][0] == 11 and len(set(runs[0])) == 4
    assert max(runs[0][1:]) >= 2**100


# Calls that draw a number from the operating system's randomness.  Tokens and table ids of
# the play server (secrets.token_hex) are secrets of another kind, not seeds.
_NUMBERS = {"randbits", "randbelow", "choice", "urandom", "SystemRandom", "default_rng"}


def test_only_new_seed_draws_a_seed_from_the_operating_system() -> None:
    """No module but engine/deal.py draws a number from the operating system, and no module
    makes an unseeded random.Random() or uses the global random functions."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            call = ast.unparse(node.func)
            owner, _, name = call.rpartition(".")
            unseeded = name in ("Random", "default_rng") and not node.args
            global_random = owner == "random" and name != "Random"
            system = owner in ("secrets", "os", "np.random", "numpy.random") and name in _NUMBERS
            if unseeded or global_random or system:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {ast.unparse(node)}")
    assert [f for f in found if not f.startswith("engine/deal.py:")] == []
    assert any("secrets.randbits" in f for f in found)  # the scan sees new_seed's own draw
