"""``spitemalice tune``: search a rule set's parameters for configurations that meet stated
targets (:mod:`~spitemalice.study.tune_targets`), with Optuna's TPE sampler.

Each candidate (a trial) plays :attr:`Search.batch` self-play games (and as many duplicate
deals for ``skill``) on the search's seeds, the same games for every candidate (common random
numbers: candidates differ by their rules, not by their luck).  A candidate whose interval
already misses a target after that first batch is hopeless and is stopped there (Optuna's
*pruned* state); the others play a second batch, and the search minimises the sum of the
squared misses of their estimates (:meth:`~spitemalice.study.tune_targets.Measured.loss`).
Trials are asked for while the budget left pays for a whole trial (:func:`trial_games`): the
budget is never overspent, and one that cannot pay for a single trial is refused up front.

Then the best :attr:`Search.recheck` candidates are re-evaluated at fresh seeds (a seed set no
trial used), with the rule coverage of their self-play games: a verdict is published only when
it survives an independent sample (design notes §10).  The winner is the re-evaluated candidate
with the most targets passed, then the smallest loss.

Every trial is kept in an Optuna journal file in the output folder (``journal.log``), written
as each trial ends, so an interrupted search resumes with the games already spent counted;
``tune.json`` there keeps the search's settings, and a search with other settings is refused.
The TPE sampler is seeded, so a search that is never interrupted is repeatable; a resumed one
draws its later candidates from a fresh sampler state (the trials it already has still guide
it).
"""

from __future__ import annotations

import resource
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import (
    check_int,
    check_jobs,
    games_field,
    int_field,
    real_field,
    seed_field,
)
from spitemalice.rules.loader import load
from spitemalice.runs.workers import worker_cpu_seconds
from spitemalice.stops import held_stops
from spitemalice.study.tune_study import load_optuna, open_study
from spitemalice.study.tune_targets import Measured, Param, Plan, Target, measure
from spitemalice.wording import count_of

REFUSED_RUN = 20
"""Candidates in a row whose rules cannot be made (a value the rule set refuses) after which
the search stops: the ranges hold too few playable values."""


@attrs.frozen
class Search:
    """A search's settings (what ``tune.json`` keeps).

    Attributes:
        ruleset: the rule set (a name or a file).
        house_rules: house rules stacked on it.
        settings: fixed ``--set`` values, ``(name, text)``.
        params: the parameters varied.
        targets: the aims.
        budget: games the trials may play in all (the re-evaluation comes on top).
        batch: self-play games per stage of a trial (and duplicate deals, with ``skill``).
        recheck: candidates re-evaluated at fresh seeds.
        recheck_games: self-play games of each re-evaluation.
        seed: the run seed.
        plan: the bots.
        allow_files: a rule-set file's base may name another file.

    Raises:
        SpiteMaliceError: ``budget``, ``batch``, ``recheck`` or ``recheck_games`` a whole number
            outside 0 to :data:`~spitemalice.limits.MAX_GAMES`, or ``seed`` one outside 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
    """

    ruleset: str
    house_rules: tuple[str, ...]
    settings: tuple[tuple[str, str], ...]
    params: tuple[Param, ...]
    targets: tuple[Target, ...]
    budget: int = attrs.field(validator=games_field())
    batch: int = attrs.field(validator=games_field())
    recheck: int = attrs.field(validator=games_field())
    recheck_games: int = attrs.field(validator=games_field())
    seed: int = attrs.field(validator=seed_field())
    plan: Plan
    allow_files: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (what ``tune.json`` holds)."""
        return {"ruleset": self.ruleset, "house_rules": list(self.house_rules),
                "settings": [list(s) for s in self.settings],
                "params": [p.text() for p in self.params],
                "targets": [t.text() for t in self.targets], "budget": self.budget,
                "batch": self.batch, "recheck": self.recheck,
                "recheck_games": self.recheck_games, "seed": self.seed,
                "bots": [self.plan.bot, self.plan.strong, self.plan.weak]}

    def book(self, values: dict[str, object]) -> Any:
        """The rule book of a candidate's ``values`` over the fixed settings.

        Raises:
            RulesetError: as :func:`spitemalice.load`.
        """
        return load(self.ruleset, list(self.house_rules), {**dict(self.settings), **values},
                    allow_files=self.allow_files)


@attrs.frozen
class Candidate:
    """A trial of the search: its number, values, loss and measured figures.

    Raises:
        SpiteMaliceError: ``number`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`, or ``loss`` a number past
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """

    number: int = attrs.field(validator=int_field(0))
    values: dict[str, object]
    loss: float = attrs.field(validator=real_field())
    measured: Measured | None
    pruned: bool = False
    refused: str = ""  # why the candidate's rules could not be made (no game played)


@attrs.frozen
class Rechecked:
    """A candidate re-evaluated at fresh seeds: the search's figures and the fresh ones."""

    candidate: Candidate
    fresh: Measured

    def passed(self, targets: Sequence[Target]) -> int:
        return self.fresh.verdicts(targets).count("pass")


@attrs.frozen
class Outcome:
    """What a search found: every trial, the re-evaluated best (winner first), the games
    played by the trials, the CPU seconds of the whole search (its resumed parts added),
    and whether it was stopped; ``refused``, each refused trial (its values, and in
    :attr:`Candidate.refused` why its rules could not be made; no game played), in trial
    order.

    Raises:
        SpiteMaliceError: ``games`` a whole number outside 0 to :data:`~spitemalice.limits.MAX_INT`,
            or ``cpu_seconds`` a number past :data:`~spitemalice.limits.MAX_REAL` in size.
    """

    search: Search
    trials: tuple[Candidate, ...]
    rechecked: tuple[Rechecked, ...]
    games: int = attrs.field(validator=int_field(0))
    cpu_seconds: float = attrs.field(validator=real_field())
    interrupted: bool = False
    refused: tuple[Candidate, ...] = ()


def cpu_seconds() -> float:
    """CPU seconds of this process and of the ``--jobs`` workers it let go (as the atlas
    counts them; a Dask cluster's are not counted)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + worker_cpu_seconds()


def trial_games(search: Search) -> int:
    """The most games one trial of ``search`` plays (an int): two batches of ``batch``
    self-play games, and with a ``skill`` target each batch's deals twice more (strong
    against weak, the sides swapped)."""
    skill = any(target.metric == "skill" for target in search.targets)
    return 2 * search.batch * (3 if skill else 1)


def check_budget(search: Search, dashes: str = "") -> Search:
    """``search``, its budget checked: one that cannot pay for a single trial
    (:func:`trial_games`) is refused, naming both values and the fix; ``dashes`` (``"--"``)
    names them as command-line options.

    Raises:
        SpiteMaliceError: ``budget`` below :func:`trial_games`, or ``batch`` 0 (no trial
            would spend anything: the search would never end).
    """
    most = trial_games(search)
    if search.batch == 0:
        raise SpiteMaliceError(f"{dashes}batch 0 plays no game: give {dashes}batch 1 or more")
    if search.budget >= most:
        return search
    skill = ", and each deal twice more for the skill target" if most > 2 * search.batch else ""
    fits = search.budget // (most // search.batch)  # the largest batch the budget pays for
    smaller = f", or {dashes}batch {fits:,} or less" if fits else ""
    raise SpiteMaliceError(
        f"{dashes}budget {search.budget:,} cannot pay for one trial, and the trials never "
        f"play past it: a trial plays up to {count_of(most, 'game', spec=',')} (2 batches of "
        f"{dashes}batch {count_of(search.batch, 'self-play game', spec=',')}{skill}); give "
        f"{dashes}budget {most:,} or more"
        f"{smaller}")


def _suggest(trial: Any, params: Sequence[Param]) -> dict[str, object]:
    values: dict[str, object] = {}
    for param in params:
        if param.minus:
            continue  # after the parameter it follows
        if param.choices:
            values[param.name] = trial.suggest_categorical(param.name, list(param.choices))
        else:
            values[param.name] = trial.suggest_int(param.name, param.low, param.high)
    for param in params:
        if param.minus:
            values[param.name] = param.high - int(str(values[param.minus]))
    return values


def _metrics_of(search: Search) -> Plan:
    return attrs.evolve(search.plan, metrics=frozenset(t.metric for t in search.targets))


def run_trial(search: Search, values: dict[str, object], jobs: int | None,
              client: Any) -> tuple[Measured | None, Measured | None, str]:
    """Play one candidate: its first batch, and (unless a target's interval already misses)
    its second; returns the first batch's figures, the whole trial's (``None`` when pruned or
    refused) and why a candidate was refused (its rules cannot be made), else ``""``.

    Raises:
        SpiteMaliceError: ``jobs`` not ``None`` or a whole number from 1 to
            :data:`~spitemalice.limits.MAX_JOBS`.
    """
    from spitemalice.errors import RulesetError

    check_jobs(jobs)

    try:
        book = search.book(values)
    except RulesetError as error:
        return None, None, str(error)
    plan = _metrics_of(search)
    first = measure(book, plan, range(search.batch), search.seed, jobs, client)
    if first.interrupted or "fail" in first.verdicts(search.targets):
        return first, None, ""
    # the second batch plays only its own games, measured with the first's
    both = measure(book, plan, range(search.batch, 2 * search.batch), search.seed, jobs,
                   client, earlier=first)
    return first, both, ""


def search_trials(search: Search, study: Any, jobs: int | None, client: Any,
                  on_trial: Callable[[Candidate, int], None] | None = None) -> bool:
    """Ask ``study`` for candidates while the budget left pays for a whole trial
    (:func:`trial_games`: the budget is never overspent); ``on_trial`` is called with each
    finished candidate and the games spent so far.  Returns whether a stop (Ctrl-C) ended the
    search early.

    Raises:
        SpiteMaliceError: ``jobs`` not ``None`` or a whole number from 1 to
            :data:`~spitemalice.limits.MAX_JOBS`.
    """
    check_jobs(jobs)
    optuna = load_optuna()
    for trial in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(trial.number, state=optuna.trial.TrialState.FAIL)  # cut off by a stop
    spent, refused_run = games_spent(study), 0
    # Candidates whose rules cannot be made play no game: REFUSED_RUN of them in a row end
    # the search, as the budget would never be spent.
    while spent + trial_games(search) <= search.budget and refused_run < REFUSED_RUN:
        trial = study.ask()
        values = _suggest(trial, search.params)
        before = cpu_seconds()
        first, both, refused = run_trial(search, values, jobs, client)
        if (first is not None and first.interrupted) or (both is not None and both.interrupted):
            return True
        with held_stops():  # a finished trial is kept whole in the journal
            candidate = _told(study, trial, search, values, first, both, refused,
                              cpu_seconds() - before)
        spent = games_spent(study)
        refused_run = refused_run + 1 if refused else 0
        if on_trial is not None:
            on_trial(candidate, spent)
    return False


def _told(study: Any, trial: Any, search: Search, values: dict[str, object],
          first: Measured | None, both: Measured | None, refused: str,
          cpu: float) -> Candidate:
    optuna = load_optuna()
    # the whole trial's figures count its first batch's games too: counted once
    played = both.games if both else first.games if first else 0
    trial.set_user_attr("games", played)
    trial.set_user_attr("cpu_seconds", round(cpu, 2))
    if refused:
        trial.set_user_attr("refused", refused)
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
        return Candidate(trial.number, values, float("inf"), None, refused=refused)
    if both is None:
        assert first is not None
        trial.set_user_attr("measured", first.as_dict())
        trial.report(first.loss(search.targets), 0)
        study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        return Candidate(trial.number, values, first.loss(search.targets), first, True)
    trial.set_user_attr("measured", both.as_dict())
    loss = both.loss(search.targets)
    study.tell(trial, loss)
    return Candidate(trial.number, values, loss, both)


def games_spent(study: Any) -> int:
    """Games the study's finished trials played (a resumed search counts them)."""
    return sum(int(t.user_attrs.get("games", 0)) for t in study.get_trials(deepcopy=False))


def cpu_spent(study: Any) -> float:
    """CPU seconds the study's finished trials took, as each trial recorded."""
    return sum(float(t.user_attrs.get("cpu_seconds", 0)) for t in
               study.get_trials(deepcopy=False))


def best(study: Any, search: Search, count: int) -> list[Candidate]:
    """The ``count`` best configurations: the complete trials by their loss, then, when fewer
    completed, the stopped ones by their first batch's loss (a search whose targets no
    candidate meets at once still shows the nearest); ties: the earlier trial; a
    configuration tried twice counts once.

    Raises:
        SpiteMaliceError: ``count`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    check_int(count, "best's count", 0)
    optuna = load_optuna()
    ranked = []
    for state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED):
        trials = study.get_trials(deepcopy=False, states=(state,))
        ranked += sorted(trials, key=lambda t: (_loss(t), t.number))
    found: list[Candidate] = []
    for trial in ranked:
        values = _with_followers(search, trial.params)
        # The sampler may propose a configuration again: it is re-evaluated once.
        if len(found) < count and all(c.values != values for c in found):
            found.append(Candidate(trial.number, values, _loss(trial), None,
                                   trial.state == optuna.trial.TrialState.PRUNED))
    return found


def _loss(trial: Any) -> float:
    """A complete trial's loss, or a stopped one's first batch's."""
    if trial.value is not None:
        return float(trial.value)
    return float(trial.intermediate_values.get(0, float("inf")))


def _with_followers(search: Search, given: dict[str, Any]) -> dict[str, object]:
    """A trial's values with the parameters that follow another (``NAME=TOTAL-OTHER``), in
    the order of ``--param``."""
    values = dict(given)
    for param in search.params:
        if param.minus:
            values[param.name] = param.high - int(str(values[param.minus]))
    return {p.name: values[p.name] for p in search.params}


def recheck(search: Search, candidates: Sequence[Candidate], jobs: int | None,
            client: Any) -> tuple[list[Rechecked], bool]:
    """Each candidate re-evaluated on fresh seeds (no trial played them), with the rule
    coverage of its self-play games; the winner first (most targets passed, then the
    smallest fresh loss).  Also returns whether a stop cut it short.

    Raises:
        SpiteMaliceError: ``jobs`` not ``None`` or a whole number from 1 to
            :data:`~spitemalice.limits.MAX_JOBS`.
    """
    check_jobs(jobs)
    fresh_seed = derive_seed(search.seed, "tune-recheck")
    done: list[Rechecked] = []
    for candidate in candidates:
        fresh = measure(search.book(candidate.values), _metrics_of(search),
                        range(search.recheck_games), fresh_seed, jobs, client, coverage=True)
        if fresh.interrupted:
            return _ranked(search, done), True
        done.append(Rechecked(candidate, fresh))
    return _ranked(search, done), False


def _ranked(search: Search, done: list[Rechecked]) -> list[Rechecked]:
    return sorted(done, key=lambda r: (-r.passed(search.targets),
                                       r.fresh.loss(search.targets), r.candidate.number))


def trials_of(study: Any, search: Search) -> tuple[Candidate, ...]:
    """Every finished trial as a :class:`Candidate` (figures from the journal)."""
    optuna = load_optuna()
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    found = []
    for trial in study.get_trials(deepcopy=False, states=states):
        data = trial.user_attrs.get("measured")
        measured = None if data is None else measured_from(data)
        loss = trial.value if trial.value is not None else (
            measured.loss(search.targets) if measured else float("inf"))
        found.append(Candidate(trial.number, _with_followers(search, trial.params),
                               float(loss), measured,
                               trial.state == optuna.trial.TrialState.PRUNED))
    return tuple(found)


def measured_from(data: dict[str, Any]) -> Measured:
    """A :class:`Measured` back from :meth:`Measured.as_dict`."""
    from spitemalice.measures.interval import Interval

    metrics = {k: Interval(**_finite(v)) for k, v in data["metrics"].items()}
    return Measured(metrics, float(data["fair"]), int(data["games"]))


def _finite(value: dict[str, Any]) -> dict[str, Any]:
    """An interval as JSON keeps it: an end without a bound is ``null`` (infinite), the
    estimate of no game ``null`` (read as 0, with ``n`` 0)."""
    return {k: (float("inf") if v is None and k == "high" else 0.0 if v is None and
                k == "estimate" else v) for k, v in value.items()}


def tune(search: Search, folder: Path, jobs: int | None = 1, client: Any = None,
         on_trial: Callable[[Candidate, int], None] | None = None) -> Outcome:
    """Run (or resume) ``search`` with its journal in ``folder`` and re-evaluate its best.

    Raises:
        SpiteMaliceError: as :func:`open_study`; a candidate's unknown bot; ``jobs`` not ``None`` or
            a whole number from 1 to :data:`~spitemalice.limits.MAX_JOBS`; a budget that
            cannot pay for one trial (:func:`check_budget`), before the folder is made.
    """
    check_jobs(jobs)
    check_budget(search)
    study = open_study(search, folder)
    stopped = search_trials(search, study, jobs, client, on_trial)
    rechecked: list[Rechecked] = []
    start = cpu_seconds()
    if not stopped:
        rechecked, stopped = recheck(search, best(study, search, search.recheck), jobs, client)
    cpu = cpu_spent(study) + cpu_seconds() - start
    failed = study.get_trials(deepcopy=False, states=(load_optuna().trial.TrialState.FAIL,))
    refused = tuple(Candidate(t.number, _with_followers(search, t.params), float("inf"), None,
                              refused=str(t.user_attrs["refused"]))
                    for t in failed if "refused" in t.user_attrs)
    return Outcome(search, trials_of(study, search), tuple(rechecked), games_spent(study),
                   round(cpu, 1), stopped, refused)
