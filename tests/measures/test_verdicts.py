"""Three-valued verdicts (issue 35 §1): pass or fail only when the interval lies wholly on one
side of the threshold, else undecided with a rough count of the games more; a verdict from
one seed set that a fresh one does not repeat is undecided."""

from __future__ import annotations

import pytest

from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.interval import Interval
from spitemalice.measures.rates import wilson
from spitemalice.measures.verdicts import (
    Verdict,
    decide,
    more_needed,
    replicated,
    undecided_text,
)


def test_an_interval_wholly_above_passes_wholly_below_fails_else_undecided() -> None:
    assert decide(Interval(0.8, 0.6, 0.9, 50), 0.5).outcome == "pass"
    assert decide(Interval(0.3, 0.2, 0.45, 50), 0.5).outcome == "fail"
    held = decide(Interval(0.4, 0.2, 0.636, 20), 0.5)
    assert held.outcome == "undecided" and held.more is not None and held.more > 0
    # An end on the threshold is on the good side: the interval does not go below it.
    assert decide(Interval(0.7, 0.5, 0.9, 20), 0.5).outcome == "pass"


def test_below_is_the_good_side_for_a_ceiling() -> None:
    assert decide(Interval(1.2, 1.0, 1.5, 40), 2.0, good="below").outcome == "pass"
    assert decide(Interval(3.0, 2.5, 3.5, 40), 2.0, good="below").outcome == "fail"
    assert decide(Interval(1.9, 1.5, 2.4, 40), 2.0, good="below").outcome == "undecided"


def test_the_docs_three_card_completion_is_undecided_not_pass() -> None:
    # 8 of 20 greedy games won: 40.0%, 95% CI 20.0%-63.6%, which holds the 50% threshold.
    rate = wilson(8, 20)
    assert rate.low < 0.5 < rate.high
    assert decide(rate, 0.5).outcome == "undecided"


def test_more_needed_shrinks_the_interval_to_the_gap() -> None:
    # Half-width 0.25 at n = 100 and a gap of 0.125: four times the games, 300 more.
    assert more_needed(Interval(0.625, 0.375, 0.875, 100), 0.5) == 300
    # An estimate on the threshold: no number of games is likely to decide it.
    assert more_needed(Interval(0.5, 0.3, 0.7, 100), 0.5) is None
    assert more_needed(Interval(0.5, 0.0, 1.0, 0), 0.2) is None
    # The rough count is right in its order of magnitude: the Wilson interval of the same
    # share at that many games ends about on the threshold, and a fifth more decides it.
    rate = wilson(36, 60)
    more = more_needed(rate, 0.5)
    assert more is not None
    n = 60 + more
    assert wilson(round(0.6 * n), n).low == pytest.approx(0.5, abs=0.01)
    n = round(1.2 * n)
    assert decide(wilson(round(0.6 * n), n), 0.5).outcome == "pass"


def test_a_verdict_a_fresh_seed_set_does_not_repeat_is_undecided() -> None:
    passed = decide(Interval(0.62, 0.52, 0.72, 100), 0.5)
    again = decide(Interval(0.58, 0.51, 0.65, 100), 0.5)
    flipped = decide(Interval(0.55, 0.45, 0.65, 100), 0.5)
    assert replicated(passed, again) == passed
    both = replicated(passed, flipped)
    assert both.outcome == "undecided" and both.interval == passed.interval
    assert both.more == flipped.more


def test_the_text_of_an_undecided_verdict() -> None:
    assert undecided_text(Verdict("undecided", Interval(0.4, 0.2, 0.6, 20), 0.5, 228)) == (
        "the interval holds the threshold; about 228 more games would likely decide it")
    assert "may not decide it" in undecided_text(
        Verdict("undecided", Interval(0.5, 0.2, 0.8, 20), 0.5, None))


def test_wrong_arguments_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="decide takes interval, an Interval"):
        decide((0.5, 0.4, 0.6), 0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="decide takes threshold, a number"):
        decide(Interval(0.5, 0.4, 0.6, 5), "0.5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="decide takes good, 'above' or 'below'"):
        decide(Interval(0.5, 0.4, 0.6, 5), 0.5, good="over")  # type: ignore[arg-type]


def test_an_interval_of_no_observation_has_a_null_estimate_in_json() -> None:
    # try-out: {"estimate": 0.0, "n": 0} read as a measured share of nothing
    from spitemalice.measures.interval import Interval

    assert Interval(0.0, 0.0, 1.0, 0).as_dict()["estimate"] is None
    assert Interval(0.25, 0.0, 1.0, 4).as_dict()["estimate"] == 0.25


def test_every_interval_printer_shows_no_observation_as_not_measured() -> None:
    # the class of the try-out's 0.0% (0.0..100.0): each place that prints an Interval
    # (simulate, simultaneous, ratings, balance's verdicts, the atlas and tune print through
    # the shared percent_text, rate_text and mean_text)
    from spitemalice.cli import simulate, simultaneous
    from spitemalice.measures.interval import Interval, mean_text, percent_text, rate_text
    from spitemalice.study import balance_verdicts, tune_report
    from spitemalice.study.tune_targets import parse_target

    none = Interval(0.0, 0.0, 1.0, 0)
    printed = [rate_text(none), mean_text(none), mean_text(none, 3), percent_text(none),
               simultaneous._mean(none), balance_verdicts._points(none),
               simulate.designer_text("comeback", none),
               tune_report._figure(parse_target("completion>=0.5"), none),
               tune_report._figure(parse_target("turns=40+-5"), none)]
    assert all("no games" in text and "0.0" not in text for text in printed), printed


def test_the_shared_interval_texts_print_as_each_command_did() -> None:
    from spitemalice.cli import simulate, simultaneous
    from spitemalice.measures.interval import Interval, mean_text, percent_text, rate_text

    share = Interval(0.125, 0.101, 0.152, 40)
    assert percent_text(share) == "12.5% (10.1..15.2)"  # balance, ratings, atlas, tune
    assert rate_text(share) == "12.5% (10.1%..15.2%)"  # simulate's and Spit's "= " rows
    mean = Interval(40.25, 38.0, float("inf"), 40)
    assert mean_text(mean) == "40.2 (38.0..inf)"
    assert simultaneous._mean(mean) == "40.2 (38.0..?)"  # Spit: no known end
    assert mean_text(mean, 0) == "40 (38..inf)"  # tune's turns
    assert simulate.designer_text("choice_early", share) == "0.1 (0.1..0.2)"
    assert simulate.designer_text("comeback", share) == "0.125 (0.101..0.152)"
    with pytest.raises(SpiteMaliceError, match="mean_text's digits"):
        mean_text(share, -1)
