"""Fuzz targets: every parser of untrusted input, with generators of grammar-shaped and
mutated-valid inputs (issue 10, class 1).

Shared by the bounded fuzz test of the suite (``tests/formats/test_fuzz.py``) and the soak script
(``bench/fuzz.py``).  A generator takes a :class:`random.Random` and returns one input, so
hypothesis can drive it (``st.randoms()``) and the soak can run it fast.  A target's ``run``
feeds the input to the parser and returns normally or raises; the only errors it may raise
are the library's own (:class:`~spitemalice.errors.SpiteMaliceError`), which :func:`outcome`
checks.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import functools
import io
import json
import os
import random
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

import spitemalice as sm
from helpers.fuzz_env import ENV_TARGETS
from helpers.fuzz_remote import REMOTE_TARGETS
from spitemalice.cards import parse_card
from spitemalice.cli import main
from spitemalice.engine.views import view_of
from spitemalice.formats import (
    check_record,
    dumps_record,
    dumps_state,
    dumps_view,
    format_position,
    format_view,
    loads_record,
    loads_state,
    loads_view,
    parse_position,
    parse_view,
    record_result,
)
from spitemalice.rules.custom import read as read_custom
from spitemalice.rules.datarules.scoring import Quantities, probe
from spitemalice.rules.ruleset import FIELD_NAMES
from spitemalice.runs.loop import play_game
from spitemalice.wording import for_terminal

RULESETS = ("blackwood-frey", "g4a", "misery", "starturn", "uspcc", "skip-bo", "hasbro")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Pieces a hostile input is made of: the grammar's own tokens, and the things that broke
# parsers before (numbers past Python's integer-string limit, deep nesting, lone surrogates,
# control characters, digits of other scripts).
NASTY = ["9" * 4301, "9" * 81, "-" + "9" * 100, "[" * 1000, "{" * 1000, '{"a":' * 500,
         "\ud800", "\x00", "\x1b[2J", "\u202e", "\u0663", "\u00b2", "\n", "\t", " ",
         "/dev/zero", "../x.toml", "\\", '"', "'", "NaN", "1e999", "-0", "true", "null",
         "\ufeff", "é", "\U0001f0a1"]
CARD_TOKENS = ["AS", "10H", "QD", "KC", "2S", "JH", "*", "SB", "7", "15", "0", "1H", "11S",
               "10", "AX", "ZZ", "?3", "?0", "?"]
MOVE_TOKENS = ["P", "P2", "D1", "D9", "S0.", "S1.", ":", ">", "B1", "B+", "B0", "D2", "+",
               "pass", "PASS", "H"]
POSITION_TOKENS = ["-", "|", ",", ":", "/", " ", "rest", "on=0", "on=1", "turn=3", "moves=1",
                   "idle=1", "seed=5", "shuffles=2", "view=0", "view=1", "end=win:0:6,0",
                   "end=drawn:-:0,0", "end=", "=", "on="]
TOML_TOKENS = ['title = "T"\n', 'version = "1"\n', 'base = "g4a"\n', 'base = "x.toml"\n',
               'house_rules = ["mandatory-aces"]\n', "[params]\n", "players = 3\n",
               "payoff_size = 13\n", 'wild_ranks = ["K"]\n', "x = [[[1]]]\n", 'name = "n"\n',
               "[params.deep]\n", "a = {b = {c = 1}}\n", "=", "[", "]", '"""', "'"]


def mutate(text: str, rng: random.Random, alphabet: list[str]) -> str:
    """``text`` with 1 to 4 random edits: a slice deleted, repeated or truncated, a token of
    ``alphabet`` or :data:`NASTY` inserted or put in place of a slice, a digit run blown up."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        i = rng.randint(0, n)
        j = min(n, i + rng.randint(0, 8))
        choice = rng.random()
        if choice < 0.2:
            text = text[:i] + text[j:]
        elif choice < 0.35:
            text = text[:j] + text[i:j] * rng.randint(1, 40) + text[j:]
        elif choice < 0.45:
            text = text[:i]
        elif choice < 0.75:
            text = text[:i] + rng.choice(alphabet) + text[j:]
        elif choice < 0.9:
            text = text[:i] + rng.choice(NASTY) + text[i:]
        else:
            digits = [k for k, c in enumerate(text) if c.isdigit()]
            if digits:
                k = rng.choice(digits)
                text = text[:k] + rng.choice(["9" * 4301, "9" * 81, "00", "-1"]) + text[k + 1:]
    return text


def shaped(rng: random.Random, alphabet: list[str], most: int = 30) -> str:
    """A string of grammar tokens (now and then a nasty one), the way a confused or hostile
    client might put them together."""
    pool = alphabet * 4 + NASTY
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, most)))


# -- valid samples to mutate ---------------------------------------------------------------


@functools.cache
def book(name: str) -> sm.RuleBook:
    return sm.load(name)


@functools.cache
def games() -> tuple[tuple[str, tuple[sm.GameState, ...], Any], ...]:
    """A few played games per rule set: the states along the way and the record."""
    from spitemalice.bots.players import GreedyPlayer, RandomPlayer

    out = []
    for name in RULESETS:
        rules = book(name)
        result = play_game(rules, [RandomPlayer(1), GreedyPlayer(2)], seed=3)
        states = [sm.deal(rules, 3)]
        for move in result.moves[:40]:
            states.append(sm.apply_move(rules, states[-1], move))
        states.append(result.final)
        out.append((name, tuple(states), record_result(rules, result)))
    return tuple(out)


def _state(rng: random.Random) -> tuple[str, sm.GameState]:
    name, states, _ = rng.choice(games())
    return name, rng.choice(states)


def _valid_move(rng: random.Random) -> str:
    name, state = _state(rng)
    moves = sm.legal_moves(book(name), state) or (sm.Pass(),)
    return str(rng.choice(moves))


# -- the targets -------------------------------------------------------------------------


@attrs.frozen
class Target:
    """One parser: ``generate(rng)`` makes an input, ``run(input)`` feeds it to the parser."""

    name: str
    generate: Callable[[random.Random], Any]
    run: Callable[[Any], object]


def _either(rng: random.Random, valid: Callable[[random.Random], str], alphabet: list[str],
            most: int = 30) -> str:
    if rng.random() < 0.3:
        return shaped(rng, alphabet, most)
    return mutate(valid(rng), rng, alphabet)


def _gen_card(rng: random.Random) -> str:
    return _either(rng, lambda r: r.choice(CARD_TOKENS[:10]), CARD_TOKENS, 4)


def _gen_move(rng: random.Random) -> str:
    return _either(rng, _valid_move, MOVE_TOKENS + CARD_TOKENS, 8)


def _gen_position(rng: random.Random) -> tuple[str, str]:
    name, state = _state(rng)
    return name, _either(rng, lambda r: format_position(state), POSITION_TOKENS + CARD_TOKENS)


def _gen_view(rng: random.Random) -> tuple[str, str]:
    name, state = _state(rng)
    seat = rng.randrange(len(state.seats))
    return name, _either(rng, lambda r: format_view(view_of(state, seat)),
                         POSITION_TOKENS + CARD_TOKENS)


JSON_TOKENS = ["{", "}", "[", "]", ",", ":", '"', "0", "-1", "true", "null", '"AS"', '"x"',
               '"format"', '"seats"', '"outcome"', '{"kind": "win", "winner": 0, "scores": [0]}']


LEAVES: list[Any] = [10**4299, 10**81, -(10**90), -1, 0, 1, 2, 3, 99, 2**64, 1.5, float("inf"),
                     True, False, None, "", "AS", "\ud800", "\x1b[2J", "/dev/zero", "x.toml",
                     "9H>B" + "9" * 4301, [], {}, [[[[[[]]]]]], {"kind": "win"}, ["AS"] * 300]


def mutate_data(data: Any, rng: random.Random) -> Any:
    """Parsed JSON with 1 to 3 edits at random places: a value replaced by one of
    :data:`LEAVES`, a key removed or added, a list entry repeated or dropped."""
    for _ in range(rng.randint(1, 3)):
        holder, key = _pick(data, rng)
        if holder is None:
            return copy.deepcopy(rng.choice(LEAVES))
        choice = rng.random()
        if choice < 0.6:
            holder[key] = copy.deepcopy(rng.choice(LEAVES))
        elif choice < 0.75 and isinstance(holder, dict):
            del holder[key]
        elif choice < 0.85 and isinstance(holder, dict):
            holder[rng.choice(["extra", "seat", "Format", "\ud800"])] = copy.deepcopy(
                rng.choice(LEAVES))
        elif isinstance(holder, list):
            holder.insert(key, holder[key]) if rng.random() < 0.5 else holder.pop(key)
    return data


def _pick(data: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random (container, key) inside ``data``: a walk down from the top."""
    holder, key = None, None
    node = data
    while isinstance(node, dict | list) and node and (holder is None or rng.random() < 0.7):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        holder, key = node, rng.choice(keys)
        node = node[key]
    return holder, key


def _json_either(rng: random.Random, text: str) -> str:
    if rng.random() < 0.5:
        return _either(rng, lambda r: text, JSON_TOKENS)
    return json.dumps(mutate_data(json.loads(text), rng))


def _gen_state_json(rng: random.Random) -> tuple[str, str]:
    name, state = _state(rng)
    return name, _json_either(rng, dumps_state(state))


def _gen_view_json(rng: random.Random) -> tuple[str, str]:
    name, state = _state(rng)
    seat = rng.randrange(len(state.seats))
    return name, _json_either(rng, dumps_view(view_of(state, seat)))


def _gen_record(rng: random.Random) -> str:
    _, _, record = rng.choice(games())
    return _json_either(rng, dumps_record(record, indent=None))


def _gen_toml(rng: random.Random) -> str:
    def valid(r: random.Random) -> str:
        return r.choice(sorted(EXAMPLES.glob("*.toml"))).read_text(encoding="utf-8")

    return _either(rng, valid, TOML_TOKENS)


RULE_TOKENS = ["[[rule]]\n", 'clause = "X-1"\n', 'text = "t"\n', 'source = "s"\n',
               'forbid = "discard"\n', 'require = "', 'when = "', 'reason = "r-1"\n',
               'message = "m"\n', "[rule.values]\n", 'payoff_size = "', 'expects = ["',
               "move.rank", "target.top", "hand.ranks", "draw.top", "payoff.under", " and ",
               " or ", " not ", " in ", " if ", " else ", "==", "<", "+", "-", "//", "%",
               "|", "&", "(", ")", "[", "]", "{", "}", "len(", "count(", "lowest(", ",", "1",
               "0", "-1", "true", "'play'", '"', "__class__", "x.__dict__", "lambda: 1",
               "[x for x in hand.ranks]", "9" * 30, "(" * 40, "not " * 30, "a" * 500,
               # scoring expressions (values.score)
               'values = { score = "', 'score = "', "seat.won", "game.won", "game.end",
               "'win'", "opponents.payoff", "opponents.payoffs", "opponents.hand",
               "team.payoff", "seat.payoff", "game.turns", "win_bonus", "exhaustion", "25",
               "lowest(opponents.payoffs)", " * ", " // 0", " % (1 - 1)", "'difference'"]
HOUSE_RULES = EXAMPLES / "house-rules"
SCORING = EXAMPLES / "scoring"


def _gen_rule_file(rng: random.Random) -> str:
    def valid(r: random.Random) -> str:
        files = [*HOUSE_RULES.glob("*.toml"), *SCORING.glob("*.toml")]
        return r.choice(sorted(files)).read_text(encoding="utf-8")

    return _either(rng, valid, RULE_TOKENS)


def _run_rule_file(text: str) -> object:
    """Read a rule-set file with [[rule]] tables (parse and compile, no rule book), then ask
    every move filter it compiled about a dealt position: a condition that passed the checks
    must evaluate without an error."""
    path = Path(_FOLDER) / "rules.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    spec = read_custom(path)
    rules = book("blackwood-frey")
    state = _DEALT[0]
    moves = sm.legal_moves(rules, state)
    for plugin in spec.rules:
        hook = getattr(plugin, "spitemalice_filter_moves", None)
        if hook is not None:
            hook(rules.ruleset, state, moves)
        score = getattr(plugin.spec, "score", None)
        if score is not None:  # every end of game it can meet; a negative score is refused
            probe(score, rules.ruleset, rules.teams.teams)
            score.points(rules.ruleset, Quantities.of(state, "drawn", None), rules.teams.teams)
    return spec


PARAM_VALUES = ["3", "13", "unlimited", "equal", "none", "1,13", "K", "true", "no", "x",
                "-5", "", "0", "A,Q", "*"]


def _gen_params(rng: random.Random) -> tuple[str, dict[str, str]]:
    keys = list(FIELD_NAMES)
    params = {}
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(keys)
        if rng.random() < 0.2:
            key = mutate(key, rng, ["_", "s", "x"])
        value = rng.choice(PARAM_VALUES)
        if rng.random() < 0.5:
            value = mutate(value, rng, PARAM_VALUES)
        params[key] = value
    return rng.choice(RULESETS), params


def _run_position(data: tuple[str, str]) -> object:
    return parse_position(data[1], book(data[0]))


def _run_view(data: tuple[str, str]) -> object:
    return parse_view(data[1], book(data[0]))


def _run_state_json(data: tuple[str, str]) -> object:
    return loads_state(data[1], book(data[0]))


def _run_view_json(data: tuple[str, str]) -> object:
    return loads_view(data[1], book(data[0]))


def _run_record(text: str) -> object:
    record = loads_record(text)
    if len(record.moves) > 2000:
        return record
    return check_record(record)


def _run_toml(text: str) -> object:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.toml"
        try:
            path.write_text(text, encoding="utf-8")
        except UnicodeEncodeError:
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
        return sm.load(path)


def _run_params(data: tuple[str, dict[str, str]]) -> object:
    return sm.load(data[0], params=data[1])


def _run_cli(argv: list[str]) -> object:
    """The command line must print at most one error line and return 0, 1 or 2."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:  # argparse's own refusals
            status = stop.code  # type: ignore[assignment]
    lines = err.getvalue().splitlines()
    if status not in (0, 1, 2) or len(lines) > 1 or "Traceback" in err.getvalue():
        raise AssertionError(f"exit {status}, stderr {err.getvalue()[:300]!r}")
    return status


def _gen_cli(rng: random.Random) -> list[str]:
    kind = rng.random()
    if kind < 0.5:
        name, text = _gen_position(rng)
        return ["show", text, "--ruleset", name]
    if kind < 0.8:
        return ["check", _temp_file(_gen_record(rng))]
    name, params = _gen_params(rng)
    return ["rules", name, *(f"--set={k}={v}" for k, v in params.items())]


_FOLDER = tempfile.mkdtemp(prefix="spitemalice-fuzz-")
atexit.register(shutil.rmtree, _FOLDER, True)  # the folder goes when the run ends


_DEALT: list[sm.GameState] = []


def _temp_file(text: str) -> str:
    path = os.path.join(_FOLDER, "record.json")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as handle:
        handle.write(text)
    return path


_DEALT.append(sm.deal(book("blackwood-frey"), 5))

TARGETS = (
    Target("parse_card", _gen_card, parse_card),
    Target("parse_move", _gen_move, sm.parse_move),
    Target("parse_position", _gen_position, _run_position),
    Target("parse_view", _gen_view, _run_view),
    Target("loads_state", _gen_state_json, _run_state_json),
    Target("loads_view", _gen_view_json, _run_view_json),
    Target("loads_record+check", _gen_record, _run_record),
    Target("custom TOML file", _gen_toml, _run_toml),
    Target("parameters", _gen_params, _run_params),
    Target("data house rules", _gen_rule_file, _run_rule_file),
    Target("command line", _gen_cli, _run_cli),
    *(Target(name, generate, run) for name, generate, run in ENV_TARGETS),
    *(Target(name, generate, run) for name, generate, run in REMOTE_TARGETS),
)


def outcome(target: Target, data: Any) -> str | None:
    """``None`` when the parser accepted ``data`` or refused it with the library's own error
    whose message holds no character a terminal would act on (but line breaks); otherwise a
    one-line description of what escaped."""
    try:
        target.run(data)
    except sm.SpiteMaliceError as error:
        # The library's own error, whose message quotes outside text escaped where it is
        # built (issue 38, class 10): an embedder that logs str(error) prints it as it is.
        text = str(error)
        if for_terminal(text, lines=True) != text:
            return f"unescaped {type(error).__name__}: {text[:200]!r}"
        return None
    except Exception as error:  # anything else is the finding
        return f"{type(error).__name__}: {str(error)[:200]}"
    return None
