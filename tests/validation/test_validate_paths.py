"""Validate exercises every path a move takes (issue 19 §5): candidate moves from and onto
every other seat's piles, and every listed move through its text, a record's JSON and the
action catalogue and back.  Each test injects one fault of the class and sees it caught."""

from __future__ import annotations

import itertools

import pytest
from helpers.positions import position
from helpers.walks import Config, book, config_id, configs, picks, seeds, states_of
from hypothesis import given

import spitemalice as sm
from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.moves import Play, Zone
from spitemalice.validation import audit, roundtrip
from spitemalice.validation.roundtrip import RoundTrip

TEAMS = sm.load("skip-bo", ["partnerships"])
SHARE = sm.load("skip-bo", ["partnerships"], partner_piles="share")
PAIRS = sm.load("blackwood-frey", ["pair-discards"])


def _team_position(rules: sm.RuleBook) -> sm.GameState:
    # Seat 0's partner is seat 2, whose pay-off top (1) and discard-pile top (2) fit.
    return position(rules, hands=["5 6 7"], payoffs=["9", "9", "1", "9"],
                    discards=[[], [], ["2"], []], builds=["1"])


def test_unlisted_plays_from_a_partners_piles_are_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # PT-2: the partner's tops are legal; a listing that leaves them out is a fault.
    state = _team_position(TEAMS)
    listed = sm.legal_moves(TEAMS, state)
    assert any(isinstance(m, Play) and m.owner == 2 for m in listed)
    assert audit.audit_position(TEAMS, state) is None
    real = audit.legal_moves
    monkeypatch.setattr(audit, "legal_moves", lambda rules, state: tuple(
        m for m in real(rules, state) if not (isinstance(m, Play) and m.owner is not None)))
    problem = audit.audit_position(TEAMS, state)
    assert problem is not None and "S2." in problem and "not listed" in problem


def test_unlisted_discards_onto_a_partners_piles_are_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # PT-3 under partner_piles = share: discards onto the partner's piles are legal.
    state = _team_position(SHARE)
    real = audit.legal_moves
    monkeypatch.setattr(audit, "legal_moves", lambda rules, state: tuple(
        m for m in real(rules, state) if not (isinstance(m, sm.Discard) and m.owner)))
    problem = audit.audit_position(SHARE, state)
    assert problem is not None and ">S2.D" in problem


def test_candidates_name_every_other_seats_piles() -> None:
    state = _team_position(TEAMS)
    tried = list(audit.candidates(TEAMS, state))
    owners = {m.owner for m in tried if isinstance(m, Play | sm.Discard)}
    assert owners == {None, 0, 1, 2, 3}


def test_a_notation_that_misreads_a_pile_number_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # "D1:" read as the second discard pile: the move text no longer reads back as the move.
    state = position(PAIRS, hands=["5H 6H"], discards=[["2C", "", "3C"]], builds=["AS"])
    forms = RoundTrip(PAIRS)
    assert forms.problem(state, sm.legal_moves(PAIRS, state)) is None
    real = roundtrip.parse_move

    def misreads(text: str) -> sm.Move:
        move = real(text)
        if isinstance(move, Play) and move.zone is Zone.DISCARD:
            return Play(move.zone, move.card, move.pile, move.index + 1, move.owner)
        return move

    monkeypatch.setattr(roundtrip, "parse_move", misreads)
    problem = RoundTrip(PAIRS).problem(state, sm.legal_moves(PAIRS, state))
    assert problem is not None and "reads back as" in problem


@pytest.mark.parametrize("rules", [PAIRS, TEAMS], ids=["two seats", "four seats"])
def test_the_round_trip_audits_every_seats_action_mask(rules: sm.RuleBook,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """validate audits ``mask(state, seat)`` for every seat (issue 38, the suite's blind
    spots): a mask that lists the legal actions for a seat not on turn is a problem."""
    from spitemalice.env.spaces import Encoding

    state = (position(rules, hands=["5H 5S 9C"], builds=["AS"]) if rules is PAIRS
             else _team_position(rules))
    listed = sm.legal_moves(rules, state)
    assert RoundTrip(rules).problem(state, listed) is None
    real = Encoding._mask_bytes

    def for_every_seat(self: Encoding, state: sm.GameState, seat: int) -> bytearray:
        return real(self, state, state.seat)  # the seat on turn's actions, whoever asks

    monkeypatch.setattr(Encoding, "_mask_bytes", for_every_seat)
    problem = RoundTrip(rules).problem(state, listed)
    assert problem is not None and "not on turn" in problem and "marks" in problem
    other = next(seat for seat in range(len(state.seats)) if seat != state.seat)
    assert f"seat {other} " in problem


class OneOrder(ActionCatalogue):
    """A catalogue listing pair discards in one order only (slot i below slot j)."""

    def __init__(self, rules: sm.RuleBook) -> None:
        super().__init__(rules)
        self.pairs = tuple(itertools.combinations(range(self.hand), 2))
        self._pair_index = {pair: n for n, pair in enumerate(self.pairs)}
        self.pass_action = self.pair_base + len(self.pairs) * self.places
        self.size = self.pass_action + 1


class OwnPiles(ActionCatalogue):
    """A catalogue that maps an action on a partner's pile to the mover's own pile."""

    def _owner_seat(self, shared: tuple[tuple[int, ...], ...], seat: int, who: int,
                    action: int) -> int:
        return seat


@pytest.mark.parametrize(("rules", "faulty", "words"), [
    (PAIRS, OneOrder, "has no action number"),
    (TEAMS, OwnPiles, "decodes to"),
    (SHARE, OwnPiles, "decodes to"),
])
def test_an_action_catalogue_fault_is_caught(rules: sm.RuleBook, faulty: type, words: str) -> None:
    state = (position(rules, hands=["5H 5S 9C"], builds=["AS"]) if rules is PAIRS
             else _team_position(rules))
    listed = sm.legal_moves(rules, state)
    assert RoundTrip(rules).problem(state, listed) is None
    forms = RoundTrip(rules)
    forms._catalogue = faulty(rules)
    problem = forms.problem(state, listed)
    assert problem is not None and words in problem


class CardOwnPiles(CardCatalogue):
    """A card catalogue that maps an action on a partner's pile to the mover's own pile."""

    def _owner_seat(self, shared: tuple[tuple[int, ...], ...], seat: int, who: int,
                    action: int) -> int:
        return seat


class PairsAsSingles(CardCatalogue):
    """A card catalogue that numbers a pair discard as the discard of one card."""

    def _work_out(self, seat: int, move: sm.Move) -> int:
        if isinstance(move, sm.Discard) and len(move.cards) == 2:
            return super()._work_out(seat, sm.Discard(move.cards[:1], move.pile, move.owner))
        return super()._work_out(seat, move)


@pytest.mark.parametrize(("rules", "faulty", "words"), [
    (PAIRS, PairsAsSingles, "whose action is another"),
    (TEAMS, CardOwnPiles, "whose action is another"),
    (SHARE, CardOwnPiles, "whose action is another"),
])
def test_a_card_action_catalogue_fault_is_caught(rules: sm.RuleBook, faulty: type,
                                                 words: str) -> None:
    state = (position(rules, hands=["5H 5S 9C"], builds=["AS"]) if rules is PAIRS
             else _team_position(rules))
    listed = sm.legal_moves(rules, state)
    assert RoundTrip(rules).problem(state, listed) is None
    forms = RoundTrip(rules)
    forms._cards = faulty(rules)
    problem = forms.problem(state, listed)
    assert problem is not None and words in problem, problem


@given(config=configs, seed=seeds, choices=picks)
def test_every_listed_move_comes_back_from_each_form(config: Config, seed: int,
                                                     choices: list[int]) -> None:
    rules = book(config)
    forms = RoundTrip(rules)
    for state in states_of(rules, seed, choices)[::12]:
        if state.outcome is None:
            assert forms.problem(state, sm.legal_moves(rules, state)) is None, config_id(config)
