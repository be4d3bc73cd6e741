"""The environments' input contract: every argument of every environment form, checked.

Every constructor, factory and method of :mod:`spitemalice.env` passes what it is given
through one of these checks before it builds or changes anything, so a bad argument (a wrong
type, a number out of range, an unknown name or option) is refused with
:class:`~spitemalice.errors.SpiteMaliceError` naming the argument and what would be right, and
the environment is left as it was; no ``TypeError``, ``KeyError`` or ``AttributeError``
escapes from inside.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from spitemalice.bots.players import PLAYERS
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.guards import check_int, check_real, check_seed
from spitemalice.limits import MAX_INT
from spitemalice.model import GameState
from spitemalice.rules.book import RuleBook, require_turn_based
from spitemalice.rules.loader import load
from spitemalice.wording import shown

RENDER_MODES = ("ansi", "svg")
"""What ``render_mode`` may be besides ``None``."""

MAX_REWARD = 1e6
"""The largest penalty (or reward) an environment option may set, either way."""

DEFAULT_DEPTH = 20
"""The default ``discard_depth``, allowed for every deck (a smaller deck pads it)."""

RESET_OPTIONS = ("state",)
"""The keys ``reset(options=...)`` reads: ``"state"``, a position to start from."""


def rules_of(ruleset: Any, players: Any, house_rules: Any, params: Mapping[str, Any]
             ) -> RuleBook:
    """The rule book an environment factory names: a rule set's name or file with house
    rules and parameters, or a :class:`RuleBook` (with parameters only).

    Raises:
        RulesetError: the configuration cannot be loaded (an unknown name, a bad value, a
            seat count the rule set does not allow).
        SpiteMaliceError: ``ruleset`` is not a name, a path or a RuleBook; ``house_rules`` is
            not a list of names, or is given with a RuleBook.
    """
    if players is not None:
        params = {**params, "players": _players(players, ruleset, house_rules, params)}
    rules = house_rules_of(house_rules)
    if isinstance(ruleset, RuleBook):
        if rules:
            raise SpiteMaliceError("house_rules go with a rule-set name; a RuleBook already "
                                   "has its house rules")
        book = ruleset.rebuild(**params) if params else ruleset
    elif not isinstance(ruleset, str | os.PathLike):
        raise SpiteMaliceError(f"ruleset is an installed rule set's name, a rule-set file or "
                               f"a RuleBook, not {_kind(ruleset)}")
    else:
        book = load(ruleset, rules, params)
    require_turn_based(book, "each environment (none yet for seats that move at once)")
    return book


def _players(players: Any, ruleset: Any, house_rules: Any, params: Mapping[str, Any]) -> int:
    """``players`` when it is a whole number (which seat counts the rule set allows, load()
    says); else an error naming the seat counts of the rule set asked for, not the bound of
    any integer."""
    try:
        return check_int(players, "players", 0, MAX_INT, error=RulesetError)
    except RulesetError as error:
        try:
            counts = rules_of(ruleset, None, house_rules, params).ruleset.player_counts
        except SpiteMaliceError:
            raise error from None  # the configuration itself is refused: say the bound
        allowed = (f"from {counts[0]} to {counts[-1]}" if counts == tuple(
            range(counts[0], counts[-1] + 1)) else f"one of {', '.join(map(str, counts))}")
        raise RulesetError(f"players is a whole number {allowed} for this rule set, not "
                           f"{shown(players)}") from None


def house_rules_of(house_rules: Any) -> list[str]:
    """``house_rules`` as a list of names (one name alone is a list of one).

    Raises:
        SpiteMaliceError: neither a name nor a list of names.
    """
    if isinstance(house_rules, str):
        return [house_rules]
    if not isinstance(house_rules, Iterable) or isinstance(house_rules, bytes | Mapping):
        raise SpiteMaliceError(f"house_rules is a list of house-rule names, not "
                               f"{_kind(house_rules)}")
    names = list(house_rules)
    for name in names:
        if not isinstance(name, str):
            raise SpiteMaliceError(f"house_rules holds names (text), not {_kind(name)}")
    return names


def discard_depth_of(rules: RuleBook, depth: Any) -> int:
    """``discard_depth``: discard-pile cards shown per pile, 1 to the deck's size (no pile
    can hold more, so a deeper observation would only hold padding) or
    :data:`DEFAULT_DEPTH`, whichever is larger.

    Raises:
        SpiteMaliceError: naming the bound.
    """
    most = max(rules.deck.size, DEFAULT_DEPTH)
    return check_int(depth, "discard_depth (discard-pile cards shown per pile; no pile "
                     f"holds more than the deck's {rules.deck.size} cards)", 1, most)


def max_cycles_of(cycles: Any) -> int | None:
    """``max_cycles``: ``None`` or 1 to :data:`~spitemalice.limits.MAX_INT`.

    Raises:
        SpiteMaliceError: naming the bound.
    """
    return None if cycles is None else check_int(cycles, "max_cycles", 1, MAX_INT)


def player_kind(kind: Any, what: str) -> str:
    """A built-in player kind (``"greedy"``...) for ``what`` (``fallback``, ``opponents``).

    Raises:
        SpiteMaliceError: not text, or not a known kind; the message lists them.
    """
    if not isinstance(kind, str) or kind not in PLAYERS:
        raise SpiteMaliceError(f"{what}: unknown player {shown(kind)}; choose from "
                               f"{', '.join(sorted(PLAYERS))}")
    return kind


def render_mode_of(mode: Any) -> str | None:
    """``render_mode``: ``None``, ``"ansi"`` or ``"svg"``.

    Raises:
        SpiteMaliceError: anything else.
    """
    if mode is None or (isinstance(mode, str) and mode in RENDER_MODES):
        return mode
    raise SpiteMaliceError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, "
                           f"not {shown(mode)}")


CATALOGUES = ("slot", "card")
"""What ``catalogue`` may be: actions by hand slot (:mod:`spitemalice.env.actions`, the
``-v0`` ids) or by card (:mod:`spitemalice.env.card_actions`, the ``-v1`` ids)."""


def catalogue_of(catalogue: Any) -> str:
    """``catalogue``: ``"slot"`` or ``"card"``.

    Raises:
        SpiteMaliceError: anything else, naming both.
    """
    if isinstance(catalogue, str) and catalogue in CATALOGUES:
        return catalogue
    raise SpiteMaliceError(f"catalogue is 'slot' (actions by hand slot, the -v0 ids) or "
                           f"'card' (actions by card, the -v1 ids), not {shown(catalogue)}")


ILLEGAL = ("raise", "penalty")
"""What ``illegal`` may be: refuse an illegal action, or answer it with a penalty."""


def illegal_of(illegal: Any) -> str:
    """``illegal``: ``"raise"`` or ``"penalty"``.

    Raises:
        SpiteMaliceError: anything else.
    """
    if isinstance(illegal, str) and illegal in ILLEGAL:
        return illegal
    raise SpiteMaliceError(f"illegal is {' or '.join(ILLEGAL)}, not {shown(illegal)}")


def penalty_of(penalty: Any) -> float:
    """``illegal_penalty``: a finite number of at most :data:`MAX_REWARD` either way.

    Raises:
        SpiteMaliceError: anything else (an integer too large for a float among them,
            compared before it is converted).
    """
    return check_real(penalty, "illegal_penalty", -MAX_REWARD, MAX_REWARD)


def seat_of(rules: RuleBook, seat: Any) -> int:
    """A seat of the game, 0 to ``players - 1``.

    Raises:
        SpiteMaliceError: naming the range.
    """
    return check_int(seat, "seat", 0, rules.players - 1)


def opponents_of(rules: RuleBook, opponents: Any) -> list[str]:
    """The other seats' player kinds: one kind for all, or one per other seat.

    Raises:
        SpiteMaliceError: not a kind or a list of kinds, the wrong number, an unknown kind.
    """
    others = rules.players - 1
    if isinstance(opponents, str):
        return [player_kind(opponents, "opponents")] * others
    if not isinstance(opponents, Sequence):
        raise SpiteMaliceError(f"opponents is a player kind or a list of one per other seat "
                               f"({others}), not {_kind(opponents)}")
    if len(opponents) != others:
        raise SpiteMaliceError(f"opponents: one kind for all, or one per other seat "
                               f"({others}), not {len(opponents)}")
    return [player_kind(kind, "opponents") for kind in opponents]


def reset_arguments(rules: RuleBook, seed: Any, options: Any) -> tuple[int | None,
                                                                     GameState | None]:
    """``reset(seed, options)``'s arguments: the seed (``None`` or 0 to
    :data:`~spitemalice.limits.MAX_SEED`) and the starting state of ``options`` (``None``
    or a mapping; of its keys only those of :data:`RESET_OPTIONS` are read, others are
    ignored, as PettingZoo's API test expects of an environment).

    Raises:
        SpiteMaliceError: a bad seed, options that are not a mapping, a state that is not a
            :class:`GameState` or has another seat count.
        PositionError: a state the rule set cannot hold.
    """
    from spitemalice.env.start import given_state

    seed = None if seed is None else check_seed(seed)
    if options is None:
        return seed, None
    if not isinstance(options, Mapping):
        raise SpiteMaliceError(f"options is None or a dict such as {{'state': state}}, not "
                               f"{_kind(options)}")
    return seed, given_state(rules, options)


def agent_of(agents: Sequence[str], agent: Any) -> str:
    """One of the environment's agents (``"seat_0"``...).

    Raises:
        SpiteMaliceError: anything else, naming the agents.
    """
    if isinstance(agent, str) and agent in agents:
        return agent
    raise SpiteMaliceError(f"unknown agent {shown(agent)}; the agents are {', '.join(agents)}")


def _kind(value: Any) -> str:
    return f"{type(value).__name__} {shown(value)}"


__all__ = [
    "CATALOGUES", "ILLEGAL", "MAX_REWARD", "RENDER_MODES", "RESET_OPTIONS", "agent_of",
    "catalogue_of", "discard_depth_of", "house_rules_of", "illegal_of", "max_cycles_of",
    "opponents_of", "penalty_of", "player_kind", "render_mode_of", "reset_arguments",
    "rules_of", "seat_of",
]
