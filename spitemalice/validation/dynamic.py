"""Dynamic checks: seeded games with several kinds of players, every invariant after every
move (the smallest failing game is found by :mod:`~spitemalice.validation.shrink`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spitemalice.bots.players import make_player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.coverage import Recorder, recorder_for
from spitemalice.engine.coverage import Tally as CoverageTally
from spitemalice.engine.deal import deal
from spitemalice.engine.invariants.run import (
    unchecked_state_violations,
    unchecked_transition_violations,
)
from spitemalice.engine.invariants.violation import Violation
from spitemalice.engine.legal import PASS, legal_moves
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import IllegalMove
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, book_field, check_book
from spitemalice.rules.findings import how_to_declare
from spitemalice.runs.commit import commit_games
from spitemalice.runs.parallel import run_games
from spitemalice.wording import count_of

from .audit import answering_filters, audit_position, filters_hold
from .failure import Failure
from .intent import intends
from .report import Check, GameStats, skip
from .roundtrip import RoundTrip
from .tally import Tally
from .termination import NonTermination, cpu_limit, move_cap

LINEUPS: tuple[str, ...] = ("random", "greedy", "mixed")
AUDITED_GAMES = 120  # games whose sampled positions are audited: the cost stays bounded
AUDITS_PER_GAME = 2  # positions audited in each of those games
AUDIT_WINDOW = 120  # audited positions are drawn from the first this many moves
AGREE = "listed-and-checked-moves-agree"  # the invariant an audit of the move lists holds
ROUND_TRIP = "moves-round-trip"  # listed moves come back from text, JSON and action numbers


STUCK = "stuck-seat"


def stuck(rules: RuleBook, state: GameState, moves: Sequence[Move]) -> str | None:
    """A seat is stuck when, at the start of its turn, it must pass although it holds a card
    the rules let it discard: some rule has taken every move away (design notes §6).  A rule
    that means it declares ``expects=("stuck-seat",)`` on its clause; the callers then count
    the stuck seats instead of failing (:func:`unintended`).
    """
    if state.outcome is not None or state.turn_moves or tuple(moves) != (PASS,):
        return None
    hand = state.seats[state.seat].hand
    if any(card.rank not in rules.discard.forbidden for card in hand):
        return (f"seat {state.seat} is left with no legal move but a pass, holding "
                f"{count_of(len(hand), 'card')}; {how_to_declare(STUCK)}")
    return None


def step_violation(
    rules: RuleBook, state: GameState, move: Move
) -> tuple[GameState, Violation | None]:
    """Apply ``move``; return the new state and the first problem it shows, named.  Any
    exception (a plugin's bug) becomes a problem to report, never a crash of the validator.
    """
    try:
        after = apply_move(rules, state, move)
        problems = unchecked_transition_violations(rules, state, move, after)
        if problems:
            return after, problems[0]
        if after.outcome is None:
            found = stuck(rules, after, legal_moves(rules, after))
            return after, Violation("stuck-seat", found) if found else None
    except NonTermination:
        raise
    except Exception as error:
        return state, Violation("crash", f"{type(error).__name__} after {move}: {error}")
    return after, None


def unintended(rules: RuleBook, found: Violation | None) -> Violation | None:
    """``found``, unless it is a stuck seat that a clause of ``rules`` declares it intends."""
    if found is not None and found.invariant == STUCK and intends(rules, STUCK):
        return None
    return found


def step_problem(rules: RuleBook, state: GameState, move: Move) -> tuple[GameState, str | None]:
    """Apply ``move``; return the new state and the first problem it shows, if any."""
    after, found = step_violation(rules, state, move)
    return after, found.message if found else None


def play_checked(
    rules: RuleBook, seed: int, lineup: str, audit_at: Sequence[int] = (),
    stuck_seen: list[int] | None = None, recorder: Recorder | None = None,
) -> tuple[GameState, int, int, Failure | None]:
    """One seeded game with ``lineup`` players (``"random"``, ``"greedy"`` or ``"mixed"``),
    every invariant checked after every move: the final state, the seat that moved first,
    the number of moves and the first failure (``None`` for a clean game).

    Args:
        audit_at: move numbers before which the position is audited (listed and checked moves
            agree, see :func:`~spitemalice.validation.audit.audit_position`).
        stuck_seen: where to count the stuck seats the rules intend (``stuck_seen[0]`` is
            raised by one for each); a stuck seat they do not intend fails the game.
        recorder: counts the game's rule coverage (:mod:`spitemalice.engine.coverage`); its
            check of each move made is one more audit: a listed move it refuses is a fault.

    A game longer than :func:`~spitemalice.validation.termination.move_cap` moves fails as
    non-termination instead of running on.
    """
    moves: list[Move] = []
    try:
        with cpu_limit():
            return _play_checked(rules, seed, lineup, audit_at, moves,
                                 stuck_seen if stuck_seen is not None else [0], recorder)
    except NonTermination as error:
        return deal(rules, seed), 0, len(moves), Failure(
            seed, moves, f"the game does not end: after {count_of(len(moves), 'move')} {error}",
            "non-termination")


def _play_checked(
    rules: RuleBook, seed: int, lineup: str, audit_at: Sequence[int], moves: list[Move],
    stuck_seen: list[int], recorder: Recorder | None,
) -> tuple[GameState, int, int, Failure | None]:
    kinds = _kinds(lineup, rules.players)
    players = [make_player(kind, derive_seed(seed, "seat", i)) for i, kind in enumerate(kinds)]
    state = deal(rules, seed)
    first = state.seat
    problems = unchecked_state_violations(rules, state, fresh=True)
    if problems:
        return state, first, 0, Failure(seed, [], problems[0].message, problems[0].invariant)
    cap, audits = move_cap(rules), set(audit_at)
    forms = RoundTrip(rules)
    watch_filters = len(rules.filter_moves_hooks) > 1
    stuck_intended = intends(rules, STUCK)
    while state.outcome is None:
        if len(moves) >= cap:
            return state, first, len(moves), Failure(
                seed, moves, f"no outcome after {cap} moves: the game does not end",
                "non-termination")
        try:
            faulty = _audit(rules, state, len(moves) in audits, watch_filters, forms)
            if faulty:
                return state, first, len(moves), Failure(seed, moves, faulty[1], faulty[0])
            move = players[state.seat].choose(rules, state, legal_moves(rules, state))
            if recorder is not None:
                recorder.move(state, move)
        except IllegalMove as error:  # the recorder's fresh check of the listed move chosen
            return state, first, len(moves), Failure(
                seed, moves, f"listed move {move} is refused by check_move ({error.reason}: "
                f"{error})", AGREE)
        except Exception as error:  # a plugin's bug in legal_moves: report it
            return state, first, len(moves), Failure(
                seed, moves, f"{type(error).__name__} while listing the legal moves: {error}",
                "crash")
        state, found = step_violation(rules, state, move)
        moves.append(move)  # after the move ends: a move that never ends stays out of records
        if found and found.invariant == STUCK and stuck_intended:
            stuck_seen[0] += 1
            continue
        if found:
            return state, first, len(moves), Failure(seed, moves, found.message, found.invariant)
    return state, first, len(moves), None


def _audit(rules: RuleBook, state: GameState, full: bool, watch_filters: bool,
           forms: RoundTrip | None = None) -> tuple[str, str] | None:
    """(invariant, problem) for the first fault the audit of ``state`` finds, or ``None``."""
    if full:
        problem = audit_position(rules, state)
        if problem:
            return AGREE, problem
        problem = (forms or RoundTrip(rules)).problem(state, legal_moves(rules, state))
        return (ROUND_TRIP, problem) if problem else None
    problem = _watch_filters(rules, state) if watch_filters else None
    return (AGREE, problem) if problem else None


def _watch_filters(rules: RuleBook, state: GameState) -> str | None:
    problem = filters_hold(rules, state, legal_moves(rules, state))
    if problem or answering_filters(rules, state) < 2:
        return problem
    # Where two forced-play rules answer at once, how they combine is what a stacking
    # fault breaks, in check_move's path as much as in legal_moves': audit it all.
    return audit_position(rules, state)


def audit_points(seed: int, game: int) -> tuple[int, ...]:
    """The move numbers audited in game number ``game`` (none after :data:`AUDITED_GAMES`)."""
    if game >= AUDITED_GAMES:
        return ()
    return tuple(derive_seed(seed, "audit", game, i) % AUDIT_WINDOW
                 for i in range(AUDITS_PER_GAME))


def _kinds(lineup: str, seats: int) -> list[str]:
    if lineup == "mixed":
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(seats)]
    return [lineup] * seats


Checked = tuple[GameState, int, int, Failure | None, int, int, CoverageTally]
"""What a checked game gives back: the final state, the seat that moved first, the moves, the
first failure, the positions audited, the stuck seats the rules intend and the game's rule
coverage."""


@attrs.frozen
class CheckedGame:
    """Game ``g`` of a validation run as a pure function of ``g`` (see
    :mod:`spitemalice.runs.parallel`): dealt from ``derive_seed(seed, "validate", g)``, played by
    the line-up ``LINEUPS[g % 3]``, every invariant checked after every move and the
    positions :func:`audit_points` names audited; returns what :func:`play_checked` returns,
    the number of positions audited, the number of stuck seats the rules intend and the
    game's rule coverage.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """

    rules: RuleBook = attrs.field(eq=False, validator=book_field())
    seed: int

    def __call__(self, game: int) -> Checked:
        game_seed = derive_seed(self.seed, "validate", game)
        points = audit_points(self.seed, game)
        stuck_seen = [0]
        recorder = recorder_for(self.rules)
        with recorder:
            final, first, length, problem = play_checked(
                self.rules, game_seed, LINEUPS[game % len(LINEUPS)], points, stuck_seen,
                recorder)
            recorder.game()
        return (final, first, length, problem, sum(1 for point in points if point < length),
                stuck_seen[0], recorder.take())


def dynamic_checks(
    rules: RuleBook, games: int, seed: int, jobs: int | None = 1, client: Any = None,
    on_game: Callable[[], None] | None = None,
) -> tuple[list[Check], GameStats, Failure | None]:
    """Play ``games`` games split over the player line-ups; return the checks, the statistics
    and the first failure (``None`` when every game was clean).  ``jobs`` and ``client`` say
    where the games are played (:func:`spitemalice.runs.parallel.run_games`); the result does not
    depend on them.  ``on_game`` is called after each game (a progress bar).

    A stop (Ctrl-C; SIGTERM on the command line) ends the games early: the checks and the
    statistics cover the games finished, and ``stats.interrupted`` says so
    (:func:`spitemalice.runs.commit.commit_games`).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "dynamic_checks")
    tally = Tally(rules.players)

    def commit(game: int, played: Checked) -> bool:
        if on_game is not None:
            on_game()
        # Every further game would hang as a game that does not end did.
        return tally.add_game(LINEUPS[game % len(LINEUPS)], *played)

    finished = commit_games(run_games(CheckedGame(rules, seed), games, jobs, client), commit)
    stats = attrs.evolve(tally.stats(), interrupted=finished.interrupted)
    return _checks(tally, stats, games), stats, tally.failure


def _checks(tally: Tally, stats: GameStats, requested: int) -> list[Check]:
    """The two checks of the games played: invariants kept, and every game ended."""
    played, clean, failure = stats.played, stats.games, tally.failure
    cut = (f" (interrupted: {played} of {count_of(requested, 'game')} played)" if stats.interrupted
           else "")
    if not played:
        why = "interrupted before any game finished"
        return [skip("invariants after every move", why),
                skip("every game ends with an outcome", why)]
    kinds = tally.kinds
    return [
        Check("invariants after every move", failure is None,
              f"{clean}/{count_of(played, 'game')} clean, "
               f"{count_of(tally.audited, 'position')} audited{cut}",
              failure.problem if failure else ""),
        Check("every game ends with an outcome", clean > 0 and sum(kinds.values()) == clean,
              (", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "none")
              + f" of {count_of(clean, 'clean game')}"),
    ]
