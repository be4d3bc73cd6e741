"""Cards and their short text forms.

A card is a value: two cards with the same rank and suit are interchangeable, so a pile of
three packs simply holds three equal ``QS`` cards.  Ranks are integers: 1 is the ace, 11 the
jack, 12 the queen, 13 the king; 0 is a joker; suitless numbered cards (Starturn's 1-15, or any
custom numbered deck) carry their number as the rank and an empty suit.  Skip-Bo's SKIP-BO card
is a joker with its own face: rank 0 and the mark ``SB`` in place of a suit (:data:`SKIP_BO`).

Text forms: ``AS``, ``10H``, ``QD``, ``KC`` for ranked cards, ``*`` for a joker, ``SB`` for a
SKIP-BO card and a bare number such as ``7`` or ``15`` for a suitless numbered card.
"""

from __future__ import annotations

import threading
import weakref
from functools import partial
from typing import Any

import attrs

from spitemalice.errors import NotationError, SpiteMaliceError
from spitemalice.guards import check_int, whole_number
from spitemalice.limits import MAX_DIGITS, MAX_INT
from spitemalice.wording import shown

JOKER_RANK = 0
SUITS = ("S", "H", "D", "C")
SKIP_BO_MARK = "SB"
# The seat views' face-down card (engine.views.HIDDEN) is Card(HIDDEN_RANK, HIDDEN_MARK), a
# value no deck holds, so it never equals a real card.
HIDDEN_RANK = 1_000_000
HIDDEN_MARK = "?"

_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_TEXT_RANK = {v: k for k, v in _RANK_TEXT.items()}


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (``str.isdigit`` also takes other scripts'
    digits and superscripts, which ``int`` may refuse or read unexpectedly)."""
    return text.isascii() and text.isdigit()


# Every card value is one object (interned): ``Card(12, "S")`` returns the queen of spades that
# already exists, if any.  So equality is identity and the hash is the object's own, both
# computed in C; the engine hashes and compares cards on every move, and attrs' generated
# __eq__ and __hash__ are Python functions.  Pickling and copying go through the constructor
# (``__reduce__``, ``__copy__``), so cards sent to forked workers or a Dask cluster, or
# deep-copied, are interned in the receiving process too.
@attrs.frozen(eq=False, order=False, init=False, repr=False)
class Card:
    """One card.

    A card is a value: two cards with the same rank and suit are the very same object
    (``Card(12, "S") is Card(12, "S")``), so they compare equal, hash equal and may be
    compared by ``is``.  Cards order by (rank, suit).

    Attributes:
        rank: 0 for a joker, 1-13 for a ranked card (A=1 ... K=13), any positive integer for a
            suitless numbered card.
        suit: one of ``S H D C`` for a ranked card, ``""`` for a joker or a numbered card,
            ``"SB"`` for a SKIP-BO card (a joker with Skip-Bo's face).

    The values a card may take are those the notation writes (the module docstring), and the
    seat views' face-down card (:data:`~spitemalice.engine.views.HIDDEN`).

    Raises:
        TypeError: a rank that is no whole number (a bool, a float, text) or a suit that is no
            text.
        SpiteMaliceError: a rank of more than :data:`~spitemalice.limits.MAX_DIGITS` digits, a
            negative rank, a suit other than ``S H D C``, ``""`` and ``"SB"``, a suited card's
            rank outside 1-13, or a SKIP-BO card's other than 0.
    """

    rank: int
    suit: str = ""

    def __new__(cls, rank: int, suit: str = "") -> Card:
        if type(rank) is not int or type(suit) is not str:  # (numpy integers are converted)
            rank, suit = _converted(rank, suit)
        key = (cls, rank, suit)
        ref = _INTERNED.get(key)
        card = None if ref is None else ref()
        if card is None:
            card = _intern(cls, key, rank, suit)
        return card

    def __reduce__(self) -> tuple[Any, tuple[int, str]]:
        return type(self), (self.rank, self.suit)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    # Ordering by (rank, suit), written out because attrs' generated ordering is slow and
    # hands are sorted on every change.
    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.suit) < (other.rank, other.suit)

    def __le__(self, other: Card) -> bool:
        return (self.rank, self.suit) <= (other.rank, other.suit)

    def __gt__(self, other: Card) -> bool:
        return (self.rank, self.suit) > (other.rank, other.suit)

    def __ge__(self, other: Card) -> bool:
        return (self.rank, self.suit) >= (other.rank, other.suit)

    def __str__(self) -> str:
        return card_text(self)

    def __repr__(self) -> str:
        return f"Card({card_text(self)!r})"


# The interning table: (class, rank, suit) -> a weak reference to the one card of that value.
# Weak, so that parsing many distinct numbered cards does not grow it for ever; a card no longer
# held anywhere leaves it, and the next one of that value is a new object, again the only one.
_INTERNED: dict[tuple[type, int, str], weakref.ref[Card]] = {}
_LOCK = threading.RLock()  # reentrant: a dropped card's callback may run inside _intern
_SET_RANK = Card.__dict__["rank"].__set__
_SET_SUIT = Card.__dict__["suit"].__set__


def _intern(cls: type[Card], key: tuple[type, int, str], rank: int, suit: str) -> Card:
    """The one card of ``key``: made and entered in the table unless another thread just
    did so."""
    with _LOCK:
        ref = _INTERNED.get(key)
        card = None if ref is None else ref()
        if card is None:
            _check_value(rank, suit)  # a new value: checked once, not on every use
            card = object.__new__(cls)
            _SET_RANK(card, rank)
            _SET_SUIT(card, suit)
            _INTERNED[key] = weakref.ref(card, partial(_forget, key))
        return card


def _converted(rank: object, suit: object) -> tuple[int, str]:
    """``rank`` and ``suit`` as ``int`` and ``str`` (a numpy integer is a rank), or raise
    ``TypeError`` naming the one at fault."""
    if type(rank) is bool or not hasattr(rank, "__index__"):
        raise TypeError(f"a card's rank is a whole number (1 the ace ... 13 the king, 0 a "
                        f"joker), not {shown(rank)}")
    if not isinstance(suit, str):
        raise TypeError(f"a card's suit is text, one of S H D C, '' (a joker or a numbered "
                        f"card) or 'SB' (a SKIP-BO card), not {shown(suit)}")
    return check_int(rank, "a card's rank", 0, MAX_INT), str(suit)


def _check_value(rank: int, suit: str) -> None:
    """Raise :class:`SpiteMaliceError` unless ``(rank, suit)`` is a card the notation writes
    (or the seat views' face-down card): ``Card(14, "S")`` would print as ``14S``, which no
    record or state file reads back."""
    if not 0 <= rank <= MAX_INT:
        check_int(rank, "a card's rank", 0, MAX_INT)
    if suit in SUITS:
        if 1 <= rank <= 13:
            return
        wrong = (f"a suited card's rank is 1 (the ace) to 13 (the king), not {rank:,}; "
                 + ("a joker is Card(0)" if rank == JOKER_RANK else
                    f"a numbered card has no suit: Card({rank})"))
    elif suit == "":
        return
    elif suit == SKIP_BO_MARK:
        if rank == JOKER_RANK:
            return
        wrong = f"a SKIP-BO card is Card(0, 'SB'), not rank {rank:,}"
    elif suit == HIDDEN_MARK and rank == HIDDEN_RANK:
        return
    else:
        wrong = (f"a card's suit is one of S H D C, '' (a joker or a numbered card) or 'SB' "
                 f"(a SKIP-BO card), not {shown(suit)}")
    raise SpiteMaliceError(f"Card({rank}, {shown(suit)}) is no card: {wrong}")


def _forget(key: tuple[type, int, str], dead: weakref.ref[Card]) -> None:
    """Drop a dead card's entry, unless a new card of that value has taken its place."""
    with _LOCK:
        if _INTERNED.get(key) is dead:
            del _INTERNED[key]


SKIP_BO = Card(JOKER_RANK, SKIP_BO_MARK)
"""Skip-Bo's wild SKIP-BO card (rules dossier §6 K1): a joker with its own face, text ``SB``."""


def card_text(card: Card) -> str:
    """The short text form of ``card``: ``QS``, ``10H``, ``*``, ``SB`` or a bare number."""
    if card.rank == JOKER_RANK:
        return card.suit or "*"
    if not card.suit:
        return str(card.rank)
    return _RANK_TEXT.get(card.rank, str(card.rank)) + card.suit


def rank_text(rank: int) -> str:
    """The text of a rank alone: ``A``, ``7``, ``Q``; ``*`` for the joker rank 0."""
    if rank == JOKER_RANK:
        return "*"
    return _RANK_TEXT.get(rank, str(rank))


def parse_card(text: str) -> Card:
    """Parse a card's short text form (``QS``, ``10h``, ``*``, ``SB``, ``15``).

    Raises:
        NotationError: the text is not a card (or not text, or a number of more than
            :data:`~spitemalice.limits.MAX_DIGITS` digits); the message shows the accepted forms.
    """
    if not isinstance(text, str):
        raise NotationError(f"a card is text such as 'QS', not {type(text).__name__}", "not-text")
    raw = text.strip().upper()
    if raw == "*":
        return Card(JOKER_RANK)
    if raw == SKIP_BO_MARK:
        return SKIP_BO
    if ascii_digits(raw):
        rank = whole_number(raw)
        if rank is None:
            raise NotationError(f"card {_shown(text)}: a numbered card has at most "
                                f"{MAX_DIGITS} digits", "too-long")
        if rank < 1:
            raise NotationError(f"card {text!r}: a numbered card is 1 or more", "not-a-card")
        return Card(rank)
    if len(raw) >= 2 and raw[-1] in SUITS:
        rank_part = raw[:-1]
        named = _TEXT_RANK.get(rank_part)
        if named is None and rank_part in _PIP_RANKS:
            named = int(rank_part)
        if named is not None:
            return Card(named, raw[-1])
    raise NotationError(
        f"{_shown(text)} is not a card: write a rank A,2-10,J,Q,K and a suit S,H,D,C (as 'QS' or "
        "'10H'), '*' for a joker, 'SB' for a SKIP-BO card, or a bare number such as '7' for a "
        "numbered card",
        "not-a-card",
    )


_PIP_RANKS = frozenset(str(rank) for rank in range(2, 11))


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas; an empty text gives an empty tuple.

    Raises:
        NotationError: a part is not a card, or ``text`` is not text.
    """
    if not isinstance(text, str):
        raise NotationError(f"cards are text such as 'QS 9H', not {type(text).__name__}",
                            "not-text")
    return tuple(parse_card(part) for part in text.replace(",", " ").split())


def standard_pack(jokers: int = 0) -> tuple[Card, ...]:
    """One pack of 52 ranked cards (A-K in four suits) followed by ``jokers`` jokers."""
    ranked = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
    return ranked + (Card(JOKER_RANK),) * jokers


def numbered_cards(counts: dict[int, int]) -> tuple[Card, ...]:
    """Suitless numbered cards, ``counts[value]`` copies of each value, in value order."""
    return tuple(Card(value) for value in sorted(counts) for _ in range(counts[value]))
