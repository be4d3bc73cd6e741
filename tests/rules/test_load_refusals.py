"""Refusals at load: gathered flat, a check weighing values only once they are valid, and
suggestions that are values the loader takes."""

from __future__ import annotations

from types import SimpleNamespace

import attrs
import pytest

import spitemalice as sm
from spitemalice.rules.checks import check_dead_cards
from spitemalice.wording import together


def _refusal(**params: object) -> str:
    with pytest.raises(sm.RulesetError) as refused:
        sm.load("blackwood-frey", **params)
    return str(refused.value)


def test_a_rank_no_card_has_is_refused_without_the_dead_card_check() -> None:
    """``wild_ranks=99`` was refused twice: the rank no card has, then the kings dead
    "(wild_ranks = 99)" with the fix "wild_ranks = 13,99", a value just refused."""
    assert _refusal(wild_ranks="99") == ("wild_ranks names rank(s) 99 that no card has; "
                                         "ranks here run from 0 (joker) to 13")


def test_refusals_gathered_at_load_are_one_flat_list() -> None:
    """``wild_ranks=99 discard_forbidden=77`` read "2 problems: (1) 2 problems: (1) ..."."""
    message = _refusal(wild_ranks="99", discard_forbidden="77")
    assert message.count("problems:") == 1
    assert message.startswith("2 problems: (1) wild_ranks names rank(s) 99 that no card has")
    assert "; (2) discard_forbidden names rank(s) 77 that no card has" in message


def test_together_flattens_a_message_it_joined() -> None:
    inner = together(["b; (2) x", "c"])
    assert together(["a", inner, together(["d", "e"])]) == (
        "5 problems: (1) a; (2) b; (2) x; (3) c; (4) d; (5) e")
    assert together([inner]) == inner


def test_the_dead_card_fix_names_only_ranks_a_card_has() -> None:
    """The dead-card check's "make them wild (wild_ranks = ...)" kept a rank no card has
    from the values it was given, so the fix it suggested was refused in turn."""
    book = sm.load("blackwood-frey")
    accepts = list(book.accepts)
    accepts[13] = frozenset()  # the kings dead, as under a wild_ranks without them
    rules = attrs.evolve(book.ruleset, wild_ranks=frozenset({99}))
    stand_in = SimpleNamespace(deck=book.deck, accepts=accepts, simultaneous=None,
                               ruleset=rules, ceiling=book.ceiling)
    with pytest.raises(sm.RulesetError) as refused:
        check_dead_cards(stand_in)  # type: ignore[arg-type]
    assert "make them wild (wild_ranks = 13)" in str(refused.value)

