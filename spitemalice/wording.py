"""The words of every message: counts with their nouns, values as a data file writes them,
and text made safe for a terminal.

A message prints what a stranger wrote (a name from a file, a move from a client), so it goes
through :func:`for_terminal`, the library's one escaping function; a value is written by
:func:`shown` as TOML and JSON write it, never longer than about 60 characters; a count by
:func:`count_of`, in the number that agrees with it.
"""

from __future__ import annotations

import datetime
import numbers
import os
import re
import unicodedata

from spitemalice.limits import MAX_DIGITS, MAX_INT, MAX_NAME_CHARS


def digits_of(value: int) -> int:
    """How many decimal digits ``value`` has, found from its size in bits (printing a huge
    integer is itself refused by Python, past 4,300 digits)."""
    magnitude = abs(value)
    if magnitude < 10**MAX_DIGITS:
        return len(str(magnitude))
    return int(magnitude.bit_length() * 0.30103) + 1


def count_of(n: int, noun: str, plural: str | None = None, spec: str = "") -> str:
    """``n`` and its noun in the number that agrees with it, for every message that prints
    a count: ``count_of(1, "game")`` -> ``"1 game"``, ``count_of(2, "game")`` -> ``"2 games"``,
    ``count_of(1000, "deal", spec=",")`` -> ``"1,000 deals"``, ``count_of(3, "entry",
    "entries")`` -> ``"3 entries"``.  The singular is for exactly 1 (``0 games``, ``-1
    games``).

    Args:
        n: the count, a whole number (not a ``bool``).
        noun: the singular, one or more words (``"pay-off pile"``).
        plural: the plural where it is not ``noun`` + ``"s"`` (``"matches"``, ``"bodies"``).
        spec: a format spec for ``n``, as after the colon of an f-string field (``","`` for
            thousands separators, ``">8"`` for a column).

    Raises:
        TypeError: ``n`` is not a whole number, or ``noun`` or ``plural`` is not a string.
        ValueError: ``spec`` is not a format spec of a whole number.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"count_of counts a whole number, not {shown(n)}")
    if not isinstance(noun, str) or not isinstance(plural, str | None):
        raise TypeError("count_of takes its noun and plural as strings")
    word = noun if n == 1 else (plural if plural is not None else noun + "s")
    return f"{format(n, spec)} {word}"


_LETTER_AN = frozenset("AEFHILMNORSX")
"""Capital letters whose names start with a vowel sound (ay, ee, ef, aitch, el, em...): a
card's text is read letter by letter, "an AC", "an 8H"."""

_SAID_AS_A_WORD = frozenset({"SB"})
"""Capitals read as the card's name, not letter by letter: SB is the SKIP-BO card."""


def a_or_an(text: str) -> str:
    """``text`` after the indefinite article its sound takes, for every message that writes
    "a" before a value it did not choose: ``"an AC"``, ``"an 8H"``, ``"an 11"``, ``"an 18"``,
    ``"a KH"``, ``"a 10S"``, ``"an ace"``, ``"an undo"``, ``"an int"``, ``"a str"``.

    A leading number is read as a number (8..., eleven, eighteen and their thousands take
    "an"); capitals up to three letters as letter names (a card, ``"an AC"``; ``SB``, the
    SKIP-BO card, as its name); the joker's ``*`` as ``"a joker (*)"``; anything else as a
    word, by its first letter (a word that starts ``uni``, ``use`` or ``one`` sounds a
    consonant).
    """
    if text == "*":  # the joker's text, which has no sound of its own
        return "a joker (*)"
    digits = text[:len(text) - len(text.lstrip("0123456789"))]
    if digits:
        eleven = len(digits) % 3 == 2 and digits[:2] in ("11", "18")
        return f"{'an' if digits[0] == '8' or eleven else 'a'} {text}"
    letters = re.match(r"[A-Za-z]*", text)
    word = letters.group() if letters else ""
    if word.isupper() and len(word) <= 3 and word not in _SAID_AS_A_WORD:
        vowel = word[0] in _LETTER_AN
    else:
        lower = word.lower()
        vowel = (lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(
            ("uni", "use", "usu", "one", "eu"))) or lower.startswith(("hour", "honest"))
    return f"{'an' if vowel else 'a'} {text}"


_RANK_NAMES = {0: "joker", 1: "A", 11: "J", 12: "Q", 13: "K"}


def rank_names(ranks: object) -> str:
    """Ranks by name, sorted, as the docs and the rule sheets write them, for every message
    that names ranks: ``rank_names({13, 0, 10, 1})`` -> ``"joker, A, 10, K"``; ``"none"``
    for no rank.

    Raises:
        TypeError: ``ranks`` is not an iterable of whole numbers (a set, list or tuple).
    """
    if isinstance(ranks, str | bytes):
        raise TypeError(f"rank_names takes ranks as whole numbers, not {shown(ranks)}")
    try:
        given = sorted(ranks)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"rank_names takes ranks as whole numbers, not {shown(ranks)}") \
            from None
    if any(isinstance(rank, bool) or not isinstance(rank, numbers.Integral) for rank in given):
        raise TypeError(f"rank_names takes ranks as whole numbers, not {shown(ranks)}")
    return ", ".join(_RANK_NAMES.get(int(rank), str(rank)) for rank in given) or "none"


def together(problems: list[str]) -> str:
    """Several refusals as one message, each whole and numbered, on one line:
    ``together(["a", "b"])`` -> ``"2 problems: (1) a; (2) b"``; one alone is itself.

    Raises:
        TypeError: ``problems`` is not a list of str.
    """
    if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
        raise TypeError(f"together takes a list of messages (str), not {shown(problems)}")
    problems = [part for problem in problems for part in _joined_parts(problem)]
    if len(problems) == 1:
        return problems[0]
    return f"{count_of(len(problems), 'problem')}: " + "; ".join(
        f"({number}) {problem}" for number, problem in enumerate(problems, 1))


_JOINED = re.compile(r"(\d+) problems: \(1\) ")


def _joined_parts(problem: str) -> list[str]:
    """The messages a message :func:`together` made joins (a check that refuses several at
    once, gathered with others), so that a join is flat, never ``(1) 2 problems: (1) ...``;
    any other message alone."""
    joined = _JOINED.match(problem)
    if not joined:
        return [problem]
    rest, parts = problem[joined.end():], list[str]()
    for number in range(int(joined.group(1)), 1, -1):
        rest, sep, part = rest.rpartition(f"; ({number}) ")
        if not sep:
            return [problem]
        parts.insert(0, part)
    return [rest, *parts]


def clipped(text: str, longest: int = 40) -> str:
    """``text`` cut to ``longest`` characters for a message, ending in ``...`` when it was
    cut: a cut with no mark would show a different value (a seed of 101 digits cut to 40
    reads as a valid one)."""
    return text if len(text) <= longest else text[:longest - 3] + "..."


def shown(value: object) -> str:
    """``value`` for an error message, in the words TOML and JSON write it (most values come
    from a file, a message or the command line): ``true``/``false``, ``null``, a string in
    double quotes (characters a terminal would act on escaped), a date or time as TOML
    writes it (``2020-01-01``), lists and tables in brackets; another Python object as its
    ``repr``.  Never longer than about 60 characters (a cut ends in ``...``), and never an
    attempt to print a huge integer in full."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        return f"a whole number of about {digits_of(value):,} digits"
    try:
        text = _written(value, 2)
    except Exception:
        return a_or_an(type(value).__name__)
    return clipped(text, 60)


def kind(value: object) -> str:
    """``value`` named with its type for a message that refuses it: ``the int 5``,
    ``the str "9H"``, ``None``."""
    if value is None:
        return "None"
    name = type(value).__name__
    written = shown(value)
    return written if written.startswith(("a ", "an ")) else f"the {name} {written}"


def _written(value: object, depth: int) -> str:
    """``value`` as a data file writes it, lists and tables ``depth`` levels deep at most
    and only their first few entries (the text is cut to about 60 characters anyway)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # Double quotes as JSON and TOML write a string; the characters a terminal would act
        # on escaped by the library's one escaping function, in its one style.
        inner = clipped(value, 56).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{for_terminal(inner)}"'
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()  # a datetime is a date too
    if isinstance(value, int) and abs(value) > MAX_INT:
        return "..."
    if isinstance(value, list | tuple | dict) and depth <= 0:
        return "[...]" if not isinstance(value, dict) else "{...}"
    if isinstance(value, list | tuple):
        items = [_written(item, depth - 1) for item in value[:8]]
        return "[" + ", ".join(items + ["..."] * (len(value) > 8)) + "]"
    if isinstance(value, dict):
        pairs = [f"{_written(str(key), 0)}: {_written(item, depth - 1)}"
                 for key, item in list(value.items())[:8]]
        return "{" + ", ".join(pairs + ["..."] * (len(value) > 8)) + "}"
    return repr(value)


def given_text(given: object) -> str:
    """What was given, for an error that says what would have been right: ``None``, ``the
    str "..."`` (shown as :func:`shown` shows it), ``a path (PosixPath)``, or the type's name.
    """
    if given is None:
        return "None"
    if isinstance(given, str):
        return f"the str {shown(given)}"
    kind = for_terminal(clipped(type(given).__name__, 60))
    return f"a path ({kind})" if isinstance(given, os.PathLike) else kind


def printable(text: str, most: int = MAX_NAME_CHARS) -> bool:
    """Whether ``text`` shows on any terminal as what it is: no control or format characters,
    no lone surrogates, no unassigned or private-use code points, and at most ``most``
    characters (:data:`MAX_NAME_CHARS` unless given)."""
    if len(text) > most:
        return False
    if text.isascii():
        return text.isprintable()
    return all(unicodedata.category(char) not in _UNPRINTABLE for char in text)


_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def for_terminal(text: str, *, lines: bool = False) -> str:
    r"""``text`` with every character a terminal would act on, or could hide, written as a
    Python-style escape (``"\n"``, ``"\x1b"``, ``"\u202e"``, ``"\U000e0001"``); printable
    text is left as it is.  The one escaping function of the library for anything a stranger
    wrote.

    Args:
        text: any string (from a file, a record, a plugin or a person).
        lines: keep ``"\n"`` as a line break (for several lines of text, such as a clause);
            otherwise it is escaped too, so one value prints on one line.

    Returns:
        A string that holds no control, format, surrogate, private-use or unassigned
        character (but ``"\n"`` when ``lines`` is true).
    """
    if text.isascii() and text.isprintable():
        return text  # the usual case, decided in C
    return "".join(_escaped(char, lines) for char in text)


def _escaped(char: str, lines: bool) -> str:
    if char == "\n" and lines:
        return char
    if unicodedata.category(char) not in _UNPRINTABLE:
        return char
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def why_not_whole(value: object) -> str:
    """Why ``value`` (refused as a whole number: a rule-set field, a rank, a position's
    number) is not one, and what to write instead, as the end of the refusal (``": write it
    without a decimal point, 13"``); ``""`` when its form says it (a word, a list)."""
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]+\.[0-9]*\s*", value):
        value = float(value)  # "13.0" from the command line, as 13.0 from a file
    if isinstance(value, bool) or (isinstance(value, str)
                                   and value.strip().lower() in ("true", "false")):
        return ": true and false are not numbers (write the number, such as 13)"
    if isinstance(value, float):
        whole = value.is_integer() and abs(value) < 10**MAX_DIGITS
        return (f": write it without a decimal point, {int(value)}" if whole
                else ": a number with a fraction (or not a number at all) is not whole")
    digits = value.strip().removeprefix("-") if isinstance(value, str) else ""
    if isinstance(value, int) or (digits.isascii() and digits.isdigit()):
        return f": at most {MAX_DIGITS} digits are read"
    if isinstance(value, str) and digits.isdecimal() and len(digits) <= MAX_DIGITS:
        return f": write it in the digits 0 to 9, {value.strip()[:-len(digits)]}{int(digits)}"
    return ""
