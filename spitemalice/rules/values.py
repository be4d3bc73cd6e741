"""Parameter values given to a rule set (``--set``, keyword arguments to
:func:`~spitemalice.load`, a file's ``[params]``): each checked on its own
(:func:`value_problems`), then applied together (:func:`override`), every bad one refused in
one error (:func:`~spitemalice.wording.together`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.rules.ruleset import RANK_SETS, Ruleset, convert_param
from spitemalice.wording import rank_names, together
from spitemalice.wording import shown as _shown


def override(ruleset: Ruleset, params: Mapping[str, Any]) -> Ruleset:
    """A copy of ``ruleset`` with ``params`` applied; text values are converted.

    Every value is checked on its own first (its name, type and range: :func:`value_problems`)
    and every one at fault is refused together, each named with what would be right; the
    checks that weigh values against each other (``min_players`` against ``max_players``,
    ``players`` against both, ``draw_pack`` against ``packs``) are made only once every value
    is right on its own.

    Raises:
        RulesetError: an unknown name (with the closest valid one) or a bad value, every one
            of them in one message; the rule set passed in is untouched.
    """
    problems, changes = value_problems(params)
    if problems:
        raise RulesetError(together(problems))
    try:
        return attrs.evolve(ruleset, **changes)
    except (TypeError, ValueError) as error:
        if isinstance(error, RulesetError):
            raise
        raise RulesetError(f"bad parameter value: {error}") from error


def value_problems(params: Mapping[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """What is wrong with each of ``params`` on its own, in order (an unknown name, a wrong
    type, a value out of its range or not one of its choices, a negative rank), and the
    values converted (those that convert).

    Raises:
        TypeError: ``params`` is not a mapping of names to values.
    """
    if not isinstance(params, Mapping):
        raise TypeError(f"value_problems takes a mapping of parameter names to values, "
                        f"not {_shown(params)}")
    problems: list[str] = []
    changes: dict[str, Any] = {}
    fields = attrs.fields_dict(Ruleset)
    for name, value in params.items():
        try:
            changes[name] = converted = convert_param(name, value)
            field = fields[name]
            if field.converter is not None:
                converted = field.converter(converted)  # type: ignore[operator]
            if field.validator is not None:
                field.validator(None, field, converted)
        except RulesetError as error:
            problems.append(str(error))
            continue
        if name in RANK_SETS and any(rank < 0 for rank in converted):
            negative = sorted(rank for rank in converted if rank < 0)
            problems.append(f"{name}: ranks are 0 (joker) or more, not {rank_names(negative)}")
    return problems, changes


__all__ = ["override", "value_problems"]
