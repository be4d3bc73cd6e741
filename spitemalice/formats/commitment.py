"""Deals anyone can check (issue 36 §2): a commitment to a deal's seed, announced before the
first move and checked against the seed the record reveals at the end.

A game server (:mod:`spitemalice.server`) deals each game from an unguessable seed
(:func:`~spitemalice.engine.deal.new_seed`, 128 bits from :mod:`secrets`) and draws a salt of
128 more bits; before the first move every seat and spectator is shown

    ``sha256`` = SHA-256 of the ASCII text ``spitemalice-deal-v1:SEED:DEALER:SALT``

(:func:`preimage`: ``SEED`` in decimal, ``DEALER`` the dealing seat in decimal or ``none``
for the seeded cut, ``SALT`` 32 lowercase hex digits; no newline), as 64 lowercase hex
digits.  The record keeps the seed, the dealer, the salt and that commitment
(:class:`~spitemalice.formats.records.record.DealCommitment`), with ``deal_sha256``, the
SHA-256 of the dealt position written in the position notation, or for a rule set whose
seats move at once (Spit) as its one line of JSON (:func:`deal_digest`).  A live Spit table
(:mod:`spitemalice.server.spit_table`) commits the same way, with no dealer (``none``).  Once
the game is over the record is public, and anyone recomputes the commitment::

    printf '%s' 'spitemalice-deal-v1:SEED:none:SALT' | sha256sum

:func:`deal_problem` (``spitemalice check``) checks both: the commitment recomputed from the
revealed seed, dealer and salt, and the deal that seed gives under the record's rules.  The
salt makes the commitment hide the seed whatever the seed (a small one, say, as tests deal):
without it a seed of a few digits is found by trying them all.  The scheme's name is in the
hashed text and the record, so another way of committing would be a new name, never a new
meaning of this one.
"""

from __future__ import annotations

import hashlib
import secrets

from spitemalice.engine.deal import deal
from spitemalice.formats.notation import format_position
from spitemalice.formats.plain_layout import plain_line
from spitemalice.formats.records.record import COMMIT_SCHEME, DealCommitment, GameRecord
from spitemalice.guards import check_seed
from spitemalice.rules.book import RuleBook, check_book

SALT_BITS = 128
"""Random bits of a commitment's salt (:mod:`secrets`)."""


def preimage(seed: int, dealer: int | None, salt: str) -> bytes:
    """The bytes whose SHA-256 is the commitment: ASCII
    ``spitemalice-deal-v1:SEED:DEALER:SALT`` (decimal seed, dealer in decimal or ``none``,
    the salt's 32 hex digits; no newline).

    Raises:
        SpiteMaliceError: a seed outside 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    check_seed(seed)
    who = "none" if dealer is None else str(dealer)
    return f"{COMMIT_SCHEME}:{seed}:{who}:{salt}".encode("ascii")


def seed_commitment(seed: int, dealer: int | None, salt: str) -> str:
    """The commitment to a deal: SHA-256 of :func:`preimage`, as 64 lowercase hex digits."""
    return hashlib.sha256(preimage(seed, dealer, salt)).hexdigest()


def deal_digest(rules: RuleBook, seed: int, dealer: int | None) -> str:
    """The SHA-256 (64 lowercase hex digits) of the deal ``seed`` and ``dealer`` give under
    ``rules``: the dealt position in the position notation (docs/formats.md), UTF-8; for a
    rule set whose seats move at once (Spit), the dealt state as one line of JSON
    (:func:`~spitemalice.formats.plain_layout.plain_line`: every card of it, in place).

    Raises:
        SpiteMaliceError: a bad seed or dealer (as :func:`~spitemalice.engine.deal.deal`).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "deal_digest")
    dealt = deal(rules, seed, dealer)
    if rules.simultaneous is not None:  # no position notation: the state's own fields
        text = plain_line(dealt)
    else:
        text = format_position(dealt, rules.teams.teams if rules.teams.any else ())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commit(rules: RuleBook, seed: int, dealer: int | None) -> DealCommitment:
    """A new commitment to the deal of ``seed`` and ``dealer`` under ``rules``, with a fresh
    salt of :data:`SALT_BITS` bits from :mod:`secrets` (call it once per game dealt).

    Raises:
        SpiteMaliceError: a bad seed or dealer.
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "commit")
    salt = secrets.token_hex(SALT_BITS // 8)
    return DealCommitment(seed_commitment(seed, dealer, salt), salt,
                          deal_digest(rules, seed, dealer))


def deal_problem(record: GameRecord, rules: RuleBook) -> str | None:
    """What is wrong with ``record``'s commitment, or ``None`` when it has none or it holds:
    the commitment recomputed from the record's seed, dealer and salt must be the one
    announced, and the deal of that seed under ``rules`` must be the recorded deal.

    The answer names the mismatch: ``"commitment: ..."`` (the announced SHA-256 and the
    one recomputed from the revealed seed) or ``"deal: ..."`` (the recorded deal and the
    one the seed gives).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "deal_problem")
    promised = record.commitment
    if promised is None:
        return None
    again = seed_commitment(record.seed, record.dealer, promised.salt)
    if again != promised.sha256:
        return (f"commitment: the record's seed, dealer and salt hash to {again}, but the "
                f"commitment announced during the game is {promised.sha256}: the seed "
                "revealed is not the one committed to")
    dealt = deal_digest(rules, record.seed, record.dealer)
    if dealt != promised.deal_sha256:
        return (f"deal: the record's deal has SHA-256 {promised.deal_sha256}, but the deal "
                f"its seed gives under {rules.name} has {dealt}: the deal recorded is not "
                "the deal that seed produces")
    return None


def revealed(record: GameRecord) -> str:
    """One line for ``spitemalice check``: the commitment checked, and how to recompute it
    by hand (the record must have one)."""
    promised = record.commitment
    assert promised is not None
    who = "none" if record.dealer is None else record.dealer
    return (f"deal: seed matches commitment {promised.sha256} (recompute: printf '%s' "
            f"'{COMMIT_SCHEME}:{record.seed}:{who}:{promised.salt}' | sha256sum)")


__all__ = ["SALT_BITS", "commit", "deal_digest", "deal_problem", "preimage", "revealed",
           "seed_commitment"]
