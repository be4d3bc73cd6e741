"""``validate`` for a rule set whose seats move at once: static checks, then games under the
arrival policy with every move checked.

Each game's every position is held to these invariants (a failure names the game's seed,
the move's order number and the invariant):

* ``cards``: the deck's cards, each exactly once (conservation);
* ``progress``: a game not over has a seat that may move (no barrier waits for nobody);
* ``legal-agrees``: every move listed for a seat passes ``check_move`` for that seat, and
  every probe the listing left out (each seat's face-up stock tops onto each pile, the calls
  of the other phases) is refused with a reason code whose clause the sheet has;
* ``privacy``: each seat's view equals its view of a hidden twin (the face-down cards
  shuffled among their places);
* ``deterministic``: the same seed plays the same game again.

Then rule coverage (:class:`~spitemalice.measures.arrival_coverage.ArrivalCoverage`): a
table of each clause's moves played, probes refused and events fired, as the turn-based
``validate`` prints it.

Warnings: a game that reached the move limit, a clause no game exercised that does not
declare ``expects=("unexercised",)`` (:func:`~spitemalice.measures.coverage.coverage_notes`).
``--strict`` fails on warnings too.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs

from spitemalice.engine.check import check_move
from spitemalice.errors import IllegalMove
from spitemalice.measures.arrival_coverage import ArrivalCoverage
from spitemalice.measures.coverage import (
    ClauseCoverage,
    CoverageNote,
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
    format_coverage_report,
)
from spitemalice.measures.rates import wilson
from spitemalice.rules.book import RuleBook
from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival
from spitemalice.wording import count_of


@attrs.frozen
class SimultaneousReport:
    """What validate found: ``errors`` and ``warnings`` (sentences), the games played, the
    arrival policy, every refusal code met with its count, the games won, and the rule
    coverage (a row per clause, and a note per clause no game exercised)."""

    ruleset: str
    games: int
    policy: str
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    refusals: dict[str, int]
    positions: int
    won: int = 0
    coverage: tuple[ClauseCoverage, ...] = ()
    notes: tuple[CoverageNote, ...] = ()

    def ok(self, strict: bool = False) -> bool:
        """Whether it passed: no error (and, ``strict``, no warning)."""
        return not self.errors and not (strict and self.warnings)

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON data (``coverage`` as the turn-based report gives it)."""
        data = attrs.asdict(self, filter=lambda field, _: field.name not in ("coverage",
                                                                              "notes"))
        data["coverage"] = {**coverage_as_dict(list(self.coverage), self.games),
                            "notes": [attrs.asdict(note) for note in self.notes]}
        return data


def validate_simultaneous(book: RuleBook, games: int, seed: int,
                          policy: ReactionTimes | None = None) -> SimultaneousReport:
    """Play ``games`` games of ``book`` (bots taking turns through every lineup the game
    offers), re-walk each one position by position and check the invariants."""
    assert book.simultaneous is not None  # the caller dispatched on it
    policy = policy or ReactionTimes()
    names = list(game_bots(book.simultaneous))
    errors: list[str] = list(_static(book))
    warnings: list[str] = []
    refusals: Counter[str] = Counter()
    covering = ArrivalCoverage(book, function="validate_simultaneous")
    positions = won = 0
    for number in range(games):
        lineup = [game_bots(book.simultaneous)[names[(number + at) % len(names)]]
                  for at in range(book.players)]
        game = play_arrival(book, lineup, seed + number, policy)
        if play_arrival(book, lineup, seed + number, policy) != game:
            errors.append(f"game {seed + number}: the same seed played another game "
                          "[deterministic]")
        if game.outcome.kind == "turn-limit":
            warnings.append(f"game {seed + number} reached the move limit")
        positions += _walk(book, seed + number, game.log, errors, refusals)
        covering.add(game)
        won += game.outcome.winner is not None
        if len(errors) > 20:
            break
    tally = covering.tally()
    rows = clause_coverage(book, tally)
    notes = coverage_notes(book, rows, tally.games)
    warnings += [f"clause {note.clause}: {note.message}" for note in notes
                 if note.level == "warning"]
    return SimultaneousReport(book.name, tally.games, policy.describe(book.players),
                              tuple(errors), tuple(warnings), dict(sorted(refusals.items())),
                              positions, won, tuple(rows), tuple(notes))


def _static(book: RuleBook) -> list[str]:
    """Every clause has a source; every assumption says so in its source."""
    found = [f"clause {clause.id} has no source" for clause in book.clauses
             if not clause.source.strip()]
    found += [f"clause {clause.id} states an ASSUMPTION its source does not mark"
              for clause in book.clauses
              if "ASSUMPTION" in clause.text and "ASSUMPTION" not in clause.source]
    return found


def _walk(book: RuleBook, seed: int, log: Any, errors: list[str],
          refusals: Counter[str]) -> int:
    """Replay one game from its seed and log, checking every position; the positions met."""
    game = book.simultaneous
    assert game is not None
    from spitemalice.engine.deal import deal  # the engine's door, as a caller uses it

    state: Any = deal(book, seed)
    rng = random.Random(seed)
    deck = Counter(state.all_cards())
    for order, seat, text, _ in log:
        where = f"game {seed}, move {order}"
        _check_position(book, state, where, rng, errors, refusals, deck, probe=order % 4 == 0)
        move = game.parse_move(text)
        if move.seat != seat or seat not in game.to_move(state):
            errors.append(f"{where}: {text} was made by a seat not free to move [progress]")
        state = game.apply(state, move)
    if state.outcome is None:
        errors.append(f"game {seed}: its log ends before the game does [progress]")
    else:  # the final position: every probe refused, the game being over
        _check_position(book, state, f"game {seed}, the end", rng, errors, refusals, deck)
    return len(log) + 1


def _check_position(book: RuleBook, state: Any, where: str, rng: random.Random,
                    errors: list[str], refusals: Counter[str], deck: Counter[Any],
                    probe: bool = True) -> None:
    """The invariants at one position; the probes and the privacy twin only when
    ``probe`` (every fourth position and the last: the rest cost without finding more)."""
    game = book.simultaneous
    assert game is not None
    if Counter(state.all_cards()) != deck:
        errors.append(f"{where}: the cards are not the deck's, each once [cards]")
    movers = game.to_move(state)
    if not movers and state.outcome is None:
        errors.append(f"{where}: the game is not over and no seat may move [progress]")
    if not probe:
        return
    twin = game.hidden_twin(state, rng)
    for seat in range(book.players):
        listed = game.legal_moves(state, seat)
        if state.view(seat) != twin.view(seat):
            errors.append(f"{where}: seat {seat}'s view shows a face-down card [privacy]")
        for move in listed:
            try:
                check_move(book, state, move, seat)
            except IllegalMove as refused:
                errors.append(f"{where}: {move} is listed but refused ({refused}) "
                              "[legal-agrees]")
        for tried, claimed in _probes(game, state, seat):
            if tried in listed and claimed == seat:
                continue
            try:
                check_move(book, state, tried, claimed)
            except IllegalMove as refused:
                refusals[refused.reason] += 1
                if not refused.clause:
                    errors.append(f"{where}: {tried} is refused with {refused.reason}, which "
                                  "no clause covers [legal-agrees]")
            else:
                errors.append(f"{where}: {tried} is accepted but not listed [legal-agrees]")


def _probes(game: Any, state: Any, seat: int) -> list[tuple[Any, int | None]]:
    """Moves to try, each with the seat that claims it (``None``: the move's own), from the
    game's ``probes`` if it has them, else none."""
    probes = getattr(game, "probes", None)
    return list(probes(state, seat)) if probes else []


def format_simultaneous_report(report: SimultaneousReport, strict: bool) -> str:
    """The report as text: verdict, games, policy, the static checks and invariants held,
    errors, warnings, games won with their 95% interval, refusals met, then the coverage
    table with its notes."""
    verdict = "PASS" if report.ok(strict) else "FAIL"
    won = wilson(report.won, report.games)
    lines = [f"{report.ruleset}: {verdict} ({count_of(report.games, 'game')}, "
             f"{count_of(report.positions, 'position')} checked; seats move at once)",
             f"arrival policy: {report.policy}",
             "static checks: every clause has a source; every assumption is marked in it",
             "invariants: cards, progress, legal-agrees, privacy, deterministic"]
    lines += [f"error: {text}" for text in report.errors]
    lines += [f"warning: {text}" for text in report.warnings]
    lines.append(f"won: {report.won} of {report.games} = {won.estimate:.1%} "
                 f"({won.low:.1%}..{won.high:.1%}, 95%)")
    met = ", ".join(f"{code} {count}" for code, count in report.refusals.items())
    lines.append(f"refusals met: {met or 'none'}")
    covered = format_coverage_report(list(report.coverage), list(report.notes), report.games)
    return "\n".join(lines) + (f"\n\n{covered}" if covered else "")
