"""OpenSpiel games for every installed turn-based rule set (the ``openspiel`` extra).

Importing this module registers, for each installed rule set whose seats take turns (all
but Spit), a Python game with
`OpenSpiel <https://openspiel.readthedocs.io>`_: ``python_spitemalice_`` and the rule set's
name with ``_`` for ``-`` (``python_spitemalice_blackwood_frey``).  Anything OpenSpiel can
run on a sequential game of imperfect information runs on it: ``pyspiel.random_sim_test``,
its information-set Monte Carlo tree search bot, bots and evaluations.  Every move is made by
the engine (:func:`spitemalice.legal_moves`, :func:`spitemalice.apply_move`): the game holds
no rules of its own.

::

    import pyspiel
    import spitemalice.openspiel

    game = pyspiel.load_game("python_spitemalice_blackwood_frey",
                             {"players": 3, "house_rules": "mandatory-aces+pair-discards",
                              "settings": "payoff_size:13"})
    game = spitemalice.openspiel.load_game("blackwood-frey", players=3,
                                           house_rules=["mandatory-aces"], payoff_size=13)

* **Parameters**: ``players`` (0: the rule set's own count), ``house_rules`` (names joined
  by ``+``), ``settings`` (rule-set parameters as ``key:value``, joined by ``+``),
  ``catalogue`` (the action space: ``card``, the default, or ``slot``).  OpenSpiel
  writes a game's parameters as ``name(key=value,key=value)``, so neither ``=`` nor ``,``
  may stand inside a value.
* **Chance**: the game starts with :data:`SEED_STEPS` chance nodes, each drawing one byte
  (256 equally likely outcomes); the bytes make the deal's 128-bit seed and the engine deals
  :func:`spitemalice.deal` with it.  A seed that small spaces could not hide: no seat can
  find its deal by trying seeds against what it sees.
* **Actions** are those of the environments' catalogue by card
  (:class:`~spitemalice.env.card_actions.CardCatalogue`, ``num_distinct_actions`` its size),
  or with ``catalogue=slot`` by hand slot (:class:`~spitemalice.env.actions.ActionCatalogue`).
  Cards are the default because OpenSpiel's algorithms key what they learn on (information
  state, action) and take each legal action for a distinct move: by card, one move is one
  action in every hand (by hand slot, equal cards in two slots give one move two actions,
  and a move's number shifts with the cards below it in the hand).
* **Information** is the seat's alone.  The information-state string is every move made so
  far, in the move notation (every move shows its card to the table, so the list is public),
  then the seat's view (:func:`spitemalice.formats.layout.describe_view`); never an action
  number, whose hand slot would tell where a card lay in another seat's hand.  The
  observation string is the view alone, the observation tensor the environment's encoding of
  it (:mod:`spitemalice.env.observation`), as float32.  ``resample_from_infostate`` deals the
  cards the seat cannot see at random (:func:`spitemalice.bots.sampling.determinize`), keeping
  the moves, so the sampled state has the same information state for that seat.
* **Returns** are 0 until the game ends, then win/loss (:mod:`spitemalice.env.rewards`): +1
  for the winning team, -1 for the others, 0 for all when nobody won.  The game is zero-sum
  when two teams of equal size play (two seats alone, or two partnerships), general-sum
  otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from spitemalice.bots.sampling import determinize
from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.views import view_of
from spitemalice.env.arguments import catalogue_of
from spitemalice.env.observation import ObservationLayout
from spitemalice.env.rewards import final_rewards
from spitemalice.env.spaces import make_catalogue
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.formats.layout import describe_view
from spitemalice.guards import check_int, check_list
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load, turn_based_rulesets

SEED_STEPS = 16
"""Chance nodes before the deal, one byte of the deal's seed each."""
DISCARD_DEPTH = 8
"""Discard-pile cards per pile in the observation tensor."""
PREFIX = "python_spitemalice_"
_DEFAULTS: dict[str, Any] = {"players": 0, "house_rules": "", "settings": "",
                             "catalogue": "card"}


def game_name(ruleset: str) -> str:
    """The OpenSpiel short name of the rule set ``ruleset``."""
    return PREFIX + ruleset.replace("-", "_")


def rules_of(ruleset: str, params: dict[str, Any]) -> RuleBook:
    """The rule book a game's parameters (module docstring) describe.

    Raises:
        RulesetError: an unknown house rule or parameter, or a value out of range (``players``
            not a whole number from 0 to 8 among them).
        SpiteMaliceError: a setting not written as ``key:value``.
    """
    players = check_int(params["players"], "players (0: the rule set's own)", 0, 8,
                        error=RulesetError)
    given: dict[str, Any] = {}
    for setting in filter(None, (part.strip() for part in str(params["settings"]).split("+"))):
        key, sep, value = setting.partition(":")
        if not sep or not key.strip():
            raise SpiteMaliceError(f"write each setting as key:value, joined by +, not "
                                   f"{setting!r}")
        given[key.strip()] = value.strip()
    if players:
        given["players"] = players
    house_rules = [name.strip() for name in str(params["house_rules"]).split("+")
                   if name.strip()]
    return load(ruleset, house_rules, given)


class Config:
    """What a game's states share: the rule book, the action catalogue and the observation
    layout of one configuration.

    Raises:
        RulesetError, SpiteMaliceError: as :func:`rules_of`; SpiteMaliceError also for a
            ``catalogue`` that is neither ``card`` nor ``slot``.
    """

    def __init__(self, ruleset: str, params: dict[str, Any]) -> None:
        self.ruleset = ruleset
        params = {**_DEFAULTS, **params}
        self.rules = rules_of(ruleset, params)
        self.catalogue = c = make_catalogue(self.rules, catalogue_of(params["catalogue"]))
        self.layout = ObservationLayout(c.hand, c.payoff, c.discard, c.builds,
                                        self.rules.players, DISCARD_DEPTH)
        teams = self.rules.teams.teams
        self.zero_sum = len(teams) == 2 and len(teams[0]) == len(teams[1])

        self._last: tuple[GameState | None, list[int], Sequence[Move]] = (None, [], ())

    def __deepcopy__(self, memo: dict[int, Any]) -> Config:
        return self  # shared by every state of a game

    def legal(self, state: GameState) -> tuple[list[int], Sequence[Move]]:
        """The legal actions of ``state`` and the engine's moves they stand for, kept for the
        last state asked about (OpenSpiel asks for the actions, then applies one)."""
        last = self._last
        if last[0] is not state:
            last = (state, *self.catalogue.action_list(state, legal_moves(self.rules, state)))
            self._last = last
        return last[1], last[2]

    def move(self, state: GameState, action: int) -> Move:
        """The move ``action`` stands for: the engine's own legal-move object when it is
        legal (so applying it is quick), else the catalogue's decoding, which the engine
        refuses with its reason.

        Raises:
            SpiteMaliceError, IllegalMove: as :meth:`ActionCatalogue.move`.
        """
        actions, moves = self.legal(state)
        try:
            return moves[actions.index(action)]
        except ValueError:
            return self.catalogue.move(state, action)


class Progress:
    """Where a game stands: the seed bytes drawn, the engine's state once dealt, and the moves
    made as a chain ``(earlier, "seat:move")`` (``None`` before the first).  OpenSpiel clones a
    Python state by deep-copying its attributes; every part is a frozen value, so a copy
    shares them (a deep copy would copy every card of the state, which the engine keeps as
    one object per card)."""

    __slots__ = ("game_state", "moves", "seed_bytes")

    def __init__(self, seed_bytes: tuple[int, ...] = (), game_state: GameState | None = None,
                 moves: Any = None) -> None:
        self.seed_bytes, self.game_state, self.moves = seed_bytes, game_state, moves

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        return Progress(self.seed_bytes, self.game_state, self.moves)

    def move_texts(self) -> list[str]:
        """The moves made, first to last."""
        texts, link = [], self.moves
        while link is not None:
            link, text = link
            texts.append(text)
        return texts[::-1]


_CONFIGS: dict[tuple[str, tuple[tuple[str, Any], ...]], Config] = {}


def config_of(game: Any) -> Config:
    """The :class:`Config` of an OpenSpiel game object of ours, made once per parameters.
    (OpenSpiel may rebuild a game object from its name and parameters, so nothing is kept
    on the object itself.)"""
    ruleset = GAMES[game.get_type().short_name]
    params = {**_DEFAULTS, **game.get_parameters()}
    key = (ruleset, tuple(sorted(params.items())))
    found = _CONFIGS.get(key)
    if found is None:
        found = _CONFIGS[key] = Config(ruleset, params)
    return found


class SpiteMaliceGame(pyspiel.Game):
    """One configuration as an OpenSpiel game (see the module docstring); each rule set
    registers a subclass that names it in ``RULESET``."""

    RULESET = "blackwood-frey"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        ruleset = self.RULESET
        params = {**_DEFAULTS, **(params or {})}
        config = Config(ruleset, params)
        limit = config.rules.ruleset.turn_limit
        info = pyspiel.GameInfo(
            num_distinct_actions=config.catalogue.size, max_chance_outcomes=256,
            num_players=config.rules.players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if config.zero_sum else None,
            # the engine ends a game after turn_limit turns and a turn after turn_limit moves
            max_game_length=limit * limit)
        super().__init__(_game_type(ruleset, config.zero_sum), info, params)

    def new_initial_state(self) -> SpiteMaliceState:
        """The first chance node, before the deal."""
        return SpiteMaliceState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """An observer: the perfect-recall information state or the seat's view.

        Raises:
            ValueError: observation parameters, or an observation type other than one
                seat's own (a public-only or all-seats observation).
        """
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and \
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only observations of one seat's own view are supported")
        return Observer(config_of(self), recall)


class SpiteMaliceState(pyspiel.State):
    """A game in progress (:class:`Progress`): the seed bytes drawn so far, then the engine's
    state and the moves made, in the move notation."""

    def __init__(self, game: SpiteMaliceGame, config: Config | None = None) -> None:
        super().__init__(game)
        self._config = config or config_of(game)
        self._at = Progress()

    @property
    def rules(self) -> RuleBook:
        """The configuration's rule book."""
        return self._config.rules

    @property
    def game_state(self) -> GameState | None:
        """The engine's state, ``None`` before the deal."""
        return self._at.game_state

    @property
    def moves(self) -> list[str]:
        """The moves made so far as ``"seat:move"``, first to last."""
        return self._at.move_texts()

    def current_player(self) -> int:
        state = self._at.game_state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.seat

    def is_terminal(self) -> bool:
        state = self._at.game_state
        return state is not None and state.outcome is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _BYTES

    def _legal_actions(self, player: int) -> list[int]:
        state = self._live()
        if state.outcome is not None or player != state.seat:
            return []
        return sorted(self._config.legal(state)[0])

    def _apply_action(self, action: int) -> None:
        at = self._at
        if at.game_state is None:
            drawn = (*at.seed_bytes, check_int(action, "a seed byte (chance action)", 0, 255))
            dealt = deal(self.rules, int.from_bytes(bytes(drawn))) \
                if len(drawn) == SEED_STEPS else None
            self._at = Progress(drawn, dealt)
            return
        state = at.game_state
        move = self._config.move(state, int(action))
        self._at = Progress(at.seed_bytes, apply_move(self.rules, state, move),
                            (at.moves, f"{state.seat}:{move}"))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self._config.catalogue.describe(int(action))

    def returns(self) -> list[float]:
        state = self._at.game_state
        if state is None or state.outcome is None:
            return [0.0] * self.rules.players
        return list(final_rewards(self.rules, state.outcome, "win-loss"))

    def resample_from_infostate(self, player: int, sampler: Any) -> SpiteMaliceState:
        """A state ``player`` cannot tell from this one: the same moves and view, the cards
        it cannot see dealt at random (seeded by ``sampler``, OpenSpiel's probability
        sampler), and a fresh seed for later shuffles.

        Raises:
            SpiteMaliceError: the state is a chance node (before the deal).
        """
        state = self._live()
        rng = random.Random(int(sampler() * 2**53))
        world = determinize(self.rules, view_of(state, player), rng)
        sampled = SpiteMaliceState(self.get_game(), self._config)
        sampled._at = Progress(self._at.seed_bytes, world, self._at.moves)
        return sampled

    def __str__(self) -> str:
        state = self._at.game_state
        if state is None:
            return f"dealing: {len(self._at.seed_bytes)} of {SEED_STEPS} seed bytes drawn"
        return "\n".join([*self.moves, repr(state)])

    def _live(self) -> GameState:
        state = self._at.game_state
        if state is None:
            raise SpiteMaliceError("the deal has not been made: this is a chance node")
        return state


class Observer:
    """OpenSpiel's observer protocol: ``tensor`` (float32, the environment's encoding of the
    seat's view; all 0 before the deal), ``dict`` (``{"observation": tensor}``),
    :meth:`set_from` and :meth:`string_from`."""

    def __init__(self, config: Config, perfect_recall: bool) -> None:
        self.layout = config.layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(config.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpiteMaliceState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        if state.game_state is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.layout.encode_state(state.game_state, player)

    def string_from(self, state: SpiteMaliceState, player: int) -> str:
        """``player``'s view of ``state`` as text; with perfect recall, the moves made so
        far first (module docstring)."""
        if state.game_state is None:
            return f"seat {player}, before the deal"
        view = describe_view(view_of(state.game_state, player))
        return "\n".join([*state.moves, view]) if self.perfect_recall else view


_BYTES = [(byte, 1 / 256) for byte in range(256)]


def _game_type(ruleset: str, zero_sum: bool) -> Any:
    book = load(ruleset)  # the rule set's own seat range, whatever the parameters
    return pyspiel.GameType(
        short_name=game_name(ruleset),
        long_name=f"spitemalice {ruleset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=book.ruleset.max_players,
        min_num_players=book.ruleset.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS))


def register_rulesets() -> dict[str, str]:
    """Register a game for every installed turn-based rule set not registered yet (not Spit,
    whose seats move at once); return ``{short name: rule-set name}`` of every rule set's
    game."""
    names = {}
    known = set(pyspiel.registered_names())
    for name in turn_based_rulesets():  # OpenSpiel's sequential games take turns
        short = game_name(name)
        names[short] = name
        if short not in known:  # zero-sum with the rule set's own seats (two, alone)
            seats = load(name).players
            # a class, as OpenSpiel's own Python games register (a function held by the
            # registry is freed without the interpreter lock at exit, and aborts it)
            game_class = type(f"SpiteMaliceGame_{short}", (SpiteMaliceGame,),
                              {"RULESET": name, "__module__": __name__})
            pyspiel.register_game(_game_type(name, seats == 2), game_class)
    return names


def load_game(ruleset: str, players: int = 0, house_rules: Sequence[str] = (),
              catalogue: str = "card", **settings: Any) -> Any:
    """``pyspiel.load_game`` of the rule set's game with these parameters (keywords are
    rule-set settings: ``payoff_size=13``; ``catalogue`` is the action space, ``"card"`` or
    ``"slot"``).

    Raises:
        pyspiel.SpielError: no game is registered under that rule set's name.
        RulesetError: the configuration cannot be loaded, or ``players`` is not 0 to 8.
        SpiteMaliceError: ``catalogue`` is neither ``"card"`` nor ``"slot"``.
    """
    check_int(players, "players (0: the rule set's own)", 0, 8, error=RulesetError)
    check_list(house_rules, "load_game", "house_rules, a list of names,",
               '["mandatory-aces"]')
    return pyspiel.load_game(game_name(ruleset), {"catalogue": catalogue_of(catalogue),
        "players": players, "house_rules": "+".join(house_rules),
        "settings": "+".join(f"{key}:{value}" for key, value in settings.items())})


GAMES = register_rulesets()
"""``{OpenSpiel short name: rule-set name}``, registered on import."""

__all__ = [
    "DISCARD_DEPTH", "GAMES", "PREFIX", "SEED_STEPS", "Config", "Observer", "Progress",
    "SpiteMaliceGame", "SpiteMaliceState", "config_of", "game_name", "load_game",
    "register_rulesets", "rules_of",
]
