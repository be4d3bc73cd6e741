"""Every extension point is consulted: a plugin's answer changes the game (design notes §3)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import attrs
import pluggy
import pytest
from helpers.positions import position

import spitemalice as sm
from spitemalice.bots.players import make_player
from spitemalice.cards import Card, numbered_cards
from spitemalice.engine.legal import base_moves
from spitemalice.rules import decisions, defaults, hookspecs
from spitemalice.rules.registry import load_plugin
from spitemalice.runs.loop import play_game

BF = load_plugin("blackwood-frey", "ruleset")


class Plugin:
    """A house-rule plugin built from keyword hook answers, for one test: each answer is a
    function whose arguments carry the spec's names (pluggy reads them)."""

    KIND = "house-rule"

    def __init__(self, name: str, **answers: Callable[..., object]) -> None:
        self.NAME = name
        for hook, answer in answers.items():
            setattr(self, f"spitemalice_{hook}", sm.hookimpl(answer))


def book(**answers: Callable[..., object]) -> sm.RuleBook:
    return sm.RuleBook.from_plugins(BF, [Plugin("probe", **answers)])


PM = pluggy.PluginManager(hookspecs.PROJECT)
PM.add_hookspecs(hookspecs)
HOOK_NAMES = sorted(name for name in dir(hookspecs) if name.startswith("spitemalice_"))
HOOKS_PAGE = (Path(__file__).parents[2] / "docs" / "hooks.md").read_text(encoding="utf-8")
FIRST = "Stops at the first non-None answer"


def _section(hook: str) -> str:
    """The text of the page's section about ``hook``, up to the next heading."""
    start = HOOKS_PAGE.index(f"### {hook}(")
    return re.split(r"\n#{2,3} ", HOOKS_PAGE[start + 4:], maxsplit=1)[0]


def test_every_hook_is_documented_in_docs() -> None:
    assert len(HOOK_NAMES) >= 16
    missing = [name for name in HOOK_NAMES if f"`{name}`" not in HOOKS_PAGE
               and f"### {name}(" not in HOOKS_PAGE]
    assert missing == []


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_hook_is_documented_with_its_signature(hook: str) -> None:
    """docs/hooks.md heads each hook's section with the spec's own signature."""
    args = ", ".join(getattr(PM.hook, hook).spec.argnames)
    assert f"### {hook}({args})\n" in HOOKS_PAGE


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_hook_spec_says_each_argument_and_what_it_returns(hook: str) -> None:
    """Each spec's docstring (pytest's hookspec.py style): an imperative summary, a
    ``:param:`` line per argument, a ``:returns:`` line; "Stops at the first non-None
    answer" exactly where the spec is firstresult, and the page's section says so too."""
    spec = getattr(PM.hook, hook).spec
    doc = spec.function.__doc__ or ""
    assert doc.split()[0] == "Return", hook
    params = re.findall(r":param (\w+):", doc)
    assert params == list(spec.argnames), hook
    assert ":returns:" in doc, hook
    firstresult = bool(spec.opts.get("firstresult"))
    assert (FIRST in doc) == firstresult, hook
    assert ("*firstresult*" in _section(hook)) == firstresult, hook


def test_the_page_groups_hooks_as_the_specs_do() -> None:
    """The hooks appear on the page in the order of hookspecs.py, whose banners group them
    by when they are asked."""
    source = Path(hookspecs.__file__).read_text(encoding="utf-8")
    in_specs = re.findall(r"^def (spitemalice_\w+)\(", source, re.M)
    on_page = re.findall(r"^### (spitemalice_\w+)\(", HOOKS_PAGE, re.M)
    assert on_page == in_specs and sorted(in_specs) == HOOK_NAMES


@pytest.mark.parametrize("name", [info.name for info in sm.installed() if info.kind == "ruleset"])
def test_each_value_hook_reads_back_the_values_the_base_rules_answer_from(name: str) -> None:
    """The one fold table (rules/decisions.py) is the inverse of the base rules: an answer
    made from a rule set's own values folds into that same rule set, for every value hook."""
    ruleset = sm.load(name).ruleset
    for hook, (attribute, reads) in decisions.VALUE_HOOKS.items():
        answer = getattr(defaults, hook)(ruleset)
        folded = attrs.evolve(ruleset, **{field: read(answer) for field, read in reads.items()})
        assert folded == ruleset, (name, hook)
        if reads:  # (a deck is checked, not folded: skip-bo gives its jokers its own face)
            assert getattr(sm.load(name), attribute) == answer, (name, hook)


def test_deck_hook_answer_must_be_the_deck_the_ruleset_states() -> None:
    """Resolved values = shown values: a deck the Ruleset does not state is refused at load,
    naming the plugin and both decks; one it states is accepted."""
    deck = sm.Deck(numbered_cards({rank: 12 for rank in range(1, 14)}))
    with pytest.raises(sm.RulesetError, match=r"'probe' answers spitemalice_deck with a deck "
                       r"of 156 cards: 0 suited.*blackwood-frey gives a deck of 156 cards: 156 "
                       r"suited.*packs, packs_per_seat"):
        book(deck=lambda ruleset: deck)
    same = sm.load("blackwood-frey").deck
    rules = book(deck=lambda ruleset: sm.Deck(tuple(reversed(same.cards))))
    assert sorted(rules.deck.cards) == sorted(same.cards)


RULE_SETS = [info.name for info in sm.installed() if info.kind == "ruleset"]


@pytest.mark.parametrize("name", RULE_SETS)
def test_stated_deck_is_the_deck_each_built_in_rule_set_deals(name: str) -> None:
    """sm.stated_deck gives the cards of the rule book's deck: what a plugin's deck hook
    answers from (only skip-bo gives its jokers a face of their own)."""
    rules = sm.load(name)
    face = sm.SKIP_BO if name == "skip-bo" else Card(0)
    deck = sm.stated_deck(rules.ruleset, joker=face)
    assert sorted(deck.cards) == sorted(rules.deck.cards)
    assert (deck.payoff_cards is None) == (rules.deck.payoff_cards is None)


def test_stated_deck_gives_every_joker_the_face_asked_for() -> None:
    ruleset = sm.load("blackwood-frey", jokers=4).ruleset
    plain, faced = sm.stated_deck(ruleset), sm.stated_deck(ruleset, joker=sm.SKIP_BO)
    assert plain.cards.count(Card(0)) == 4 and sm.SKIP_BO not in plain.cards
    assert faced.cards.count(sm.SKIP_BO) == 4 and Card(0) not in faced.cards
    assert [card for card in faced.cards if card.rank] == [card for card in plain.cards
                                                          if card.rank]


@pytest.mark.parametrize(("ruleset", "joker", "words"), [
    ("rules", Card(0), "takes a Ruleset \\(a RuleBook's .ruleset\\), not the RuleBook"),
    (None, Card(0), "takes a Ruleset.*not None"),
    ("ruleset", sm.parse_card("AS"), "a joker's face the notation reads: None \\(the plain "
                                     "joker, \\*\\) or spitemalice.SKIP_BO \\(SB\\), not the "
                                     "Card Card\\('AS'\\)"),
    ("ruleset", "SB", 'a joker\'s face the notation reads.*not the str "SB"'),
    # a card that is no joker: a deck of it would not be the one the values state
    ("ruleset", Card(5, "S"), "a joker's face the notation reads.*not the Card"),
])
def test_stated_deck_refuses_what_is_not_a_ruleset_or_a_joker(ruleset: object, joker: object,
                                                              words: str) -> None:
    rules = sm.load("skip-bo")
    given = {"rules": rules, "ruleset": rules.ruleset}.get(str(ruleset), ruleset)
    with pytest.raises(TypeError, match=words):
        sm.stated_deck(given, joker=joker)  # type: ignore[arg-type]


def test_a_deck_hook_answering_no_deck_is_told_to_answer_a_deck() -> None:
    # a list of the right cards got a message listing every card of both decks
    cards = list(sm.load("blackwood-frey").deck.cards)
    with pytest.raises(sm.RulesetError, match=r"'probe' answers spitemalice_deck with the list "
                       r"\[Card.*; the hook answers a Deck "
                       r"\(spitemalice.stated_deck\(ruleset\)") as raised:
        book(deck=lambda ruleset: cards)
    assert len(str(raised.value)) < 300


def test_deck_parameters_state_a_numbered_deck() -> None:
    rules = sm.load("blackwood-frey", packs=0, draw_pack=156, build_ceiling=13,
                    wild_ranks="none", wild_excluded="none")
    state = sm.deal(rules, 1)
    assert {c.suit for c in state.all_cards()} == {""}
    assert len(state.all_cards()) == 156


def test_wild_hook_decides_what_is_wild() -> None:
    rules = book(wild=lambda ruleset: sm.WildRule(frozenset({7}), frozenset()),
                 build_ceiling=lambda ruleset: sm.CeilingRule(13, "set-aside"))
    assert rules.accepts[7] == frozenset(range(1, 14))
    assert rules.accepts[13] == frozenset({13})  # no longer wild: a natural king
    # under a ceiling of Q the kings would be dead cards, and the rule set is refused
    with pytest.raises(sm.RulesetError, match="no build pile can ever take the 12 cards of "
                       r"rank K \(build ceiling 12, wild_ranks = 7\)"):
        book(wild=lambda ruleset: sm.WildRule(frozenset({7}), frozenset()))


def test_build_ceiling_hook_decides_completion() -> None:
    rules = book(build_ceiling=lambda ruleset: sm.CeilingRule(13, "set-aside"))
    queen = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"
    state = position(rules, hands=["KH 9C"], builds=[queen])
    assert len(sm.apply_move(rules, position(rules, hands=["QH 9C"], builds=[queen[:-3]]),
                             sm.parse_move("QH>B1")).builds[0]) == 12  # no longer complete
    after = sm.apply_move(rules, state, sm.parse_move("KH>B1"))
    assert after.builds == () and len(after.completed) == 13
    # a ceiling of 3 would leave the 4s to queens dead: refused, naming them
    with pytest.raises(sm.RulesetError, match="ranks 4, 5, 6, 7, 8, 9, 10, J, Q"):
        book(build_ceiling=lambda ruleset: sm.CeilingRule(3, "set-aside"))


def test_build_pile_limit_hook_decides_new_piles() -> None:
    rules = book(build_pile_limit=lambda ruleset: 1)
    state = position(rules, hands=["AH 9C"], builds=["AS"])
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("AH>B+"))
    assert refused.value.reason == "build-pile-limit"


def test_discard_limits_hook_decides_discards() -> None:
    rules = book(discard_limits=lambda ruleset: sm.DiscardRule(2, frozenset({9}), 1))
    state = sm.deal(rules, 3)
    discards = [m for m in sm.legal_moves(rules, state) if isinstance(m, sm.Discard)]
    assert {m.pile for m in discards} == {0, 1}
    assert all(m.cards[0].rank != 9 for m in discards)


def test_deal_hook_decides_pile_and_hand_sizes() -> None:
    rules = book(deal=lambda ruleset: sm.DealRule(2, 4, 3, "cut"))
    state = sm.deal(rules, 5)
    assert [len(p) for p in state.seats[0].payoff] == [4, 4]
    assert len(state.seats[1].hand) == 3


def test_filter_hook_narrows_the_legal_moves() -> None:
    def only_discards(ruleset, state, moves):  # type: ignore[no-untyped-def]
        return sm.MoveFilter([m for m in moves if isinstance(m, sm.Discard)], "probe-rule", "no")

    clause = sm.Clause("PR-1", "Only discards.", "TEST", reasons=("probe-rule",))
    probe = Plugin("probe", filter_moves=only_discards, rule_sheet=lambda ruleset: [clause])
    probe.REASONS = {"probe-rule": "only discards"}  # type: ignore[attr-defined]
    rules = sm.RuleBook.from_plugins(BF, [probe])
    state = position(rules, hands=["AH 9C"])
    assert all(isinstance(m, sm.Discard) for m in sm.legal_moves(rules, state))
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("AH>B+"))
    assert (refused.value.reason, refused.value.clause) == ("probe-rule", "PR-1")


def _played_states(rules: sm.RuleBook, games: int) -> list[sm.GameState]:
    """Every state of ``games`` seeded random games."""
    states: list[sm.GameState] = []
    for game in range(games):
        play_game(rules, [make_player("random", game)] * rules.players, game,
                  on_move=lambda state, _: states.append(state))
    return states


@pytest.mark.parametrize(("name", "house_rules", "params"), [
    ("blackwood-frey", ("pair-discards",), {}),
    ("blackwood-frey", ("partnerships",), {"partner_piles": "share"}),
    ("skip-bo", (), {"players": 3}),
    ("misery", (), {}),
])
def test_a_filter_is_given_every_play_before_any_discard(
    name: str, house_rules: tuple[str, ...], params: dict[str, object]
) -> None:
    """The order docs/hooks.md promises to move filters, which lets a filter that judges
    plays stop at the first discard (the built-in filters do)."""
    given: list[tuple[sm.Move, ...]] = []
    probe = Plugin("probe", filter_moves=lambda ruleset, state, moves: given.append(moves))
    rules = sm.RuleBook.from_plugins(load_plugin(name, "ruleset"),
                        [*(load_plugin(rule, "house-rule") for rule in house_rules), probe],
                        params)
    _played_states(rules, 6)
    kinds = {tuple(type(move).__name__ for move in moves) for moves in given}
    assert any("Play" in names and "Discard" in names for names in kinds)
    for names in kinds:
        assert "Pass" not in names
        assert list(names) == sorted(names, key=lambda kind: kind != "Play"), names


@pytest.mark.parametrize("answer", ["in order", "reversed", "copies", "two filters"])
def test_a_filter_narrows_the_same_whatever_objects_and_order_it_answers_with(
    answer: str
) -> None:
    """The engine takes the usual answer (listed objects in listing order) as it is and
    otherwise intersects by identity or by value: every form gives the same legal moves, in
    listing order."""
    def odd(moves: tuple[sm.Move, ...]) -> list[sm.Move]:
        return [move for i, move in enumerate(moves) if i % 2]

    forms = {
        "in order": odd,
        "reversed": lambda moves: odd(moves)[::-1],
        "copies": lambda moves: [attrs.evolve(move) for move in odd(moves)][::-1],
        "two filters": lambda moves: [move for i, move in enumerate(moves) if i % 4 != 3],
    }
    clause = sm.Clause("PR-1", "Odd moves only.", "TEST", reasons=("probe-rule",))

    def probe(name: str, pick):  # type: ignore[no-untyped-def]
        plugin = Plugin(name, rule_sheet=lambda ruleset: [clause] if name == "probe" else [],
                        filter_moves=lambda ruleset, state, moves: sm.MoveFilter(
                            pick(moves), "probe-rule", "odd moves only"))
        plugin.REASONS = ("probe-rule",)  # type: ignore[attr-defined]
        return plugin

    plugins = [probe("probe", forms[answer] if answer != "two filters" else odd)]
    if answer == "two filters":
        plugins.append(probe("probe-2", forms[answer]))
    rules = sm.RuleBook.from_plugins(BF, plugins)
    plain = sm.load("blackwood-frey")
    states = _played_states(rules, 3)
    assert len(states) > 50
    for state in states:
        listed = base_moves(plain, state)
        expected = tuple(move for i, move in enumerate(listed)
                         if i % 2 and (answer != "two filters" or i % 4 != 3)) or (sm.Pass(),)
        assert sm.legal_moves(rules, state) == expected


def test_a_declared_filter_code_no_clause_covers_is_refused_at_load() -> None:
    probe = Plugin("probe", filter_moves=lambda ruleset, state, moves: None)
    probe.REASONS = {"probe-rule": "only discards"}  # type: ignore[attr-defined]
    with pytest.raises(sm.RulesetError, match=r"no clause for the reason code.*probe-rule"):
        sm.RuleBook.from_plugins(BF, [probe])


def test_a_filter_answering_an_undeclared_code_stops_with_a_ruleset_error() -> None:
    def only_discards(ruleset, state, moves):  # type: ignore[no-untyped-def]
        return sm.MoveFilter([m for m in moves if isinstance(m, sm.Discard)], "probe-rule", "no")

    rules = book(filter_moves=only_discards)
    state = position(rules, hands=["AH 9C"])
    with pytest.raises(sm.RulesetError, match=r"'probe-rule'.*does not declare in REASONS"):
        sm.apply_move(rules, state, sm.parse_move("AH>B+"))


def test_a_clause_naming_an_unknown_reason_code_is_refused() -> None:
    clause = sm.Clause("PR-1", "probe", "TEST", reasons=("no-such-code",))
    with pytest.raises(sm.RulesetError, match="PR-1 names the reason code 'no-such-code'"):
        book(rule_sheet=lambda ruleset: [clause])
    clause = sm.Clause("PR-1", "probe", "TEST", reasons=("wrong-rank@payoff",))
    with pytest.raises(sm.RulesetError, match="'wrong-rank@payoff'"):
        book(rule_sheet=lambda ruleset: [clause])


def test_a_python_variant_without_a_sheet_is_refused_and_inherits_one_with_base_sheet() -> None:
    from spitemalice.rules.registry import base_sheet

    class Bare:
        NAME, KIND = "bare", "ruleset"

        @sm.hookimpl
        def spitemalice_ruleset(self):  # type: ignore[no-untyped-def]
            return attrs.evolve(BF.RULESET, name="bare", max_build_piles=2)

    with pytest.raises(sm.RulesetError, match=r"sheet of bare has no clause.*game-over"):
        sm.RuleBook.from_plugins(Bare())

    class Inherits(Bare):
        @sm.hookimpl
        def spitemalice_rule_sheet(self, ruleset):  # type: ignore[no-untyped-def]
            return base_sheet("blackwood-frey", ruleset)

    rules = sm.RuleBook.from_plugins(Inherits())
    state = position(rules, hands=["AH 9C"], builds=["AS", "AD"])
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("AH>B+"))
    assert refused.value.clause == "BF-5"
    assert rules.clause("BF-5").text == "At most two build piles are open at once."
    assert rules.clause("BF-5").inherited_from == "blackwood-frey"


def test_end_of_game_hook_can_end_a_game() -> None:
    def after_two_turns(ruleset, state):  # type: ignore[no-untyped-def]
        return sm.Outcome("blocked", None, (0, 0)) if state.turn >= 2 else None

    rules = book(end_of_game=after_two_turns)
    state = sm.deal(rules, 2)
    while state.outcome is None:
        discards = [m for m in sm.legal_moves(rules, state) if isinstance(m, sm.Discard)]
        state = sm.apply_move(rules, state, discards[0])
    assert state.turn == 2 and state.outcome.kind == "blocked"


def test_score_hook_decides_points() -> None:
    rules = book(score=lambda ruleset, state, kind, winner, teams: (7, len(teams)))
    state = position(rules, hands=["2H"], payoffs=["AS"], draw="")
    after = sm.apply_move(rules, state, sm.parse_move("P:AS>B+"))
    assert after.outcome == sm.Outcome("win", 0, (7, 2))


def four_seats(**answers: object) -> sm.RuleBook:
    return sm.RuleBook.from_plugins(BF, [Plugin("probe", **answers)], {"players": 4})


def test_teams_hook_decides_who_plays_together() -> None:
    rules = four_seats(teams=lambda ruleset: ((0, 1), (2, 3)),
                       partner_piles=lambda ruleset, teams: sm.PileAccess(
                           [(1,), (0,), (3,), (2,)], [(), (), (), ()]))
    assert rules.teams.teams == ((0, 1), (2, 3)) and rules.teams.team_of(3) == 1
    state = position(rules, hands=["9C"], payoffs=["5H", "AS", "AD"], builds=["AH 2H 3H 4H"])
    moves = sm.legal_moves(rules, state)
    assert sm.parse_move("S1.P:AS>B+") in moves and sm.parse_move("S2.P:AD>B+") not in moves
    assert sm.parse_move("P:5H>B1") in moves
    with pytest.raises(sm.RulesetError, match="every seat 0 to 3 exactly once"):
        four_seats(teams=lambda ruleset: ((0, 1), (1, 2, 3)))


def test_partner_piles_hook_decides_shared_discard_piles() -> None:
    rules = four_seats(partner_piles=lambda ruleset, teams: sm.PileAccess(
        [(), (), (), ()], [(3,), (), (), ()]))
    state = position(rules, hands=["9C"], payoffs=["5H", "AS", "AD"])
    moves = sm.legal_moves(rules, state)
    assert sm.parse_move("9C>S3.D2") in moves and sm.parse_move("9C>S2.D2") not in moves
    after = sm.apply_move(rules, state, sm.parse_move("9C>S3.D2"))
    assert after.seats[3].discards[1] == (sm.parse_card("9C"),) and after.seats[0].hand == ()
    with pytest.raises(sm.RulesetError, match="partner piles play_from"):
        four_seats(partner_piles=lambda ruleset, teams: sm.PileAccess([(0,)] * 4, [()] * 4))


def test_team_won_hook_decides_when_a_team_has_won() -> None:
    calls: list[tuple[int, ...]] = []

    def first_out(ruleset: sm.Ruleset, state: sm.GameState, team: tuple[int, ...]) -> bool:
        calls.append(team)
        return True

    base = sm.load("blackwood-frey", ["partnerships"])
    state = position(base, hands=["9C"], payoffs=["AS", "5H", "5D", "5S"])
    assert sm.apply_move(base, state, sm.parse_move("P:AS>B+")).outcome is None
    rules = sm.RuleBook.from_plugins(BF, [load_plugin("partnerships"), Plugin("probe",
                                                                    team_won=first_out)])
    after = sm.apply_move(rules, state, sm.parse_move("P:AS>B+"))
    assert after.outcome is not None and after.outcome.winner == 0 and calls == [(0, 2)]


def test_ruleset_wrapper_changes_parameters() -> None:
    class Short:
        NAME, KIND = "short", "house-rule"

        @sm.hookimpl(wrapper=True)
        def spitemalice_ruleset(self):  # type: ignore[no-untyped-def]
            ruleset = yield
            return attrs.evolve(ruleset, payoff_size=7)

    assert sm.RuleBook.from_plugins(BF, [Short()]).ruleset.payoff_size == 7


def test_conflicts_hook_refuses_the_configuration() -> None:
    with pytest.raises(sm.RulesetError, match="probe cannot stack here: clash with blackwood"):
        book(conflicts=lambda ruleset, plugins: f"clash with {plugins[0]}")


def test_rule_sheet_hook_adds_clauses_that_errors_cite() -> None:
    clause = sm.Clause("PR-1", "probe", "TEST", reasons=("wild-cannot-start",))
    rules = book(rule_sheet=lambda ruleset: [clause])
    assert rules.clauses[-1] == clause
    state = position(rules, hands=["KS 9C"])
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("KS>B+"))
    assert refused.value.clause == "PR-1"


def test_a_hook_that_does_not_exist_is_refused_naming_the_plugin() -> None:
    class Typo:
        NAME, KIND = "typo", "house-rule"

        @sm.hookimpl
        def spitemalice_dek(self, ruleset):  # type: ignore[no-untyped-def]
            return None

    with pytest.raises(sm.RulesetError, match="'typo'"):
        sm.RuleBook.from_plugins(BF, [Typo()])


def test_a_hook_with_a_wrong_argument_is_refused() -> None:
    class Wrong:
        NAME, KIND = "wrong", "house-rule"

        @sm.hookimpl
        def spitemalice_deck(self, ruleset, colour):  # type: ignore[no-untyped-def]
            return None

    with pytest.raises(sm.RulesetError, match="wrong"):
        sm.RuleBook.from_plugins(BF, [Wrong()])


def test_the_same_plugin_twice_is_refused() -> None:
    with pytest.raises(sm.RulesetError, match="given twice"):
        sm.RuleBook.from_plugins(BF, [Plugin("same"), Plugin("same")])


def test_hooks_are_resolved_once_not_per_move() -> None:
    calls = []

    def counted(ruleset):  # type: ignore[no-untyped-def]
        calls.append(1)
        return None

    rules = book(wild=counted)
    asked = len(calls)
    state = sm.deal(rules, 1)
    for _ in range(20):
        state = sm.apply_move(rules, state, sm.legal_moves(rules, state)[0])
    assert asked >= 1 and len(calls) == asked


def test_docs_name_only_real_hooks() -> None:
    text = (Path(__file__).parents[2] / "docs" / "hooks.md").read_text()
    named = set(re.findall(r"`(spitemalice_\w+)`", text))
    assert named <= {name for name in dir(hookspecs) if name.startswith("spitemalice_")}


def test_a_card_outside_the_accept_table_is_never_playable() -> None:
    from spitemalice.rules.resolve import accept_table

    deck = sm.Deck((*numbered_cards({r: 12 for r in range(1, 14)}), *(Card(40),) * 4))
    accepts = accept_table(deck, sm.WildRule(frozenset({13}), frozenset({1})), 12)
    assert len(accepts) <= 41
    assert accepts[40] == frozenset() and accepts[13] == frozenset(range(2, 13))


def test_completed_pile_hook_decides_where_the_cards_go() -> None:
    def to_bottom(ruleset, state, pile):  # type: ignore[no-untyped-def]
        return sm.GameState(state.seats, state.builds, pile + state.draw, state.completed,
                            state.seat, state.turn, state.turn_moves, state.idle_turns,
                            state.seed, state.shuffles, state.outcome)

    rules = book(completed_pile=to_bottom)
    state = position(rules, hands=["QH 9C"], builds=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"])
    after = sm.apply_move(rules, state, sm.parse_move("QH>B1"))
    assert after.completed == () and after.draw[:12] == state.builds[0] + (sm.parse_card("QH"),)


def test_a_python_house_rule_may_not_take_a_clause_id_of_the_sheet_it_joins() -> None:
    # As a rule-set file's [[rule]] is refused (tests/rules/test_datarules_tools.py): the
    # sheet held BF-3 twice and book.clause("BF-3") gave the base text.
    probe = Plugin("dup", rule_sheet=lambda ruleset: [sm.Clause("BF-3", "dup", "HOUSE")])
    with pytest.raises(sm.RulesetError) as raised:
        sm.RuleBook.from_plugins(BF, [probe])
    assert str(raised.value) == ('plugin "dup": clause BF-3 is already on the rule sheet (of '
                                 'blackwood-frey); give the rule an id of its own, such as '
                                 '"HR-1"')
    renamed = Plugin("dup", rule_sheet=lambda ruleset: [sm.Clause("HR-1", "dup", "HOUSE")])
    assert sm.RuleBook.from_plugins(BF, [renamed]).clause("HR-1").text == "dup"


def test_a_plugin_may_not_give_one_clause_id_twice() -> None:
    probe = Plugin("dup", rule_sheet=lambda ruleset: [sm.Clause("HR-1", "a", "HOUSE"),
                                                      sm.Clause("HR-1", "b", "HOUSE")])
    with pytest.raises(sm.RulesetError, match=r'^plugin "dup": clause HR-1 is given twice in '
                       r"its own rule sheet; give each clause an id of its own$"):
        sm.RuleBook.from_plugins(BF, [probe])
