"""Memory from parameters (issue 20, class 4): every size parameter is bounded by what the
rules make possible, refused past it naming the bound, and the memory it costs grows
linearly with it (the environments' padding table was quadratic: 577 MB for skip-bo with
six seats at depth 1,000).

SIZES lists every size parameter of the library with a call at its bound (which must work)
and past it (which must be refused).
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import attrs
import pytest

import spitemalice as sm
from spitemalice import limits
from spitemalice.errors import SpiteMaliceError

BF = sm.load("blackwood-frey")


def _env_depth(depth: int) -> Any:
    from spitemalice import env

    return env.make("skip-bo", players=6, discard_depth=depth)


def _layout(**sizes: int) -> Any:
    from spitemalice.env import ObservationLayout

    base = {"hand": 12, "payoff": 4, "discard": 8, "builds": 12, "seats": 8, "depth": 800}
    return ObservationLayout(**{**base, **sizes})


def _mcts(playouts: int) -> Any:
    from spitemalice.bots import MctsPlayer

    return MctsPlayer(0, playouts)


def _ismcts(playouts: int) -> Any:
    from spitemalice.bots import GreedyPlayer
    from spitemalice.bots.ismcts import IsmctsPlayer

    return IsmctsPlayer(0, playouts, policy=GreedyPlayer(0))


def _bootstrap(refits: int) -> Any:
    from spitemalice.study.ratings import ratings

    return ratings([], ["a", "b"], "a", bootstrap=refits)  # no deals: no refit is run


def _vector(num_envs: int) -> Any:
    from spitemalice.env import vector_env

    return vector_env("blackwood-frey", num_envs)  # games are dealt at reset, not here


def _match(max_games: int) -> Any:
    from spitemalice.bots import make_player
    from spitemalice.study import play_match

    rules = sm.load("blackwood-frey", payoff_size=2)
    return play_match(rules, [make_player("greedy", 0)] * 2, 0, target=1, max_games=max_games)


SKIP_BO_DECK = sm.load("skip-bo", players=6).deck.size

# name -> (call of a size, the largest size allowed, the bound's name in the message)
SIZES: dict[str, tuple[Callable[[int], Any], int, str]] = {
    "env discard_depth": (_env_depth, SKIP_BO_DECK, "162 cards"),
    "ObservationLayout depth": (lambda n: _layout(depth=n), limits.MAX_DECK_CARDS,
                                "MAX_DECK_CARDS"),
    "ObservationLayout seats": (lambda n: _layout(seats=n, depth=20),
                                limits.MAX_DECK_CARDS, "MAX_DECK_CARDS"),
    "ObservationLayout builds": (lambda n: _layout(builds=n, depth=20),
                                 limits.MAX_DECK_CARDS, "MAX_DECK_CARDS"),
    "numbered_pack size": (lambda n: sm.numbered_pack(n, 12), limits.MAX_DECK_CARDS,
                           "MAX_DECK_CARDS"),
    "numbered_pack top": (lambda n: sm.numbered_pack(12, n), limits.MAX_DECK_CARDS,
                          "MAX_DECK_CARDS"),
    "dumps_state indent": (lambda n: sm.formats.dumps_state(sm.deal(BF, 1), indent=n),
                           limits.MAX_INDENT, "MAX_INDENT"),
    "mcts playouts": (_mcts, limits.MAX_PLAYOUTS, "MAX_PLAYOUTS"),
    "ismcts playouts": (_ismcts, limits.MAX_PLAYOUTS, "MAX_PLAYOUTS"),
    "ratings bootstrap": (_bootstrap, limits.MAX_BOOTSTRAP, "MAX_BOOTSTRAP"),
    "vector_env num_envs": (_vector, limits.MAX_VECTOR_ENVS, "MAX_VECTOR_ENVS"),
    "play_match max_games": (_match, limits.MAX_MATCH_GAMES, "MAX_MATCH_GAMES"),
    "sheet_text width": (BF.sheet_text, 1000, "1,000"),
    "load packs": (lambda n: sm.load("blackwood-frey", packs=n), 12, "12"),
    "load hand_size": (lambda n: sm.load("blackwood-frey", hand_size=n), 12, "12"),
    "load draw_pack": (lambda n: sm.load("skip-bo", draw_pack=n), 400, "400"),
}


@pytest.mark.parametrize("name", SIZES)
def test_a_size_past_its_bound_is_refused_naming_it(name: str) -> None:
    call, most, bound = SIZES[name]
    call(most)
    with pytest.raises(SpiteMaliceError, match=bound):
        call(most + 1)


def test_an_observation_past_its_bound_in_all_is_refused_before_it_is_made() -> None:
    def refused() -> None:
        with pytest.raises(SpiteMaliceError, match="MAX_OBSERVATION"):
            _layout(seats=1000, discard=1000, depth=1000)

    assert _peak(refused) < 1_000_000  # refused before a 2 GB array is made


def test_the_issue_example_is_refused_before_any_memory_is_taken() -> None:
    from spitemalice import env

    tracemalloc.start()
    try:
        with pytest.raises(SpiteMaliceError, match="discard_depth"):
            env.make("blackwood-frey", discard_depth=10**6)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def _peak(call: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_observation_memory_is_linear_in_the_observation_size() -> None:
    """Bytes per value of the array stay flat as the depth grows 10 times (a table of every
    padding length grows with the square)."""
    from spitemalice.env import ObservationLayout

    per_value = []
    for depth in (80, 800):
        made: list[Any] = []
        peak = _peak(lambda d=depth, into=made: into.append(ObservationLayout(12, 4, 8, 12, 8, d)))
        per_value.append(peak / made[0].size)
    assert per_value[1] < 1.5 * per_value[0] + 8, per_value


def test_the_largest_environment_the_rules_allow_is_small() -> None:
    """Skip-bo at six seats, every discard-pile card shown: well under a megabyte per
    observation's machinery."""
    from spitemalice import env

    def build() -> None:
        made = env.make("skip-bo", players=6, discard_depth=SKIP_BO_DECK)
        made.reset(seed=1)
        made.observe(made.agent_selection)

    assert _peak(build) < 8_000_000


def test_a_layouts_table_of_card_codes_is_emptied_at_its_bound_and_stays_right() -> None:
    """The layout keeps each card's rank code by card (quicker than reading the rank in the
    compiled build); numbered cards of ever new ranks must not grow it without end, and
    the codes given across an emptying are the documented ones (rank + 1, clipped)."""
    import numpy as np

    from spitemalice.env import observation

    layout = observation.ObservationLayout(5, 1, 4, 4, 2, 3)
    cards = [sm.Card(rank) for rank in range(1, observation._CODES_MOST + 1500)]
    sizes = []
    for start in range(0, len(cards), 500):  # every batch shorter than the bound
        chunk = tuple(cards[start:start + 500])
        codes = np.frombuffer(layout._codes(chunk), np.int16).tolist()
        assert codes == [min(card.rank + 1, observation.LIMIT) for card in chunk]
        sizes.append(len(layout._code_of))
    assert max(sizes) <= observation._CODES_MOST
    assert any(later < earlier for earlier, later in pairwise(sizes))  # it was emptied


def test_a_layouts_segment_caches_are_emptied_at_their_bound_and_stay_right() -> None:
    """The layout keeps the segments of the piles it encoded, holding each pile so that no
    other object takes its id: new discard piles without end must not grow the caches
    without end, and every observation across an emptying is the one a fresh layout gives."""
    import numpy as np

    from spitemalice.env import observation

    layout = observation.ObservationLayout(5, 1, 4, 4, 2, 3)
    state = sm.deal(sm.load("blackwood-frey"), 1)
    held = []
    for n in range(observation._CACHE_MOST + 300):
        pile = tuple(sm.parse_cards("9H 2C")) + (sm.Card(1 + n % 13, "S"),) * (n % 3)
        seat = attrs.evolve(state.seats[0], discards=(pile, (), (), ()))
        moved = attrs.evolve(state, seats=(seat, *state.seats[1:]))
        fresh = observation.ObservationLayout(5, 1, 4, 4, 2, 3)
        assert np.array_equal(layout.encode_state(moved, 0), fresh.encode_state(moved, 0))
        held.append(len(layout._piles._held))
    assert max(held) <= observation._CACHE_MOST
    assert any(later < earlier for earlier, later in pairwise(held))  # it was emptied
