"""Fault injection: how many single-line consistency faults does ``spitemalice validate`` catch?

Each fault replaces one line of a copy of the engine or of a built-in rule set; the copy is put
first on ``PYTHONPATH`` and ``python -m spitemalice validate TARGET --games N --json`` runs on
the configuration the fault concerns.  A fault is caught when validate exits 1 with a failed
check or an error finding, or exits 2 refusing to load the configuration; a traceback is not a
catch.  The same targets are first validated without a fault: they must pass, or the figure
would mean nothing.

    python bench/faults.py                 # every fault, 200 games each (several minutes)
    python bench/faults.py --games 60 --only pairs-one-order
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
BF = ("blackwood-frey",)
TEAMS = ("skip-bo", "--house-rule", "partnerships")
SHARE = (*TEAMS, "--set", "partner_piles=share")
PAIRS = (*BF, "--house-rule", "pair-discards")


class Fault(NamedTuple):
    name: str
    file: str  # relative to the repository
    old: str  # one whole line (stripped), found exactly once in the file
    new: str
    target: tuple[str, ...] = BF
    nth: int | None = None  # which occurrence of a line found more than once

FAULTS = (
    Fault("pairs-one-order", "spitemalice/engine/legal.py",
          "pairs[second, first] = None", "pass", PAIRS),
    Fault("filters-forget-earlier", "spitemalice/engine/check.py",
          "refused_by.setdefault(move, answer)",
          "refused_by = {m: answer for m in moves if m not in allowed}",
          (*BF, "--house-rule", "mandatory-aces", "--house-rule", "wild-must-be-covered")),
    Fault("listed-filters-forget-earlier", "spitemalice/engine/legal.py",
          "kept = tuple(compress(kept, map(ids.__contains__, map(id, kept))))",
          "kept = tuple(compress(moves, map(ids.__contains__, map(id, moves))))",
          (*BF, "--house-rule", "mandatory-aces", "--house-rule", "wild-must-be-covered")),
    Fault("open-past-limit", "spitemalice/engine/legal.py",
          "can_open = not rules.build_limit or len(tops) < rules.build_limit",
          "can_open = True"),
    Fault("check-any-rank", "spitemalice/engine/check.py",
          "accepted = rules.accepts[card.rank] if card.rank < len(rules.accepts) else _NOTHING",
          "accepted = frozenset(range(1, 99))"),
    Fault("buried-card-accepted", "spitemalice/engine/check.py",
          "if pile[-1] != move.card:", "if move.card not in pile:"),
    Fault("list-forbidden-discards", "spitemalice/engine/legal.py",
          "if card.rank in rule.forbidden:", "if False:"),
    Fault("check-forbidden-discards", "spitemalice/engine/check.py",
          "if cards[0].rank in rules.discard.forbidden:", "if False:"),
    Fault("no-discard-pile-plays-listed", "spitemalice/engine/legal.py",
          "for index, pile in enumerate(seat.discards):",
          "for index, pile in enumerate(seat.discards[:1]):"),
    Fault("check-limit-forgotten", "spitemalice/engine/check.py",
          "if rules.build_limit and len(state.builds) >= rules.build_limit:", "if False:"),
    Fault("card-not-held-accepted", "spitemalice/engine/check.py",
          "if move.card not in mover.hand:", "if False:"),
    Fault("wild-may-start", "spitemalice/rules/resolve.py",
          "table[rank] = frozenset(r for r in range(1, ceiling + 1) if r not in wild.excluded)",
          "table[rank] = frozenset(r for r in range(1, ceiling + 1))"),
    Fault("refill-one-too-many", "spitemalice/engine/flow.py",
          "count = min(short, len(draw))", "count = min(short + 1, len(draw))"),
    Fault("never-blocked", "spitemalice/engine/flow.py",
          "idle = state.idle_turns + 1 if passed and turn_moves == 0 else 0", "idle = 0"),
    Fault("completed-card-lost", "spitemalice/engine/flow.py",
          "return with_fields(state, completed=state.completed + pile)",
          "return with_fields(state, completed=state.completed + pile[1:])"),
    Fault("short-pay-off-deal", "spitemalice/engine/deal.py",
          "return [tuple(_take(pack, size) for _ in range(piles)) for _ in range(players)]",
          "return [tuple(_take(pack, size - 1) for _ in range(piles)) for _ in "
          "range(players)]"),
    Fault("discard-keeps-turn", "spitemalice/engine/apply.py",
          "return turn_over(rules, state, seats, state.turn_moves + 1, passed=False)",
          "return with_fields(state, seats=seats, turn_moves=state.turn_moves + 1)"),
    Fault("hand-card-stays", "spitemalice/engine/apply.py",
          "hand = hand[:at] + hand[at + 1 :]", "hand = hand", nth=0),
    Fault("last-pay-off-card-no-win", "spitemalice/engine/apply.py",
          "if zone is Zone.PAYOFF and not any(payoff) and team_won(rules, state, at_seat):",
          "if False:"),
    Fault("pile-completes-late", "spitemalice/engine/apply.py",
          "done = len(pile) + (removed[target] if removed else 0) >= rules.ceiling.ceiling",
          "done = len(pile) + (removed[target] if removed else 0) > rules.ceiling.ceiling"),
    Fault("ceiling-below-queens", "variants/blackwood_frey.py",
          'build_ceiling=12, max_build_piles=4, completed_piles="set-aside",',
          'build_ceiling=11, max_build_piles=4, completed_piles="set-aside",'),
    Fault("discard-pile-plays-take-wrong-pile", "spitemalice/engine/apply.py",
          "discards = (*discards[:index], discards[index][:-1], *discards[index + 1 :])",
          "discards = (discards[0][:-1], *discards[1:])"),
    # Paths a move takes outside the engine's own list and check (issue 19 §5): partners'
    # piles, move text, the action catalogue; each with the members of its class.
    Fault("partner-tops-not-listed", "spitemalice/engine/legal.py",
          "for owner in access.play_from[state.seat]:  # partners' pile tops, where teams "
          "share them", "for owner in access.play_from[state.seat][:0]:", TEAMS),
    Fault("partner-discard-tops-not-listed", "spitemalice/engine/legal.py",
          "(discard_made, Zone.DISCARD, theirs.discards)):", "):", TEAMS),
    Fault("partner-discard-piles-not-listed", "spitemalice/engine/legal.py",
          "if access.discard_to[state.seat]:  # partners' discard piles, where teams share them",
          "if False:", SHARE),
    Fault("notation-discard-pile-off-by-one", "spitemalice/moves.py",
          "return Zone.DISCARD, _pile_number(number, text) - 1, card_part",
          "return Zone.DISCARD, _pile_number(number, text), card_part"),
    Fault("notation-payoff-pile-off-by-one", "spitemalice/moves.py",
          "return Zone.PAYOFF, (_pile_number(number, text) - 1) if number else 0, card_part",
          "return Zone.PAYOFF, _pile_number(number, text) if number else 0, card_part",
          ("misery",)),
    Fault("notation-discard-target-off-by-one", "spitemalice/moves.py",
          "return Discard(cards, _pile_number(number, text) - 1, target_owner)",
          "return Discard(cards, _pile_number(number, text), target_owner)"),
    Fault("notation-drops-seat-prefix", "spitemalice/moves.py",
          "return Play(zone, parse_card(card_part), pile, index, owner)",
          "return Play(zone, parse_card(card_part), pile, index)", TEAMS),
    Fault("catalogue-pairs-one-order", "spitemalice/env/actions.py",
          "self.pairs = tuple(itertools.permutations(range(self.hand), 2)) if pairs else ()",
          "self.pairs = tuple(itertools.combinations(range(self.hand), 2)) if pairs else ()",
          PAIRS),
    Fault("catalogue-partner-play-own-pile", "spitemalice/env/actions.py",
          "card = self._top(state.seats[seat], zone, index, action, kind)",
          "card = self._top(state.seats[state.seat], zone, index, action, kind)", TEAMS),
    Fault("catalogue-partner-discard-own-pile", "spitemalice/env/actions.py",
          "return (None if who == 0 else seat), pile", "return None, pile", SHARE),
)


def copy_tree(into: Path, source: Path = ROOT) -> None:
    """The library and the built-in rule sets, importable from ``into``."""
    if source != ROOT:  # a snapshot already laid out for import
        shutil.copytree(source, into, ignore=shutil.ignore_patterns("__pycache__"))
        return
    shutil.copytree(ROOT / "spitemalice", into / "spitemalice",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "variants", into / "spitemalice_variants",
                    ignore=shutil.ignore_patterns("__pycache__"))


def inject(into: Path, fault: Fault) -> bool:
    """Replace the fault's line in the copy (exactly one occurrence, or the ``nth``); false
    when the line is not there as given."""
    relative = fault.file.replace("variants/", "spitemalice_variants/", 1)
    path = into / relative
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.strip() == fault.old]
    if not hits or (len(hits) > 1 and fault.nth is None):
        return False  # the engine changed under the fault: report it stale, count it out
    at = hits[fault.nth or 0]
    line = lines[at]
    indent = line[: len(line) - len(line.lstrip())]
    lines[at] = indent + fault.new + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    return True


def run_validate(into: Path, target: tuple[str, ...], games: int) -> tuple[str, str]:
    """(verdict, detail): ``"pass"``, ``"caught"`` or ``"crash"``, and what validate said."""
    env = {**os.environ, "PYTHONPATH": str(into), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "spitemalice", "validate", *target, "--games", str(games),
         "--json", "--record", str(into / "failure.json")],
        env=env, cwd=into, capture_output=True, text=True, check=False)
    if done.returncode == 2 and "Traceback" not in done.stderr:
        return "caught", "refused at load: " + done.stderr.strip()
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return "crash", done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "?"
    errors = [f for f in report["findings"] if f["level"] == "error"]
    if done.returncode == 1 and errors:
        first = errors[0]
        return "caught", f"{first['name']}: {first['message']}"
    return "pass", ""


def _commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or "an unknown commit"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", action="append", default=[], metavar="FAULT")
    args = parser.parse_args()
    faults = [f for f in FAULTS if not args.only or f.name in args.only]
    start = time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        clean = Path(folder) / "clean"
        copy_tree(clean)
        print(f"engine snapshot of {_commit()}", flush=True)
        for target in dict.fromkeys(f.target for f in faults):
            verdict, detail = run_validate(clean, target, args.games)
            if verdict != "pass":
                raise SystemExit(f"unfaulted {' '.join(target)} does not pass: {detail}")
        caught = stale = 0
        for fault in faults:
            into = Path(folder) / fault.name
            copy_tree(into, clean)  # the snapshot taken at the start: edits meanwhile don't count
            if not inject(into, fault):
                stale += 1
                print(f"{fault.name:<36} stale  the line is no longer in {fault.file}", flush=True)
                shutil.rmtree(into)
                continue
            verdict, detail = run_validate(into, fault.target, args.games)
            caught += verdict == "caught"
            print(f"{fault.name:<36} {verdict:<6} {detail[:110]}", flush=True)
            shutil.rmtree(into)
    tried = len(faults) - stale
    print(f"\ncaught {caught}/{tried} ({caught / max(tried, 1):.0%}; {stale} stale) with "
          f"`validate --games {args.games}`; {time.process_time() - start:.0f} s CPU here "
          "(the validate runs are child processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
