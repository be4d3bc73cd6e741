"""Reason codes of illegal moves: stable strings that programs can match on.

Each code has a default sentence; an :class:`~spitemalice.errors.IllegalMove` also names the
clause of the active rule sheet that is the authority for the code (``Clause.reasons``).
"""

from __future__ import annotations

from spitemalice.errors import IllegalMove

REASONS: dict[str, str] = {
    "game-over": "the game has ended; no move can be made",
    "not-on-turn": "that seat is not on turn",
    "not-own-pile": "a seat plays only from its own pay-off and discard piles (and, where "
                    "partners share piles, from its partners')",
    "not-own-discard-pile": "a seat discards only onto its own discard piles (and, where "
                            "partners share them, onto its partners')",
    "seat-prefix": "a move from the mover's own piles names no seat (drop the 'S<n>.' prefix)",
    "not-in-hand": "that card is not in the hand",
    "no-such-pile": "there is no such pile",
    "empty-pile": "that pile is empty",
    "buried-card": "only the top card of a pay-off or discard pile may be played",
    "not-on-pile": "that card is not on that pile",
    "build-pile-limit": "no more build piles may be opened",
    "wild-cannot-start": "a wild card may not start a build pile",
    "wild-excluded": "a wild card may not stand for that rank",
    "wrong-rank": "a build pile takes the next rank in sequence, starting from 1 (the ace)",
    "forbidden-discard": "cards of that rank may not be discarded",
    "discard-count": "a discard is one card (two of equal rank under pair discards)",
    "pair-unequal": "a pair discard needs two cards of equal rank",
    "pass-not-allowed": "a seat may pass only when it has no other legal move",
    "forced-play": "a forced play must be made first",
    "wild-uncovered": "a wild card on a build pile must be covered before the turn ends",
}


def refuse(
    reason: str, move: object, clause_for: dict[str, str], message: str = "", where: str = ""
) -> IllegalMove:
    """The :class:`IllegalMove` for ``reason``, citing the rule sheet's clause for it.

    ``where`` narrows the clause lookup for reasons shared by several piles: a clause that
    lists ``"buried-card@payoff"`` is cited for a buried pay-off card, one that lists
    ``"buried-card"`` for any pile the sheet does not single out.
    """
    clause = clause_for.get(f"{reason}@{where}", "") if where else ""
    return IllegalMove(reason, message or REASONS[reason],
                       clause=clause or clause_for.get(reason, ""), move=str(move))
