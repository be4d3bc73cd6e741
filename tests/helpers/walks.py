"""Game configurations and walks for the record, notation, view and JSON property tests.

``CONFIGS`` covers every installed rule set at every seat count it allows, each installed
house rule stacked on each rule set that accepts it, and a short game (small pay-off piles)
per rule set, so that late-game positions (completed piles, recycles, outcomes) come up in
few moves.  A walk deals from a seed and picks ``legal_moves[i % len]`` for each index ``i``,
which shrinks well; ``finish=True`` then plays greedy bots to the end.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer

Config = tuple[str, tuple[str, ...], tuple[tuple[str, int | bool], ...]]


def _loads(config: Config) -> bool:
    try:
        book(config)
    except sm.RulesetError:
        return False
    return True


def configurations() -> list[Config]:
    infos = sm.installed()
    # The turn-based rule sets: spit's seats move at once (tests/variants/test_spit.py, the
    # spit twins in tests/engine/test_privacy.py).
    rulesets = [i.name for i in infos if i.kind == "ruleset" and i.name != "spit"]
    house_rules = [i.name for i in infos if i.kind == "house-rule"]
    configs: list[Config] = []
    for name in rulesets:
        ruleset = sm.load(name).ruleset
        for players in ruleset.player_counts:
            configs.append((name, (), (("players", players),)))
        configs.append((name, (), (("payoff_size", 4),)))
        for rule in house_rules:
            configs.append((name, (rule,), ()))
    # Skip-Bo's electronic-edition option, at six seats, where the draw pile runs out soon.
    configs.append(("skip-bo", (), (("players", 6), ("recycle_under_tops", True))))
    return [config for config in configs if _loads(config)]


@functools.cache
def book(config: Config) -> sm.RuleBook:
    name, house_rules, params = config
    return sm.load(name, house_rules, dict(params))


def config_id(config: Config) -> str:
    name, house_rules, params = config
    return "+".join([name, *house_rules]) + "".join(f"-{k}{v}" for k, v in params)


CONFIGS = configurations()
configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32)
picks = st.lists(st.integers(min_value=0, max_value=10_000), max_size=60)


def walk(rules: sm.RuleBook, seed: int, choices: list[int],
         finish: bool = False) -> Iterator[tuple[sm.GameState, sm.Move | None]]:
    """Yield ``(state, move made from it)`` along the game; the last state has ``None``."""
    state = sm.deal(rules, seed)
    players = [GreedyPlayer(seed + seat) for seat in range(rules.players)]
    index = 0
    while True:
        moves = sm.legal_moves(rules, state)
        if not moves:
            break
        if index < len(choices):
            move = moves[choices[index] % len(moves)]
        elif finish:
            move = players[state.seat].choose(rules, state, moves)
        else:
            break
        index += 1
        yield state, move
        state = sm.apply_move(rules, state, move)
    yield state, None


def states_of(rules: sm.RuleBook, seed: int, choices: list[int],
              finish: bool = False) -> list[sm.GameState]:
    return [state for state, _ in walk(rules, seed, choices, finish)]


RULESETS = sorted({config[0] for config in CONFIGS})


def configs_of(ruleset: str) -> st.SearchStrategy[Config]:
    """The configurations of one rule set (seat counts, house rules, a short game)."""
    return st.sampled_from([config for config in CONFIGS if config[0] == ruleset])


def hidden_twin(state: sm.GameState, seat: int, rng: object) -> sm.GameState:
    """``state`` with every card ``seat`` cannot see shuffled among the places it cannot see
    (other hands, cards under pay-off tops, the draw pile, completed cards), and another seed
    and shuffle counter: a state ``seat`` cannot tell from ``state``."""
    hidden: list[sm.Card] = []
    for index, s in enumerate(state.seats):
        hidden += [card for pile in s.payoff for card in pile[:-1]]
        if index != seat:
            hidden += list(s.hand)
    hidden += [*state.draw, *state.completed]
    rng.shuffle(hidden)  # type: ignore[attr-defined]
    taken = iter(hidden)

    def refill(pile: tuple[sm.Card, ...]) -> tuple[sm.Card, ...]:
        return tuple(next(taken) for _ in pile)

    seats = []
    for index, s in enumerate(state.seats):
        payoff = tuple(refill(pile[:-1]) + pile[-1:] for pile in s.payoff)
        hand = s.hand if index == seat else refill(s.hand)
        seats.append(sm.Seat(payoff, hand, s.discards))
    draw, completed = refill(state.draw), refill(state.completed)
    return sm.GameState(tuple(seats), state.builds, draw, completed, state.seat, state.turn,
                        state.turn_moves, state.idle_turns, state.seed + 1,
                        state.shuffles + 3, state.outcome, state.build_removed)
