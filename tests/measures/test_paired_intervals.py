"""Intervals that keep a width when a few games all agree (the zero-width class, try-out s6
P9): Tango's score interval for paired shares, and a per-deal gain whose variance pools a
prior.  Members: ``compare``'s differences of rates, the ``balance`` quality metric, a pair's
gain (the balance report's skill matrix and gradient), a bounded mean of one value."""

import itertools
import math
import types
from collections.abc import Callable

import pytest

from spitemalice.measures.interval import Z95
from spitemalice.measures.means import mean_interval, paired_difference
from spitemalice.measures.rates import paired_shares, share_difference


def test_agreeing_pairs_keep_a_width() -> None:
    """4 games, every one won under A and under B: the old normal interval was +0.0 (+0.0..+0.0).
    Tango's bound for a table with no discordant pair, its numerator continuity-corrected,
    solves (n d - 1)**2 = z**2 n d (1 - d), a quadratic in d."""
    both = paired_shares([1, 1, 1, 1], [1, 1, 1, 1])
    n, z2 = 4, Z95 ** 2
    a, b = n * n + z2 * n, 2 * n + z2 * n
    edge = (b + math.sqrt(b * b - 4 * a)) / (2 * a)
    assert both.estimate == 0.0
    assert both.low == pytest.approx(-edge, abs=1e-9) and both.high == pytest.approx(edge, abs=1e-9)
    assert paired_difference([1.0] * 4, [1.0] * 4).high == 0.0  # the normal interval: no width


def _score(both: int, only_a: int, only_b: int, n: int, d: float) -> float:
    """Tango's statistic at ``d``, its nuisance share found by brute force: the share of
    "only A" trials that maximises the likelihood given the difference ``d`` (a fine grid),
    not the closed form the library uses."""
    neither = n - both - only_a - only_b
    best, q_best = -math.inf, 0.0
    low, high = max(0.0, -d), (1 - d) / 2
    for step in range(20001):
        q = low + (high - low) * step / 20000
        cells = (q + d, q, 1 - 2 * q - d)
        counts = (only_b, only_a, both + neither)
        if any(c > 0 and p <= 0 for c, p in zip(counts, cells, strict=True)):
            continue
        value = sum(c * math.log(p) for c, p in zip(counts, cells, strict=True) if c)
        if value > best:
            best, q_best = value, q
    excess = max(abs(only_b - only_a - n * d) - 1, 0.0)  # McNemar's continuity correction
    return excess / math.sqrt(n * (2 * q_best + d * (1 - d)))


@pytest.mark.parametrize("cells", [(3, 2, 5, 12), (0, 0, 3, 3), (5, 1, 0, 9), (10, 4, 4, 20)])
def test_the_ends_are_where_tangos_statistic_reaches_z(cells: tuple[int, int, int, int]) -> None:
    interval = share_difference(*cells)
    for end in (interval.low, interval.high):
        if abs(end) < 1.0:  # an end cut at -1 or +1 is not a root
            assert _score(*cells, end) == pytest.approx(Z95, abs=2e-3), end


def _coverage(probabilities: tuple[float, float, float, float], n: int,
              interval: object) -> float:
    """The exact chance, over every table of ``n`` trials, that ``interval(both, only_a,
    only_b, n)`` holds the true difference (cells: both, only A, only B, neither)."""
    truth = probabilities[2] - probabilities[1]
    covered = 0.0
    for both, only_a, only_b in itertools.product(range(n + 1), repeat=3):
        neither = n - both - only_a - only_b
        if neither < 0:
            continue
        counts = (both, only_a, only_b, neither)
        chance = math.factorial(n) * math.prod(
            p ** c / math.factorial(c) for p, c in zip(probabilities, counts, strict=True))
        found = interval(both, only_a, only_b, n)  # type: ignore[operator]
        covered += chance * (found.low <= truth <= found.high)
    return covered


def _normal(both: int, only_a: int, only_b: int, n: int) -> object:
    return paired_difference([1.0] * (both + only_a) + [0.0] * (n - both - only_a),
                             [1.0] * both + [0.0] * only_a + [1.0] * only_b
                             + [0.0] * (n - both - only_a - only_b))


@pytest.mark.parametrize("probabilities", [(0.45, 0.05, 0.05, 0.45), (0.0, 0.3, 0.5, 0.2),
                                           (0.7, 0.1, 0.0, 0.2), (0.2, 0.2, 0.2, 0.4),
                                           (0.45, 0.02, 0.08, 0.45)])
def test_tango_covers_the_true_difference_about_95_percent_of_the_time(
        probabilities: tuple[float, float, float, float]) -> None:
    """Exact coverage over all tables of 12 trials stays near 95% (Fagerland, Lydersen and
    Laake, 2014, report Tango's close to nominal)."""
    assert _coverage(probabilities, 12, share_difference) >= 0.93


def test_a_few_discordant_trials_are_no_evidence_an_exact_mcnemar_test_would_refuse() -> None:
    """Try-out s7 M3 in paired form: 4 games won by B alone gave an interval excluding 0,
    where the exact (conditional) McNemar test's p is 0.125.  For every table up to 40
    trials, an interval that excludes 0 now has an exact McNemar p of at most 5%."""
    assert not share_difference(0, 0, 4, 4).excludes(0.0)
    for n in range(1, 41):
        for only_b in range(n + 1):
            for only_a in range(n + 1 - only_b):
                if share_difference(0, only_a, only_b, n).excludes(0.0):
                    k, low = only_a + only_b, min(only_a, only_b)
                    p = min(1.0, 2 * sum(math.comb(k, j) for j in range(low + 1)) / 2 ** k)
                    assert p <= 0.05, (n, only_a, only_b)


def test_the_normal_interval_it_replaces_covered_far_less_where_pairs_mostly_agree() -> None:
    """B wins 8% more games, nearly all pairs agree: 12 games often show no disagreement,
    and then the normal interval is the point 0 and misses."""
    agreeing = (0.45, 0.02, 0.08, 0.45)
    assert _coverage(agreeing, 12, _normal) < 0.8 < _coverage(agreeing, 12, share_difference)


def test_bad_paired_shares_are_refused() -> None:
    with pytest.raises(ValueError, match="equal lengths, not 2 and 3"):
        paired_shares([1, 0], [1, 0, 1])
    with pytest.raises(ValueError, match=r"paired_shares takes outcomes of 0 or 1, not 0\.5"):
        paired_shares([1, 0.5], [1, 0])
    with pytest.raises(TypeError, match="paired_shares takes a, a list of 0s and 1s"):
        paired_shares("10", [1, 0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at most n = 3, not 2, 1, 1"):
        share_difference(2, 1, 1, 3)
    with pytest.raises(ValueError, match="counts of 0 or more"):
        share_difference(0, -1, 1, 3)


def test_no_trials_give_the_whole_range() -> None:
    assert share_difference(0, 0, 0, 0).as_dict() == {"estimate": None, "low": -1.0,
                                                      "high": 1.0, "n": 0}


def test_the_balance_metric_after_three_games_won_by_one_seat() -> None:
    """simulate --metrics printed balance 0.000 (0.000..0.000) after 3 games won by the first
    seat; 3-0 is no evidence (an exact test's p is 0.25), so the interval reaches 1."""
    from spitemalice.measures.metrics import balance

    three = balance([3, 0], 3)
    assert (three.estimate, three.low) == (0.0, 0.0) and three.high == pytest.approx(1.0)
    thirty = balance([30, 0], 30)  # 30-0 is evidence: the balance stays low
    assert thirty.high < 0.3
    split = balance([5, 5], 10)
    assert split.estimate == 1.0 and split.low < 0.7


def test_compare_prints_a_width_for_rates_every_game_agreed_on() -> None:
    import spitemalice as sm
    from spitemalice.study import compare, configuration

    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    a, b = configuration(rules, ["greedy"], "A"), configuration(rules, ["greedy"], "B")
    result = compare(a, b, games=4, seed=3, coverage=False)
    won = next(line for line in result.lines if line.statistic.name == "won")
    assert won.a.estimate == won.b.estimate == 1.0  # same games: every one won under both
    assert won.difference.low < -0.4 and won.difference.high > 0.4


def test_a_gain_of_equal_deals_pools_the_prior_variance() -> None:
    from spitemalice.study.pairs import NULL_VARIANCE, PRIOR_DEALS, PairTally

    tally = PairTally("greedy", "random", wins_a=3, wins_b=3)
    tally.values += [0.0, 0.0, 0.0]  # three split deals: the normal interval had no width
    gain = tally.gain
    winners = (6 + 1) / (6 + 2)  # Laplace's share of games with a winner
    t6 = 2.446912  # Student's t, 95%, 2 + PRIOR_DEALS degrees of freedom (a table's value)
    half = t6 * math.sqrt(PRIOR_DEALS * NULL_VARIANCE * winners / (2 + PRIOR_DEALS) / 3)
    assert gain.low == pytest.approx(-half, rel=1e-3)
    assert gain.high == pytest.approx(half, rel=1e-3)
    assert mean_interval([0.0] * 3, within=(-0.5, 0.5)).high == 0.0  # without the prior


def test_a_gain_of_deals_without_winners_assumes_less_spread() -> None:
    """A deal whose games have no winner has value 0 and no spread under any strength, so
    the prior shrinks with the share of games that had a winner (starturn/3: 7%)."""
    from spitemalice.study.pairs import PairTally

    few = PairTally("greedy", "random", wins_a=1, no_winner=19)
    many = PairTally("greedy", "random", wins_a=1, wins_b=19)
    for tally in (few, many):
        tally.values += [0.0] * 9 + [0.25]
    assert few.gain.high - few.gain.low < many.gain.high - many.gain.low


def test_one_value_of_a_bounded_quantity_spans_its_range() -> None:
    assert mean_interval([0.7], within=(0.0, 1.0)).as_dict() == {
        "estimate": 0.7, "low": 0.0, "high": 1.0, "n": 1}
    unbounded = mean_interval([7.0])  # nothing bounds it: the whole line
    assert (unbounded.low, unbounded.estimate, unbounded.high) == (-math.inf, 7.0, math.inf)


@pytest.mark.parametrize("dof, table", [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706),
                                        (10, 2.2281), (29, 2.0452), (120, 1.9799)])
def test_student_t_matches_the_table(dof: int, table: float) -> None:
    """Two-sided 95% points of Student's t (any statistics table); Hill's expansion is
    within 0.2% from 3 degrees of freedom on."""
    from spitemalice.measures.means import student_t

    assert student_t(Z95, dof) == pytest.approx(table, rel=2e-3)


def test_one_game_is_no_significant_difference() -> None:
    """Try-out s7 M1: one game with one move more was a significant difference, zero
    width, starred."""
    one = paired_difference([10.0], [11.0])
    assert one.low == -math.inf and one.high == math.inf and not one.excludes(0.0)
    a, b = [10.0, 10.0, 10.0], [10.4, 11.0, 11.6]  # differences 1 +- 0.6: z excludes 0
    assert 1.0 - Z95 * 0.6 / math.sqrt(3) > 0
    assert not paired_difference(a, b).excludes(0.0)  # t with 2 degrees of freedom does not


# ---- the new parameters' checks (try-out s7 M2, M5, M6): every z, the prior, the counts ----

def _interval_functions() -> types.SimpleNamespace:
    """The public names of the interval modules, as one namespace (they were one module)."""
    from spitemalice.measures import checks, interval, means, rates, sequential

    return types.SimpleNamespace(**{name: value for module in (checks, interval, means, rates,
                                                               sequential)
                                    for name, value in vars(module).items()
                                    if not name.startswith("_")})


def _z_members() -> dict[str, Callable[[object], object]]:
    from spitemalice.measures import metrics

    st = _interval_functions()
    from spitemalice.study import balance

    return {
        "wilson": lambda z: st.wilson(1, 2, z),  # type: ignore[arg-type]
        "mean_interval": lambda z: st.mean_interval([1.0, 2.0], z),  # type: ignore[arg-type]
        "interval_of_mean": lambda z: st.interval_of_mean(1.0, 1.0, 4, z),  # type: ignore[arg-type]
        "paired_difference": lambda z: st.paired_difference([1.0], [2.0], z),  # type: ignore[arg-type]
        "paired_shares": lambda z: st.paired_shares([1], [0], z),  # type: ignore[arg-type]
        "share_difference": lambda z: st.share_difference(1, 1, 0, 4, z),  # type: ignore[arg-type]
        "balance": lambda z: metrics.balance([2, 1], 3, z),  # type: ignore[arg-type]
        "quantile": lambda z: balance.quantile([1, 2, 3], 0.5, z),  # type: ignore[arg-type]
        "difference": lambda z: balance.difference(  # type: ignore[arg-type]
            st.Interval(0.1, 0.0, 0.2, 5), st.Interval(0.0, -0.1, 0.1, 5), z),
    }


@pytest.mark.parametrize("function", sorted(_z_members()))
@pytest.mark.parametrize("z, error", [(-1.96, ValueError), (0, ValueError),
                                      (math.nan, ValueError), (math.inf, ValueError),
                                      ("1.96", TypeError), (None, TypeError),
                                      (True, TypeError)])
def test_every_z_is_a_positive_finite_number(function: str, z: object,
                                             error: type[Exception]) -> None:
    """z = -1.96 gave an interval whose ends crossed; 0 or NaN one of no width."""
    with pytest.raises(error, match=rf"{function} takes z, a .*number of standard errors"):
        _z_members()[function](z)
    assert _z_members()[function](1.96) is not None


@pytest.mark.parametrize("variance, weight, error, said", [
    (-1.0, 2, ValueError, "prior_variance, a finite number of 0 or more, not -1.0"),
    (math.inf, 1, ValueError, "prior_variance, a finite number of 0 or more, not inf"),
    ("0.25", 4, TypeError, 'prior_variance, a number of 0 or more, not the str "0.25"'),
    (None, 1, TypeError, "prior_variance, a number of 0 or more, not None"),
    (1.0, 1.5, TypeError, "prior_weight, a whole number of pseudo-observations, not 1.5"),
    (1.0, "4", TypeError, 'prior_weight, a whole number of pseudo-observations, not the str "4"'),
    (1.0, 10**400, ValueError, "prior_weight .*whole number from 0 to"),
])
def test_a_prior_that_is_no_variance_or_weight_is_refused(
        variance: object, weight: object, error: type[Exception], said: str) -> None:
    from spitemalice.measures.sequential import sprt

    with pytest.raises(error, match=f"mean_interval.{{0,7}}{said}"):
        mean_interval([1.0, 2.0], prior_variance=variance, prior_weight=weight)  # type: ignore[arg-type]
    with pytest.raises(error, match=f"sprt.{{0,7}}{said}"):
        sprt([1.0, 2.0], 0.5, prior_variance=variance, prior_weight=weight)  # type: ignore[arg-type]


def test_numpy_whole_numbers_are_whole_numbers() -> None:
    numpy = pytest.importorskip("numpy")
    assert mean_interval([1.0, 2.0], prior_variance=0.25, prior_weight=numpy.int64(4)).n == 2
    found = share_difference(numpy.int64(2), numpy.int64(1), numpy.int64(0), numpy.int64(4))
    assert type(found.n) is int  # so that json.dumps(found.as_dict()) works


@pytest.mark.parametrize("values, error, said", [
    ([1.0, math.inf], ValueError, "values of finite numbers, not inf"),
    ([1.0, math.nan], ValueError, "values of finite numbers, not nan"),
    ([1.0, "2"], TypeError, 'values of numbers, not the str "2"'),
    ([1.0, None], TypeError, "values of numbers, not None"),
])
def test_values_that_are_no_finite_numbers_are_refused(values: list[object],
                                                       error: type[Exception],
                                                       said: str) -> None:
    with pytest.raises(error, match=f"mean_interval takes {said}"):
        mean_interval(values)  # type: ignore[arg-type]
    inner = said.removeprefix("values of ")
    with pytest.raises(error, match=f"paired_difference takes b of {inner}"):
        paired_difference([1.0, 1.0], values)  # type: ignore[arg-type]


@pytest.mark.parametrize("counts, error, said", [
    ((1.5, 0, 0, 4), TypeError, "both, a whole number, not 1.5"),
    ((0, 0, 0, math.nan), TypeError, "n, a whole number, not nan"),
    (("1", 0, 0, 4), TypeError, 'both, a whole number, not the str "1"'),
    ((None, 0, 0, 4), TypeError, "both, a whole number, not None"),
    ((0, True, 0, 4), TypeError, "only_a, a whole number, not True"),
    ((0, 0, 0, -1), ValueError, "n, the number of trials, a whole number from 0 to"),
])
def test_counts_that_are_no_whole_numbers_are_refused(counts: tuple[object, ...],
                                                      error: type[Exception],
                                                      said: str) -> None:
    with pytest.raises(error, match=f"share_difference takes {said}"):
        share_difference(*counts)  # type: ignore[arg-type]


def test_none_is_no_outcome() -> None:
    """Try-out s7 M2: None passed the 0-or-1 check (the check's own "nothing found" value)
    and was counted in no cell."""
    with pytest.raises(TypeError, match="paired_shares takes outcomes of 0 or 1, not None"):
        paired_shares([None, None, None], [1, 1, 1])  # type: ignore[list-item]


@pytest.mark.parametrize("z, dof, error, said", [
    (1.96, 0, ValueError, "dof, the degrees of freedom, 1 or more, not 0"),
    (1.96, 1.5, TypeError, "dof, a whole number, not 1.5"),
    (None, 5, TypeError, "z, a number of standard errors such as 1.96, not None"),
    (math.nan, 5, ValueError, "z, a positive finite number .*not nan"),
    (31, 3, ValueError, "z, a positive finite number .*at most 30, not 31"),
])
def test_student_t_refuses_what_has_no_quantile(z: object, dof: object,
                                                error: type[Exception], said: str) -> None:
    """Try-out s7b F3: student_t(1.96, 0) divided by zero, a NaN z gave NaN."""
    from spitemalice.measures.means import student_t

    with pytest.raises(error, match=f"student_t takes {said}"):
        student_t(z, dof)  # type: ignore[arg-type]


def test_a_large_z_gives_a_finite_quantile() -> None:
    """Try-out s7b F4: z = 8.3 rounded the level to 1 and divided by zero at 2 degrees of
    freedom; the tail is now taken from erfc, exact far out."""
    from spitemalice.measures.means import student_t

    for dof in (1, 2, 3):
        assert math.isfinite(student_t(8.3, dof)) and student_t(8.3, dof) > student_t(3.0, dof)
    assert math.isfinite(mean_interval([1.0, 2.0, 3.0], z=8.3).high)


@pytest.mark.parametrize("keywords, error, said", [
    ({"margin": None}, TypeError, "margin, a positive number, not None"),
    ({"margin": math.inf}, ValueError, "margin, a positive finite number"),
    ({"margin": 0.1, "alpha": "x"}, TypeError, 'alpha, a number between 0 and 0.5'),
    ({"margin": 0.1, "least_variance": None}, TypeError, "least_variance, a number of 0"),
    ({"margin": 0.1, "prior_variance": 1.0, "prior_weight": None}, TypeError,
     "prior_weight, a whole number of pseudo-observations, not None"),
])
def test_every_parameter_of_sprt_is_checked_by_name(keywords: dict[str, object],
                                                    error: type[Exception], said: str) -> None:
    """Try-out s7b F5: a margin of None gave a bare "'>' not supported", inf was taken."""
    from spitemalice.measures.sequential import sprt

    with pytest.raises(error, match=f"sprt takes {said}"):
        sprt([0.0, 1.0], **keywords)  # type: ignore[arg-type]


def test_a_rate_margin_of_one_or_more_is_refused() -> None:
    """Try-out s7b F8: --until-decided 5 on games won decided "less than 5" after 2 games."""
    import spitemalice as sm
    from spitemalice.study import configuration
    from spitemalice.study.compare import compare_until_decided

    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    a, b = configuration(rules, ["greedy"], "A"), configuration(rules, ["greedy"], "B")
    with pytest.raises(sm.SpiteMaliceError, match=r"its values lie within 0\.\.1, so B and A "
                                                  r"never differ by 5; give a margin above 0 "
                                                  r"and below 1"):
        compare_until_decided(a, b, "won", 5.0, 0, batch=2, max_games=4, coverage=False)
    # The class: every statistic whose values lie within 0..1, rates or means of shares.
    for name in ("comeback", "lead_for_good", "first_seat_wins"):
        with pytest.raises(sm.SpiteMaliceError, match="never differ by 1"):
            compare_until_decided(a, b, name, 1.0, 0, batch=2, max_games=4, coverage=False)
    with pytest.raises(sm.SpiteMaliceError, match="mattered pools its trials"):
        compare_until_decided(a, b, "mattered", 0.1, 0, batch=2, max_games=4, coverage=False)


# ---- counts that all agree keep a width (try-out s7b F1): every mean of counts ----

def test_counts_that_all_differ_alike_are_no_significant_difference() -> None:
    """Try-out s7b F1: two games, each with one completed pile more under B, printed
    +1.00 (+1.00..+1.00) and starred.  With the least variance of whole counts, 1/(n+1),
    t with 1 degree of freedom spans 0."""
    from spitemalice.measures.means import least_variance, student_t

    two = paired_difference([3.0, 3.0], [4.0, 4.0], unit=1.0)
    half = student_t(Z95, 1) * math.sqrt(least_variance(1.0, 2) / 2)
    assert two.high - two.estimate == pytest.approx(half) and not two.excludes(0.0)
    assert paired_difference([3.0, 3.0], [4.0, 4.0]).high == 1.0  # without a unit: no width
    many = paired_difference([3.0] * 30, [4.0] * 30, unit=1.0)
    assert many.excludes(0.0)  # thirty games that all agree do show a difference


def test_the_least_variance_changes_nothing_where_counts_vary() -> None:
    """Counts that differ at all have more spread than one pseudo-value a step away."""
    for values in ([0.0, 1.0], [0.0, 0.0, 0.0, 1.0], [10.0, 30.0, 20.0]):
        assert mean_interval(values, unit=1.0) == mean_interval(values)
    assert paired_difference([1.0, 2.0], [1.0, 4.0], unit=1.0) == \
        paired_difference([1.0, 2.0], [1.0, 4.0])


def test_every_mean_of_counts_keeps_a_width_when_its_games_agree() -> None:
    """The members: compare's count statistics (each side and the difference), the quality
    metrics' durations, simulate's mean moves and turns (from their summaries), the balance
    report's mean game length (the grep below)."""
    import spitemalice as sm
    from spitemalice.measures.metrics import duration
    from spitemalice.study import compare, configuration
    from spitemalice.study.simulate import Summary

    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    same = configuration(rules, ["greedy"], "A"), configuration(rules, ["greedy"], "B")
    result = compare(*same, games=3, seed=3, coverage=False)
    for line in result.lines:
        if not line.statistic.rate:
            assert line.difference.low < 0.0 < line.difference.high, line.statistic.name
            assert line.a.low < line.a.high and not line.differs
    assert duration([40.0, 40.0]).low < 40.0 < duration([40.0, 40.0]).high
    outcomes = {"win": 3, "drawn": 0, "blocked": 0, "turn-limit": 0}
    summary = Summary("blackwood-frey", 2, ("greedy",), 3, outcomes, (3, 0), 3, 50.0, 50.0,
                      20.0, 20.0, 1.0, 150, sd_moves=0.0, sd_turns=0.0)  # three equal games
    for key in ("mean_moves", "mean_turns"):
        interval = summary.intervals()[key]
        assert interval.low < interval.estimate < interval.high, key


def test_no_mean_of_counts_is_written_without_its_unit() -> None:
    """Every ``within=COUNT`` call in the studies states ``unit``: 1 for whole counts, 0 for a
    ratio (a reviewer sees the choice); a new writer without it fails here."""
    import pathlib

    import spitemalice

    root = pathlib.Path(spitemalice.__file__).parent
    calls = []
    for path in root.rglob("*.py"):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if "within=COUNT" in line:
                calls.append((path.name, number, " ".join(lines[number:number + 2])))
    assert len(calls) >= 5  # duration's range is now its caller's (a turn limit bounds it)
    assert [c for c in calls if "unit=" not in c[2]] == []


@pytest.mark.parametrize("call, says", [
    (lambda v: mean_interval([v, v]), "mean_interval takes values of numbers from"),
    (lambda v: paired_difference([1.0, 2.0], [v, v]), "paired_difference takes b of numbers"),
    (lambda v: __import__("spitemalice.measures.sequential").measures.sequential.sprt([v, v], 1.0),
     "sprt takes differences of numbers from"),
])
def test_values_too_large_to_square_are_refused_by_name(call: Callable[[float], object],
                                                        says: str) -> None:
    """Try-out s7b F6: ``mean_interval([1e308, 1e308])`` raised a bare OverflowError from
    fsum.  Every function that squares its values bounds them (``checks.MAX_VALUE``)."""
    from spitemalice.measures.checks import MAX_VALUE

    with pytest.raises(ValueError, match=says) as raised:
        call(1e308)
    assert str(raised.value).endswith("(spitemalice.measures.checks.MAX_VALUE), not 1e+308")
    call(MAX_VALUE)  # the largest taken: its squares are finite


def test_a_sequential_decision_never_contradicts_the_interval_beside_it() -> None:
    """Try-out s8 finding 1: ``compare --until-decided 20 --statistic turns --batch 1`` with
    random against greedy said "differs by 20 or more after 2 games" beside -58.50
    (-255.45..+138.45), an interval holding 0.  Members: compare's test (every statistic)
    and the ladder's pairs (their printed share of won games)."""
    import spitemalice as sm
    from spitemalice.measures.interval import Interval
    from spitemalice.measures.sequential import SprtResult, agreeing
    from spitemalice.study import compare_until_decided, configuration
    from spitemalice.study.pairs import PairTally

    rules = sm.load("blackwood-frey", [], {"payoff_size": 13})
    a, b = configuration(rules, ["random"], "A"), configuration(rules, ["greedy"], "B")
    for statistic, margin in (("turns", 20.0), ("won", 0.5)):
        result = compare_until_decided(a, b, statistic, margin, 0, batch=1, max_games=6,
                                       coverage=False)
        line = next(x for x in result.lines if x.statistic.name == statistic)
        assert result.sprt is not None
        if result.sprt.decision == "differs":
            assert line.difference.excludes(0.0), (statistic, line.difference)
        if result.sprt.decision == "same":
            assert -margin <= line.difference.low and line.difference.high <= margin
        assert result.games > 2 or result.sprt.decision == "undecided"
    wide = Interval(0.1, -0.3, 0.5, 3)
    said = SprtResult("differs", 3.2, -2.9, 2.9, 3)
    assert agreeing(said, wide, 0.0, 0.2).decision == "undecided"
    assert agreeing(said, Interval(0.4, 0.25, 0.55, 30), 0.0, 0.2) == said
    same = SprtResult("same", -3.2, -2.9, 2.9, 30)
    assert agreeing(same, Interval(0.0, -0.25, 0.1, 30), 0.0, 0.2).decision == "undecided"
    assert agreeing(same, Interval(0.0, -0.15, 0.1, 30), 0.0, 0.2) == same
    sweep = PairTally("greedy", "random", wins_a=4)  # 2 deals, both games of each to greedy
    sweep.values += [0.5, 0.5]
    sweep.evidence += [0.5, 0.5]
    assert sweep.rate.excludes(0.5) is False and sweep.test(0.05).decision == "undecided"


@pytest.mark.parametrize("call, error, says", [
    (lambda s: s.least_variance(1, -1), ValueError, "least_variance takes n, the number of"),
    (lambda s: s.least_variance(1, "3"), TypeError, "least_variance takes n, the number of"),
    (lambda s: s.mean_interval([1, 2], unit=1e200), ValueError, "mean_interval takes unit"),
    (lambda s: s.interval_of_mean(5, 1, -1), ValueError, "interval_of_mean takes n, the"),
    (lambda s: s.interval_of_mean(5, 1, None), TypeError, "interval_of_mean takes n, the"),
    (lambda s: s.interval_of_mean(5, 1, 2.5), TypeError, "interval_of_mean takes n, the"),
    (lambda s: s.interval_of_mean(5, 1, True), TypeError, "interval_of_mean takes n, the"),
    (lambda s: s.interval_of_mean("5", 1, 3), TypeError, "interval_of_mean takes mean"),
    (lambda s: s.interval_of_mean(math.inf, 1, 3), ValueError, "interval_of_mean takes mean"),
    (lambda s: s.interval_of_mean(5, "1", 3), TypeError, "interval_of_mean takes sd"),
    (lambda s: s.interval_of_mean(5, math.nan, 3), ValueError, "interval_of_mean takes sd"),
    (lambda s: s.bounded(1, math.nan, 3), ValueError, "bounded takes half"),
    (lambda s: s.bounded(1, -1, 3), ValueError, "bounded takes half"),
    (lambda s: s.wilson(1, -2), ValueError, "wilson takes n, the number of trials"),
    (lambda s: s.wilson(0, 10 ** 400), ValueError, "wilson takes n, the number of trials"),
    (lambda s: s.wilson(5, 3), ValueError, "wilson takes successes from 0 to n = 3, not 5"),
    (lambda s: s.share_difference(0, 0, 10 ** 400, 10 ** 400), ValueError,
     "share_difference takes only_b, a whole number from -(10**80 - 1) to 10**80 - 1"),
    (lambda s: s.mean_interval([1, 10 ** 400]), ValueError, "mean_interval takes values of"),
])
def test_summaries_and_counts_are_checked_by_name(call: Callable[[object], object],
                                                  error: type[Exception], says: str) -> None:
    """Try-out s8 findings 5, 6 and 9: a ZeroDivisionError, bare TypeErrors, an overflow of
    a 401-digit count, a negative variance returned, NaN ends, crossed ends; each argument
    is now refused by name, the message saying what would be right."""
    with pytest.raises(error) as raised:
        call(_interval_functions())
    assert str(raised.value).startswith(says), raised.value
    assert len(str(raised.value)) < 200  # a huge number is told by its size


def test_one_value_has_no_standard_deviation_and_is_the_whole_range() -> None:
    from spitemalice.measures.means import interval_of_mean

    one = interval_of_mean(5.0, math.nan, 1)  # what simulate passes for one game
    assert (one.low, one.high) == (-math.inf, math.inf)


def test_the_closing_tryouts_inputs_are_refused_by_name() -> None:
    """Try-out s8b: agreeing took crossed or missing intervals and any margin; quantile took
    negative lengths (its estimate then lay outside its interval); a tournament took a bot
    right after itself."""
    import spitemalice as sm
    from spitemalice.errors import SpiteMaliceError
    from spitemalice.measures.interval import Interval
    from spitemalice.measures.sequential import SprtResult, agreeing
    from spitemalice.study.balance import quantile
    from spitemalice.study.tournament import tournament

    said = SprtResult("same", -3.0, -2.9, 2.9, 30)
    with pytest.raises(TypeError, match=r"^agreeing takes interval, an Interval, not None$"):
        agreeing(said, None, 0.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^agreeing takes margin, a positive finite"):
        agreeing(said, Interval(0.0, -0.1, 0.1, 30), 0.0, -1.0)
    with pytest.raises(ValueError, match=r"^quantile takes game lengths of 0 or more, not -1$"):
        quantile([-1, 2], 0.5)
    with pytest.raises(SpiteMaliceError, match="greedy follows itself"):
        tournament(sm.load("blackwood-frey"), ["greedy", "greedy"], 1, 0)
