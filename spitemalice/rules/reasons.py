"""The published reason codes of illegal moves: one set, stable strings programs match on.

Every :class:`~spitemalice.errors.IllegalMove` carries one of these codes and the id of the
rule-sheet clause that is the authority for it.  A clause says which codes it covers
(``Clause.reasons``); a code that is refused on several kinds of pile is covered per pile with
``code@pile`` (``"buried-card@payoff"``), or for every pile with the bare code.

* :data:`ENGINE`: codes the engine can raise under any rule set; every rule sheet must cover
  each of them (pile by pile for the codes of :data:`PILES`).
* :data:`FILTERS`: codes that move filters (``spitemalice_filter_moves``) answer with; a rule
  sheet must cover those its loaded filters declare (a filter plugin's ``REASONS``).  A filter
  that answers with a code its plugin does not declare, and no clause covers, stops the game
  with a :class:`~spitemalice.errors.RulesetError` naming the code: declare it.
* A plugin may add codes of its own for its filter: ``REASONS = {"my-code": "a sentence"}``.

A :class:`~spitemalice.rules.book.RuleBook` refuses a sheet that leaves a required code
uncovered or names a code that is neither published nor declared, so no refusal ever cites an
empty clause.  This module imports nothing of the library: it is the one place to change the
set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ENGINE: dict[str, str] = {
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
}

FILTERS: dict[str, str] = {
    "forced-play": "a forced play must be made first",
    "wild-uncovered": "a wild card on a build pile must be covered before the turn ends",
}

PILES: dict[str, tuple[str, ...]] = {
    "empty-pile": ("payoff", "discard"),
    "buried-card": ("payoff", "discard"),
    "not-on-pile": ("discard",),
}
"""Codes refused on piles, and the piles each is refused on: the engine asks for the clause of
``code@pile``, and a sheet covers each pile (or all with the bare code).  A card missing from
a pay-off pile is refused as ``buried-card`` like a buried one: below its top a pay-off pile
is face down, and the answer must not tell the seat what lies there."""

REASONS: dict[str, str] = {**ENGINE, **FILTERS}
"""Every published code with its default sentence."""


def keys(codes: Iterable[str]) -> list[str]:
    """The clause keys that cover ``codes``: ``code@pile`` for each pile of a code in
    :data:`PILES`, the bare code otherwise.

    Examples:
        >>> keys(["empty-pile", "game-over"])
        ['empty-pile@payoff', 'empty-pile@discard', 'game-over']
    """
    return [f"{code}@{pile}" if code in PILES else code
            for code in codes for pile in PILES.get(code, ("",))]


def known(key: str, extra: Mapping[str, str] | Iterable[str] = ()) -> bool:
    """Whether a clause may name ``key``: a published code (bare, or ``code@pile`` for a pile
    of :data:`PILES`) or one of ``extra`` (codes plugins declare)."""
    code, _, pile = key.partition("@")
    if pile:
        return pile in PILES.get(code, ())
    return code in REASONS or code in extra
