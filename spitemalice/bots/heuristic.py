"""The ``heuristic`` bot: the strategy serious players describe, one rule at a time.

It decides from its seat's view only (:func:`spitemalice.engine.views.view_of`) and the legal moves.
Each rule below names its source: the rules dossier (``/work/shared/rules-dossier.md``, row
ids such as W7) or the advice strategy pages and experienced players give (called "strategy
lore" here: the goal of the game is to empty the pay-off pile, so everything else serves it).
In order of priority:

1. **Pay-off first** (the win condition, W10; strategy lore): play a pay-off card whenever one
   is playable.
2. **Run to the pay-off card** (strategy lore): if hand cards and discard-pile cards (a
   discard pile gives up its cards top first, W7) can raise a build pile to just below a
   pay-off top this turn, make the first play of that run, naturals before wild cards, hand
   cards before discard-pile cards (rule 5's reason).  The run is looked for rank by rank,
   each rank's card taken at once (not a search), so it can miss a run that needs a
   discard-pile card played to uncover the next rank's, or pay for it with a wild card.
3. **Do not hand the next seat its pay-off card** (strategy lore, "spite"): never leave a
   build pile one below the next seat's pay-off top, counting the cards it shows on its
   discard-pile tops that could close the gap (count the cards an opponent needs).  Only the
   next seat: it moves before anyone else can change the build piles, while a later seat
   finds them changed.  Guarding every opponent (:data:`GUARD_ALL`) leaves a seat at three
   or more seats few safe plays: measured, that version loses to this one at four seats
   (docs/performance.md, "The heuristic bot's rules, measured").
4. **Cover a pile the next seat could use** (strategy lore): if a build pile already sits
   where the next seat can reach its pay-off card, cover it with a natural card when that is
   safe.
5. **Keep building with naturals** (strategy lore, measured): hand cards first, then
   discard-pile tops, the lowest rank first.  An emptied hand draws five fresh cards (W6), so
   playing out of the hand sees more of the pack.  Building from the discard piles first
   (they uncover cards below, :data:`HAND_FIRST` off) loses to this order on duplicate deals
   of every built-in rule set, each interval above 50% but starturn's, whose bots finish
   few games (docs/performance.md).  Never a wild card outside a pay-off run (**hold wild
   cards for the pay-off card**).
6. **Discard in descending runs and do not bury useful cards** (W7: "players often build them
   by equal rank or descending rank"): put a card on a pile topped one rank higher or of the
   same rank, else on an empty pile, never on a card that is about to become playable; keep
   wild cards and cards that are about to be playable in hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import zip_longest

from spitemalice.bots.inference import pile_tops
from spitemalice.cards import Card
from spitemalice.engine.configuration import check_configuration
from spitemalice.engine.views import SeatView, ViewPlayer, require_view, view_of
from spitemalice.guards import check_moves, check_seed
from spitemalice.model import GameState, require_state
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone
from spitemalice.rules.book import RuleBook, check_book

HAND_FIRST = True
"""Rules 2 and 5 take natural hand cards before discard-pile tops (``False``: the former
order, discard-pile tops first, kept so that ``bench/heuristic_rules.py`` can measure it)."""

GUARD_ALL = False
"""Rule 3 guards every opponent's pay-off card (``True``: the former rule, kept so that
``bench/heuristic_rules.py`` can measure it) instead of the next opponent's only."""


class HeuristicPlayer(ViewPlayer):
    """A :class:`~spitemalice.engine.views.ViewPlayer` following the rules of this module in
    order.

    Deterministic given the view and the legal moves; the seed only breaks exact ties.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(check_seed(seed))

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        """The move the heuristics pick for the seat on turn of ``state``, from its view
        alone: :func:`decide` on ``view_of(state, state.seat)``, the arguments checked once
        here.

        Raises:
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
                ``state`` not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
            PositionError: ``state`` is a state of another configuration (another seat
                count, pile counts, a card the deck does not hold), named
                (:func:`~spitemalice.engine.configuration.check_configuration`).
        """
        check_book(rules, "HeuristicPlayer.choose")
        if type(state) is not GameState:
            require_state(state, "HeuristicPlayer.choose",
                          "choose from a view with choose_from_view(rules, view, moves)")
        check_configuration(rules, state, "HeuristicPlayer.choose")
        return decide(rules, view_of(state, state.seat), moves)

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The move the heuristics pick for ``view`` among ``moves``: :func:`decide`'s.

        Raises:
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
                ``view`` not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
                say: the message names what takes one).
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
        """
        check_book(rules, "HeuristicPlayer.choose_from_view")
        require_view(view, "HeuristicPlayer.choose_from_view",
                     "choose from a whole state with ViewPlayer.choose(rules, state, moves)")
        return decide(rules, view, moves)


def decide(rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
    """The heuristic move for ``view`` among ``moves`` (the legal moves of the seat on turn).

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook` (told once
            reading it fails: a pay-off play, chosen first, does not read it).
    """
    if not isinstance(view, SeatView):  # the rule book first: (view, rules) is told as swapped
        check_book(rules, "decide")
        require_view(view, "decide", "a bot chooses from a whole state with "
                     "ViewPlayer.choose(rules, state, moves)")
    try:
        plays = [m for m in moves if isinstance(m, Play)]
        for move in plays:  # rule 1
            if move.zone is Zone.PAYOFF:
                return move
        danger = _danger(rules, view)
        chosen = (_run_to_payoff(rules, view, plays)  # rule 2
                  or _cover(rules, view, plays, danger)  # rule 4
                  or _build(rules, view, plays, danger))  # rules 3 and 5
        if chosen is not None:
            return chosen
        discards = [m for m in moves if isinstance(m, Discard)]
        if discards:  # rule 6
            return max(discards, key=lambda m: (_discard_score(rules, view, m), str(m)))
        check_moves(moves)
        return moves[0]
    except (AttributeError, TypeError):  # a wrong rule book, checked only once it failed
        check_book(rules, "decide")
        raise


def rank_moves(rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> list[Move]:
    """``moves`` best first as the heuristics see them: the move :func:`decide` picks, then
    the other plays and the discards in turn (each in the heuristics' order), passes last.
    The ``mcts`` bot searches the first few.

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    if not isinstance(view, SeatView):  # the rule book first: (view, rules) is told as swapped
        check_book(rules, "rank_moves")
        require_view(view, "rank_moves")
    try:
        first = decide(rules, view, moves)
        danger = _danger(rules, view)
        plays = sorted((m for m in moves if isinstance(m, Play) and m != first),
                       key=lambda m: (rules.wild.is_wild(m.card), not _safe(rules, m, view, danger),
                                      _later_source(m), m.card.rank, m.pile))
        discards = sorted((m for m in moves if isinstance(m, Discard) and m != first),
                          key=lambda m: (-_discard_score(rules, view, m), str(m)))
        ranked: list[Move] = [first]
        for pair in zip_longest(plays, discards):
            ranked.extend(m for m in pair if m is not None)
        ranked.extend(m for m in moves if not isinstance(m, Play | Discard) and m != first)
        return ranked
    except (AttributeError, TypeError):  # a wrong rule book, checked only once it failed
        check_book(rules, "rank_moves")
        raise


def _stands_for(rules: RuleBook, card: Card, rank: int) -> bool:
    accepts = rules.accepts
    return card.rank < len(accepts) and rank in accepts[card.rank]


def _payoff_goals(rules: RuleBook, view: SeatView, seat: int) -> list[int]:
    """The natural pay-off top ranks of ``seat`` (a wild pay-off top fits almost anywhere)."""
    return [p.top.rank for p in view.seats[seat].payoff
            if p.top is not None and not rules.wild.is_wild(p.top)]


def _run(rules: RuleBook, hand: Sequence[Card], discards: Sequence[Sequence[Card]],
         ranks: range, wilds_ok: bool) -> list[tuple[Zone, int, Card]] | None:
    """Cards that cover ``ranks`` in order, as (zone, pile, card); naturals before wild cards
    (in rule 5's order of sources).  A discard pile yields its cards top first.  ``None`` if
    the run cannot be made."""
    hand = list(hand)
    piles = [list(pile) for pile in discards]
    path: list[tuple[Zone, int, Card]] = []
    for rank in ranks:
        step = _natural_from(rules, piles, hand, rank)
        if step is None and wilds_ok:
            step = _wild_from(rules, piles, hand, rank)
        if step is None:
            return None
        path.append(step)
    return path


def _natural_from(rules: RuleBook, piles: list[list[Card]], hand: list[Card],
                  rank: int) -> tuple[Zone, int, Card] | None:
    if HAND_FIRST:  # an emptied hand draws fresh cards (rule 5)
        return _natural_in_hand(rules, hand, rank) or _natural_on_pile(rules, piles, rank)
    return _natural_on_pile(rules, piles, rank) or _natural_in_hand(rules, hand, rank)


def _natural_in_hand(rules: RuleBook, hand: list[Card],
                     rank: int) -> tuple[Zone, int, Card] | None:
    for card in hand:
        if card.rank == rank and not rules.wild.is_wild(card):
            hand.remove(card)
            return Zone.HAND, 0, card
    return None


def _natural_on_pile(rules: RuleBook, piles: list[list[Card]],
                     rank: int) -> tuple[Zone, int, Card] | None:
    for index, pile in enumerate(piles):
        if pile and pile[-1].rank == rank and not rules.wild.is_wild(pile[-1]):
            return Zone.DISCARD, index, pile.pop()
    return None


def _wild_from(rules: RuleBook, piles: list[list[Card]], hand: list[Card],
               rank: int) -> tuple[Zone, int, Card] | None:
    for card in hand:
        if rules.wild.is_wild(card) and _stands_for(rules, card, rank):
            hand.remove(card)
            return Zone.HAND, 0, card
    for index, pile in enumerate(piles):
        if pile and rules.wild.is_wild(pile[-1]) and _stands_for(rules, pile[-1], rank):
            return Zone.DISCARD, index, pile.pop()
    return None


def _run_to_payoff(rules: RuleBook, view: SeatView, plays: list[Play]) -> Play | None:
    """Rule 2: the first play of the shortest run (fewest wild cards) up to a pay-off top.
    Where the rules let the seat play from partners' piles (PT-2), their pay-off tops are
    goals too and their discard piles give up cards like its own."""
    partners = rules.teams.access.play_from[view.viewer]
    places: list[tuple[int | None, int]] = [(None, i) for i in range(len(view.own.discards))]
    piles = list(view.own.discards)
    for owner in partners:
        theirs = view.seats[owner].discards
        places += [(owner, index) for index in range(len(theirs))]
        piles += theirs
    goals = _payoff_goals(rules, view, view.viewer)
    for owner in partners:
        goals += _payoff_goals(rules, view, owner)
    best: tuple[int, int, Play] | None = None
    for goal in goals:
        for pile, top in pile_tops(rules, view.build_tops):
            if top >= goal:
                continue
            path = _run(rules, view.hand, piles, range(top + 1, goal), True)
            if path is None:
                continue
            if not path:  # the pay-off card itself is playable: rule 1 already took it
                continue
            zone, at, card = path[0]
            source, index = places[at] if zone is Zone.DISCARD else (None, 0)
            move = _find(plays, zone, source, index, card, pile)
            wilds = sum(rules.wild.is_wild(c) for _, _, c in path)
            if move is not None and (best is None or (wilds, len(path)) < best[:2]):
                best = (wilds, len(path), move)
    return best[2] if best else None


def _find(plays: list[Play], zone: Zone, owner: int | None, index: int, card: Card,
          pile: int) -> Play | None:
    for move in plays:
        if move.zone is zone and move.card == card and move.pile == pile and \
                (zone is Zone.HAND or (move.index == index and move.owner == owner)):
            return move
    return None


def _danger(rules: RuleBook, view: SeatView) -> set[int]:
    """Rule 3: build-pile top ranks from which the next opponent (the first seat after the
    viewer's that is not a partner's: a partner's pay-off card is the team's goal; every
    opponent with :data:`GUARD_ALL`) can reach a pay-off card with the cards it shows (its
    discard-pile tops); its pay-off rank minus one always."""
    danger: set[int] = set()
    seats = len(view.seats)
    team = rules.teams.teams[rules.teams.team_of(view.viewer)]
    rivals = [seat for step in range(1, seats)
              if (seat := (view.viewer + step) % seats) not in team]
    for seat in rivals if GUARD_ALL else rivals[:1]:
        public = view.seats[seat]
        for goal in _payoff_goals(rules, view, seat):
            for top in range(goal):
                if _run(rules, (), public.discards, range(top + 1, goal), True) is not None:
                    danger.add(top)
    return danger


def _later_source(move: Play) -> bool:
    """Rule 5's order of sources: ``False`` (first) for a hand card, with :data:`HAND_FIRST`,
    else for a discard-pile top."""
    return move.zone is not (Zone.HAND if HAND_FIRST else Zone.DISCARD)


def _rank_after(view: SeatView, move: Play) -> int:
    return 1 if move.pile == NEW_PILE else view.build_tops[move.pile] + 1


def _safe(rules: RuleBook, move: Play, view: SeatView, danger: set[int]) -> bool:
    after = _rank_after(view, move)
    return after >= rules.ceiling.ceiling or after not in danger  # a completed pile leaves


def _cover(rules: RuleBook, view: SeatView, plays: list[Play], danger: set[int]) -> Play | None:
    """Rule 4: a natural card that moves a dangerous build pile to a safe rank."""
    exposed = {i for i, top in enumerate(view.build_tops) if top in danger}
    options = [m for m in plays if m.pile in exposed and not rules.wild.is_wild(m.card)
               and _safe(rules, m, view, danger)]
    options.sort(key=lambda m: (m.zone is not Zone.DISCARD, m.card.rank))
    return options[0] if options else None


def _build(rules: RuleBook, view: SeatView, plays: list[Play], danger: set[int]) -> Play | None:
    """Rules 3 and 5: a safe natural play, hand cards first, the lowest rank first."""
    options = [m for m in plays if not rules.wild.is_wild(m.card)
               and _safe(rules, m, view, danger)]
    options.sort(key=lambda m: (_later_source(m), m.card.rank, m.pile))
    return options[0] if options else None


def _discard_score(rules: RuleBook, view: SeatView, move: Discard) -> int:
    """Rule 6: higher is better.  Each card of the discard counts (a pair discard, PD-1, lets
    two cards go and two fresh ones be drawn), the pile once: the seat's own, or a partner's
    where partners share discard piles (PT-3)."""
    card = move.cards[0]
    owner = view.own if move.owner is None else view.seats[move.owner]
    pile = owner.discards[move.pile]
    needed = {top + 1 for top in view.build_tops} | {1}
    score = sum(_leaving(rules, other, needed) for other in move.cards)
    if not pile:
        empties = sum(1 for p in owner.discards if not p)
        score += 15 if empties > 1 else 5  # keep one empty pile in reserve
    else:
        top = pile[-1]
        if top.rank == card.rank + 1:
            score += 40  # a descending run (W7)
        elif top.rank == card.rank:
            score += 30  # equal ranks (W7)
        elif top.rank < card.rank:
            score -= 20  # buries a lower card that would be played sooner
        if top.rank in needed or rules.wild.is_wild(top):
            score -= 50  # never bury a card about to be playable, or a wild
    return score


def _leaving(rules: RuleBook, card: Card, needed: set[int]) -> int:
    """Rule 6 for one card leaving the hand: higher is better."""
    score = card.rank  # high cards are far from play: let them go first
    if rules.wild.is_wild(card):
        score -= 200  # hold wild cards for the pay-off card
    if card.rank in needed:
        score -= 40  # about to be playable: keep it in hand
    return score
