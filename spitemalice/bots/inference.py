"""What the seat that just moved revealed about its hand, for sampling determinizations.

A seat ends its turn with a discard.  Every bot here but ``random`` first plays a run up to
its pay-off card whenever its hand and discard-pile tops make one (the ``greedy`` bot's
:func:`reach`, the ``heuristic`` bot's rule 2, the searches' route), and serious players do
the same: the pay-off card is the win condition (W10).  So when the next seat's turn starts,
the seat that just moved holds no hand with which the build piles, as they stand then, could
be run up to its pay-off top.  Its hand does not change until its own next turn, so what is
ruled out stays ruled out for the whole turn of the seat that infers.

A uniform determinization (:class:`spitemalice.bots.sampling.Sampler` without a constraint)
ignores this and often deals that seat exactly the wild card or the missing rank it would
have used.  :class:`LastMoverHands` states the constraint; the sampler deals that seat's hand
by rejection under it, which is sampling the information set conditioned on the observed
moves: a belief update by rejection, as in Silver and Veness, "Monte-Carlo Planning in Large
POMDPs", NIPS 2010.  It reads only the view.
"""

from __future__ import annotations

from collections.abc import Sequence

from spitemalice.cards import Card
from spitemalice.engine.views import SeatView, require_view
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int
from spitemalice.moves import NEW_PILE
from spitemalice.rules.book import RuleBook, check_book


def pile_tops(rules: RuleBook, ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """(build pile, rank on top) for each open pile (``ranks``: the build tops), plus
    (NEW_PILE, 0) if one may open.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    try:
        limit = rules.build_limit
    except AttributeError:  # a wrong rule book, checked only once it failed
        check_book(rules, "pile_tops")
        raise
    tops = list(enumerate(ranks))
    if not limit or len(ranks) < limit:
        tops.append((NEW_PILE, 0))
    return tops


def reach(rules: RuleBook, goals: Sequence[int], tops: Sequence[tuple[int, int]],
          reachable: Sequence[int]) -> tuple[int, int] | None:
    """The first (build pile, top rank) from which the cards of ranks ``reachable`` (a hand
    and discard-pile tops) run up to a pay-off top of ``goals`` (natural ranks), trying
    each goal in turn, or ``None``.

    A run needs every rank between the pile's top and the goal; each missing natural rank
    takes one wild card where the rules let a wild card stand for it.  A goal one above a
    top needs no card at all.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    try:
        wild = rules.wild.wild_ranks
    except AttributeError:  # a wrong rule book, checked only once it failed
        check_book(rules, "reach")
        raise
    wilds = sum(map(wild.__contains__, reachable))  # wild cards at hand
    present = set(reachable)
    present -= wild  # the natural ranks at hand
    excluded = rules.wild.excluded
    for goal in goals:
        for pile, top in tops:
            if top < goal:
                # Covered when every missing rank may take a wild card and there are enough:
                # what a rank-by-rank walk spending one wild card per gap decides.
                if wilds:
                    missing = set(range(top + 1, goal)) - present
                    if len(missing) > wilds or not missing.isdisjoint(excluded):
                        continue
                elif not present.issuperset(range(top + 1, goal)):
                    continue
                return pile, top
    return None


class LastMoverHands:
    """The hands the seat that moved just before the viewer can hold (module docstring).

    Args:
        rules: the rule book (wild cards, build limit).
        view: the viewer's view at the start of its turn, before its first move.
        seat: the seat that moved last, 0 to the last seat, not the viewer (usually made by
            :meth:`at_turn_start`).

    :meth:`allows` says whether a hand for :attr:`seat` agrees with its having ended its turn
    without a run to its pay-off card.

    Raises:
        SpiteMaliceError: (a ``ValueError``) ``seat`` not another seat of ``view``.
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """

    def __init__(self, rules: RuleBook, view: SeatView, seat: int) -> None:
        check_book(rules, "LastMoverHands")
        require_view(view, "LastMoverHands")
        self._take_in(rules, view, check_other_seat(view, seat))

    def _take_in(self, rules: RuleBook, view: SeatView, seat: int) -> None:
        """Read the constraint off ``view`` (the arguments are checked)."""
        self.rules = rules
        self.seat = seat
        wild = rules.wild.wild_ranks
        public = view.seats[seat]
        self.goals = [p.top.rank for p in public.payoff
                      if p.top is not None and p.top.rank not in wild]
        self.tops = pile_tops(rules, view.build_tops)
        self.shown = [pile[-1].rank for pile in public.discards if pile]

    @classmethod
    def at_turn_start(cls, rules: RuleBook, view: SeatView) -> LastMoverHands | None:
        """The constraint on the previous seat's hand, or ``None`` when there is nothing to
        infer: the first turn, a view after the viewer's first move, or a previous seat that
        had a run from the cards it shows alone (it did not end
        its turn as the module assumes: a ``random`` bot, a rule that cut its turn short).
        Nor under a rule that filters moves (``spitemalice_filter_moves``: no wild card on a
        wild card, a wild card covered at once, forced aces): :func:`reach` counts cards, not
        what such a rule forbids, so it would rule out hands the seat may well hold.

        Raises:
            TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
                say: the message names what takes one).
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        """
        check_book(rules, "LastMoverHands.at_turn_start")
        require_view(view, "LastMoverHands.at_turn_start")
        return cls._at_turn_start(rules, view)

    @classmethod
    def _at_turn_start(cls, rules: RuleBook, view: SeatView) -> LastMoverHands | None:
        """:meth:`at_turn_start`, its arguments checked already (the ``ismcts`` bot's
        search)."""
        if view.turn == 0 or view.turn_moves or not view.on_turn or rules.filter_moves_hooks:
            return None
        inference = cls.__new__(cls)
        # The seat before the viewer's: another seat (a game has two seats at least).
        inference._take_in(rules, view, last_mover(view))
        if not inference.goals or not inference.allows(()):
            return None
        return inference

    def allows(self, hand: Sequence[Card]) -> bool:
        """``True`` when with ``hand`` the seat had no run to a pay-off top."""
        reachable = [*self.shown, *(card.rank for card in hand)]
        return reach(self.rules, self.goals, self.tops, reachable) is None


def last_mover(view: SeatView) -> int:
    """The seat whose turn came just before the viewer's: turns pass to the next seat up
    (:func:`spitemalice.engine.flow.turn_over`).

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
    """
    require_view(view, "last_mover")
    return (view.viewer - 1) % len(view.seats)


def check_other_seat(view: SeatView, seat: object) -> int:
    """``seat`` when it is a seat of ``view`` other than the viewer's, else raise.

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
        SpiteMaliceError: (a ``ValueError``) naming the seats allowed and what was given.
    """
    require_view(view, "check_other_seat")
    number = check_int(seat, "seat (a seat whose hand is constrained)", 0,
                       len(view.seats) - 1)
    if number == view.viewer:
        raise SpiteMaliceError(f"seat {number} is the viewer's own: its hand is known, so no "
                               "constraint applies to it; give another seat")
    return number
