"""Building test positions from short card texts.

``position(rules, hands=["5H 6S"], payoffs=["9H"], ...)`` fills in everything not given with
cards taken from the rule set's deck, so that card conservation still holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import spitemalice as sm
from spitemalice.cards import parse_cards


def position(
    rules: sm.RuleBook,
    hands: Sequence[str] = (),
    payoffs: Sequence[str | Sequence[str]] = (),
    discards: Sequence[Sequence[str]] = (),
    builds: Sequence[str] = (),
    draw: str | None = None,
    completed: str = "",
    seat: int = 0,
    seed: int = 0,
) -> sm.GameState:
    """A state with the given piles (bottom to top, cards separated by spaces).

    Seats without a given hand, pay-off or discard piles get empty ones; the draw pile is
    ``draw`` if given, else every deck card not used elsewhere (so conservation holds).
    """
    n = rules.players
    seats = []
    for i in range(n):
        pay = payoffs[i] if i < len(payoffs) else ""
        pay_piles = [pay] if isinstance(pay, str) else list(pay)
        pay_piles += [""] * (rules.deal.payoff_piles - len(pay_piles))
        dis = list(discards[i]) if i < len(discards) else []
        dis += [""] * (rules.discard.piles - len(dis))
        seats.append(sm.Seat(
            tuple(parse_cards(p) for p in pay_piles),
            parse_cards(hands[i]) if i < len(hands) else (),
            tuple(parse_cards(d) for d in dis),
        ))
    build_piles = tuple(parse_cards(b) for b in builds)
    used = Counter(card for s in seats for card in s.hand)
    used.update(card for s in seats for pile in (*s.payoff, *s.discards) for card in pile)
    used.update(c for b in build_piles for c in b)
    used.update(parse_cards(completed))
    if draw is None:
        rest = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
        rest.subtract(used)
        assert all(v >= 0 for v in rest.values()), "the position uses more cards than the deck has"
        draw_cards = tuple(sorted(rest.elements()))
    else:
        draw_cards = parse_cards(draw)
    return sm.GameState(
        tuple(seats), build_piles, draw_cards, parse_cards(completed), seat=seat, seed=seed
    )


def run(n: int) -> str:
    """A build pile of naturals A..n as text (``run(3) == "AS 2S 3S"``)."""
    names = {1: "A", 11: "J", 12: "Q", 13: "K"}
    return " ".join(f"{names.get(r, r)}S" for r in range(1, n + 1))
