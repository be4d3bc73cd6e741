"""What produced a result: the configuration every study output names, so that a saved
result can be traced and rerun exactly.

:func:`describe_run` reads it from the :class:`~spitemalice.rules.book.RuleBook` (which knows
every parameter's value, the rule set's own value and who changed it, :attr:`RuleBook.origin`)
and the run's bots and seed.  Every study command prints it the same way: ``simulate``,
``compare``, ``tournament`` and ``validate`` in their text headers (:meth:`RunConfiguration.rows`)
and their ``--json`` (:meth:`RunConfiguration.as_dict`), plot titles
(:meth:`RunConfiguration.title`) and the ``--games-out`` sidecar
(:func:`spitemalice.runs.games_out.sidecar_path`).  A new study output uses the same
function rather than a description of its own.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

import attrs

from spitemalice.guards import int_field, seed_field
from spitemalice.rules.book import RuleBook
from spitemalice.rules.custom import is_file_name
from spitemalice.rules.registry import distribution
from spitemalice.rules.ruleset import IDENTITY_FIELDS, MAX_SEATS
from spitemalice.rules.sheet import format_value

OVERRIDE = "override"
"""The origin :attr:`RuleBook.origin` gives a parameter set by ``--set``, ``--players`` or
:func:`spitemalice.load`'s ``params`` (what a rerun passes again as ``--set``)."""


@attrs.frozen
class Changed:
    """A parameter whose value differs from the rule set's own.

    Attributes:
        name: the parameter (a :class:`~spitemalice.rules.ruleset.Ruleset` field).
        value, own: the value in force and the rule set's own value, as ``--set`` takes them.
        set_by: who changed it last (:attr:`RuleBook.origin`: ``"override"``, ``"house rule
            mandatory-aces"``, ``"file short-three.toml"``, ``"plugin p (hook)"``).
    """

    name: str
    value: str
    own: str
    set_by: str

    def text(self) -> str:
        """``payoff_size=13 (own 20, set by override)``."""
        return f"{self.name}={self.value} (own {self.own}, set by {self.set_by})"


@attrs.frozen
class RunConfiguration:
    """Everything that decides a study's games, and the versions that played them.

    Attributes:
        ruleset: the rule set as it was named: an installed name or a rule-set file's path.
        ruleset_version: the resolved rule set's own name and version (``"blackwood-frey
            1.0"``; a file gives its own).
        house_rules: every house rule in force, in order (a file's own first).
        given_house_rules: those named on top of ``ruleset`` (what a rerun names again).
        players: seats.
        changed: every parameter whose value differs from the rule set's own, except
            ``players``, with who changed it.
        bots: the bot kind of each seat (empty when the study chooses its own players, as
            validate does).
        seed: the run seed.
        version: spitemalice's version.
        packages: for each plugin not shipped with spitemalice, ``"name: package version"``.
        overrides: the parameters given on top (``--set``, ``--players``), as ``(key,
            value)`` text pairs: what a rerun gives again.

    Raises:
        SpiteMaliceError: ``players`` a whole number outside 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`, or ``seed`` not a whole number from
            0 to :data:`~spitemalice.limits.MAX_SEED`.
    """

    ruleset: str
    ruleset_version: str
    house_rules: tuple[str, ...]
    given_house_rules: tuple[str, ...]
    players: int = attrs.field(validator=int_field(
        1, MAX_SEATS, constant="spitemalice.rules.ruleset.MAX_SEATS"))
    changed: tuple[Changed, ...]
    bots: tuple[str, ...]
    seed: int = attrs.field(validator=seed_field())
    version: str
    packages: tuple[str, ...] = ()
    overrides: tuple[tuple[str, str], ...] = ()

    def label(self) -> str:
        """``blackwood-frey + mandatory-aces, payoff_size=13``: rule set, house rules and
        overrides, as a reader names the configuration."""
        rules = " + ".join((self.ruleset, *self.house_rules))
        return ", ".join([rules, *(f"{key}={value}" for key, value in self.overrides
                                   if key != "players")])

    def bots_text(self) -> str:
        """``greedy`` when every seat has the same bot, else one per seat, comma-separated."""
        return self.bots[0] if len(set(self.bots)) == 1 else ",".join(self.bots)

    def rule_args(self) -> list[str]:
        """The command-line arguments that load this configuration again:
        ``[RULESET, --house-rule NAME ..., --set KEY=VALUE ..., --players N]``."""
        args = [self.ruleset]
        for name in self.given_house_rules:
            args += ["--house-rule", name]
        for key, value in self.overrides:
            if key != "players":
                args += ["--set", f"{key}={value}"]
        return [*args, "--players", str(self.players)]

    def command(self, name: str, *extra: str) -> str:
        """The shell command that reruns this configuration with ``spitemalice NAME``:
        its rule arguments, ``--bots`` (when there are bots), ``--seed`` and ``extra``."""
        bots = ["--bots", self.bots_text()] if self.bots else []
        return shlex.join(["spitemalice", name, *self.rule_args(), *bots,
                           "--seed", str(self.seed), *extra])

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) rows for a text header: the configuration, the changed parameters,
        the seed and the versions."""
        bots = f", bots {self.bots_text()}" if self.bots else ""
        return [
            ("rule set", f"{' + '.join((self.ruleset, *self.house_rules))} "
                         f"({self.players} players{bots})"),
            ("changed parameters", "; ".join(c.text() for c in self.changed) or "none"),
            ("seed", str(self.seed)),
            ("versions", ", ".join([f"spitemalice {self.version}",
                                    f"rule set {self.ruleset_version}", *self.packages])),
        ]

    def title(self, run: bool = True, *, under_label: bool = False,
              players: bool = True) -> str:
        """A plot title's line: changed parameters, players, bots and (``run``) the seed and
        spitemalice's version.

        Args:
            under_label: the line above is :meth:`label`: leave out the parameters it names
                (a title that says ``payoff_size=13`` twice reads as two settings).
            players: name the players (``False`` when the line above does).
        """
        given = {key for key, _ in self.overrides} if under_label else set()
        parts = [f"{c.name}={c.value}" for c in self.changed if c.name not in given]
        if players:
            parts.append(f"{self.players} players")
        if self.bots:
            parts.append(f"bots {self.bots_text()}")
        if run:
            parts += [f"seed {self.seed}", f"spitemalice {self.version}"]
        return ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data: every attribute, ``changed`` as a mapping from parameter name to
        ``{"value", "own", "set_by"}``."""
        data = attrs.asdict(self, recurse=False)
        data["changed"] = {c.name: {"value": c.value, "own": c.own, "set_by": c.set_by}
                           for c in self.changed}
        data["overrides"] = dict(self.overrides)
        return {key: list(value) if isinstance(value, tuple) else value
                for key, value in data.items()}


def describe_run(book: RuleBook, bots: Sequence[str] = (), seed: int = 0, *,
                 ruleset: str | None = None, house_rules: Sequence[str] | None = None,
                 settings: Sequence[tuple[str, str]] | None = None) -> RunConfiguration:
    """The :class:`RunConfiguration` of a run of ``book``.

    Args:
        book: the configuration played.
        bots: one bot kind per seat, or one for every seat (empty: the study picks players).
        seed: the run seed.
        ruleset: how the rule set was named (a file's path, say); default its plugin's name,
            or for a rule-set file the file's name.
        house_rules: the house rules named on top of ``ruleset``; default every house rule of
            ``book`` that does not come from a rule-set file.
        settings: the parameters given on top, as ``(key, value)`` text pairs (``--set``);
            default those :attr:`RuleBook.origin` credits to an override, with their values.

    A step of the command line's runs and of validation, which check what they were given:
    the arguments are trusted as typed, but for the seed.

    Raises:
        SpiteMaliceError: ``seed`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_SEED` (:class:`RunConfiguration` checks it).
    """
    from spitemalice import __version__  # the package's own version, set in one place

    # A rule-set file's layer is listed last, by the file's name (RuleBook.plugins).
    file = book.plugins[-1] if is_file_name(book.plugins[-1]) else None
    rules = tuple(name for name in book.plugins[1:] if name != file)
    kinds = tuple(bots) * book.players if len(bots) == 1 else tuple(bots)
    return RunConfiguration(
        ruleset=ruleset or file or book.plugins[0],
        ruleset_version=f"{book.ruleset.name} {book.ruleset.version}",
        house_rules=rules,
        given_house_rules=tuple(house_rules) if house_rules is not None
        else (() if file else rules),
        players=book.players, changed=changed_parameters(book), bots=kinds, seed=seed,
        version=__version__, packages=_packages(book.plugins),
        overrides=tuple(settings) if settings is not None else _overrides(book))


def changed_parameters(book: RuleBook) -> tuple[Changed, ...]:
    """Every parameter of ``book`` whose value differs from its rule set's own value (except
    ``players``, named on its own), in the Ruleset's field order, with who changed it.
    """
    found = []
    for field in attrs.fields(type(book.ruleset)):
        name = field.name
        if name in IDENTITY_FIELDS or name == "players":
            continue
        value, own = getattr(book.ruleset, name), getattr(book.own, name)
        if value != own:
            found.append(Changed(name, format_value(value), format_value(own),
                                 book.origin.get(name, "unknown")))
    return tuple(found)


def _overrides(book: RuleBook) -> tuple[tuple[str, str], ...]:
    return tuple((name, format_value(getattr(book.ruleset, name)))
                 for name, who in book.origin.items()
                 if who == OVERRIDE and name not in IDENTITY_FIELDS and name != "players")


def _packages(names: Sequence[str]) -> tuple[str, ...]:
    found = []
    for name in names:
        package = distribution(name)
        if package is not None and not package.startswith("spitemalice "):
            found.append(f"{name}: {package}")
    return tuple(found)
