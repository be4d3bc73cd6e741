"""Writing a record: as JSON-ready data (:func:`record_to_dict`), JSON text
(:func:`dumps_record`) or a file (:func:`save_record`, by the one rule for files the library
writes).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

import attrs

from spitemalice.files import PUBLIC_FILE, SECRET_FILE, write_file
from spitemalice.formats.records.record import (
    FORMAT,
    VERSION,
    ArrivalLog,
    GameRecord,
)
from spitemalice.formats.serialize import outcome_to_dict
from spitemalice.guards import json_indent


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """``record`` as JSON-ready data (see the module docstring for the shape)."""
    ref = record.ruleset
    ruleset: dict[str, Any] = {
        "name": ref.name, "version": ref.version, "house_rules": list(ref.house_rules),
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in ref.params},
    }
    if ref.data_rules:  # the rules a rule-set file wrote as data, by content
        ruleset["data_rules"] = {name: _json_data(table) for name, table in ref.data_rules}
    data = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": ruleset,
        "seats": [{"name": seat.name, "kind": seat.kind} for seat in record.seats],
        "seed": record.seed,
        "dealer": record.dealer,
        "moves": list(record.moves),
        "outcome": outcome_to_dict(record.outcome),
    }
    if record.teams:
        data["teams"] = [list(team) for team in record.teams]
    if record.finding is not None:
        data["finding"] = {"invariant": record.finding.invariant,
                           "message": record.finding.message}
    if record.undone:
        data["undone"] = [{"at": undo.at, "moves": list(undo.moves)} for undo in record.undone]
    if record.arrivals is not None:
        data["arrivals"] = _arrivals_out(record.arrivals)
    if record.commitment is not None:
        promised = record.commitment
        data["commitment"] = {"scheme": promised.scheme, "sha256": promised.sha256,
                              "salt": promised.salt, "deal_sha256": promised.deal_sha256}
    if record.takeovers:
        data["takeovers"] = [attrs.asdict(taken) for taken in record.takeovers]
    return data


def _json_data(value: Any) -> Any:
    """``value`` (a ``[[rule]]`` table as TOML gave it: texts, numbers, true/false, lists and
    tables) as JSON data, tables and lists copied."""
    if isinstance(value, Mapping):
        return {str(key): _json_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_data(item) for item in value]
    return value


def _arrivals_out(log: ArrivalLog) -> dict[str, Any]:
    """The arrival log of a game whose seats move at once, as JSON-ready data."""
    policy = log.policy
    return {
        "policy": None if policy is None else {
            "policy": policy.name, "means_ms": list(policy.means_ms), "spread": policy.spread,
            "distribution": policy.distribution},
        "times_ms": list(log.times_ms),
        "stale": log.stale,
    }


def dumps_record(record: GameRecord, indent: int | None = 1) -> str:
    """``record`` as JSON text.

    Raises:
        SpiteMaliceError: ``indent`` is not ``None`` or 0 to
            :data:`~spitemalice.limits.MAX_INDENT`.
    """
    return json.dumps(record_to_dict(record), indent=json_indent(indent))


def save_record(record: GameRecord, path: str | os.PathLike[str], *,
                overwrite: bool = False) -> None:
    """Write ``record`` to the file ``path`` as JSON, by the one rule for files the library
    writes (:mod:`spitemalice.files`): whole or not at all, never through a
    symbolic link, never over an existing file unless ``overwrite``.  A record of a game not
    over is readable by its owner alone (``0o600``): its deal's seed gives every hidden card.

    Args:
        overwrite: whether a file or link already at ``path`` may be replaced (a link is
            replaced, never followed).

    Raises:
        OutputError: ``path`` exists and ``overwrite`` is false, is a folder, or cannot be
            written; nothing was written.
    """
    write_file(path, dumps_record(record) + "\n", force=overwrite,
               how_to_replace="overwrite=True",
               mode=SECRET_FILE if record.outcome is None else PUBLIC_FILE)
