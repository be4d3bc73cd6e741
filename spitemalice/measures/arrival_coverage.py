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
    check_list(games, "arrival_tally", "games, a list of games play_arrival played,",
               "[play_arrival(rules, bots, 1, ReactionTimes())]")
    counting = ArrivalCoverage(rules, every, "arrival_tally")
    for played in games:
        counting.add(played)
    return counting.tally()


class ArrivalCoverage:
    """The same count as :func:`arrival_tally`, a game at a time, so that a long run keeps
    counts and not its games (``simulate spit --coverage`` of 100,000 games).

    Raises:
        TypeError: ``rules`` is not a rule book.
        SpiteMaliceError: the rule set is turn-based, or ``every`` is not 1 to 1000.
    """

    def __init__(self, rules: RuleBook, every: int = 4,
                 function: str = "ArrivalCoverage") -> None:
        check_book(rules, function)
        check_int(every, "every", 1, 1000)
        if rules.simultaneous is None:
            raise SpiteMaliceError(f"{function} takes a rule set whose seats move at once; "
                                   f"{rules.name} is turn-based (simulate --coverage counts "
                                   "its games)")
        self.rules, self.game, self.every = rules, rules.simultaneous, every
        self._tally = Tally()
        self._kinds: dict[str, set[str]] = {}  # a move's kind -> the codes its kind met
        self._made: Counter[str] = Counter()

    def add(self, played: ArrivalGame) -> None:
        """Count one game: its events, its probes' refusals and its moves by kind."""
        tally = self._tally
        tally.games += 1
        tally.fired["dealt"] += 1
        tally.fired[played.outcome.kind] += 1
        tally.fired["stale"] += played.stale
        state: Any = deal(self.rules, played.final.seed)
        for order, _, text, _ in played.log:
            if order % self.every == 0:
                _probe(self.rules, state, tally.refused, self._kinds)
            move = self.game.parse_move(text)
            self._made[type(move).__name__] += 1
            after = self.game.apply(state, move)
            tally.fired.update(self.game.events(state, move, after))
            state = after
        _probe(self.rules, state, tally.refused, self._kinds)

    def tally(self) -> Tally:
        """The games added so far, as a fresh :class:`~spitemalice.engine.coverage.Tally`:
        each move is credited with every code its kind met in any of them."""
        tally = Tally()
        tally.add(self._tally)
        for kind, count in self._made.items():
            tally.played[tuple(sorted(self._kinds.get(kind, ())))] += count
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
