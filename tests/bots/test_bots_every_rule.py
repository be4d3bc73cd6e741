"""Bots play every rule (issue 19 §1, design notes §9): the greedy and heuristic bots' games
hold the moves each built-in house rule enables, the mcts bot searches a kind of move a rule
adds, and a third-party rule's new kind of move gets played."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers.positions import position

import spitemalice as sm
from spitemalice.bots.kinds import BASIC, move_kind
from spitemalice.bots.mcts import MctsPlayer, _every_kind
from spitemalice.bots.players import GreedyPlayer, make_player
from spitemalice.engine.views import view_of
from spitemalice.moves import NEW_PILE, Discard, Play
from spitemalice.runs.loop import play_game
from spitemalice.study.simulate import simulate

Enabled = Callable[[sm.GameState, sm.Move], bool]


def _pair(state: sm.GameState, move: sm.Move) -> bool:
    return isinstance(move, Discard) and len(move.cards) == 2


def _from_partner(state: sm.GameState, move: sm.Move) -> bool:
    return isinstance(move, Play) and move.owner is not None


def _onto_partner(state: sm.GameState, move: sm.Move) -> bool:
    return isinstance(move, Discard) and move.owner is not None


def _fifth_pile(state: sm.GameState, move: sm.Move) -> bool:
    return isinstance(move, Play) and move.pile == NEW_PILE and len(state.builds) >= 4


def _joker(state: sm.GameState, move: sm.Move) -> bool:
    return isinstance(move, Play) and move.card.rank == 0


def _king_on_queen(state: sm.GameState, move: sm.Move) -> bool:
    return (isinstance(move, Play) and move.card.rank == 13 and move.pile != NEW_PILE
            and state.build_tops[move.pile] == 12)


# House rule -> (configuration, [(what it enables, how to see it in a move)]).  A house rule
# that only takes moves away or changes the deal enables no move: its list is empty.
ENABLES: dict[str, tuple[tuple[str, dict[str, object]], list[tuple[str, Enabled]]]] = {
    "pair-discards": (("blackwood-frey", {}), [("PD-1 a pair discard", _pair)]),
    "partnerships": (("skip-bo", {"partner_piles": "share"}), [
        ("PT-2 a play from a partner's pile", _from_partner),
        ("PT-3 a discard onto a partner's pile", _onto_partner)]),
    "unlimited-build-piles": (("blackwood-frey", {}), [("UB-1 a fifth build pile", _fifth_pile)]),
    "jokers-to-king": (("blackwood-frey", {}), [
        ("JK-3 a joker played", _joker), ("JK-2 a natural king on a queen", _king_on_queen)]),
    "deck-per-player": (("blackwood-frey", {}), []),
    "mandatory-aces": (("blackwood-frey", {}), []),
    "natural-ace-two": (("blackwood-frey", {}), []),
    "no-wild-ceiling": (("skip-bo", {}), []),
    "no-wild-discards": (("skip-bo", {}), []),
    "no-wild-on-wild": (("skip-bo", {}), []),
    "short-payoff": (("skip-bo", {}), []),
    "wild-must-be-covered": (("blackwood-frey", {}), []),
}
GAMES = 3


def _built_in_house_rules() -> list[str]:
    return sorted(info.name for info in sm.installed()
                  if info.kind == "house-rule" and info.origin.startswith("spitemalice_variants"))


def test_every_built_in_house_rule_says_what_it_enables() -> None:
    assert sorted(ENABLES) == _built_in_house_rules()


def _played(rules: sm.RuleBook, bot: str) -> list[tuple[sm.GameState, sm.Move]]:
    seen: list[tuple[sm.GameState, sm.Move]] = []
    for game in range(GAMES):
        players = [make_player(bot, 10 * game + seat) for seat in range(rules.players)]
        play_game(rules, players, game, on_move=lambda state, move: seen.append((state, move)))
    return seen


@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
@pytest.mark.parametrize("rule", [name for name, (_, kinds) in ENABLES.items() if kinds])
def test_the_bots_games_hold_the_moves_a_house_rule_enables(rule: str, bot: str) -> None:
    (base, params), kinds = ENABLES[rule]
    rules = sm.load(base, [rule], params)
    played = _played(rules, bot)
    for what, enabled in kinds:
        count = sum(enabled(state, move) for state, move in played)
        assert count, f"{bot} made no move of {rule}'s kind {what!r} in {GAMES} games"


@pytest.mark.parametrize("rule", sorted(ENABLES))
def test_greedy_games_exercise_every_clause_of_each_house_rule(rule: str) -> None:
    # Rule coverage (issue 19 §2): each clause the house rule adds is exercised by the greedy
    # bots' games (a move it decides played, a candidate it refuses, an event it defines),
    # unless the clause declares it never is (expects=("unexercised",)).
    (base, params), _ = ENABLES[rule]
    rules = sm.load(base, [rule], params)
    plain = {clause.id for clause in sm.load(base).clauses}
    summary = simulate(rules, ["greedy"], GAMES, 0, coverage=True)
    own = [row for row in summary.coverage if row.clause not in plain]
    assert own, f"{rule} adds no clause"
    missed = [row.clause for row in own if not row.exercised and not row.intended]
    assert not missed, f"greedy games of {rule} never exercised {missed}"


def test_without_the_house_rule_those_moves_cannot_be_made() -> None:
    # The predicates pick out what the rule adds: the base rule set's games hold none of them.
    for rule, ((base, params), kinds) in ENABLES.items():
        if not kinds:
            continue
        plain = sm.load(base, [], {k: v for k, v in params.items() if k != "partner_piles"})
        played = _played(plain, "random")[:400]
        for what, enabled in kinds:
            assert not any(enabled(s, m) for s, m in played), f"{rule}: {what} without it"


def test_greedy_discards_a_pair_of_high_cards_rather_than_one() -> None:
    # PD-1: two queens leave the hand together, so two fresh cards are drawn next turn.
    rules = sm.load("blackwood-frey", ["pair-discards"])
    state = position(rules, hands=["QH QS 3C 4D 5S"], payoffs=["9S", "9D"])
    chosen = GreedyPlayer().choose(rules, state, sm.legal_moves(rules, state))
    assert isinstance(chosen, Discard) and len(chosen.cards) == 2
    assert {card.rank for card in chosen.cards} == {12}


@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
def test_a_discard_onto_a_partners_pile_is_judged_by_that_pile(bot: str) -> None:
    # PT-3 (partner_piles = share): seat 2's discard pile 1 shows a queen, so the jack goes
    # there as a descending run; the seat's own piles show only low cards.
    rules = sm.load("blackwood-frey", ["partnerships"], partner_piles="share")
    state = position(rules, hands=["JH"], payoffs=["9S", "9D", "9C", "9H"],
                     discards=[["2C", "3C", "4C", "5C"], [], ["QD"], []])
    moves = sm.legal_moves(rules, state)
    chosen = make_player(bot, 0).choose(rules, state, moves)
    assert str(chosen) == "JH>S2.D1"


def test_the_heuristic_builds_toward_a_partners_pay_off_card() -> None:
    # PT-2, PT-4: seat 2 (the partner) shows a 6 pay-off top, which the seat may play and
    # which counts for its team: 5H on B1 reaches it, where an opponent's 6 would forbid it.
    rules = sm.load("blackwood-frey", ["partnerships"])
    state = position(rules, hands=["5H 9C 9D"], payoffs=["QD", "KC", "6C", "KD"],
                     builds=["AS 2S 3S 4S"])
    chosen = make_player("heuristic", 0).choose(rules, state, sm.legal_moves(rules, state))
    assert str(chosen) == "5H>B1"


def test_mcts_searches_every_kind_a_rule_adds() -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"])
    state = position(rules, hands=["QH QS 3C 3D 9S"], payoffs=["AS", "AD"],
                     builds=["AS 2S"])
    moves = sm.legal_moves(rules, state)
    ranked = list(moves)
    first_five = [m for m in ranked if not _pair(state, m)][:5]
    widened = _every_kind(ranked, first_five)
    assert any(_pair(state, m) for m in widened) and widened[:5] == first_five
    basic_only = [m for m in ranked if move_kind(m) in BASIC]
    assert _every_kind(basic_only, basic_only[:5]) == basic_only[:5]


def test_mcts_plays_pair_discards() -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"], payoff_size=5)
    state = sm.deal(rules, 1)
    pairs = 0
    players = [MctsPlayer(seat, playouts=12) for seat in range(rules.players)]
    while state.outcome is None and state.turn < 40:
        move = players[state.seat].choose(rules, state, sm.legal_moves(rules, state))
        pairs += _pair(state, move)
        state = sm.apply_move(rules, state, move)
    assert pairs


class SpiteFromTheNextSeat:
    """A third-party house rule: a seat may play the top card of the next seat's discard
    piles (a kind of move no built-in rule set lists without teams)."""

    NAME = "spite-from-next"
    KIND = "house-rule"

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return [sm.Clause("SN-1", "A seat may play the top card of the next seat's discard "
                          "piles.", "TEST", reasons=("not-own-pile",))]

    @sm.hookimpl
    def spitemalice_partner_piles(self, ruleset: sm.Ruleset,
                                  teams: tuple[tuple[int, ...], ...]) -> sm.PileAccess:
        seats = ruleset.players
        return sm.PileAccess([((seat + 1) % seats,) for seat in range(seats)],
                             [() for _ in range(seats)])


@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
def test_a_third_party_kind_of_move_is_played(bot: str) -> None:
    rules = sm.RuleBook.from_plugins(sm.load_plugin("blackwood-frey"), [SpiteFromTheNextSeat()])
    played = _played(rules, bot)
    assert any(move_kind(m) == "partner's discard-pile play" for _, m in played)


def test_move_kinds_name_each_form() -> None:
    kinds = {text: move_kind(sm.parse_move(text)) for text in
             ("9H>B1", "P:9H>B1", "D2:9H>B+", "S1.P:9H>B1", "9H>D1", "9H+9S>D1", "9H>S2.D1",
              "pass")}
    assert kinds == {"9H>B1": "hand play", "P:9H>B1": "pay-off play",
                     "D2:9H>B+": "discard-pile play", "S1.P:9H>B1": "partner's pay-off play",
                     "9H>D1": "discard", "9H+9S>D1": "pair discard",
                     "9H>S2.D1": "discard onto a partner's pile", "pass": "pass"}
    assert move_kind(view_of) == "function"  # any other object: its class name
