"""The published events a rule-sheet clause may define (``Clause.events``), for rule coverage.

A clause is exercised when a move it governs is played, a candidate move it forbids is
refused (its ``reasons``), or an event it defines happens (its ``events``).  The engine
counts each event where it happens (:mod:`spitemalice.engine.coverage`) while a study records
coverage, and never otherwise.  A clause names an event with the name below:
``Clause("BF-6", "A build pile that reaches the queen ... is set aside", "W6",
events=("pile-completed",))``.

This module imports only :mod:`spitemalice.rules.findings` (which imports nothing of the
library): the rule sheet and the engine both read it.
"""

from __future__ import annotations

from collections.abc import Iterable

from spitemalice.rules.findings import known_names

EVENTS: dict[str, str] = {
    "dealt": "a game was dealt (the deck, the seats' pay-off piles and hands, the first seat)",
    "hand-emptied": "a seat played its last hand card and drew a fresh hand at once",
    "pile-completed": "a build pile reached the build ceiling and left the table",
    "recycled": "a required draw found the draw pile empty and completed cards were shuffled "
                "into a new draw pile",
    "recycled-under-tops": "a required draw found the draw pile empty and no completed card, "
                           "and the cards under the build-pile tops were shuffled into a new "
                           "draw pile",
    "short-draw": "a draw found fewer cards than it needed and the seat played on",
    "passed": "a seat passed (it had no other legal move)",
    "win": "a game ended with a win",
    "drawn": "a game ended as a drawn hand: a required draw found no card at all",
    "blocked": "a game ended blocked: every seat in turn passed without moving a card",
    "turn-limit": "a game ended at the turn limit",
    "ended-by-rule": "a plugin's own end-of-game rule ended a game",
    "match-won": "a match ended: a seat or team reached the match target",
    # games whose seats move at once (Spit), counted from the games by
    # spitemalice.measures.arrival_coverage (the game's own events, and the arrival policy's)
    "turned-up": "a card left a pile and the face-down card under it was turned face up",
    "stale": "an intent arrived after another move had changed the position, no longer "
             "fitted, and its seat decided again (the first to arrive was applied)",
    "barrier-again": "nobody could move and the game waited at a barrier again within a round "
                     "(Spit: both spit again)",
    "round-over": "a round ended (Spit: a seat played out its stock, or nobody could move "
                  "with no spit card left)",
    "laid-out-again": "the seats gathered their cards, shuffled them and laid out a new round",
    "short-layout": "a seat laid out a new round with too few cards to keep any face-down "
                    "reserve (Spit: no spit card, so it does not spit)",
    "one-pile": "a round with one centre pile ended and the pile went to a seat without a "
                "slap",
}
"""Event name -> what happened."""


def event_names(names: Iterable[str] | str) -> tuple[str, ...]:
    """``Clause.events`` as a tuple of names; a single name given as a string is one name.

    Raises:
        ValueError: a name that is not one of :data:`EVENTS` (the message lists them).
    """
    return known_names(names, EVENTS, "events", "event the engine counts")
