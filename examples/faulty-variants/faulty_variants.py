"""Two deliberately faulty variants, for testing `spitemalice validate`.

* leaky-malice loses the top card of every completed build pile (card conservation breaks).
* frozen-malice takes every move away from a seat holding a seven, so a seat with cards it
  could discard is left with nothing but a pass (a stuck seat).
* stubborn-malice never lets a card leave a pay-off pile: every game is consistent, and none
  can be won (the conformance kit's winnability check and validate's "decisiveness" warning
  catch it).
"""

from __future__ import annotations

import attrs

from spitemalice import (
    Clause,
    GameState,
    MoveFilter,
    Play,
    Ruleset,
    Zone,
    base_sheet,
    hookimpl,
    load_plugin,
)

_BASE = load_plugin("blackwood-frey", "ruleset").RULESET  # type: ignore[attr-defined]


class Leaky:
    NAME = "leaky-malice"
    KIND = "ruleset"
    DESCRIPTION = "FAULTY example: loses a card whenever a build pile completes"

    @hookimpl
    def spitemalice_ruleset(self) -> Ruleset:
        return attrs.evolve(_BASE, name=self.NAME, title="Leaky Malice (faulty)",
                            payoff_size=10)

    @hookimpl
    def spitemalice_rule_sheet(self, ruleset: Ruleset) -> list[Clause]:
        return base_sheet("blackwood-frey", ruleset)

    @hookimpl
    def spitemalice_completed_pile(self, ruleset, state: GameState, pile):  # type: ignore[no-untyped-def]
        # The fault: the queen on top is dropped instead of set aside.
        return attrs.evolve(state, completed=state.completed + pile[:-1])


class Frozen:
    NAME = "frozen-malice"
    KIND = "ruleset"
    DESCRIPTION = "FAULTY example: a seat holding a seven is left without a legal move"
    REASONS = ("frozen",)  # the reason code its move filter answers with

    @hookimpl
    def spitemalice_rule_sheet(self, ruleset: Ruleset) -> list[Clause]:
        frozen = Clause("FZ-1", "A seat holding a seven may make no move.", "FAULTY EXAMPLE",
                        reasons=("frozen",))
        return base_sheet("blackwood-frey", ruleset, [frozen])

    @hookimpl
    def spitemalice_ruleset(self) -> Ruleset:
        return attrs.evolve(_BASE, name=self.NAME, title="Frozen Malice (faulty)",
                            payoff_size=10)

    @hookimpl
    def spitemalice_filter_moves(self, ruleset, state: GameState, moves):  # type: ignore[no-untyped-def]
        if any(card.rank == 7 for card in state.seats[state.seat].hand):
            return MoveFilter((), "frozen", "a seven freezes the hand")
        return None


class Stubborn:
    NAME = "stubborn-malice"
    KIND = "ruleset"
    DESCRIPTION = "FAULTY example: pay-off cards can never be played, so nobody can win"
    REASONS = ("stubborn",)  # the reason code its move filter answers with

    @hookimpl
    def spitemalice_ruleset(self) -> Ruleset:
        return attrs.evolve(_BASE, name=self.NAME, title="Stubborn Malice (faulty)",
                            payoff_size=10)

    @hookimpl
    def spitemalice_rule_sheet(self, ruleset: Ruleset) -> list[Clause]:
        stubborn = Clause("SM-1", "Pay-off cards are never played.", "FAULTY EXAMPLE",
                          reasons=("stubborn",))
        return base_sheet("blackwood-frey", ruleset, [stubborn])

    @hookimpl
    def spitemalice_filter_moves(self, ruleset, state: GameState, moves):  # type: ignore[no-untyped-def]
        # The fault: a pay-off top may never be played, so no pay-off pile ever empties.
        kept = tuple(m for m in moves if not (isinstance(m, Play) and m.zone is Zone.PAYOFF))
        if len(kept) == len(moves):
            return None
        return MoveFilter(kept, "stubborn", "pay-off cards are never played")


LEAKY = Leaky()
STUBBORN = Stubborn()
FROZEN = Frozen()
