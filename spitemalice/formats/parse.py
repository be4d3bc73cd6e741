"""Reading the position notation: :func:`parse_position`, :func:`parse_view`,
:func:`seat_count`.

The grammar is in :mod:`spitemalice.formats.notation`, which writes it.  Every reader checks
what it read against the rule set (:mod:`spitemalice.formats.position_check`) and raises only
:class:`~spitemalice.errors.NotationError` (text outside the grammar, naming the section, seat
and pile) and :class:`~spitemalice.errors.PositionError` (a position the rule set cannot hold).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from spitemalice import guards, limits, wording
from spitemalice.cards import Card, card_text, parse_card
from spitemalice.engine.views import PayoffView, PublicSeat, SeatView
from spitemalice.errors import NotationError, SpiteMaliceError
from spitemalice.formats.notation import EMPTY, RECYCLED, REST, Part, teams_field
from spitemalice.formats.position_check import check_card_counts, check_position, check_view
from spitemalice.model import OUTCOME_KINDS, GameState, Outcome, Pile, Seat, sort_hand
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.policies import same_teams
from spitemalice.rules.ruleset import closest

_STATE_KEYS = ("on", "turn", "moves", "idle", "seed", "shuffles", "end", "teams")
_VIEW_KEYS = ("view", "on", "turn", "moves", "idle", "end", "teams")


def parse_position(text: str, rules: RuleBook) -> GameState:
    """The state a full position text states, checked against ``rules``.

    Raises:
        NotationError: the text is not in the grammar, or hides cards (``?n``); the message
            names the section, seat and pile; or ``rules``' seats move at once
            (``no-notation``).
        PositionError: the position breaks the rule set (see
            :func:`~spitemalice.formats.position_check.check_position`).
    """
    check_book(rules, "parse_position")
    _turn_based(rules)
    sections, fields, outcome = _split(_take_teams(text, rules), _STATE_KEYS)
    if "on" not in fields:
        raise NotationError("position: the field 'on=<seat>' (the seat on turn) is missing",
                            "field-missing")
    raw_seats = _seats(sections[0])
    seats = []
    for index, (payoff, hand, discards) in enumerate(raw_seats):
        where = f"seat {index}"
        seats.append(Seat(
            tuple(_known(p, f"{where} pay-off pile {n}") for n, p in enumerate(payoff, 1)),
            _known(hand, f"{where} hand"),
            tuple(_known(p, f"{where} discard pile {n}") for n, p in enumerate(discards, 1)),
        ))
    builds, removed = _builds(sections[1])
    completed = _known(_parse_pile(sections[3], "completed cards"), "completed cards")
    placed = [c for s in seats for c in (*s.hand, *_flat(s.payoff), *_flat(s.discards))]
    placed += [*_flat(builds), *completed]
    if sections[2] == REST:
        draw = _rest(rules, placed)
    else:
        draw = _known(_parse_pile(sections[2], "draw pile"), "draw pile")
    state = GameState(
        tuple(seats), builds, draw, completed,
        seat=fields["on"], turn=fields.get("turn", 0), turn_moves=fields.get("moves", 0),
        idle_turns=fields.get("idle", 0), seed=fields.get("seed", 0),
        shuffles=fields.get("shuffles", 0), outcome=outcome, build_removed=removed,
    )
    check_position(rules, state)
    return state


def _turn_based(rules: RuleBook) -> None:
    """Refuse a rule set whose seats move at once: the notation states a seat on turn."""
    if rules.simultaneous is not None:
        raise NotationError(
            f"{rules.name}'s seats move at once, so its positions have no text in this "
            f"notation (it states the seat on turn); a record shows them: spitemalice "
            f"replay --seat N RECORD", "no-notation")


def parse_view(text: str, rules: RuleBook) -> SeatView:
    """The seat view a view text states (it has a ``view=<seat>`` field), checked against
    ``rules``.

    Raises:
        NotationError: ``rules``' seats move at once (``no-notation``); the text is not in
            the grammar, lacks ``view=`` or ``on=``, shows
            another seat's hand or a card under a pay-off pile's top card by card, or has a
            pay-off pile whose top is hidden.
        PositionError: the visible position breaks the rule set.
    """
    check_book(rules, "parse_view")
    _turn_based(rules)
    sections, fields, outcome = _split(_take_teams(text, rules), _VIEW_KEYS)
    for key, what in (("view", "the viewing seat"), ("on", "the seat on turn")):
        if key not in fields:
            raise NotationError(f"view: the field '{key}=<seat>' ({what}) is missing",
                                "field-missing")
    if sections[2] == REST:
        raise NotationError("view: the draw pile is '?<count>' or '-' in a view, not 'rest'",
                            "view-form")
    viewer = fields["view"]
    raw_seats = _seats(sections[0])
    if viewer >= len(raw_seats):
        raise NotationError(f"view: view={viewer}, but the position has "
                            f"{wording.count_of(len(raw_seats), 'seat')}",
                            "view-form")
    hand: Pile = ()
    publics = []
    for index, (payoff, raw_hand, discards) in enumerate(raw_seats):
        where = f"seat {index}"
        if index == viewer:
            hand = _known(raw_hand, f"{where} hand (the viewer's own)")
            hand_count = len(hand)
        elif any(isinstance(part, Card) for part in raw_hand):
            raise NotationError(f"{where} hand: seat {viewer}'s view shows it only as a "
                                f"count ('?{_count(raw_hand)}')", "view-form")
        else:
            hand_count = _count(raw_hand)
        publics.append(PublicSeat(
            tuple(_payoff_pile(p, f"{where} pay-off pile {n}") for n, p in enumerate(payoff, 1)),
            hand_count,
            tuple(_known(p, f"{where} discard pile {n}") for n, p in enumerate(discards, 1)),
        ))
    draw = _hidden_only(_parse_pile(sections[2], "draw pile"), "draw pile")
    completed = _hidden_only(_parse_pile(sections[3], "completed cards"), "completed cards")
    builds, removed = _builds(sections[1])
    view = SeatView(
        viewer, hand, tuple(publics), builds, draw, completed,
        fields["on"], fields.get("turn", 0), fields.get("moves", 0), fields.get("idle", 0),
        outcome, removed,
    )
    check_view(rules, view)
    return view


def seat_count(text: str) -> int:
    """How many seats a position or view text lists: its first section holds one block per
    seat, ``/`` between them.  Read before the rules are loaded, so that a text in the wrong
    shape is refused as such rather than as a player count the rules do not allow.

    Raises:
        NotationError: ``text`` is not text, is too long, or lacks the four pile sections.
    """
    return _sections(text)[0].count("/") + 1


def _sections(text: str) -> list[str]:
    """The whitespace-separated tokens of a position or view text, once its four pile
    sections are known to be there."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}", "not-text")
    if len(text) > limits.MAX_POSITION_CHARS:
        raise NotationError(f"position {_short(text)!r} is {len(text):,} characters long; at "
                            f"most {limits.MAX_POSITION_CHARS:,} are read", "too-long")
    tokens = text.split()
    sections = tokens[:4]
    if len(sections) < 4 or any("=" in token for token in sections):
        raise NotationError(
            f"position {_short(text)!r}: expected four sections (seats, build piles, draw "
            "pile, completed cards) before the key=value fields, as "
            "'AS:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0'",
            "sections",
        )
    return tokens


def _split(text: str, keys: tuple[str, ...]) -> tuple[list[str], dict[str, int], Outcome | None]:
    """The four pile sections and the parsed fields of a position or view text."""
    tokens = _sections(text)
    sections = tokens[:4]
    fields: dict[str, int] = {}
    outcome: Outcome | None = None
    for token in tokens[4:]:
        key, sep, value = token.partition("=")
        if not sep:
            raise NotationError(f"position field {token!r}: write fields as key=value "
                                f"({', '.join(keys)})", "field-value")
        if key == "view" and key not in keys:
            raise NotationError("position field 'view': this text is a seat's view, not a full "
                                "position; read it with parse_view", "view-form")
        if key not in keys:
            extra = (" (a view has no seed or shuffles: they would reveal hidden cards)"
                     if key in ("seed", "shuffles") else "")
            if "view" not in keys:
                extra += " (and view, in a seat's view)"
            raise NotationError(f"position field {key!r} is unknown{closest(key, keys)}; the "
                                f"fields are {', '.join(keys)}{extra}", "field-unknown")
        if key in fields or (key == "end" and outcome is not None):
            raise NotationError(f"position field {key!r} is given twice", "field-repeated")
        if key == "end":
            outcome = _outcome(value)
        else:
            fields[key] = _number(key, value)
    return sections, fields, outcome


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _number(key: str, value: str) -> int:
    number = guards.whole_number(value)
    if number is None:
        digits = value.isascii() and value.isdigit()  # else the limit is not what is wrong
        raise NotationError(f"position field {key}={_short(value)!r}: expected a whole number "
                            f">= 0 of " + (f"at most {limits.MAX_DIGITS} digits" if digits
                                           else "the digits 0 to 9"), "field-value")
    return number


def _outcome(value: str) -> Outcome:
    parts = value.split(":")
    form = "'end=<kind>:<winner seat or ->:<score>,<score>...', as 'end=win:1:35,0'"
    if len(parts) != 3:
        raise NotationError(f"position field end={value!r}: expected {form}", "field-value")
    kind, winner, scores = parts
    if kind not in OUTCOME_KINDS:
        raise NotationError(f"position field end={value!r}: the kind is one of "
                            f"{', '.join(OUTCOME_KINDS)}, not {kind!r}", "field-value")
    seat = None if winner == "-" else guards.whole_number(winner)
    if winner != "-" and seat is None:
        raise NotationError(f"position field end={_short(value)!r}: the winner is a seat "
                            f"number or '-', not {_short(winner)!r}", "field-value")
    points = tuple(_score(score) for score in scores.split(","))
    if None in points:
        raise NotationError(f"position field end={_short(value)!r}: scores are whole numbers "
                            f"of at most {limits.MAX_DIGITS} digits separated by commas, not "
                            f"{_short(scores)!r}", "field-value")
    try:
        return Outcome(kind, seat, points)  # type: ignore[arg-type]
    except SpiteMaliceError as error:  # the fields disagree: "drawn" with a winner, say
        raise NotationError(f"position field end={_short(value)!r}: {error}",
                            "field-value") from None


def _score(text: str) -> int | None:
    """A score: a whole number, possibly negative (some rule sets score below zero)."""
    number = guards.whole_number(text.removeprefix("-"))
    return None if number is None else (-number if text.startswith("-") else number)


def _seats(section: str) -> list[tuple[list[list[Part]], list[Part], list[list[Part]]]]:
    seats = []
    for index, text in enumerate(section.split("/")):
        parts = text.split(":")
        if len(parts) != 3:
            raise NotationError(
                f"seat {index} {text!r}: expected '<pay-off piles>:<hand>:<discard piles>', "
                "as '?25,9H:2S,5H:-|4S|-|-' (piles separated by '|', '-' for an empty one)",
                "sections",
            )
        payoff, hand, discards = parts
        seats.append((
            [_parse_pile(p, f"seat {index} pay-off pile {n}")
             for n, p in enumerate(payoff.split("|"), 1)],
            _parse_pile(hand, f"seat {index} hand"),
            [_parse_pile(p, f"seat {index} discard pile {n}")
             for n, p in enumerate(discards.split("|"), 1)],
        ))
    return seats


def _builds(section: str) -> tuple[tuple[Pile, ...], tuple[int, ...]]:
    """The build piles and the cards recycled from under each (``()`` when none was)."""
    if section == EMPTY:
        return (), ()
    piles, removed = [], []
    for n, text in enumerate(section.split("|"), 1):
        where = f"build pile {n}"
        count = 0
        if text.startswith(RECYCLED):
            mark, _, text = text.partition(",")
            number = guards.whole_number(mark[1:])
            if number is not None and number >= 1 and not text:
                raise NotationError(
                    f"{where}: {_short(mark)!r} names no pile; write '~', the cards recycled "
                    "from under the pile, a comma and the pile, as '~4,5'", "pile-text")
            if number is None or number < 1:
                raise NotationError(
                    f"{where}: {_short(mark)!r} is not a count of recycled cards, a whole "
                    "number of 1 or more; write '~', the cards recycled from under the pile, "
                    "a comma and the pile, as '~4,5' (a pile with nothing recycled is "
                    "written without '~', as '5')", "pile-text")
            count = number
        piles.append(_known(_parse_pile(text, where), where))
        removed.append(count)
    return tuple(piles), (tuple(removed) if any(removed) else ())


def _parse_pile(text: str, where: str) -> list[Part]:
    if text == EMPTY:
        return []
    if not text:
        raise NotationError(f"{where}: empty text; write '-' for an empty pile", "pile-text")
    parts: list[Part] = []
    for part in text.split(","):
        if part.startswith("?"):
            count = guards.whole_number(part[1:])
            if count is None or count < 1:
                raise NotationError(f"{where}: {_short(part)!r} is not a hidden count; write "
                                    "'?' and a number of cards, as '?24'", "pile-text")
            parts.append(count)
        else:
            try:
                parts.append(parse_card(part))
            except NotationError as error:
                raise NotationError(f"{where}: {error}", error.reason) from None
    return parts


def _known(parts: list[Part], where: str) -> Pile:
    for part in parts:
        if not isinstance(part, Card):
            raise NotationError(
                f"{where}: '?{part}' hides cards; a full position lists every card (hidden "
                "counts belong in a seat's view, which has a 'view=' field)",
                "view-form",
            )
    return tuple(parts)  # type: ignore[arg-type]


def _count(parts: list[Part]) -> int:
    return sum(1 if isinstance(part, Card) else part for part in parts)


def _hidden_only(parts: list[Part], where: str) -> int:
    if any(isinstance(part, Card) for part in parts):
        raise NotationError(f"{where}: a view shows it only as a count, as '?{_count(parts)}'",
                            "view-form")
    return _count(parts)


def _payoff_pile(parts: list[Part], where: str) -> PayoffView:
    if not parts:
        return PayoffView(0, None)
    top = parts[-1]
    if not isinstance(top, Card):
        raise NotationError(f"{where}: the top card of a pay-off pile is face up; write it "
                            f"after the hidden count, as '?{top - 1},9H'", "view-form")
    if any(isinstance(part, Card) for part in parts[:-1]):
        raise NotationError(f"{where}: the cards under a pay-off pile's top are face down; a "
                            f"view shows them only as a count, as '?{_count(parts) - 1},"
                            f"{card_text(top)}'", "view-form")
    return PayoffView(_count(parts), top)


def _flat(piles: Sequence[Pile]) -> list[Card]:
    return [card for pile in piles for card in pile]


def _rest(rules: RuleBook, placed: list[Card]) -> Pile:
    deck = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    check_card_counts(rules, placed)
    deck.subtract(placed)
    return sort_hand(deck.elements())


def _take_teams(text: str, rules: RuleBook) -> str:
    """``text`` without its ``teams=`` field, once that field is checked against the teams
    ``rules`` form.

    Raises:
        NotationError: the field is given twice, is not in the form ``0+2/1+3``, or names
            teams other than the rules' (or teams where the rules have none).
    """
    if not isinstance(text, str) or len(text) > limits.MAX_POSITION_CHARS:
        return text  # _split refuses it with the usual message
    tokens = text.split()
    given = [token for token in tokens if token.startswith("teams=")]
    if not given:
        return text
    if len(given) > 1:
        raise NotationError("position field 'teams' is given twice", "field-repeated")
    value = given[0][len("teams="):]
    want = teams_field(rules.teams.teams)
    seats = [[guards.whole_number(seat) for seat in team.split("+")]
             for team in value.split("/")]
    if not want or not all(None not in team for team in seats) \
            or not same_teams(seats, rules.teams.teams):  # type: ignore[arg-type]
        form = want[0] if want else "no teams field: the rules play without teams"
        raise NotationError(f"position field teams={_short(value)!r}: {rules.name} here has "
                            f"{form}", "field-value")
    return " ".join(token for token in tokens if token is not given[0])
