"""Moves and their text forms.

Three kinds of move exist in every rule set:

* :class:`Play` puts one card on a build pile, from the hand, from the top of one of the
  mover's pay-off piles or from the top of one of the mover's discard piles (with teams, also
  from a partner's, where the rules allow it).
* :class:`Discard` puts one hand card (two equal-rank cards under pair discards) on one of the
  mover's discard piles (with teams, a partner's where the rules allow it), which ends the
  turn.
* :class:`Pass` ends the turn without a card; it is legal only when nothing else is.

Text forms (piles are numbered from 1 in text, from 0 in code)::

    9H>B2       hand card 9H onto build pile 2
    9H>B+       hand card 9H opens a new build pile
    P:9H>B1     top of pay-off pile 1 (9H) onto build pile 1; "P2:" names pay-off pile 2
    D3:9H>B1    top of discard pile 3 (9H) onto build pile 1
    S2.D3:9H>B1 the same from seat 2's discard pile 3 (legal only from a partner's piles, where
                the rules let partners play from each other's piles)
    9H>D2       discard 9H on discard pile 2
    9H>S2.D1    discard 9H on seat 2's discard pile 1 (only where partners share discard piles)
    9H+9S>D2    discard the pair 9H, 9S on discard pile 2 (pair discards only)
    pass        end the turn without a card

Spaces around the parts are read as if absent (``AC > B+``, ``9H + 9S > D2``,
``S2 . D3 : 9H > B1``): whitespace next to ``>``, ``+``, ``:`` or ``.`` never changes what a
move says.  Inside a part (``B 1``, ``10 H``, ``B +``: the ``+`` of the new build pile is
part of its target, not a separator) it is refused, the message naming the part.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

import attrs

from spitemalice.cards import Card, card_text, parse_card
from spitemalice.errors import NotationError
from spitemalice.guards import int_field, whole_number
from spitemalice.limits import MAX_MOVE_CHARS

NEW_PILE = -1
"""``Play.pile`` value that opens a new build pile."""


class Zone(enum.Enum):
    """Where a played card comes from."""

    HAND = "H"
    PAYOFF = "P"
    DISCARD = "D"


@attrs.frozen
class Play:
    """Put ``card`` on build pile ``pile`` (0-based; :data:`NEW_PILE` opens one).

    ``index`` is the pay-off or discard pile the card is taken from (0-based); it is 0 for a
    hand card.  ``owner`` names the seat whose pile it is when a caller states it (text
    ``S1.D3:9H>B1``); ``None`` means the mover's own, the only legal owner.

    Raises:
        SpiteMaliceError: a number of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits (which pile or seat a number names is the engine's question).
    """

    zone: Zone
    card: Card
    pile: int = attrs.field(validator=int_field())
    index: int = attrs.field(default=0, validator=int_field())
    owner: int | None = attrs.field(default=None, validator=int_field())

    def __str__(self) -> str:
        target = "B+" if self.pile == NEW_PILE else f"B{self.pile + 1}"
        if self.zone is Zone.HAND:
            source = card_text(self.card)
        elif self.zone is Zone.PAYOFF:
            number = "" if self.index == 0 else str(self.index + 1)
            source = f"P{number}:{card_text(self.card)}"
        else:
            source = f"D{self.index + 1}:{card_text(self.card)}"
        owner = "" if self.owner is None else f"S{self.owner}."
        return f"{owner}{source}>{target}"


def _cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(cards)


@attrs.frozen
class Discard:
    """Put hand ``cards`` (one card, or two of equal rank) on discard pile ``pile`` (0-based).

    ``owner`` names the seat whose discard pile it is when that is not the mover (text
    ``9H>S2.D1``); ``None`` means the mover's own.

    Raises:
        SpiteMaliceError: a number of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits.
    """

    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    pile: int = attrs.field(default=0, validator=int_field())
    owner: int | None = attrs.field(default=None, validator=int_field())

    def __str__(self) -> str:
        owner = "" if self.owner is None else f"S{self.owner}."
        return "+".join(card_text(card) for card in self.cards) + f">{owner}D{self.pile + 1}"


@attrs.frozen
class Pass:
    """End the turn without moving a card (only when no other move is legal)."""

    def __str__(self) -> str:
        return "pass"


Move = Play | Discard | Pass

_SPACED = re.compile(r"\s*([>:.]|\+(?!\s*$))\s*")
"""Whitespace around a separator of a move's parts, read as absent (the ``+`` that ends a
move is the new build pile's ``B+``, a part, not a separator)."""

_SPACE_INSIDE = re.compile(r"[^\s>+:.]*\s+(?:[^\s>+:.]+|\+$)?")
"""A part with whitespace inside it, left after :data:`_SPACED`: ``B 1``, ``10 H``, ``B +``."""

_FORMS = "'9H>B2', 'P:9H>B1', 'D3:9H>B+', '9H>D2', '9H+9S>D2' or 'pass'"


def parse_move(text: str) -> Move:
    """Parse a move's text form (see the module docstring).

    Raises:
        NotationError: the text is not a move (or longer than
            :data:`~spitemalice.limits.MAX_MOVE_CHARS`); the message shows the accepted forms.
    """
    if not isinstance(text, str):
        raise NotationError(f"a move is text such as {_FORMS}, not {type(text).__name__}",
                            "not-text")
    raw = unspaced_move(text, _FORMS)
    if raw.lower() == "pass":
        return Pass()
    source, sep, target = raw.partition(">")
    if not sep or len(target) < 2:
        raise NotationError(f"move {text!r} has no target: write one of {_FORMS}", "not-a-move")
    target_owner = None
    if target[:1].upper() == "S" and "." in target:
        seat, _, target = target[1:].partition(".")
        target_owner = whole_number(seat)
        if target_owner is None or target[:1].upper() != "D":
            raise NotationError(f"move {text!r}: a seat prefix on a target names a discard "
                                "pile, as '9H>S2.D1'", "not-a-move")
    kind, number = target[:1].upper(), target[1:]
    if kind == "D":
        if ":" in source:
            raise _discard_from_pile(text, source, target)
        cards = tuple(parse_card(part) for part in source.split("+"))
        return Discard(cards, _pile_number(number, text) - 1, target_owner)
    if kind != "B":
        raise NotationError(f"move {text!r}: the target is B<n>, B+ or D<n>, not {target!r}",
                            "not-a-move")
    pile = NEW_PILE if number == "+" else _pile_number(number, text) - 1
    owner = None
    if source[:1].upper() == "S" and "." in source:
        seat, _, source = source[1:].partition(".")
        owner = whole_number(seat)
        if owner is None:
            raise NotationError(f"move {text!r}: a seat prefix is S<seat number>., as 'S1.'",
                                "not-a-move")
    zone, index, card_part = _parse_source(source, text)
    return Play(zone, parse_card(card_part), pile, index, owner)


def unspaced_move(text: str, forms: str, pairs: bool = True) -> str:
    """A move's text ``text`` (a ``str``) with the whitespace around its parts read as absent,
    for every parser of move texts (this module's :func:`parse_move`, a simultaneous game's
    such as Spit's ``S0 . P3 : 9H > C1``): ``"AC > B+"`` -> ``"AC>B+"``.  Whitespace next to
    ``>``, ``:``, ``.`` or a ``+`` that joins two cards goes; whitespace inside a part
    (``B 1``, ``10 H``, ``B +``) is refused.

    Args:
        forms: the move forms the parser reads, as a refusal shows them (``"'9H>B2' or
            'pass'"``), a ``str``.
        pairs: (a ``bool``) whether a move may name two cards joined by ``+``
            (``9H+9S>D2``); a refused ``9H 9S`` is then shown written ``9H+9S``.  Without
            pairs, two cards (``9H 9S``, ``9H + 9S``, ``9H+9S``) are refused, shown as one
            card (``9H`` or ``9S``).

    Raises:
        NotationError: ``text`` is longer than :data:`~spitemalice.limits.MAX_MOVE_CHARS`
            (``"too-long"``, showing ``forms``); has whitespace inside a part
            (``"not-a-move"``, naming the part and how it is written); has text after a
            whole move (``9H>B1 extra``, a second line; ``"not-a-move"``, naming that text:
            one move at a time); or, without ``pairs``, names two cards joined by ``+``.
        TypeError: ``text`` or ``forms`` is not a ``str``, or ``pairs`` is not a ``bool``.
    """
    if not isinstance(text, str):
        raise TypeError(f"unspaced_move takes a move's text (a str), not {type(text).__name__}")
    if not isinstance(forms, str):
        raise TypeError(f"unspaced_move takes the move forms a refusal shows (a str, as "
                        f"\"'9H>B2' or 'pass'\"), not {type(forms).__name__}")
    if not isinstance(pairs, bool):
        raise TypeError(f"unspaced_move takes pairs as True or False, not "
                        f"{type(pairs).__name__}")
    if len(text) > MAX_MOVE_CHARS:
        raise NotationError(f"move {text[:20]!r}... is {len(text)} characters long; a move has "
                            f"at most {MAX_MOVE_CHARS}, as {forms}", "too-long")
    raw = _SPACED.sub(r"\1", text.strip())
    spaced = _SPACE_INSIDE.search(raw)
    if spaced:
        gap = re.search(r"\s+", spaced.group(0))
        assert gap is not None  # the pattern holds whitespace
        head, rest = raw[:spaced.start() + gap.start()], raw[spaced.start() + gap.end():]
        if _ends_move(head, gap.group(0), rest):
            raise NotationError(f"move {text!r}: unexpected text {rest!r} after the move "
                                f"{head!r}: write one move at a time", "not-a-move")
        raise _space_inside(text, spaced.group(0), pairs)
    joined = None if pairs else _JOINED.search(raw)
    if joined:
        pieces = joined.group(0).split("+")
        if all(_is_card(piece) for piece in pieces):
            one = " or ".join(card_text(parse_card(piece)) for piece in pieces)
            raise NotationError(f"move {text!r}: {joined.group(0)!r}: a move here names one "
                                f"card; write one card, {one}", "not-a-move")
    return raw


_JOINED = re.compile(r"[^\s>+:.]+(?:\+[^\s>+:.]+)+")
"""Parts joined by ``+`` (``9H+9S``), refused as two cards where a move names one."""


def _is_card(piece: str) -> bool:
    try:
        parse_card(piece)
    except NotationError:
        return False
    return True


def _ends_move(head: str, gap: str, rest: str) -> bool:
    """Whether whitespace ``gap`` after ``head`` ends a whole move, so that ``rest`` is text
    after it (``9H>B1 extra``, ``pass now``, a second line), not a part with a space inside
    (``B 1``, ``10 H``, ``9H 9S``): a line break always ends one; so does a complete target
    (a letter and a number or ``+`` after the ``>``, unless ``rest`` goes on with the
    number, ``B1 0``) or a word of a move (``pass``, Spit's ``spit``)."""
    if "\n" in gap or "\r" in gap:
        return True
    last = re.split(r"[>:.]", head)[-1]
    if ">" in head and re.fullmatch(r"[A-Za-z](\d+|\+)", last):
        return not (last[-1].isdigit() and re.match(r"\d+(?![^\s>+:.])", rest))
    return last.isalpha() and len(last) >= 4


def _space_inside(text: str, part: str, pairs: bool) -> NotationError:
    """The refusal of whitespace inside a part (``B 1``, ``10 H``, ``B +``), naming the part
    and how it is written: without the space, or, when each piece is a card (``9H 9S``), as
    a pair joined by ``+`` (``pairs``) or as one of the cards."""
    pieces = part.split()
    try:
        cards = [parse_card(piece) for piece in pieces]
    except NotationError:
        cards = []
    texts = [card_text(card) for card in cards]
    written = ("".join(pieces) if not cards else "+".join(texts) if pairs
               else f"one card, {' or '.join(texts)}")
    return NotationError(f"move {text!r}: {part!r}: no space inside a part; write {written}",
                         "not-a-move")


def _discard_from_pile(text: str, source: str, target: str) -> NotationError:
    """The refusal of a discard that names a pile as its source (``D1:9C>D2``): cards go to
    discard piles only from the hand, so no move form takes one from a pile there.  The
    text alone does not say which cards the hand holds or a pile shows, so the forms are
    written with their parts named, never with the typed card (a table that knows the
    state, :class:`~spitemalice.play.session.Session`, adds the legal moves)."""
    head = source.partition(":")[0]
    letter = head.rpartition(".")[2][:1].upper()  # after a seat prefix, S2.D1
    pile = "a discard pile" if letter == "D" else "a pay-off pile" if letter == "P" else "a pile"
    never = ("cards never move from one discard pile to another" if pile == "a discard pile"
             else f"a card never moves from {pile} to a discard pile")
    return NotationError(
        f"move {text!r}: {never}: cards go to discard piles only from the hand (a discard is "
        f"written <hand card>>{target}); the top of {pile} goes only to a build pile "
        f"(written {head}:<its top card>>B<n>, or >B+ to open one)", "discard-from-pile")


def _parse_source(source: str, text: str) -> tuple[Zone, int, str]:
    head, colon, card_part = source.partition(":")
    if not colon:
        return Zone.HAND, 0, source
    letter, number = head[:1].upper(), head[1:]
    if letter == "P":
        return Zone.PAYOFF, (_pile_number(number, text) - 1) if number else 0, card_part
    if letter == "D":
        return Zone.DISCARD, _pile_number(number, text) - 1, card_part
    raise NotationError(f"move {text!r}: a source is a hand card, P<n>:<card> or D<n>:<card>",
                        "not-a-move")


def _pile_number(number: str, text: str) -> int:
    pile = whole_number(number)
    if pile is None or pile < 1:
        raise NotationError(f"move {text!r}: pile numbers are 1, 2, 3 ..., not {number!r}",
                            "pile-number")
    return pile


def move_text(move: Move) -> str:
    """The text form of ``move``; :func:`parse_move` reads it back to an equal move.

    Raises:
        TypeError: ``move`` is not a :class:`Play`, :class:`Discard` or :class:`Pass` (move
            text, say: it is text already).
    """
    if not isinstance(move, Play | Discard | Pass):
        hint = ": it is a move's text already" if isinstance(move, str) else ""
        raise TypeError(f"move_text takes a move (a Play, Discard or Pass), "
                        f"not {type(move).__name__}{hint}")
    return str(move)
