"""A value cut short in an error message is marked cut (``...``): cut with no mark, a seed of
101 digits reads as a valid 40-digit one, a name as another name.  Each reader that cuts
what it shows is held here or beside its other messages (tests/cli/test_cli.py,
tests/server/test_server.py)."""

from __future__ import annotations

import json

import pytest

from spitemalice.errors import DataError, SpiteMaliceError
from spitemalice.formats import loads_record
from spitemalice.runs import workers
from spitemalice.server.remote import parse_link
from spitemalice.wording import clipped


def test_clipped_keeps_short_text_and_marks_a_cut() -> None:
    assert clipped("x" * 40) == "x" * 40
    assert clipped("x" * 41) == "x" * 37 + "..."
    assert clipped("y" * 100, 20) == "y" * 17 + "..."


def _record(**changes: object) -> str:
    record = {"format": "spitemalice-record", "version": 1,
              "ruleset": {"name": "blackwood-frey", "version": "1.0", "house_rules": [],
                          "params": {}},
              "seats": [{"name": "a", "kind": "human"}, {"name": "b", "kind": "greedy"}],
              "seed": 1, "dealer": None, "moves": [], "outcome": None}
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize("text, shows", [
    (_record(seats=[{"name": "\x07" + "n" * 60, "kind": "human"},
                    {"name": "b", "kind": "greedy"}]), "nnn...'"),
    (_record(seed="s" * 100), 'sss...'),
])
def test_a_record_reader_marks_what_it_cut(text: str, shows: str) -> None:
    with pytest.raises(DataError) as refused:
        loads_record(text)
    assert shows in str(refused.value)


def test_a_long_link_that_is_not_a_seat_s_is_shown_cut_with_a_mark() -> None:
    with pytest.raises(SpiteMaliceError) as refused:
        parse_link("ftp://" + "h" * 200)
    assert "hhh...'" in str(refused.value)


def test_a_long_start_method_is_shown_cut_with_a_mark(monkeypatch) -> None:
    monkeypatch.setenv(workers.START_METHOD, "m" * 100)
    with pytest.raises(SpiteMaliceError) as refused:
        workers.start_method()
    assert 'mmm..." (' in str(refused.value)
