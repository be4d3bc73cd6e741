"""``validate --strict`` on every built-in rule set, and on every built-in house rule stacked on
each built-in rule set that takes it: which pass, and every warning or error of those that do
not (issue 19: a clause no game exercised fails ``--strict`` unless it declares it).

    python bench/validate_all.py [--games 200] [--seed 0] [--jobs N]   # a long run

Each configuration is validated as ``spitemalice validate NAME --house-rule RULE --strict``
would; the last line counts the configurations that pass.
"""

from __future__ import annotations

import argparse
import sys
import time

import spitemalice as sm
from spitemalice.validation import validate
from spitemalice.wording import count_of


def configurations() -> list[tuple[str, tuple[str, ...]]]:
    """Every built-in rule set alone, then every built-in house rule on each built-in rule set
    that loads it."""
    built_in = [info for info in sm.installed()
                if info.origin.startswith("spitemalice_variants")]
    rulesets = [info.name for info in built_in if info.kind == "ruleset"]
    configs: list[tuple[str, tuple[str, ...]]] = [(name, ()) for name in rulesets]
    for rule in (info.name for info in built_in if info.kind == "house-rule"):
        for name in rulesets:
            try:
                sm.load(name, [rule])
            except sm.RulesetError:
                continue
            configs.append((name, (rule,)))
    return configs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (all cores)")
    args = parser.parse_args()
    passed = 0
    configs = configurations()
    start = time.process_time()
    for name, rules in configs:
        report = validate(name, rules, games=args.games, seed=args.seed, jobs=args.jobs)
        label = " + ".join((name, *rules))
        if report.ok(strict=True):
            passed += 1
            print(f"pass  {label}", flush=True)
            continue
        print(f"FAIL  {label}", flush=True)
        for finding in (*report.errors, *report.warnings):
            print(f"      {finding.text()}", flush=True)
    print(f"\n{passed}/{count_of(len(configs), 'configuration')} pass validate --strict --games "
          f"{args.games}"
          f" ({time.process_time() - start:.0f} s CPU in this process)")
    return 0 if passed == len(configs) else 1


if __name__ == "__main__":
    sys.exit(main())
