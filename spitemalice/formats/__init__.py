"""What the library reads and writes: position notation, JSON, game records, schemas, pictures.

This package is the one place an embedder imports them from (``from spitemalice.formats
import dumps_state, loads_state``); the modules inside it may be regrouped between releases.

* position notation, one line per position or view: :func:`format_position` /
  :func:`parse_position`, :func:`format_view` / :func:`parse_view`, and the layouts for
  people, :func:`describe_position` / :func:`describe_view`;
* states and views as JSON: :func:`dumps_state` / :func:`loads_state`, :func:`dumps_view` /
  :func:`loads_view`, and the ``*_to_dict`` / ``*_from_dict`` forms;
* whole games as records: :func:`record_game`, :func:`dumps_record` / :func:`loads_record`,
  :func:`save_record` / :func:`load_record`, :func:`replay`, :func:`check_record`; for a
  rule set whose seats move at once, :func:`record_arrivals` and :func:`replay_arrivals`,
  and its positions as text, :func:`describe_plain` / :func:`plain_line`;
* the JSON Schemas of those documents: :func:`schema`, :func:`schema_text`;
* a position as an SVG picture: :func:`position_svg`;
* whether a position is one the rule set can hold: :func:`check_position`,
  :func:`check_view`.

Every reader bounds what it accepts (:mod:`spitemalice.limits`) and raises only the library's
documented errors (:class:`~spitemalice.errors.NotationError`,
:class:`~spitemalice.errors.DataError`, :class:`~spitemalice.errors.PositionError`,
:class:`~spitemalice.errors.RecordError`, :class:`~spitemalice.errors.RulesetError`); every
document it writes validates against its published schema.
"""

from spitemalice.formats.arrival_replay import replay_arrivals
from spitemalice.formats.layout import describe_position, describe_view
from spitemalice.formats.notation import format_position, format_view
from spitemalice.formats.parse import parse_position, parse_view, seat_count
from spitemalice.formats.picture import position_svg
from spitemalice.formats.plain_layout import describe_plain, plain_line
from spitemalice.formats.position_check import check_position, check_view
from spitemalice.formats.records.making import (
    record_arrivals,
    record_game,
    record_result,
    ruleset_ref,
)
from spitemalice.formats.records.reading import load_record, loads_record, record_from_dict
from spitemalice.formats.records.record import (
    ArrivalLog,
    ArrivalPolicy,
    GameRecord,
    RecordFinding,
    RulesetRef,
    SeatInfo,
    Takeover,
    Undone,
)
from spitemalice.formats.records.writing import dumps_record, record_to_dict, save_record
from spitemalice.formats.replay import RecordProblem, check_record, final_state, replay, rules_for
from spitemalice.formats.schema import SCHEMA_NAMES, schema, schema_text
from spitemalice.formats.serialize import (
    dumps_state,
    dumps_view,
    loads_state,
    loads_view,
    outcome_from_dict,
    outcome_to_dict,
    state_from_dict,
    state_to_dict,
    view_from_dict,
    view_to_dict,
)

__all__ = [
    "SCHEMA_NAMES",
    "ArrivalLog",
    "ArrivalPolicy",
    "GameRecord",
    "RecordFinding",
    "RecordProblem",
    "RulesetRef",
    "SeatInfo",
    "Takeover",
    "Undone",
    "check_position",
    "check_record",
    "check_view",
    "describe_plain",
    "describe_position",
    "describe_view",
    "dumps_record",
    "dumps_state",
    "dumps_view",
    "final_state",
    "format_position",
    "format_view",
    "load_record",
    "loads_record",
    "loads_state",
    "loads_view",
    "outcome_from_dict",
    "outcome_to_dict",
    "parse_position",
    "parse_view",
    "plain_line",
    "position_svg",
    "record_arrivals",
    "record_from_dict",
    "record_game",
    "record_result",
    "record_to_dict",
    "replay",
    "replay_arrivals",
    "rules_for",
    "ruleset_ref",
    "save_record",
    "schema",
    "schema_text",
    "seat_count",
    "state_from_dict",
    "state_to_dict",
    "view_from_dict",
    "view_to_dict",
]
