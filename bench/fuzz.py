"""Fuzz soak: every parser of untrusted input fed many grammar-shaped and mutated-valid
inputs (issue 10).  Not a test: a long run whose figures go into reports.

    python bench/fuzz.py                          # 20 s of CPU time per parser
    python bench/fuzz.py --seconds 60 --json fuzz.json
    python bench/fuzz.py --targets parse_move,parse_view --seconds 5
    python bench/fuzz.py --inputs 100000 --json fuzz.json   # a count per parser instead

The targets and their input generators are the suite's (``tests/helpers/fuzz_targets.py``; the
suite runs a few dozen inputs per parser).  A failure is any exception that is not a
``SpiteMaliceError``, or for the command line, an exit status other than 0, 1 or 2 or more
than one line on stderr.  Per parser it reports the inputs run, the failures and the first
few failing inputs (shortened), and exits 1 when anything failed.  Time is CPU time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.fuzz_targets import TARGETS, outcome

from spitemalice.wording import count_of


def soak(names: list[str], seconds: float, seed: int, count: int = 0
         ) -> list[dict[str, object]]:
    """Run each named target for ``seconds`` of CPU time, or for ``count`` inputs when it is
    not 0; one summary row per target (with the CPU seconds it took)."""
    rows = []
    for target in TARGETS:
        if names and target.name not in names:
            continue
        rng = random.Random(f"{seed}:{target.name}")
        inputs, failures, examples = 0, 0, []
        start = time.process_time()
        end = start + seconds
        while (inputs < count) if count else (time.process_time() < end):
            data = target.generate(rng)
            problem = outcome(target, data)
            inputs += 1
            if inputs % 5000 == 0:  # a run stopped early still reports how far it got
                print(f"  {target.name}: {inputs} inputs, {count_of(failures, 'failure')} so far",
                      flush=True)
            if problem is not None:
                failures += 1
                if len(examples) < 3:
                    examples.append({"input": repr(data)[:300], "error": problem})
        cpu = time.process_time() - start
        rows.append({"parser": target.name, "inputs": inputs, "failures": failures,
                     "cpu_seconds": round(cpu, 1), "examples": examples})
        print(f"{target.name:<20} {count_of(inputs, 'input', spec='>8')} "
              f"{count_of(failures, 'failure', spec='>6')} {cpu:>8.1f} s CPU",
              flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="CPU seconds per parser (default 20)")
    parser.add_argument("--inputs", type=int, default=0,
                        help="inputs per parser instead of a time (issue 20 asks 100000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the inputs (default 0)")
    parser.add_argument("--targets", default="",
                        help="comma-separated parser names (default: all): "
                             + ", ".join(t.name for t in TARGETS))
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    args = parser.parse_args()
    names = [n.strip() for n in args.targets.split(",") if n.strip()]
    rows = soak(names, args.seconds, args.seed, args.inputs)
    total = sum(int(row["inputs"]) for row in rows)  # type: ignore[call-overload]
    failed = sum(int(row["failures"]) for row in rows)  # type: ignore[call-overload]
    print(f"{'total':<20} {count_of(total, 'input', spec='>8')} "
          f"{count_of(failed, 'failure', spec='>6')}")
    for row in rows:
        for example in row["examples"]:  # type: ignore[attr-defined]
            print(f"  {row['parser']}: {example['error']}\n    input {example['input']}")
    if args.json:
        args.json.write_text(json.dumps({"seconds": args.seconds, "inputs": args.inputs,
                                         "seed": args.seed,
                                         "parsers": rows}, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
