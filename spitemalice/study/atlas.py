"""The balance atlas: a :mod:`balance <spitemalice.study.balance>` report for every built-in
configuration, kept in one data file and rendered to one page (``docs/atlas.md``).

The configurations (:func:`entries`): every built-in rule set at every seat count it allows;
every built-in house rule on blackwood-frey with two seats (partnerships with four, the
fewest it allows); Skip-Bo's own house rules (:data:`SKIP_BO_OWN`, the ones the rules dossier
takes from Skip-Bo players) on skip-bo the same way.  Each report's skill gradient is measured
against its base (:func:`base_of`), whose report comes first.

:func:`run` plays the configurations missing from the data file and writes the file after
each one, so an interrupted run resumes where it stopped; :func:`render` turns the data file
into the page, a pure function of the data (the docs test renders it again and compares).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.files import write_file
from spitemalice.formats import strict_json
from spitemalice.guards import check_games, check_jobs, check_real, check_seed
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import built_in_rulesets, load
from spitemalice.rules.registry import installed
from spitemalice.rules.ruleset import seats_field
from spitemalice.runs.workers import worker_cpu_seconds
from spitemalice.stops import held_stops
from spitemalice.study.balance import TIERS, Baseline, balance
from spitemalice.study.fresh import fresh_seed

BASE = "blackwood-frey"
"""The rule set every house rule is tried on, and the base of every bare rule set."""

SKIP_BO_OWN = ("short-payoff", "no-wild-ceiling", "no-wild-discards", "no-wild-on-wild",
               "partnerships")
"""House rules the rules dossier takes from Skip-Bo players (§6, K3, K4 and its edge rules)."""


@attrs.frozen
class Entry:
    """One configuration of the atlas: a rule set, its house rules and its seats.

    Raises:
        SpiteMaliceError: ``players`` a whole number outside 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
    """

    ruleset: str
    house_rules: tuple[str, ...]
    players: int = attrs.field(validator=seats_field())

    @property
    def key(self) -> str:
        """Its key in the data file: ``blackwood-frey+mandatory-aces/2``."""
        return "+".join((self.ruleset, *self.house_rules)) + f"/{self.players}"

    @property
    def label(self) -> str:
        return " + ".join((self.ruleset, *self.house_rules))

    def rules(self) -> RuleBook:
        """The rule book.

        Raises:
            RulesetError: as :func:`spitemalice.load`.
        """
        return load(self.ruleset, list(self.house_rules), {"players": self.players})


def base_of(entry: Entry) -> Entry | None:
    """The base of ``entry``'s skill gradient: the rule set alone for a house rule;
    blackwood-frey at the same seats for another rule set; none for blackwood-frey itself."""
    if entry.house_rules:
        return Entry(entry.ruleset, (), entry.players)
    if entry.ruleset == BASE:
        return None
    return Entry(BASE, (), entry.players) if entry.players <= _seats(BASE)[1] else None


def entries() -> list[Entry]:
    """Every configuration of the atlas, each base before the entries measured against it:
    the built-in turn-based rule sets (the atlas's ladders and paired games take turns; Spit,
    whose seats move at once, is validated on its own: ``spitemalice validate spit``)."""
    rulesets = built_in_rulesets()
    house_rules = [info.name for info in installed()
                   if info.built_in and info.kind == "house-rule"]
    found = [Entry(name, (), players) for name in [BASE, *sorted(set(rulesets) - {BASE})]
             for players in range(_seats(name)[0], _seats(name)[1] + 1)]
    for ruleset, rules in ((BASE, house_rules), ("skip-bo", list(SKIP_BO_OWN))):
        for rule in rules:
            entry = _fewest_seats(ruleset, rule)
            if entry is not None:
                found.append(entry)
    return found


def _seats(ruleset: str) -> tuple[int, int]:
    params = load(ruleset).ruleset
    return params.min_players, params.max_players


def _fewest_seats(ruleset: str, rule: str) -> Entry | None:
    low, high = _seats(ruleset)
    for players in range(low, high + 1):
        try:
            load(ruleset, [rule], {"players": players})
        except RulesetError:
            continue
        return Entry(ruleset, (rule,), players)
    return None


def _read_data(path: Path) -> dict[str, Any]:
    """The atlas's data file, read strictly (:func:`spitemalice.formats.strict_json.loads`):
    a hand-edited file that names a key twice is refused, not read with the last value."""
    try:
        data = strict_json.loads(path.read_text(encoding="utf-8"))
    except strict_json.DuplicateKey as error:
        raise ValueError(error.at(str(path))) from None
    if not isinstance(data, dict) or "settings" not in data or "reports" not in data:
        raise ValueError(f"{path}: not an atlas data file (a JSON object with settings and "
                         "reports)")
    return data


def run(path: Path, games: int, deals: int, seed: int = 0,
        only: Sequence[Entry] | None = None,
        on_entry: Callable[[Entry, dict[str, Any]], None] | None = None,
        jobs: int | None = 1, client: Any = None) -> dict[str, Any]:
    """Play the balance report of every entry missing from the data file at ``path`` (or
    played with another version of its rule set: a rule set whose version changed plays
    again), and its report on the fresh seed set (``fresh``,
    :func:`spitemalice.study.fresh.fresh_seed`) that each verdict of the page is re-checked
    on, and return the data.  The file is rewritten (atomically) after each entry, so a run
    stopped at any point resumes with the next entry; a file made with other settings is
    refused.

    Raises:
        ValueError: the file holds reports made with other settings, names a key twice in
            one object, or is not an atlas data file.
        SpiteMaliceError: ``games``, ``deals``, ``seed`` or ``jobs`` out of range (as
            :func:`~spitemalice.study.balance.balance`), before the file is read.
    """
    games, deals = check_games(games), check_games(deals, "deals")
    seed, jobs = check_seed(seed), check_jobs(jobs)
    settings = {"games": games, "deals": deals, "seed": seed, "tiers": list(TIERS)}
    data: dict[str, Any] = {"settings": settings, "reports": {}}
    if path.exists():
        data = _read_data(path)
        if data["settings"] != settings:
            raise ValueError(f"{path} holds reports made with {data['settings']}, not "
                             f"{settings}; give the same settings or another file")
    for entry in only if only is not None else entries():
        version = entry.rules().ruleset.version
        for section, run_seed in (("reports", seed), ("fresh", fresh_seed(seed))):
            reports = data.setdefault(section, {})
            if reports.get(entry.key, {}).get("ruleset_version") == version:
                continue  # played with the rule set as it is; a new version plays again
            done = _play(entry, reports, run_seed, games, deals, jobs, client)
            reports[entry.key] = done
            with held_stops():  # a finished entry is kept whole, even when a stop comes now
                _write(path, data)
            if on_entry is not None and section == "reports":
                on_entry(entry, done)
    return data


def _play(entry: Entry, reports: dict[str, Any], seed: int, games: int, deals: int,
          jobs: int | None, client: Any) -> dict[str, Any]:
    """The balance report of ``entry`` from run seed ``seed``, its skill gradient against its
    base's report in ``reports`` (of the same seed set), as the data file holds it.

    Raises:
        ValueError: the base's report is not in ``reports`` yet.
        KeyboardInterrupt: a stop cut the report short.
    """
    base = base_of(entry)
    baseline = None
    if base is not None:
        if base.key not in reports:
            raise ValueError(f"{entry.key} needs its base {base.key} first")
        baseline = Baseline.from_dict(reports[base.key])
    before = _cpu()
    report = balance(entry.rules(), entry.label, TIERS, games, deals, seed,
                     base=baseline, jobs=jobs, client=client)
    if report.interrupted:
        raise KeyboardInterrupt
    # As the file holds it (an end without a bound is null): a run's data and a resumed
    # run's, read back from the file, are the same.
    done: dict[str, Any] = strict_json.loads(strict_json.dumps(report.as_dict()))
    done.update({"key": entry.key, "ruleset": entry.ruleset,
                 "ruleset_version": entry.rules().ruleset.version,
                 "house_rules": list(entry.house_rules),
                 "cpu_seconds": round(_cpu() - before, 1)})
    return done


def _cpu() -> float:
    """CPU seconds of this process and of the ``--jobs`` workers it let go, as each reported
    (:func:`~spitemalice.runs.workers.worker_cpu_seconds`); a Dask cluster's are not
    counted.  Not ``RUSAGE_CHILDREN``: it misses a fork server's workers (they are the
    server's children) and would count spawned ones twice (they are this process's)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + worker_cpu_seconds()


def _write(path: Path, data: dict[str, Any]) -> None:
    """Replace the data file whole (a temporary beside it, then its name; a link there is
    replaced, never followed): a run stopped at any moment leaves the last entry's data."""
    write_file(path, strict_json.dumps(data, indent=1, sort_keys=True) + "\n", force=True,
               what="the atlas data file")


def elapsed(start: float) -> str:
    """Minutes since ``start`` (:func:`time.monotonic`), for progress lines.

    Raises:
        SpiteMaliceError: ``start`` is no finite number (spitemalice.limits.MAX_REAL).
    """
    start = check_real(start, "start", what="a time.monotonic() reading")
    return f"{(time.monotonic() - start) / 60:.1f} min"
