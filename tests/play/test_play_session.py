"""A game at a table (issue 18 §1, design notes §9): the session plays only through the
public API, keeps its record as moves are made, takes moves back only against bots, and
tells each seat only what its view holds."""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs
import pytest
from helpers.walks import hidden_twin

import spitemalice as sm
from spitemalice.bots import players
from spitemalice.cli import main
from spitemalice.engine.views import HIDDEN
from spitemalice.formats import Undone, load_record, replay, save_record
from spitemalice.play import HUMAN, PlayError, Session
from spitemalice.wording import for_terminal


@pytest.fixture(scope="module")
def short() -> sm.RuleBook:
    return sm.load("blackwood-frey", params={"payoff_size": 5})


def _to_person(session: Session) -> None:
    while session.bot_on_turn:
        session.play_bot()


def _finish(session: Session, seat: int = 0) -> None:
    """Play the game out: the person always makes its first legal move."""
    _to_person(session)
    while not session.is_over:
        session.play(seat, session.table_view(seat).legal[0])
        _to_person(session)


def test_a_whole_game_ends_with_a_record_that_replays_to_it(short: sm.RuleBook) -> None:
    session = Session(short, [HUMAN, "greedy"], seed=11)
    _finish(session)
    record = session.record()
    assert record.outcome is not None and record.outcome == session.state.outcome
    assert sm.check_record(record) is None
    assert list(replay(record)) == session._states
    assert [p.text for p in session.history] == list(record.moves)
    # the seat of every move is the seat on turn before it
    assert [p.seat for p in session.history] == [s.seat for s in session._states[:-1]]


def test_a_refused_move_names_its_clause_and_changes_nothing(short: sm.RuleBook) -> None:
    session = Session(short, [HUMAN, "greedy"], seed=11)
    _to_person(session)
    before, moves = session.state, len(session.history)
    with pytest.raises(sm.IllegalMove) as caught:
        session.play(0, "pass")  # BF-20: no passing while a move is legal
    assert session.state is before and len(session.history) == moves
    told = session.refusal(caught.value)
    assert (told.reason, told.clause) == ("pass-not-allowed", "BF-20")
    assert told.clause_text == short.clause("BF-20").text and told.clause_text
    with pytest.raises(sm.NotationError):
        session.play(0, "9H>>B2")
    assert session.state is before


def test_a_person_moves_only_for_its_own_seat_and_only_on_turn() -> None:
    rules = sm.load("blackwood-frey", params={"payoff_size": 5, "players": 3})
    session = Session(rules, [HUMAN, "greedy", HUMAN], seed=2)
    with pytest.raises(PlayError, match="greedy bot"):
        session.play(1, "pass")
    off_turn = next(s for s in session.people if s != session.on_turn)
    with pytest.raises(sm.IllegalMove) as caught:
        session.play(off_turn, "pass")
    assert caught.value.reason == "not-on-turn"
    for bad in (3, -1, True, "0"):
        with pytest.raises(PlayError, match="from 0 to 2"):
            session.table_view(bad)  # type: ignore[arg-type]


def test_undo_goes_back_to_the_persons_previous_decision(short: sm.RuleBook) -> None:
    session = Session(short, ["greedy", HUMAN], seed=5)
    _to_person(session)
    with pytest.raises(PlayError, match="no move to take back"):
        session.undo(1)
    first = session.state
    session.play(1, session.table_view(1).legal[0])
    while session.on_turn == 1 and not session.is_over:  # the rest of the person's turn
        session.play(1, session.table_view(1).legal[-1])
    _to_person(session)
    decision, made = session._states[-1], len(session.history)
    last_own = max(i for i, p in enumerate(session.history) if p.seat == 1)
    taken = session.undo(1)
    assert taken == made - last_own >= 2  # the person's move and the bot's turn after it
    assert session.state == session._states[last_own] and session.on_turn == 1
    assert session.state != decision
    while session.undo(1):  # back, decision by decision, to the deal's first decision
        if session.state == first:
            break
    assert session.state == first and all(p.seat == 0 for p in session.history)
    with pytest.raises(PlayError, match="bot"):
        session.undo(0)


def test_a_game_with_undos_is_recorded_as_practice(
        short: sm.RuleBook, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Undo shows the person cards drawn after the move taken back, so the record keeps every
    undo (where it went back to, what it took back) and calls the game practice: in the
    file, after a resume, in ``spitemalice check``; and once the game is over its moves stay."""
    path = tmp_path / "game.json"
    session = Session(short, [HUMAN, "greedy"], seed=5, record_path=path)
    assert not session.record().practice
    _to_person(session)
    session.play(0, session.table_view(0).legal[-1])
    _to_person(session)
    made = [p.text for p in session.history]
    at = max(i for i, p in enumerate(session.history) if p.seat == 0)
    session.undo(0)
    assert session.record().undone == (Undone(at, tuple(made[at:])),)
    saved = load_record(path)
    assert saved.practice and saved.undone == session.record().undone
    resumed = Session.resume(saved, record_path=path, overwrite=True)
    _finish(resumed)
    finished = load_record(path)
    assert finished.practice and finished.undone == saved.undone
    assert sm.check_record(finished) is None
    assert main(["check", str(path)]) == 0
    assert "practice game: " in capsys.readouterr().out
    with pytest.raises(PlayError, match="over"):
        resumed.undo(0)
    assert load_record(path) == finished
    data = sm.formats.record_to_dict(finished)
    data["undone"][0]["moves"] = []
    with pytest.raises(sm.DataError, match=r"undone\[0\]\.moves"):
        sm.formats.record_from_dict(data)


def test_undo_is_refused_when_another_seat_is_a_person() -> None:
    rules = sm.load("blackwood-frey", params={"payoff_size": 5, "players": 3})
    session = Session(rules, [HUMAN, "greedy", HUMAN], seed=4)
    while not session.history or session.history[-1].seat not in session.people:
        if session.bot_on_turn:
            session.play_bot()
        else:
            session.play(session.on_turn, session.table_view(session.on_turn).legal[0])
    mover = session.history[-1].seat
    before = session.state
    with pytest.raises(PlayError, match="every other seat to be a bot"):
        session.undo(mover)
    assert session.state is before


def test_the_record_file_holds_each_move_before_it_is_announced(
        short: sm.RuleBook, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session(short, [HUMAN, "greedy"], seed=11, record_path=path)
    assert load_record(path).moves == ()
    for _ in range(6):
        played = session.play_bot() if session.bot_on_turn else session.play(
            0, session.table_view(0).legal[0])
        assert load_record(path).moves[-1] == played.text
        assert load_record(path) == session.record()
    with pytest.raises(PlayError, match="exists already"):
        Session(short, [HUMAN, "greedy"], record_path=path)
    # a move whose record cannot be written is not made
    (tmp_path / "gone").mkdir()
    lost = Session(short, [HUMAN, "greedy"], seed=11, record_path=tmp_path / "gone" / "g.json")
    (tmp_path / "gone" / "g.json").unlink()
    (tmp_path / "gone").rmdir()
    before = lost.state
    with pytest.raises(PlayError, match="cannot write the record"):
        lost.play_bot() if lost.bot_on_turn else lost.play(0, lost.table_view(0).legal[0])
    assert lost.state is before and lost.history == ()


def test_save_and_resume_continue_the_same_game(short: sm.RuleBook, tmp_path: Path) -> None:
    session = Session(short, [HUMAN, "heuristic"], names=["ann", "bot"], seed=8)
    for _ in range(9):
        session.play_bot() if session.bot_on_turn else session.play(
            0, session.table_view(0).legal[0])
    path = session.save(tmp_path / "saved.json")
    with pytest.raises(PlayError, match="exists already"):
        session.save(path)
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    session.save(link, overwrite=True)  # the link is replaced, not followed
    assert not (tmp_path / "elsewhere.json").exists() and not link.is_symlink()
    again = Session.resume(load_record(path))
    assert again.state == session.state and again.history == session.history
    assert again.seats == session.seats and again.kinds == (HUMAN, "heuristic")
    _finish(again)
    _finish(session)
    assert again.state == session.state  # the bot is deterministic: the same game


def test_resume_can_seat_a_person_where_a_bot_sat(short: sm.RuleBook, tmp_path: Path) -> None:
    record = sm.record_game(short, 3, seats=["greedy", "greedy"])
    session = Session.resume(record, kinds=["greedy", HUMAN], record_path=tmp_path / "r.json")
    assert session.people == (1,) and load_record(tmp_path / "r.json").seats[1].kind == HUMAN
    with pytest.raises(PlayError, match="give a kind for each"):
        Session.resume(record, kinds=[HUMAN])
    with pytest.raises(sm.SpiteMaliceError, match='unknown player "nobody"'):
        Session(short, [HUMAN, "nobody"])


def test_the_hint_is_a_legal_move_from_the_seats_view_alone(short: sm.RuleBook) -> None:
    session = Session(short, [HUMAN, "greedy"], seed=21)
    _to_person(session)
    hint = session.hint(0)
    assert hint in sm.legal_moves(short, session.state)
    twin = hidden_twin(session.state, 0, random.Random(1))
    assert twin != session.state
    session._states[-1] = twin
    assert session.hint(0) == hint  # the hidden cards do not change it
    with pytest.raises(PlayError, match="seat 0 is on turn"):
        session.hint(1)
    assert players.STRONGEST in players.PLAYERS


def test_a_bot_is_handed_only_its_seats_view(short: sm.RuleBook,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[sm.GameState] = []

    class Spy:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, rules, state, moves):  # type: ignore[no-untyped-def]
            seen.append(state)
            return moves[0]

    monkeypatch.setitem(players.PLAYERS, "spy", Spy)
    session = Session(short, [HUMAN, "spy"], seed=1)
    _finish(session)
    assert seen
    for state in seen:
        others = [s.hand for i, s in enumerate(state.seats) if i != state.seat]
        assert all(card is HIDDEN for hand in others for card in hand)
        assert all(card is HIDDEN for card in state.draw) and state.seed == 0


def test_a_table_view_depends_only_on_the_seats_view(short: sm.RuleBook) -> None:
    session = Session(short, [HUMAN, "greedy"], names=["ann", "bea"], seed=30)
    for _ in range(12):
        session.play_bot() if session.bot_on_turn else session.play(
            0, session.table_view(0).legal[-1])
    for seat in (0, 1):
        seen = session.table_view(seat)
        twin_session = Session.resume(session.record())
        twin_session._states[-1] = hidden_twin(session.state, seat, random.Random(seat))
        assert twin_session.table_view(seat) == seen
    seen = session.table_view(session.on_turn)
    assert seen.last == session.history[-1] and seen.moves_made == len(session.history)
    assert [b.needs for b in seen.builds] == [len(p) + 1 for p in session.state.builds]
    assert seen.legal == sm.legal_moves(short, session.state)
    assert session.table_view(1 - session.on_turn).legal == ()


def test_a_bad_record_is_refused_whole(short: sm.RuleBook, tmp_path: Path) -> None:
    record = sm.record_game(short, 3, ["9H>B7"], seats=[HUMAN, "greedy"])
    with pytest.raises(sm.SpiteMaliceError, match="move 1"):
        Session.resume(record)
    path = tmp_path / "bad.json"
    save_record(attrs.evolve(record, moves=()), path)
    assert Session.resume(load_record(path)).history == ()


@pytest.mark.parametrize(("text", "shown"), [
    ("ann", "ann"),
    ("\x1b]0;PWNED\x07\x1b[2J", "\\x1b]0;PWNED\\x07\\x1b[2J"),
    ("a\x9bb", "a\\x9bb"),  # the one-byte CSI
    ("abc\u202edef", "abc\\u202edef"),  # a right-to-left override hides what follows
    ("tag\U000e0041", "tag\\U000e0041"),
    ("two\nlines", "two\\nlines"),
    ("Pik-Dame ♠ é", "Pik-Dame ♠ é"),
])
def test_for_terminal_escapes_what_a_terminal_would_act_on(text: str, shown: str) -> None:
    assert for_terminal(text) == shown
    assert for_terminal("one\ntwo\x1b", lines=True) == "one\ntwo\\x1b"


def test_a_move_that_completes_a_build_pile_says_so(tmp_path: Path) -> None:
    """BF-6: a pile that reaches the build ceiling leaves the table, so after such a move its
    number names the next pile.  The move says it completed its pile, in words, in the
    server's ``last`` (which then marks no pile) and after a resume."""
    from spitemalice.play import screen
    from spitemalice.server import messages

    rules = sm.load("blackwood-frey", params={"payoff_size": 12})
    session = Session(rules, ["greedy", "greedy"], seed=3, record_path=tmp_path / "g.json")
    while not session.is_over:
        session.play_bot()
    states = list(replay(session.record()))
    ceiling = rules.ruleset.build_ceiling
    expected = [isinstance(p.move, sm.Play) and p.move.pile != sm.NEW_PILE
                and sm.model.top_ranks(before.builds, before.build_removed)[p.move.pile] + 1
                == ceiling for p, before in zip(session.history, states, strict=False)]
    assert [p.completed for p in session.history] == expected and sum(expected) >= 2
    assert [p.completed for p in Session.resume(load_record(tmp_path / "g.json")).history] \
        == expected
    number = expected.index(True)
    again = Session.resume(attrs.evolve(session.record(), moves=session.record().moves[
        :number + 1], outcome=None))
    table = again.table_view(0)
    pile = table.last.move.pile + 1
    assert table.last.note.startswith(f"build pile {pile} is complete and set aside")
    assert screen.played_line(rules, table, table.last).endswith(
        f"   [{table.last.text}]; {table.last.note}")
    last = messages.state(table, 1)["last"]
    assert last["completed"] is True and last["to"] is None
    assert last["note"] == table.last.note  # the browser's log says it too


@pytest.mark.parametrize(("number", "before", "shuffled", "said"), [
    (1, 1, False, "build pile 1 is complete and set aside"),
    (1, 2, False, "build pile 1 is complete and set aside; build pile 2 is now build pile 1"),
    (2, 4, False, "build pile 2 is complete and set aside; build piles 3 and 4 are now "
                  "build piles 2 and 3"),
    (1, 4, True, "build pile 1 is complete and shuffled into the draw pile; build piles 2 to "
                 "4 are now build piles 1 to 3"),
    (3, 3, True, "build pile 3 is complete and shuffled into the draw pile"),
])
def test_a_completed_pile_is_announced_with_the_piles_it_renumbers(
        number: int, before: int, shuffled: bool, said: str) -> None:
    """BF-6 (a complete pile is set aside) and uspcc's shuffle-in: the piles after the
    completed one move up a number, and the note names each of them (issue 36 §1)."""
    from spitemalice.play.table_view import completion_note

    assert completion_note(number, before, shuffled) == said


@pytest.mark.parametrize(("number", "before"), [(0, 2), (3, 2), (1, 0)])
def test_a_completion_note_of_no_open_pile_is_refused(number: int, before: int) -> None:
    from spitemalice.play.table_view import completion_note

    with pytest.raises(sm.SpiteMaliceError, match="give a number from 1 to piles_before"):
        completion_note(number, before)


def test_a_discard_from_a_discard_pile_is_refused_citing_the_rule(short: sm.RuleBook) -> None:
    """``D1:9C>D2`` said "'D1:9C' is not a card"; now it says cards never move from one
    discard pile to another, names the moves legal now from that pile and onto that discard
    pile, cites the sheet's clause of discards, and changes nothing."""
    session = Session(short, [HUMAN, "greedy"], seed=11)
    _to_person(session)
    before, moves = session.state, len(session.history)
    with pytest.raises(sm.NotationError) as caught:
        session.play(session.state.seat, "D1:9C>D2")
    assert session.state is before and len(session.history) == moves
    message = str(caught.value)
    assert "cards never move from one discard pile to another" in message
    assert message.endswith("(rule BF-14: A turn ends when the seat puts exactly one hand "
                            "card on one of its discard piles; cards go to discard piles "
                            "only from the hand.)")


@pytest.mark.parametrize("typed", ["D1:9C>D2", "P:9C>D2", "D1 : 9C > D2", "P:9C>D9"])
def test_a_discard_from_a_pile_offers_only_legal_moves(short: sm.RuleBook, typed: str) -> None:
    """``D1:9C>D2`` offered ``9C>D2`` and ``D1:9C>B1`` with no 9C in the hand or on the pile:
    the moves offered are the legal ones from that pile and onto that discard pile, and
    where there are none the refusal says so."""
    session = Session(short, [HUMAN, "greedy"], seed=11)
    _to_person(session)
    state, seat = session.state, session.state.seat
    assert sm.parse_card("9C") not in state.seats[seat].hand
    with pytest.raises(sm.NotationError) as caught:
        session.play(seat, typed)
    offered = str(caught.value).partition("; legal now: ")[2].partition(" (rule ")[0]
    source = "pay-off pile 1" if typed.startswith("P") else "discard pile 1"
    target = typed.rpartition(">")[2].strip()
    legal = session.table_view(seat).legal
    plays = [str(m) for m in legal if isinstance(m, sm.Play) and str(m).startswith(typed[0])]
    discards = [str(m) for m in legal if str(m).endswith(f">{target}")]
    assert offered == "; ".join([
        f"{', '.join(plays)} from {source}" if plays else f"nothing from {source}",
        (f"{', '.join(discards[:-1])} or {discards[-1]} onto discard pile {target[1:]}"
         if discards else f"no discard onto discard pile {target[1:]}")])
    assert "9C>" not in offered
    assert all(sm.is_legal(session.rules, state, sm.parse_move(move))
               for move in re.findall(r"\S+>[BD][0-9+]+", offered))


def test_a_move_typed_with_spaces_around_its_parts_is_played(short: sm.RuleBook) -> None:
    """``AC > B+`` was refused as not a move at the table (the terminal game, the server's
    tables); spaces next to ``>``, ``+``, ``:`` and ``.`` are read as absent."""
    session = Session(short, [HUMAN, "greedy"], seed=11)
    _to_person(session)
    legal = session.table_view(session.state.seat).legal
    move = max(legal, key=lambda m: sum(str(m).count(mark) for mark in ">+:."))
    typed = " ".join(str(move).replace(">", " > ").replace(":", " : ").split()) + " "
    assert typed.strip() != str(move)
    assert session.play(session.state.seat, typed).move == move
