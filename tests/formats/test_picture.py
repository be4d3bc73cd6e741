"""SVG pictures of positions: the document parses and draws exactly the cards the position
(or the view) shows, and the command line writes them."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest
from helpers.walks import hidden_twin

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.cli import main
from spitemalice.engine.views import view_of
from spitemalice.formats.picture import position_svg

ROOT = Path(__file__).parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def mid_game(name: str = "blackwood-frey", players: int = 3, moves: int = 160,
             seed: int = 7) -> tuple[sm.RuleBook, sm.GameState]:
    rules = sm.load(name, players=players)
    state = sm.deal(rules, seed)
    bots = [GreedyPlayer(seat) for seat in range(players)]
    for _ in range(moves):
        if state.outcome is not None:
            break
        options = sm.legal_moves(rules, state)
        state = sm.apply_move(rules, state, bots[state.seat].choose(rules, state, options))
    return rules, state


def drawn(svg: str) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Face-up card texts by zone, in drawing order, and face-down counts by zone."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    cards: dict[str, list[str]] = defaultdict(list)
    backs: dict[str, int] = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "card":
            cards[group.get("data-zone", "")].append(group.get("data-card", ""))
        elif group.get("class") == "card-back":
            backs[group.get("data-zone", "")] = int(group.get("data-count", "-1"))
    return dict(cards), backs


def expected(state: sm.GameState, viewer: int | None = None) -> dict[str, list[str]]:
    cards: dict[str, list[str]] = {}
    for number, pile in enumerate(state.builds, 1):
        cards[f"build{number}"] = [str(pile[-1])]
    for index, seat in enumerate(state.seats):
        for number, pile in enumerate(seat.payoff, 1):
            if pile:
                cards[f"seat{index}-payoff{number}"] = [str(pile[-1])]
        for number, pile in enumerate(seat.discards, 1):
            if pile:
                cards[f"seat{index}-discard{number}"] = [str(card) for card in pile]
        if seat.hand and viewer in (None, index):
            cards[f"seat{index}-hand"] = [str(card) for card in seat.hand]
    return cards


def test_a_mid_game_state_draws_every_card_it_shows_and_nothing_else() -> None:
    _, state = mid_game()
    assert state.builds and any(len(p) > 2 for s in state.seats for p in s.discards)
    cards, backs = drawn(position_svg(state, caption="blackwood-frey"))
    assert cards == expected(state)
    assert backs == {}


def test_the_header_names_the_seat_on_turn_and_the_hidden_pile_counts() -> None:
    _, state = mid_game()
    texts = [t.text or "" for t in ET.fromstring(position_svg(state)).iter(f"{SVG}text")]
    assert f"Seat {state.seat} to play \u00b7 turn {state.turn + 1} \u00b7 0 card(s) moved " \
           "this turn" in texts
    assert f"draw pile: {len(state.draw)}" in texts
    assert f"completed: {len(state.completed)}" in texts
    counts = [str(len(p)) for s in state.seats for p in s.payoff]
    assert all(count in texts for count in counts)


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_a_view_shows_only_the_viewers_hand(viewer: int) -> None:
    _, state = mid_game()
    cards, backs = drawn(position_svg(state, viewer=viewer))
    assert cards == expected(state, viewer)
    hidden = {f"seat{i}-hand": len(s.hand) for i, s in enumerate(state.seats)
              if i != viewer and s.hand}
    assert backs == hidden
    assert position_svg(view_of(state, viewer)) == position_svg(state, viewer=viewer)


def test_a_view_picture_depends_only_on_what_the_seat_sees() -> None:
    _, state = mid_game()
    twin = hidden_twin(state, 1, random.Random(4))
    assert twin != state
    assert position_svg(twin, viewer=1) == position_svg(state, viewer=1)
    assert position_svg(twin) != position_svg(state)


def test_a_wild_card_on_a_build_pile_is_marked_and_jokers_and_numbers_are_drawn() -> None:
    rules = sm.load("blackwood-frey", jokers=6)
    text = ("JS,4D,9H:2S,5H,7D,QS,*:-|4S|-|-/8C,QH:3C,3D,6S,9D,JH:-|-|-|- AS,2H,KD|AH rest - "
            "on=1")
    state = sm.parse_position(text, rules)
    svg = position_svg(state)
    texts = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]
    # the rank the wild card stands for, and "(wild)" on the line under it
    assert texts[texts.index("B1: 3") + 1] == "(wild)" and "B2: A" in texts
    assert "*" in drawn(svg)[0]["seat0-hand"]
    starturn = sm.load("starturn")
    _, numbered = mid_game("starturn", players=2, moves=20)
    assert numbered.seats[0].hand
    cards, _ = drawn(position_svg(numbered))
    assert cards == expected(numbered)
    assert starturn.players == 2


def test_a_finished_game_shows_its_outcome() -> None:
    record = sm.load_record(ROOT / "seeds" / "records" / "misery.json")
    final = list(sm.replay(record))[-1]
    assert final.outcome is not None and final.outcome.winner is not None
    texts = [t.text or "" for t in ET.fromstring(position_svg(final)).iter(f"{SVG}text")]
    assert any(t.startswith(f"Game over: win by seat {final.outcome.winner}") for t in texts)


def test_viewer_with_a_view_is_refused() -> None:
    _, state = mid_game(moves=3)
    with pytest.raises(sm.SpiteMaliceError, match="already has its viewer"):
        position_svg(view_of(state, 0), viewer=1)
    with pytest.raises(sm.SpiteMaliceError, match="seat 0 to 2"):
        position_svg(state, viewer=3)


def test_show_svg_writes_the_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, state = mid_game()
    out = tmp_path / "mid.svg"
    assert main(["show", sm.format_position(state), "--ruleset", "blackwood-frey",
                 "--svg", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    assert drawn(out.read_text(encoding="utf-8"))[0] == expected(state)


def test_show_svg_of_a_view(tmp_path: Path) -> None:
    _, state = mid_game()
    view = sm.formats.notation.format_view(view_of(state, 2))
    out = tmp_path / "view.svg"
    assert main(["show", view, "--ruleset", "blackwood-frey", "--svg", str(out)]) == 0
    assert drawn(out.read_text(encoding="utf-8"))[0] == expected(state, 2)


def test_replay_svg_writes_one_picture_per_position(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "seeds" / "records" / "g4a.json"
    record = sm.load_record(path)
    assert main(["replay", str(path), "--svg", str(tmp_path / "pics")]) == 0
    assert "outcome: win" in capsys.readouterr().out
    pictures = sorted((tmp_path / "pics").iterdir())
    assert len(pictures) == len(record.moves) + 1
    states = list(sm.replay(record))
    for number in (0, len(record.moves) // 2, len(record.moves)):
        assert pictures[number].name == f"move-{number:04d}.svg"
        svg = pictures[number].read_text(encoding="utf-8")
        assert drawn(svg)[0] == expected(states[number])
    caption = next(ET.fromstring(pictures[1].read_text(encoding="utf-8")).iter(f"{SVG}text")).text
    assert caption == f"g4a, move 1: {record.moves[0]}"


def test_an_unwritable_svg_path_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    _, state = mid_game(moves=3)
    assert main(["show", sm.format_position(state), "--ruleset", "blackwood-frey",
                 "--svg", str(blocker / "x.svg")]) == 2
    path = ROOT / "seeds" / "records" / "g4a.json"
    assert main(["replay", str(path), "--svg", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err
    json.dumps(err)


def test_show_svg_refuses_a_file_name_not_ending_in_svg(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, state = mid_game(moves=3)
    for name in ("x.png", "x", "x.svg.txt"):
        assert main(["show", sm.format_position(state), "--ruleset", "blackwood-frey",
                     "--svg", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "name a .svg file" in err and name in err
        assert not (tmp_path / name).exists()
    assert main(["show", sm.format_position(state), "--ruleset", "blackwood-frey",
                 "--svg", str(tmp_path / "X.SVG")]) == 0
