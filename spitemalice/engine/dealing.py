"""The turn-based deal (:func:`~spitemalice.engine.deal.deal`'s work, compiled in the
optional build: ``setup.py``)."""

from __future__ import annotations

from spitemalice.cards import Card
from spitemalice.model import GameState, Pile, Seat, new_seat, sort_hand
from spitemalice.rules.book import RuleBook

from .flow import fire
from .shuffle import _rng, _shuffled_list

_MAX_RESHUFFLES = 100


def deal_turns(rules: RuleBook, number: int, first: int | None) -> GameState:
    """:func:`~spitemalice.engine.deal.deal` of a turn-based rule book, its seed and dealer
    checked: ``number`` the seed, ``first`` the dealer or ``None``."""
    players = rules.players
    cards = _shuffled_list(rules.deck.cards, number, 0)
    shuffles = 1
    if rules.deck.payoff_cards is not None:
        payoff_pack = _shuffled_list(rules.deck.payoff_cards, number, 1)
        shuffles = 2
    else:
        payoff_pack = cards
    payoffs = _deal_payoffs(rules, players, payoff_pack)
    if payoff_pack is not cards:
        cards = payoff_pack + cards  # undealt pay-off cards join the draw pile
    # Hands are dealt from the top (the end), each in turn; the rest is the draw pile.
    deck, size = tuple(cards), rules.deal.hand_size
    left = len(deck)
    hands = [sort_hand(deck[left - (i + 1) * size : left - i * size]) for i in range(players)]
    draw = deck[: left - players * size]
    discards = ((),) * rules.discard.piles
    # Seats built from tuples in canonical form (sorted hands), as the engine's own
    # constructor takes them: the public one would convert every pile again.
    seats = tuple(map(new_seat, payoffs, hands, (discards,) * players))
    fire(rules, "dealt")
    if rules.deal.first_seat == "higher-payoff-top":
        state = GameState(seats, (), draw, (), seed=number, shuffles=shuffles)
        return _higher_top_starts(rules, state)
    return GameState(seats, (), draw, (), seat=_first_seat(rules, number, first), seed=number,
                     shuffles=shuffles)


def _first_seat(rules: RuleBook, seed: int, dealer: int | None) -> int:
    """The seat that plays first under a dealer-based ``first_seat`` rule."""
    if rules.deal.first_seat == "youngest":
        return 0
    if dealer is None:
        dealer = _rng(seed, 0, "cut").randrange(rules.players)
    if rules.deal.first_seat == "cut-left":
        return (dealer + 1) % rules.players
    return dealer


def _take(cards: list[Card], count: int) -> Pile:
    taken = tuple(cards[len(cards) - count :])
    del cards[len(cards) - count :]
    return taken


def _deal_payoffs(rules: RuleBook, players: int, pack: list[Card]) -> list[tuple[Pile, ...]]:
    piles, size = rules.deal.payoff_piles, rules.deal.payoff_size
    if size is None:  # share a separate pay-off pack out equally
        size = len(pack) // (players * piles)
    return [tuple(_take(pack, size) for _ in range(piles)) for _ in range(players)]


def _higher_top_starts(rules: RuleBook, state: GameState) -> GameState:
    """The seat with the higher first pay-off top starts; tied leaders reshuffle theirs.  Ties
    that reshuffling cannot break (one-card piles, say) are settled by a seeded cut among the
    leaders after ``_MAX_RESHUFFLES`` rounds, never silently in favour of seat 0."""
    seats, shuffles = list(state.seats), state.shuffles
    for _ in range(_MAX_RESHUFFLES):
        keys = [_top_key(rules, seat) for seat in seats]
        top = max(keys)
        leaders = [i for i, key in enumerate(keys) if key == top]
        if len(leaders) == 1:
            break
        for i in leaders:
            first, *rest = seats[i].payoff
            pile = tuple(_shuffled_list(first, state.seed, shuffles))
            seats[i] = Seat((pile, *rest), seats[i].hand, seats[i].discards)
            shuffles += 1
    starter = leaders[0] if len(leaders) == 1 else _rng(state.seed, 0, "cut").choice(leaders)
    return GameState(tuple(seats), (), state.draw, (), seat=starter, seed=state.seed,
                     shuffles=shuffles)


def _top_key(rules: RuleBook, seat: Seat) -> int:
    top = seat.payoff[0][-1]
    return 1000 if rules.wild.is_wild(top) else top.rank
