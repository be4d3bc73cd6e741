"""Game records: a whole game as JSON, to save, resume, replay, check and share.

A record holds what it takes to play the game again through the engine: the rule set (name,
version, house rules and the parameters that differ from their defaults), the seats, the
seed and dealer of the deal, every move in order as its text form, and the outcome with its
scores once the game has ended.  Replaying a record deals from the seed and applies the moves,
so it gives a state equal to the original at every step.

Format (``format`` ``"spitemalice-record"``, ``version`` 1)::

    {
      "format": "spitemalice-record",
      "version": 1,
      "ruleset": {"name": "blackwood-frey", "version": "1.0",
                  "house_rules": [], "params": {"payoff_size": 13}},
      "seats": [{"name": "ann", "kind": "human"}, {"name": "greedy-1", "kind": "greedy"}],
      "seed": 5,
      "dealer": null,
      "moves": ["P:AS>B+", "2H>B1", "9C>D1", "pass"],
      "outcome": {"kind": "win", "winner": 0, "scores": [31, 0]}
    }

* ``teams`` (only in a game with teams, such as the ``partnerships`` house rule): the teams
  as lists of seats, ``[[0, 2], [1, 3]]``; replaying refuses a record whose teams differ
  from those its rules form.

* ``ruleset.params`` maps :class:`~spitemalice.rules.ruleset.Ruleset` field names to values
  (numbers, true/false, strings, ``null``, and lists of ranks for rank sets); loading the
  rule set by name with the house rules and these parameters gives the recorded rules.
* ``ruleset.data_rules`` (only when a rule-set file wrote house rules as data, its
  ``[[rule]]`` tables): each such house rule of ``house_rules`` (named ``FILE.toml:CLAUSE``)
  with its table, as ``{"my-rules.toml:DD-1": {"clause": "DD-1", "text": ..., "forbid":
  "discard", "when": ..., ...}}``.  The record carries the rule itself, not a path: replaying
  compiles the table as the file's reader does, so the record checks where the file is not.
* ``seats`` has one entry per seat, in seat order; ``name`` and ``kind`` are free text
  (``kind``: ``"human"``, ``"random"``, ``"greedy"``...).
* ``dealer`` is the dealing seat given to :func:`~spitemalice.engine.deal`, or ``null`` for
  the seeded cut.
* ``moves`` are move texts (:mod:`spitemalice.moves`), numbered from 1 in messages.
* ``outcome`` is ``null`` while the game is live (a saved game in progress).
* ``arrivals`` (only in a game whose seats move at once, such as ``spit``): when each move
  arrived, ``{"policy": {...} or null, "times_ms": [156.162, 171.5, ...], "stale": 3}``.
  Such a record's ``moves`` are the rule set's own move texts, each naming its seat
  (``S0.P3:9H>C1``, ``S1:spit``), in the order they were applied, which is the order they
  arrived: ``times_ms`` holds one time per move in milliseconds after the deal and never
  decreases.  ``policy`` is the seeded arrival policy of a simulated game
  (``{"policy": "reaction-times", "means_ms": [300.0, 300.0], "spread": 0.35,
  "distribution": "log-normal"}``, :mod:`spitemalice.runs.arrival`), or ``null`` when the
  times are a table's clock; ``stale`` counts the intents that arrived after the position
  had moved on (refused, their seats decided again).  Its ``dealer`` is ``null`` and it has
  no ``teams`` or ``undone``.  A turn-based record has no ``arrivals`` field, so its text is
  as it always was.
* ``undone`` (only when moves were taken back, as a person's ``undo`` against bots does):
  each undo in order, as ``{"at": 12, "moves": ["9H>D1", "JD>D1"]}``: the game went back to
  its first ``at`` moves and these moves, made after them, were taken back.  Such a game is
  a practice game (:attr:`GameRecord.practice`): the person saw cards drawn after the moves
  taken back and could play again knowing them, so no study or rating may count it as a
  game played fairly.  ``moves`` holds the game as it was played to the end after the
  last undo.
* ``takeovers`` (only when a play server's bot took a person's seat over,
  :mod:`spitemalice.server.leavers`): each as ``{"seat": 1, "at": 12, "player":
  "heuristic", "why": "left"}``: from move ``at + 1`` on, the ``player`` bot made the seat's
  moves, because its person ``"left"`` (away longer than the table's grace) or ran
  ``"out of time"`` on the table's move clock.  A seat is taken over once at most; the
  record's ``seats`` keep the person's name and kind.

Reading refuses malformed JSON, a missing, unknown or mistyped field (named by its path,
``record.moves[3]``), another format, a ``version`` that is newer than this library reads or
unknown, text that breaks the bounds of :mod:`spitemalice.limits` (a record of more than
:data:`~spitemalice.limits.MAX_JSON_BYTES` bytes, nested too deep, a number too long) and a
name, kind or rule-set text that is not printable (:func:`~spitemalice.wording.printable`:
control characters, lone surrogates).  A record's rule-set name is an installed rule set's
name: a path there is refused unless the caller allows files
(:func:`~spitemalice.formats.replay.rules_for`).

Replaying a record through the engine, and checking it, is :mod:`spitemalice.formats.replay`.

This package is the records' face: import the names from here (or from
:mod:`spitemalice.formats`).  Its modules: the record as a value
(:mod:`~spitemalice.formats.records.record`), making one from a game
(:mod:`~spitemalice.formats.records.making`), writing it
(:mod:`~spitemalice.formats.records.writing`) and reading it
(:mod:`~spitemalice.formats.records.reading`).
"""

from spitemalice.formats.records.making import (
    own_version,
    record_arrivals,
    record_game,
    record_result,
    ruleset_ref,
)
from spitemalice.formats.records.reading import load_record, loads_record, record_from_dict
from spitemalice.formats.records.record import (
    FORMAT,
    TAKEOVER_REASONS,
    VERSION,
    ArrivalLog,
    ArrivalPolicy,
    GameRecord,
    ParamValue,
    RecordFinding,
    RulesetRef,
    SeatInfo,
    Takeover,
    Undone,
    require_record,
)
from spitemalice.formats.records.writing import dumps_record, record_to_dict, save_record

__all__ = [
    "FORMAT", "TAKEOVER_REASONS", "VERSION", "ArrivalLog", "ArrivalPolicy", "GameRecord",
    "ParamValue", "RecordFinding", "RulesetRef", "SeatInfo", "Takeover", "Undone", "dumps_record",
    "load_record",
    "loads_record", "own_version", "record_arrivals", "record_from_dict",
    "record_game", "record_result", "record_to_dict", "require_record", "ruleset_ref",
    "save_record",
]
