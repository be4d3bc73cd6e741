"""Pieces shared by the built-in plugins: the clauses every rule sheet states for itself about
how the library runs a game, and helpers the house rules use to describe a rule set.

Each rule sheet must stand alone, so every rule set repeats these clauses under its own prefix
(``US-19``, ``G4-18`` ...) rather than pointing at another sheet.
"""

from __future__ import annotations

import functools

from spitemalice import Clause, Deck, Move, Play, Ruleset, stated_deck


def play_clauses(prefix: str, first: int) -> tuple[Clause, ...]:
    """The clauses on who may move, passing, a blocked game, the turn limit and a finished game,
    numbered from ``first`` under ``prefix``."""
    n = first
    return (
        Clause(f"{prefix}-{n}", "Only the seat on turn moves, and only with cards it holds or may "
               "reach: its hand, the tops of its own pay-off and discard piles.", "LIBRARY",
               reasons=("not-on-turn", "not-in-hand", "no-such-pile", "seat-prefix")),
        Clause(f"{prefix}-{n + 1}", "A seat that can neither play nor discard passes; a seat that "
               "has another legal move may not pass.", "ASSUMPTION (dossier A7)",
               reasons=("pass-not-allowed",)),
        Clause(f"{prefix}-{n + 2}", "When every seat in turn ends its turn with a pass and no "
               "card moved, the game is blocked and scored as a drawn hand.",
               "ASSUMPTION (Parlett stalemate, dossier B7)",
               events=("blocked",), expects=("unexercised",)),
        Clause(f"{prefix}-{n + 3}", "A game that reaches the turn limit ({turn_limit} turns: "
               "turn_limit), or a turn that reaches as many moves, ends and is scored as a "
               "drawn hand.",
               "LIBRARY (termination guarantee)",
               events=("turn-limit",), expects=("unexercised",)),
        Clause(f"{prefix}-{n + 4}", "No move may be made once the game has ended.", "LIBRARY",
               reasons=("game-over",)),
    )


def rank_names(ranks: frozenset[int], joint: str = "and") -> str:
    """Ranks as a reader says them: ``"A, 2 and 7"`` (``joint="or"``: ``"A, 2 or 7"``);
    ``"none"`` for an empty set."""
    names = {0: "joker", 1: "A", 11: "J", 12: "Q", 13: "K"}
    return _joined([names.get(rank, str(rank)) for rank in sorted(ranks)], joint)


def deck_ranks(ruleset: Ruleset, ranks: frozenset[int], joint: str = "and") -> str:
    """Ranks as ``ruleset``'s cards write them (:meth:`spitemalice.Deck.rank_name`), for a
    refusal or a clause: ``"A or 2"`` in standard packs, ``"1 or 2"`` in a numbered deck
    such as Skip-Bo's or Hasbro's (whose 1 is no ace); rank 0 is ``"joker"``
    (:func:`wild_words` names a numbered deck's its own way); ``"none"`` for no rank."""
    deck = _deck(ruleset)
    return _joined(["joker" if rank == 0 else deck.rank_name(rank) for rank in sorted(ranks)],
                   joint)


@functools.lru_cache(maxsize=32)
def _deck(ruleset: Ruleset) -> Deck:
    """The cards ``ruleset`` states (whether they are standard packs or numbered cards)."""
    return stated_deck(ruleset)


def _joined(words: list[str], joint: str) -> str:
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {joint} " + words[-1]


def numbered_deck(ruleset: Ruleset) -> bool:
    """Whether the rule set plays with suitless numbered cards instead of standard packs."""
    return bool(ruleset.draw_pack) and not ruleset.seat_packs


def wild_words(ruleset: Ruleset) -> str:
    """The wild cards as a reader names them: ``"K or joker"``; a numbered deck's jokers are
    Skip-Bo's SKIP-BO cards."""
    wild = deck_ranks(ruleset, ruleset.wild_ranks, "or")
    return wild.replace("joker", "SKIP-BO card") if numbered_deck(ruleset) else wild


def no_wild_cards(ruleset: Ruleset, plugins: list[str], name: str,
                  effect: str = "would change nothing") -> str | None:
    """The ``spitemalice_conflicts`` refusal of a house rule about wild cards stacked on a rule
    set whose deck has none (``None`` when it has some): names the base rule set, its wild
    ranks and what the house rule would do there."""
    if ruleset.has_wild_cards:
        return None
    return (f"{plugins[0]} has no wild cards in its deck (wild ranks: "
            f"{rank_names(ruleset.wild_ranks)}), so {name} {effect}")


def leading_plays(moves: tuple[Move, ...]) -> tuple[Play, ...]:
    """The plays among the moves a move filter is given: they come first, before every
    discard (the engine's listing order, docs/hooks.md), so a filter that judges plays only
    need not look at the discards, which are most of the list."""
    for count, move in enumerate(moves):
        if type(move) is not Play:
            return moves[:count]  # type: ignore[return-value]
    return moves  # type: ignore[return-value]
