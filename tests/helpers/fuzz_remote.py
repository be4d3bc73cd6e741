"""Fuzz target for the remote bot (``spitemalice bot --connect``) against a hostile server
(issue 38, class 3): the texts of a real table's ``welcome`` and ``state`` messages, from
played games of every rule set, mutated (as text, or as data then written), now and then
shaped from JSON tokens and nasty pieces, fed in order to a new bot's
:meth:`~spitemalice.server.remote.RemoteBot.receive`.  The bot sits at the seat on turn, so
a state it accepts is one it answers with a move, chosen from the view it read.  Only
``SpiteMaliceError`` may come out.  :data:`REMOTE_TARGETS` joins
``fuzz_targets.TARGETS`` (the suite's bounded fuzz test and ``bench/fuzz.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from spitemalice.engine.legal import legal_moves
from spitemalice.engine.views import view_of
from spitemalice.formats.serialize import view_to_dict
from spitemalice.server.remote import RemoteBot, parse_link


def _messages(rng: random.Random) -> tuple[int, list[str]]:
    """A seat and the texts a real server would send it: a welcome, then 1 to 3 states."""
    from helpers.fuzz_targets import book, games

    name, states, _ = rng.choice(games())
    rules = book(name)
    welcome = {"type": "welcome", "protocol": 1, "table": "0123456789abcdef", "seat": 0,
               "game": 1, "ruleset": {"name": name, "house_rules": [], "params": {}},
               "seats": [{"name": f"s{i}", "connected": True}
                         for i in range(len(states[0].seats))],
               "sheet": "", "undo": True}
    picked = [rng.choice(states) for _ in range(rng.randint(1, 3))]
    seat = picked[-1].seat  # the seat on turn in the last state: the bot answers it
    texts = [json.dumps(welcome)]
    for number, state in enumerate(picked):
        legal = [{"move": str(move), "cards": [], "from": None, "to": None}
                 for move in legal_moves(rules, state)] if state.outcome is None else []
        texts.append(json.dumps({"type": "state", "game": 1, "number": number,
                                 "view": view_to_dict(view_of(state, seat)), "legal": legal}))
    return seat, texts


def _gen_remote(rng: random.Random) -> tuple[int, list[str]]:
    from helpers.fuzz_targets import JSON_TOKENS, mutate, mutate_data, shaped

    seat, texts = _messages(rng)
    which = rng.randrange(len(texts))
    choice = rng.random()
    if choice < 0.1:
        texts[which] = shaped(rng, JSON_TOKENS, 40)
    elif choice < 0.5:
        texts[which] = mutate(texts[which], rng, JSON_TOKENS)
    else:
        texts[which] = json.dumps(mutate_data(json.loads(texts[which]), rng))
    return seat, texts


def _run_remote(data: tuple[int, list[str]]) -> object:
    """A new bot at ``data[0]`` reads the texts in order; it answers, or refuses with the
    library's error."""
    seat, texts = data
    bot = RemoteBot(parse_link(f"http://127.0.0.1:1/table/0123456789abcdef#seat={seat}"
                               "&token=t"), "greedy", say=lambda line: None)
    answers = [bot.receive(text) for text in texts]
    for answer in answers:
        assert answer is None or (answer["type"] == "move" and isinstance(answer["move"], str))
    return answers


REMOTE_TARGETS: tuple[tuple[str, Callable[[random.Random], Any], Callable[[Any], object]],
                      ...] = (("remote bot", _gen_remote, _run_remote),)
