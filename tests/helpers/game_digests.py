"""Digests of whole games, so that a change meant only to make the engine faster is seen to
play every game exactly as before.

A game's digest is the SHA-256 of the canonical text of every state it passes through (the
deal, then the state after each move) and of every move's text.  The canonical text is built
here from the public fields of :class:`~spitemalice.model.GameState` alone, so it does not
change when the engine's internal representation does.

The games: every configuration of ``walks.CONFIGS`` (each rule set at each seat count, each
house rule on each rule set, a short game per rule set) plus a few stacks of house rules, each
played by random, greedy and mixed bots from two seeds; and every committed record under
``seeds/records``.

The stored digests (``tests/data/game_digests.json``) come from :func:`regenerate`; run it
only when a change is MEANT to alter games (a rule change), and say so in the commit::

    python tests/helpers/game_digests.py        # rewrites tests/data/game_digests.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `helpers` importable, as pytest does
    sys.path.insert(0, str(Path(__file__).parents[1]))

import spitemalice as sm
from helpers.walks import CONFIGS, Config, book, config_id
from spitemalice.bots.players import GreedyPlayer, RandomPlayer
from spitemalice.cards import card_text
from spitemalice.runs.loop import play_game

DATA = Path(__file__).parents[1] / "data" / "game_digests.json"
RECORDS = sorted((Path(__file__).parents[2] / "seeds" / "records").glob("*.json"))
STACKS: list[Config] = [
    ("blackwood-frey", ("pair-discards", "mandatory-aces", "wild-must-be-covered"),
     (("players", 3),)),
    ("blackwood-frey", ("unlimited-build-piles", "jokers-to-king"), (("players", 4),)),
    ("misery", ("pair-discards", "unlimited-build-piles"), (("players", 3),)),
    ("starturn", ("mandatory-aces",), (("players", 4),)),
]
LINEUPS = ("random", "greedy", "mixed")
SEEDS = (11, 29)


def _pile(pile: Iterable[sm.Card]) -> str:
    return " ".join(card_text(card) for card in pile)


def _piles(piles: Iterable[Iterable[sm.Card]]) -> str:
    return "|".join(_pile(pile) for pile in piles)


def state_text(state: sm.GameState) -> str:
    """Every public field of ``state`` as one line of text (equal states, equal text)."""
    seats = ";".join(f"{_piles(s.payoff)}/{_pile(s.hand)}/{_piles(s.discards)}"
                     for s in state.seats)
    outcome = state.outcome
    ended = "-" if outcome is None else f"{outcome.kind},{outcome.winner},{outcome.scores}"
    # Cards recycled from under the build-pile tops, only when there are any: the text of
    # every other state is what it was when the digests were first stored.
    removed = f"#~{state.build_removed}" if state.build_removed else ""
    return (f"{seats}#{_piles(state.builds)}#{_pile(state.draw)}#{_pile(state.completed)}#"
            f"{state.seat},{state.turn},{state.turn_moves},{state.idle_turns},{state.seed},"
            f"{state.shuffles}#{ended}{removed}")


def _seeded_game(rules: sm.RuleBook, lineup: str, seed: int) -> list[str]:
    """The lines of a game played by the library's loop: each state before its move, the
    move, and the final state."""
    kinds = {"random": [RandomPlayer] * rules.players, "greedy": [GreedyPlayer] * rules.players,
             "mixed": [(GreedyPlayer, RandomPlayer)[s % 2] for s in range(rules.players)]}
    players = [kind(seed * 10 + s) for s, kind in enumerate(kinds[lineup])]
    lines: list[str] = []

    def note(state: sm.GameState, move: sm.Move) -> None:
        lines.extend((state_text(state), str(move)))

    final = play_game(rules, players, seed, on_move=note).final
    return [*lines, state_text(final)]


def _digest(lines: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode())
        digest.update(b"\n")
    return digest.hexdigest()[:32]


def game_keys() -> list[str]:
    """The name of every game whose digest is stored."""
    keys = [f"{config_id(config)}/{lineup}/{seed}" for config in [*CONFIGS, *STACKS]
            for lineup in LINEUPS for seed in SEEDS]
    return keys + [f"record/{path.stem}" for path in RECORDS]


def game_digest(key: str) -> str:
    """The digest of the game named ``key`` (one of :func:`game_keys`), played now."""
    if key.startswith("record/"):
        record = sm.load_record(RECORDS[[p.stem for p in RECORDS].index(key[7:])])
        rules = sm.formats.rules_for(record)
        if rules.simultaneous is not None:  # spit: its own states, written by attrs' repr
            return _digest(repr(state) for state in sm.formats.replay_arrivals(record, rules))
        return _digest(state_text(state) for state in sm.replay(record))
    name, lineup, seed = key.rsplit("/", 2)
    config = {config_id(c): c for c in [*CONFIGS, *STACKS]}[name]
    return _digest(_seeded_game(book(config), lineup, int(seed)))


def regenerate(path: Path = DATA) -> dict[str, str]:
    """Play every game of :func:`game_keys` and write their digests to ``path`` (JSON)."""
    digests = {key: game_digest(key) for key in game_keys()}
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return digests


if __name__ == "__main__":
    print(f"{len(regenerate())} game digests written to {DATA}")
