"""Rule coverage of games whose seats move at once (Spit), in the terms of
:mod:`spitemalice.measures.coverage`: a :class:`~spitemalice.engine.coverage.Tally` that
:func:`~spitemalice.measures.coverage.clause_coverage` turns into one row per clause.

Such a game's moves are not decided by the turn-based engine's checks, so the tally is read
off the games themselves, each replayed from its seed and its arrival log:

* **refused**: at every ``every``-th position and the last, each move the game's ``probes``
  offer (the candidates validate tries: each seat's face-up cards onto every pile, the calls
  of the other phases, another seat's move) that ``check_move`` refuses, by its reason code;
* **played**: each move made, keyed by the reason codes moves of its kind (``Lay``,
  ``Fill``, ``Spit``, ``Slap``) were refused with in the same games: the checks it passed;
* **fired**: ``dealt`` once a game, the game's outcome kind (``win``, ``drawn``,
  ``turn-limit``), each event a move caused as the game itself names them
  (:meth:`~spitemalice.rules.simultaneous.SimultaneousGame.events`: in Spit ``turned-up``,
  ``barrier-again``, ``round-over``, ``laid-out-again``, ``short-layout``, ``one-pile``), and
  ``stale`` once per intent the arrival policy found too late.

A clause that names no reason code and no event is shown as one coverage cannot see, as it
is for a turn-based rule set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from spitemalice.engine.check import check_move
from spitemalice.engine.coverage import Tally
from spitemalice.engine.deal import deal
from spitemalice.errors import IllegalMove, SpiteMaliceError
from spitemalice.guards import check_int, check_list
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.runs.arrival import ArrivalGame


def arrival_tally(rules: RuleBook, games: Sequence[ArrivalGame], every: int = 4) -> Tally:
    """The rule coverage of ``games`` (each played by
    :func:`~spitemalice.runs.arrival.play_arrival` under ``rules``), probing every
    ``every``-th position and each game's last.

    Raises:
        TypeError: ``rules`` is not a rule book, or ``games`` is not a list.
        SpiteMaliceError: the rule set is turn-based (its coverage is the engine's
            :class:`~spitemalice.engine.coverage.Recorder`), or ``every`` is not 1 to 1000.
    """
    check_book(rules, "arrival_tally")
    check_list(games, "arrival_tally", "games, a list of games play_arrival played,",
               "[play_arrival(rules, bots, 1, ReactionTimes())]")
    check_int(every, "every", 1, 1000)
    game = rules.simultaneous
    if game is None:
        raise SpiteMaliceError(f"arrival_tally counts games whose seats move at once; "
                               f"{rules.name} is turn-based (simulate --coverage counts it)")
    tally = Tally()
    kinds: dict[str, set[str]] = {}  # a move's kind -> the codes moves of that kind met
    made: Counter[str] = Counter()
    for played in games:
        tally.games += 1
        tally.fired["dealt"] += 1
        tally.fired[played.outcome.kind] += 1
        tally.fired["stale"] += played.stale
        state: Any = deal(rules, played.final.seed)
        for order, _, text, _ in played.log:
            if order % every == 0:
                _probe(rules, state, tally.refused, kinds)
            move = game.parse_move(text)
            made[type(move).__name__] += 1
            after = game.apply(state, move)
            tally.fired.update(game.events(state, move, after))
            state = after
        _probe(rules, state, tally.refused, kinds)
    for kind, count in made.items():
        tally.played[tuple(sorted(kinds.get(kind, ())))] += count
    return tally


def _probe(rules: RuleBook, state: Any, refused: Counter[str],
           kinds: dict[str, set[str]]) -> None:
    """Count the probes ``check_move`` refuses at ``state``, by reason code and by the kind
    of move refused."""
    game = rules.simultaneous
    probes = getattr(game, "probes", None)
    if game is None or probes is None:
        return
    for seat in range(rules.players):
        listed = game.legal_moves(state, seat)
        for move, claimed in probes(state, seat):
            if move in listed and claimed == seat:
                continue
            try:
                check_move(rules, state, move, claimed)
            except IllegalMove as error:
                refused[error.reason] += 1
                kinds.setdefault(type(move).__name__, set()).add(error.reason)
