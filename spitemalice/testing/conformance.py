"""The conformance kit: every check spitemalice runs on its own rule sets, for yours.

It is a pytest plugin, registered through the ``pytest11`` entry point, so installing
spitemalice is enough: pytest knows the ``clause`` marker (``@pytest.mark.clause("QK-1")``
cites the rule-sheet clause a scenario test checks) and offers two fixtures, ``load_rules``
(a cached :func:`spitemalice.load`) and ``variant_rules`` (the rule book of the enclosing
:class:`VariantConformance` class, or of the ``spitemalice_variant`` ini option).  Add one
class to your test suite (pytest and hypothesis must be installed)::

    from spitemalice.testing.conformance import VariantConformance

    class TestMyVariant(VariantConformance):
        ruleset = "my-variant"          # the entry-point name of your rule set

It runs the static checks (every player count deals, the build ceiling is reachable, limits
are consistent, every hook function carries ``@hookimpl`` and the plugin loads from its entry
point), seeded games with random, greedy and mixed players with every invariant checked after
every move, a check that some game can be won, a hypothesis state machine over legal moves,
and a check that every clause of your plugins' sheets is cited by a scenario test of yours.

Its dependencies come with ``pip install 'spitemalice[kit]'`` (pytest and hypothesis); a
check that needs one that is missing fails saying what to install.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar, NoReturn

from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load
from spitemalice.rules.registry import load_plugin, own_clauses
from spitemalice.wording import count_of

INSTALL = "pip install 'spitemalice[kit]'"
"""What installs the kit's dependencies (pytest and hypothesis)."""

try:
    import pytest
except ImportError:  # pragma: no cover - the kit is a pytest plugin; say what to install
    raise ImportError(f"the conformance kit runs under pytest: {INSTALL}") from None

WINNABLE_GAMES = 100
"""Greedy games the winnability check plays at most, stopping at the first win: a rule set
that is won at all is won within a few games; one that is never won in this many is taken to
be unwinnable (starturn, the least decisive built-in, is won in about one greedy game in ten)."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``clause`` marker, so that ``--strict-markers`` accepts it."""
    config.addinivalue_line(
        "markers", "clause(*ids): the rule-sheet clauses a scenario test checks")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("spitemalice_variant", "the rule set the variant_rules fixture loads "
                  "outside a VariantConformance class", default="")


@pytest.fixture(scope="session")
def load_rules() -> Any:
    """``load_rules(name, house_rules=(), **params)``: :func:`spitemalice.load`, cached for the
    session (a rule book is immutable once built, so sharing it is safe)."""
    cache: dict[tuple[Any, ...], RuleBook] = {}

    def loader(name: str, house_rules: Iterable[str] = (), **params: Any) -> RuleBook:
        key = (name, tuple(house_rules), tuple(sorted(params.items())))
        if key not in cache:
            cache[key] = load(name, tuple(house_rules), params)
        return cache[key]

    return loader


@pytest.fixture
def variant_rules(request: pytest.FixtureRequest, load_rules: Any) -> RuleBook:
    """The rule book under test: the enclosing :class:`VariantConformance` class's
    configuration, else the ``spitemalice_variant`` ini option's rule set.

    Raises:
        pytest.UsageError: neither names a rule set.
    """
    owner = request.cls
    if owner is not None and issubclass(owner, VariantConformance) and owner.ruleset:
        return load_rules(owner.ruleset, owner.house_rules, **dict(owner.params))
    name = request.config.getini("spitemalice_variant")
    if not name:
        raise pytest.UsageError("variant_rules: set `ruleset` on your VariantConformance class "
                                "or `spitemalice_variant = NAME` in your pytest configuration")
    return load_rules(name)

# A marker usage: ``@pytest.mark.clause(...)``, or a bare ``@clause(...)`` after
# ``clause = pytest.mark.clause``; every string argument of the marker is a citation.
_MARKER = re.compile(r"(?:\bmark\.|@)clause\(([^)]*)\)")
_STRING = re.compile(r"""["']([^"']+)["']""")


def clause_citations(paths: Iterable[Path]) -> dict[str, set[Path]]:
    """Clause id -> the ``.py`` files under ``paths`` whose clause markers cite it (a static
    scan, so it does not depend on which tests a run selects)."""
    cited: dict[str, set[Path]] = {}
    for path in paths:
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            for args in _MARKER.findall(file.read_text(encoding="utf-8")):
                for clause_id in _STRING.findall(args):
                    cited.setdefault(clause_id, set()).add(file)
    return cited


def cited_clauses(paths: Iterable[Path]) -> set[str]:
    """Clause ids cited by clause markers in the ``.py`` files under ``paths``."""
    return set(clause_citations(paths))


class VariantConformance:
    """Base class of a conformance test class; set ``ruleset`` (and optionally the rest).

    Attributes:
        ruleset: an installed rule set's name, or a rule-set file's path.
        house_rules: house rules to stack on it.
        params: parameter overrides.
        games: simulated games per player count (keep it modest: every move is checked).
        seed: seed of the simulated games.
        scenario_paths: files or folders holding the variant's scenario tests; by default the
            folder of the module that defines the subclass.
    """

    ruleset: ClassVar[str] = ""
    house_rules: ClassVar[tuple[str, ...]] = ()
    params: ClassVar[Mapping[str, Any]] = {}
    games: ClassVar[int] = 12
    seed: ClassVar[int] = 0
    scenario_paths: ClassVar[tuple[str, ...]] = ()

    def rules(self, **extra: Any) -> RuleBook:
        """The configuration under test, with ``extra`` parameter overrides."""
        assert self.ruleset, "set `ruleset` on your VariantConformance subclass"
        return load(self.ruleset, self.house_rules, {**self.params, **extra})

    def player_counts(self) -> tuple[int, ...]:
        return self.rules().ruleset.player_counts

    def test_loads_from_entry_point(self) -> None:
        for name in (self.ruleset, *self.house_rules):
            if not name.endswith(".toml"):
                load_plugin(name)

    def test_static_checks(self) -> None:
        from spitemalice.validation.static import static_checks

        book = self.rules()
        plugins = [book.plugin(name) for name in book.plugins]
        failed = [c for c in static_checks(lambda extra: self.rules(**extra), book, plugins)
                  if not c.passed]
        assert not failed, "; ".join(f"{c.name}: {c.detail}" for c in failed)

    def test_invariants_in_simulated_games(self) -> None:
        from spitemalice.validation.dynamic import dynamic_checks

        if self.rules().simultaneous is not None:
            self._check_simultaneous_games()
            return
        for players in self.player_counts():
            checks, _, failure = dynamic_checks(self.rules(players=players), self.games, self.seed)
            failed = [c for c in checks if not c.passed]
            assert not failed, (f"{players} players: " + "; ".join(c.detail for c in failed)
                                + (f" (seed {failure.seed}, {count_of(len(failure.moves), 'move')})"
                                   if failure else ""))

    def test_some_game_can_be_won(self) -> None:
        """Greedy games, up to :data:`WINNABLE_GAMES`, until one is won: a variant whose
        pay-off piles can never empty is caught here, as every other check passes it."""
        from spitemalice.bots.players import make_player
        from spitemalice.engine.shuffle import derive_seed
        from spitemalice.runs.loop import play_game

        book = self.rules()
        if book.simultaneous is not None:
            self._win_a_simultaneous_game(book)
            return
        for game in range(WINNABLE_GAMES):
            seed = derive_seed(self.seed, "winnable", game)
            players = [make_player("greedy", derive_seed(seed, "seat", i))
                       for i in range(book.players)]
            outcome = play_game(book, players, seed).final.outcome
            if outcome is not None and outcome.kind == "win":
                return
        raise AssertionError(f"no game won in {WINNABLE_GAMES} greedy games: can a pay-off "
                             "pile ever be played out?")

    def _check_simultaneous_games(self) -> None:
        """Seats that move at once (Spit): the games of every bot lineup the rule set offers,
        re-walked position by position with every invariant checked (what ``spitemalice
        validate`` runs on such a rule set)."""
        from spitemalice.validation.simultaneous import validate_simultaneous

        for players in self.player_counts():
            report = validate_simultaneous(self.rules(players=players), self.games, self.seed)
            assert not report.errors, f"{players} players: " + "; ".join(report.errors)

    def _win_a_simultaneous_game(self, book: RuleBook) -> None:
        from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival

        assert book.simultaneous is not None
        bots = list(game_bots(book.simultaneous).values())
        for game in range(WINNABLE_GAMES):
            lineup = [bots[(game + seat) % len(bots)] for seat in range(book.players)]
            if play_arrival(book, lineup, self.seed + game, ReactionTimes()).outcome.kind \
                    == "win":
                return
        raise AssertionError(f"no game won in {WINNABLE_GAMES} games of the rule set's bots")

    def test_state_machine(self) -> None:
        if self.rules().simultaneous is not None:
            pytest.skip("the state machine walks one seat's turns; a rule set whose seats "
                        "move at once is walked by its simulated games' checks instead")
        try:
            from hypothesis import settings
            from hypothesis.stateful import run_state_machine_as_test
        except ImportError:
            missing_hypothesis()

        machine = legal_move_machine(self.rules(), self.player_counts())
        run_state_machine_as_test(machine, settings=settings(max_examples=25, deadline=None,
                                                             stateful_step_count=80))

    def test_every_clause_has_a_scenario(self) -> None:
        """Every clause of the plugins under test is cited by a scenario test: the clauses of
        plugins that do not ship with spitemalice (a house rule on a built-in rule set: the
        house rule's own), or every clause when all of them ship with it (spitemalice's own
        suite).  Clauses inherited with ``base_sheet`` are the base rule set's to test."""
        paths = [Path(p) for p in self.scenario_paths] or [self._own_folder()]
        cited = cited_clauses(paths)
        book = self.rules()
        mine = own_clauses(book)
        missing = [c.id for c in book.clauses if c.id in mine and c.id not in cited]
        assert not missing, (f"clauses without a scenario test citing them: {missing}; cite "
                             f"each in a test of its rule: @pytest.mark.clause({missing[0]!r})"
                             if missing else "")

    def _own_folder(self) -> Path:
        module = sys.modules[type(self).__module__]
        return Path(module.__file__ or ".").parent


def missing_hypothesis() -> NoReturn:
    """Fail the test that needs hypothesis, saying what to install (instead of a
    ``ModuleNotFoundError``)."""
    raise pytest.fail.Exception(f"this check of the conformance kit needs hypothesis: "
                                f"{INSTALL}", pytrace=False) from None


def legal_move_machine(book: RuleBook, player_counts: Iterable[int]) -> type:
    """A hypothesis state machine that deals a game and plays any legal move, picked by index
    so that failures shrink to short games; every invariant is checked after every move.

    Fails the calling test, saying what to install, when hypothesis is not installed.
    """
    try:
        from hypothesis import strategies as st
        from hypothesis.stateful import (
            RuleBasedStateMachine,
            initialize,
            invariant,
            precondition,
            rule,
        )
    except ImportError:
        missing_hypothesis()

    from spitemalice.engine.apply import apply_move
    from spitemalice.engine.deal import deal
    from spitemalice.engine.invariants.run import check_state, check_transition
    from spitemalice.engine.legal import legal_moves

    counts = list(player_counts)
    books = {n: book.rebuild(players=n) for n in counts}

    class LegalMoves(RuleBasedStateMachine):
        @initialize(players=st.sampled_from(counts), seed=st.integers(0, 2**32))
        def start(self, players: int, seed: int) -> None:
            self.book = books[players]
            self.state = deal(self.book, seed)
            assert check_state(self.book, self.state) == []

        @precondition(lambda self: self.state.outcome is None)
        @rule(pick=st.integers(min_value=0, max_value=400))
        def play(self, pick: int) -> None:
            moves = legal_moves(self.book, self.state)
            before, move = self.state, moves[pick % len(moves)]
            self.state = apply_move(self.book, before, move)
            assert check_transition(self.book, before, move, self.state) == []

        @precondition(lambda self: self.state.outcome is not None)
        @rule()
        def ended(self) -> None:
            assert legal_moves(self.book, self.state) == ()

        @invariant()
        def live_or_ended(self) -> None:
            if hasattr(self, "state"):
                assert self.state.outcome is not None or legal_moves(self.book, self.state)

    return LegalMoves

