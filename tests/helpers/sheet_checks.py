"""Scenario checks that several rule sheets state, each under its own clause id.

Every rule sheet stands alone, so rules the rule sets share (who may move, passing, a blocked
game, the turn limit, a finished game, top-card-only discard piles ...) are clauses of each
sheet.  The test modules call these checks with their own clause id; each check asserts that
the rule holds *and* that an illegal move cites exactly that clause.
"""

from __future__ import annotations

import attrs
import pytest

import spitemalice as sm
from helpers.positions import position
from spitemalice.engine import PASS

NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def numbered(rules: sm.RuleBook) -> bool:
    """Whether the rule set plays with suitless numbered cards (its wild cards aside: Skip-Bo's
    SKIP-BO cards carry a mark of their own)."""
    return all(not card.suit for card in rules.deck.cards if not card.is_joker)


def card(rules: sm.RuleBook, rank: int, suit: str = "S") -> str:
    """The text of a natural card of ``rank`` in this rule set's deck."""
    if numbered(rules):
        return str(rank)
    return f"{NAMES.get(rank, rank)}{suit}"


def run(rules: sm.RuleBook, top: int, suit: str = "S") -> str:
    """A build pile of natural cards 1..``top`` as text."""
    return " ".join(card(rules, rank, suit) for rank in range(1, top + 1))


def refused(rules: sm.RuleBook, state: sm.GameState, move: str | sm.Move,
            seat: int | None = None) -> sm.IllegalMove:
    """The error ``move`` is refused with; fails the test if the move is accepted."""
    parsed = sm.parse_move(move) if isinstance(move, str) else move
    with pytest.raises(sm.IllegalMove) as error:
        sm.apply_move(rules, state, parsed, seat)
    if seat is None:
        assert not sm.is_legal(rules, state, parsed)
    return error.value


def play(rules: sm.RuleBook, state: sm.GameState, *moves: str) -> sm.GameState:
    """Apply ``moves`` in order, each of which must be in :func:`legal_moves`."""
    for text in moves:
        move = sm.parse_move(text)
        assert move in sm.legal_moves(rules, state), f"{text} is not among the legal moves"
        state = sm.apply_move(rules, state, move)
    return state


def seat_on_turn(rules: sm.RuleBook, clause: str) -> None:
    """Only the seat on turn moves, with cards it holds."""
    low, high = card(rules, 1), card(rules, 9)
    state = position(rules, hands=[low, high])
    error = refused(rules, state, f"{low}>B+", seat=1)
    assert (error.reason, error.clause) == ("not-on-turn", clause)
    error = refused(rules, state, f"{high}>D1")
    assert (error.reason, error.clause) == ("not-in-hand", clause)
    assert sm.is_legal(rules, state, sm.parse_move(f"{low}>B+"))


def pass_only_when_stuck(rules: sm.RuleBook, clause: str) -> None:
    """A seat with nothing to play or discard passes; one with a move may not."""
    stuck = position(rules, hands=["", card(rules, 9)], payoffs=[card(rules, 9)])
    assert sm.legal_moves(rules, stuck) == (PASS,)
    after = sm.apply_move(rules, stuck, PASS)
    assert after.seat == 1 and after.outcome is None
    busy = position(rules, hands=[card(rules, 9)], payoffs=[card(rules, 9)])
    error = refused(rules, busy, PASS)
    assert (error.reason, error.clause) == ("pass-not-allowed", clause)


def blocked(rules: sm.RuleBook, scores: tuple[int, ...]) -> None:
    """A round of idle passes ends the game as blocked, scored as a drawn hand."""
    payoffs = [card(rules, 9), card(rules, 7, "H")]
    stuck = position(rules, hands=[""], payoffs=payoffs)
    stuck = attrs.evolve(stuck, idle_turns=rules.players - 1)
    after = sm.apply_move(rules, stuck, PASS)
    assert after.outcome is not None
    assert after.outcome.kind == "blocked" and after.outcome.winner is None
    assert after.outcome.scores == scores


def turn_limit(rules: sm.RuleBook) -> None:
    """The game ends at the turn limit, scored as a drawn hand."""
    nine = card(rules, 9)
    state = position(rules, hands=[nine], payoffs=[card(rules, 8), card(rules, 8, "H")])
    near = attrs.evolve(state, turn=rules.ruleset.turn_limit - 2)
    after = sm.apply_move(rules, near, sm.parse_move(f"{nine}>D1"))
    assert after.outcome is None
    at_limit = attrs.evolve(state, turn=rules.ruleset.turn_limit - 1)
    after = sm.apply_move(rules, at_limit, sm.parse_move(f"{nine}>D1"))
    assert after.outcome is not None and after.outcome.kind == "turn-limit"


def game_over(rules: sm.RuleBook, clause: str) -> None:
    """No move once the game has ended."""
    ace = card(rules, 1)
    state = position(rules, hands=[ace], payoffs=[card(rules, 9)])
    ended = attrs.evolve(state, outcome=sm.Outcome("drawn", None, (0,) * rules.players))
    assert sm.legal_moves(rules, ended) == ()
    error = refused(rules, ended, f"{ace}>B+")
    assert (error.reason, error.clause) == ("game-over", clause)


def discard_piles_top_only(rules: sm.RuleBook, clause: str) -> None:
    """Only the top card of the mover's own discard pile may be played."""
    three, seven = card(rules, 3, "H"), card(rules, 7, "H")
    state = position(rules, hands=[card(rules, 9)], builds=[run(rules, 2)],
                     discards=[[f"{three} {seven}"], [three]])
    assert len(state.seats[0].discards) == rules.discard.piles
    error = refused(rules, state, f"D1:{three}>B1")
    assert (error.reason, error.clause) == ("buried-card", clause)
    error = refused(rules, state, f"S1.D1:{three}>B1")
    assert (error.reason, error.clause) == ("not-own-pile", clause)
    on_top = position(rules, hands=[card(rules, 9)], builds=[run(rules, 2)],
                      discards=[[f"{seven} {three}"]])
    after = play(rules, on_top, f"D1:{three}>B1")
    assert after.seats[0].discards[0] == (sm.parse_card(seven),)


def one_card_discard_ends_turn(rules: sm.RuleBook, clause: str) -> None:
    """One hand card on a discard pile ends the turn; two at once are refused."""
    nine, ten = card(rules, 9), card(rules, 10)
    state = position(rules, hands=[f"{nine} {ten}"], payoffs=[card(rules, 8), card(rules, 8)])
    after = play(rules, state, f"{nine}>D2")
    assert after.seat == 1 and after.seats[0].discards[1] == (sm.parse_card(nine),)
    error = refused(rules, state, f"{nine}+{ten}>D1")
    assert (error.reason, error.clause) == ("discard-count", clause)


def last_payoff_card_wins(rules: sm.RuleBook) -> sm.GameState:
    """Playing the last pay-off card wins at once, with no discard; returns the final state."""
    four = card(rules, 4)
    state = position(rules, hands=[card(rules, 9)], builds=[run(rules, 3)],
                     payoffs=[four, f"{card(rules, 8)} {card(rules, 6)}"])
    after = play(rules, state, f"P:{four}>B1")
    assert after.outcome is not None
    assert after.outcome.kind == "win" and after.outcome.winner == 0
    assert after.seats[0].hand == (sm.parse_card(card(rules, 9)),)  # no discard was owed
    return after


def empty_hand_draws_again(rules: sm.RuleBook) -> None:
    """A seat that plays its last hand card draws a full hand at once and keeps the turn."""
    five = card(rules, 5)
    state = position(rules, hands=[five], builds=[run(rules, 4)], payoffs=[card(rules, 9)])
    after = play(rules, state, f"{five}>B1")
    assert after.seat == 0 and after.outcome is None
    assert len(after.seats[0].hand) == rules.deal.hand_size
    assert len(after.draw) == len(state.draw) - rules.deal.hand_size


def refill_at_turn_start(rules: sm.RuleBook) -> None:
    """The next seat's hand is filled to the hand size when its turn starts."""
    nine = card(rules, 9)
    two_cards = f"{card(rules, 3)} {card(rules, 4)}"
    state = position(rules, hands=[nine, two_cards], payoffs=[card(rules, 8), card(rules, 8)])
    after = play(rules, state, f"{nine}>D1")
    assert after.seat == 1 and len(after.seats[1].hand) == rules.deal.hand_size
    assert after.seats[0].hand == ()


def empty_draw_pile_ends_drawn(rules: sm.RuleBook) -> sm.GameState:
    """A required draw from an empty draw pile, nothing set aside: the game ends drawn."""
    five = card(rules, 5)
    state = position(rules, hands=[five], builds=[run(rules, 4)],
                     payoffs=[card(rules, 9), f"{card(rules, 8)} {card(rules, 9, 'H')}"],
                     draw="")
    after = play(rules, state, f"{five}>B1")
    assert after.outcome is not None
    assert after.outcome.kind == "drawn" and after.outcome.winner is None
    return after


def shuffled_in_at_once(rules: sm.RuleBook) -> None:
    """A completed build pile is shuffled into the draw pile at once."""
    ceiling = rules.ceiling.ceiling
    top = card(rules, ceiling, "H")
    state = position(rules, hands=[f"{top} {card(rules, 9, 'D')}"],
                     builds=[run(rules, ceiling - 1), card(rules, 1, "D")],
                     payoffs=[card(rules, 8, "C")])
    after = play(rules, state, f"{top}>B1")
    assert len(after.builds) == 1 and after.completed == ()
    assert len(after.draw) == len(state.draw) + ceiling
    assert after.shuffles == state.shuffles + 1
    assert after.seat == 0  # completing a pile does not end the turn


def set_aside_then_recycled(rules: sm.RuleBook) -> None:
    """A completed pile is set aside; a draw that finds the draw pile empty recycles it."""
    ceiling = rules.ceiling.ceiling
    top = card(rules, ceiling, "H")
    state = position(rules, hands=[top], builds=[run(rules, ceiling - 1)],
                     payoffs=[card(rules, 8, "C")], draw="")
    after = play(rules, state, f"{top}>B1")
    assert after.builds == ()
    assert after.completed == () and len(after.draw) == ceiling - rules.deal.hand_size
    assert len(after.seats[0].hand) == rules.deal.hand_size and after.outcome is None
    kept = position(rules, hands=[f"{top} {card(rules, 9, 'D')}"],
                    builds=[run(rules, ceiling - 1)], payoffs=[card(rules, 8, "C")])
    after = play(rules, kept, f"{top}>B1")
    assert len(after.completed) == ceiling and len(after.draw) == len(kept.draw)


def match_to(rules: sm.RuleBook, target: int) -> None:
    """A match ends when a seat's total reaches ``target`` (the rule set's match_target)."""
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.study.match import play_match

    assert rules.ruleset.match_target == target
    players = [GreedyPlayer(seat) for seat in range(rules.players)]
    result = play_match(rules, players, seed=5)
    assert result.winner is not None and result.totals[result.winner] >= target
    before_last = [sum(g.final.outcome.scores[s] for g in result.games[:-1])  # type: ignore[union-attr]
                   for s in range(rules.players)]
    assert max(before_last) < target
