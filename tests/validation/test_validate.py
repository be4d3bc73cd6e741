"""spitemalice validate, the conformance kit and the example outside variants (issue 5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.examples import private_copy

import spitemalice as sm
from spitemalice.validation import validate
from spitemalice.validation.dynamic import step_problem

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The outside and faulty example packages, pip-installed into a folder of their own
    (not into the test environment, where the faulty ones would spoil other tests)."""
    target = tmp_path_factory.mktemp("site")
    sources = tmp_path_factory.mktemp("sources")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
         str(target), str(private_copy("outside-variant", sources)),
         str(private_copy("faulty-variants", sources))],
        check=True, capture_output=True,
    )
    return target


@pytest.fixture
def examples(example_site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(example_site))
    return example_site


def _run(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "spitemalice", *args], env=env,
                          capture_output=True, text=True, check=False)


def test_the_outside_variant_is_listed_by_the_command_line(example_site: Path) -> None:
    listing = _run(example_site, "variants").stdout
    assert "quick-malice" in listing and "leaky-malice" in listing


def test_validate_passes_the_outside_variant(examples: Path) -> None:
    report = validate("quick-malice", games=30, seed=1)
    assert report.passed, report
    assert report.stats is not None and report.stats.games == 30


@pytest.mark.parametrize("name", ["blackwood-frey"])
def test_validate_passes_a_built_in_rule_set(name: str) -> None:
    report = validate(name, games=30, seed=2)
    assert report.passed
    assert {check.name for check in report.checks} >= {
        "deal every player count", "build ceiling reachable", "limits consistent",
        "hook markers", "loads from its entry point", "invariants after every move",
        "every game ends with an outcome",
    }


def test_validate_catches_a_card_lost_when_a_pile_completes(examples: Path) -> None:
    report = validate("leaky-malice", games=30, seed=1)
    assert not report.passed
    failed = [check for check in report.checks if not check.passed]
    assert failed[0].name == "invariants after every move"
    assert "cards not conserved: extra none, missing Q" in failed[0].detail
    _assert_reproduces(sm.load("leaky-malice"), report.reproduction, "cards not conserved")


def test_validate_catches_a_stuck_seat(examples: Path) -> None:
    report = validate("frozen-malice", games=30, seed=1)
    assert not report.passed
    _assert_reproduces(sm.load("frozen-malice"), report.reproduction, "no legal move")


def _assert_reproduces(rules: sm.RuleBook, reproduction: dict | None, problem: str) -> None:
    """The reported smallest game, replayed move by move, shows the problem at its last move
    and not before."""
    assert reproduction is not None and problem in reproduction["problem"]
    state = sm.deal(rules, reproduction["seed"])
    moves = [sm.parse_move(text) for text in reproduction["moves"]]
    found, played = None, 0
    for move in moves:
        state, found = step_problem(rules, state, move)
        played += 1
        if found:
            break
    assert found is not None and problem in found
    assert played == len(moves), "the problem appears only at the last move"


def test_the_command_line_exit_codes(example_site: Path, tmp_path: Path) -> None:
    assert _run(example_site, "validate", "quick-malice", "--games", "9").returncode == 0
    record = tmp_path / "smallest.json"
    leaky = _run(example_site, "validate", "leaky-malice", "--games", "9", "--json",
                 "--record", str(record))
    assert leaky.returncode == 1
    assert json.loads(leaky.stdout)["passed"] is False
    replayed = _run(example_site, "replay", str(record))
    assert replayed.returncode == 0 and json.loads(record.read_text())["moves"]
    unknown = _run(example_site, "validate", "no-such-rules")
    assert unknown.returncode == 2 and len(unknown.stderr.strip().splitlines()) == 1


def test_the_conformance_kit_accepts_the_outside_variant_in_its_own_suite(
    example_site: Path,
) -> None:
    env = {**os.environ, "PYTHONPATH": str(example_site)}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(EXAMPLES / "outside-variant" / "tests")],
        env=env, capture_output=True, text=True, check=False, cwd=EXAMPLES / "outside-variant",
    )
    assert result.returncode == 0, result.stdout[-2000:]
    assert "9 passed" in result.stdout


def test_the_conformance_kit_rejects_the_leaky_variant(examples: Path) -> None:
    from spitemalice.testing.conformance import VariantConformance

    class Leaky(VariantConformance):
        ruleset = "leaky-malice"
        games = 10

    with pytest.raises(AssertionError, match="cards not conserved"):
        Leaky().test_invariants_in_simulated_games()


def test_a_forgotten_hookimpl_marker_is_reported() -> None:
    from spitemalice.validation.static import check_hook_markers

    class Careless:
        NAME = "careless"

        def spitemalice_deck(self, ruleset):  # type: ignore[no-untyped-def]  # no @hookimpl
            return None

    check = check_hook_markers([Careless()])
    assert not check.passed and "careless.spitemalice_deck lacks @hookimpl" in check.detail


def test_an_unreachable_ceiling_is_refused_at_load() -> None:
    from spitemalice.validation.static import check_ceiling_reachable

    with pytest.raises(sm.RulesetError, match="no card may stand for build rank 14, "):
        sm.load("blackwood-frey", build_ceiling=14, wild_ranks=frozenset())
    assert check_ceiling_reachable(sm.load("blackwood-frey")).passed


def test_an_unreachable_rank_names_what_keeps_cards_from_it() -> None:
    # aces wild, and wild cards may not stand for an ace (blackwood-frey's wild_excluded):
    # "lower build_ceiling or add wild cards", the message before, could not help
    with pytest.raises(sm.RulesetError) as error:
        sm.load("blackwood-frey", wild_ranks=frozenset({1}))
    assert str(error.value).endswith(
        "no card may stand for build rank A, so no build pile can reach the ceiling 12; take A "
        "out of wild_ranks (those cards are wild, so none is its own rank) or take A out of "
        "wild_excluded (wild cards may not stand for it)")


def test_dead_jokers_and_kings_are_not_told_to_take_the_jokers_out() -> None:
    with pytest.raises(sm.RulesetError) as error:
        sm.load("skip-bo", packs=3, draw_pack=0, jokers=0, jokers_per_pack=2,
                wild_ranks=frozenset({12}))
    assert "the 18 cards of ranks joker, K" in str(error.value)
    assert "jokers = 0" not in str(error.value)
    assert str(error.value).endswith("make them wild (wild_ranks = 0,12,13)")


@pytest.mark.parametrize(("name", "params", "words"), [
    ("blackwood-frey", {"wild_ranks": "none"}, r"the 12 cards of rank K \(build ceiling 12, "
     r"wild_ranks = none\).* make them wild \(wild_ranks = 13\) or build up to them "
     r"\(build_ceiling = 13\)"),
    ("starturn", {"wild_ranks": "none"}, r"the 9 cards of rank joker .* make them wild "
     r"\(wild_ranks = 0\) or take them out of the deck \(jokers = 0, jokers_per_pack = 0\)"),
    ("skip-bo", {"wild_excluded": "1,2,3,4,5,6,7,8,9,10,11,12"}, r"the 18 cards of rank "
     r"joker .* take ranks out of wild_excluded: it leaves a wild joker no rank to stand for"),
])
def test_a_deck_with_cards_no_build_pile_takes_is_refused_at_load(
        name: str, params: dict[str, str], words: str) -> None:
    """Item 2 of the skip-bo brief: validate's "every rank can be built" found dead cards
    that load let through; the loader refuses them now, as it refuses an unreachable
    ceiling, naming the ranks and what would make them playable."""
    from spitemalice.validation.static import check_every_rank_playable

    with pytest.raises(sm.RulesetError, match=f"{name}: no build pile can ever take {words}"):
        sm.load(name, **params)
    assert check_every_rank_playable(sm.load(name)).passed


def test_the_static_checks_name_ranks_as_the_docs_write_them() -> None:
    """Found by a fresh user: the static checks' details wrote ranks as Python lists
    (``[1, 2]``); they name them as the load refusals and the docs do (``A, 2``).  The
    faults are made by hand: load refuses every such configuration."""
    import attrs

    from spitemalice.validation.static import (
        check_ceiling_reachable,
        check_every_rank_playable,
        check_tables_follow_ruleset,
    )

    book = sm.load("blackwood-frey")
    no_three = attrs.evolve(book, accepts=tuple(ranks - {3, 12} for ranks in book.accepts))
    assert check_ceiling_reachable(no_three).detail == \
        "no card may stand for build rank(s) 3, Q"
    dead = attrs.evolve(book, accepts=tuple(frozenset() if rank in (0, 13) else ranks
                                            for rank, ranks in enumerate(book.accepts)))
    assert check_every_rank_playable(dead).detail.startswith(
        "no build pile ever takes rank(s) K (12 dead cards)")
    tables = attrs.evolve(book, discard=attrs.evolve(book.discard, forbidden=frozenset({2, 1})),
                          accepts=(*book.accepts[:13], book.accepts[13] - {11, 12}))
    assert check_tables_follow_ruleset(tables).detail == (
        "forbidden discards A, 2, rule set A; a wild K may stand for 2, 3, 4, 5, 6, 7, 8, 9, "
        "10, the rule set says 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q")


@pytest.mark.parametrize("name", ["wild_ranks", "mandatory_ranks", "discard_forbidden"])
def test_a_rank_no_card_has_is_refused(name: str) -> None:
    with pytest.raises(sm.RulesetError, match=f"{name} names rank"):
        sm.load("blackwood-frey", ["mandatory-aces"], {name: "14"})


def test_rules_no_game_can_be_won_get_a_completion_warning() -> None:
    everything = ",".join(str(rank) for rank in range(1, 14))
    report = validate("blackwood-frey", params={"discard_forbidden": everything}, games=100)
    assert report.passed and not report.ok(strict=True)
    warned = {f.name for f in report.warnings}
    assert "completion" in warned
    finding = next(f for f in report.warnings if f.name == "completion")
    assert "no seat ever wins" in finding.message and "0 of 100 games won" in finding.evidence
    assert finding.parameters == ("discard_forbidden",)


def test_a_plugin_that_crashes_is_reported_not_raised() -> None:
    from spitemalice.rules.book import RuleBook
    from spitemalice.rules.registry import load_plugin
    from spitemalice.validation import validate_book

    class Crashing:
        NAME, KIND = "crashing", "house-rule"

        @sm.hookimpl
        def spitemalice_filter_moves(self, ruleset, state, moves):  # type: ignore[no-untyped-def]
            if state.turn >= 3:
                raise RuntimeError("boom")
            return None

    book = RuleBook.from_plugins(load_plugin("blackwood-frey", "ruleset"), [Crashing()])
    report = validate_book(book, games=3, seed=1)
    failed = [check for check in report.checks if not check.passed]
    assert failed and "RuntimeError" in failed[0].detail and "boom" in failed[0].detail
    assert report.reproduction is not None


def test_the_failure_record_stores_the_finding_and_check_reruns_it(
    example_site: Path, tmp_path: Path
) -> None:
    record = tmp_path / "leaky.json"
    leaky = _run(example_site, "validate", "leaky-malice", "--games", "9", "--record",
                 str(record))
    assert leaky.returncode == 1
    stored = json.loads(record.read_text())["finding"]
    assert stored["invariant"] == "card_conservation"
    assert "cards not conserved" in stored["message"]
    plain = _run(example_site, "check", str(record))
    assert plain.returncode == 1 and "valid:" not in plain.stdout.replace("invalid:", "")
    assert "validate recorded the broken invariant card_conservation" in plain.stdout
    rerun = _run(example_site, "check", "--invariants", str(record))
    assert rerun.returncode == 1, rerun.stdout + rerun.stderr
    assert "the invariant card_conservation is broken: after" in rerun.stdout
    assert "the same finding validate recorded" in rerun.stdout
    assert "Traceback" not in rerun.stderr


def test_check_invariants_passes_a_clean_record(tmp_path: Path) -> None:
    from spitemalice.cli import main
    from spitemalice.formats import record_to_dict

    rules = sm.load("blackwood-frey")
    state, moves = sm.deal(rules, 4), []
    for _ in range(40):
        move = sm.legal_moves(rules, state)[0]
        moves.append(move)
        state = sm.apply_move(rules, state, move)
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(record_to_dict(sm.record_game(rules, 4, moves))))
    assert main(["check", "--invariants", str(path)]) == 0


def test_a_rule_that_loops_inside_a_move_is_reported_as_non_termination(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from spitemalice.rules.book import RuleBook
    from spitemalice.rules.registry import load_plugin
    from spitemalice.validation import termination, validate_book

    class Looping:
        NAME, KIND = "looping", "house-rule"

        @sm.hookimpl
        def spitemalice_filter_moves(self, ruleset, state, moves):  # type: ignore[no-untyped-def]
            while state.turn >= 2:  # the fault: a rule that never answers
                pass
            return None

    monkeypatch.setattr(termination, "GAME_CPU_SECONDS", 0.5)
    book = RuleBook.from_plugins(load_plugin("blackwood-frey", "ruleset"), [Looping()])
    report = validate_book(book, games=5, seed=1)
    failed = {check.name: check for check in report.checks if not check.passed}
    assert "the game does not end" in failed["invariants after every move"].detail
    assert report.reproduction is not None
    assert report.reproduction["invariant"] == "non-termination"


def test_where_two_forced_play_rules_answer_the_whole_position_is_audited(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 8 point 4 (3): a checker that forgets an earlier filter's narrowing once a later
    filter answers is caught at a position where both answer (the ace must be played, MA-1,
    and the king may not, WC-2), without waiting for a sampled audit."""
    from helpers.positions import position

    from spitemalice.engine import check
    from spitemalice.validation import audit, dynamic

    # Stacked in this order, mandatory-aces is asked first (the latest registered first), so a
    # checker keeping only the last answer forgets its narrowing.
    rules = sm.load("blackwood-frey", ["wild-must-be-covered", "mandatory-aces"])
    state = position(rules, hands=["AH KS 9C"], builds=["AS 2S"], payoffs=["QH"])
    assert audit.answering_filters(rules, state) == 2
    assert dynamic._audit(rules, state, full=False, watch_filters=True) is None

    def forgets_earlier(rules: object, state: object, moves: tuple) -> dict:
        refused: dict = {}
        for hook in rules.filter_moves_hooks:  # type: ignore[attr-defined]
            answer = hook(rules.ruleset, state, moves)  # type: ignore[attr-defined]
            if answer is not None:
                refused = {m: answer for m in moves if m not in set(answer.allowed)}
        return refused

    monkeypatch.setattr(check, "_refusing_filters", forgets_earlier)
    found = dynamic._audit(rules, state, full=False, watch_filters=True)
    assert found is not None and found[0] == "listed-and-checked-moves-agree"
    assert "accepted by check_move but not listed" in found[1]


def test_the_seat_count_check_names_only_the_counts_it_played() -> None:
    """A seat count whose rules do not load is left to "deal every player count": the seat
    count check's detail names only the counts whose games it played (it named every count
    the rule set allows, try-out s5b N3), and skips when none loads."""
    from spitemalice.errors import SpiteMaliceError
    from spitemalice.validation.spread import check_seat_counts

    book = sm.load("skip-bo", players=4)  # allows 2 to 6

    def only_six(params: dict[str, object]) -> sm.RuleBook:
        if params["players"] != 6:
            raise SpiteMaliceError("not this count")
        return sm.load("skip-bo", **params)

    check, failure = check_seat_counts(only_six, book, 1)
    assert failure is None and check.passed
    assert check.figure.endswith(" at 6 players"), check.figure

    def none(params: dict[str, object]) -> sm.RuleBook:
        raise SpiteMaliceError("no count")

    check, _ = check_seat_counts(none, book, 1)
    assert "no other seat count loads" in check.skipped
