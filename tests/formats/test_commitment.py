"""Deals anyone can check (issue 36 §2): a record with a deal's commitment checks when the
revealed seed opens it and the deal is that seed's; a tampered seed, commitment or deal is
refused by name (``spitemalice check`` exits 1); a record without one checks as before."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import attrs
import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.errors import DataError
from spitemalice.formats.commitment import deal_problem, preimage, seed_commitment
from spitemalice.formats.records import dumps_record, loads_record, record_to_dict
from spitemalice.play.session import Session

RULES = sm.load("blackwood-frey", params={"payoff_size": 5})


def _finished(seed: int | None = None) -> dict[str, Any]:
    session = Session(RULES, ["greedy", "random"], seed=seed, commit=True)
    while not session.is_over:
        session.play_bot()
    return record_to_dict(session.record())


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str],
           data: dict[str, Any]) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status = main(["check", str(path)])
    out, err = capsys.readouterr()
    return status, out + err


def test_the_commitment_is_the_sha256_of_the_documented_text_and_sha256sum_agrees() -> None:
    data = _finished()
    promised = data["commitment"]
    who = "none" if data["dealer"] is None else data["dealer"]
    text = f"spitemalice-deal-v1:{data['seed']}:{who}:{promised['salt']}"
    assert hashlib.sha256(text.encode("ascii")).hexdigest() == promised["sha256"]
    assert preimage(data["seed"], data["dealer"], promised["salt"]) == text.encode("ascii")
    shell = subprocess.run(["sha256sum"], input=text.encode("ascii"), capture_output=True,
                           check=True)
    assert shell.stdout.split()[0].decode() == promised["sha256"]
    assert len(promised["salt"]) == 32 and data["seed"] >= 0


def test_a_small_seed_is_hidden_by_the_salt() -> None:
    """Two games from seed 1 are committed to differently (a fresh 128-bit salt each), so
    trying small seeds finds nothing."""
    first, second = _finished(seed=1), _finished(seed=1)
    assert first["commitment"]["salt"] != second["commitment"]["salt"]
    assert first["commitment"]["sha256"] != second["commitment"]["sha256"]
    guesses = {seed_commitment(seed, None, "0" * 32) for seed in range(1000)}
    assert first["commitment"]["sha256"] not in guesses


def test_check_accepts_a_record_whose_seed_opens_its_commitment(tmp_path, capsys) -> None:
    data = _finished()
    status, out = _check(tmp_path, capsys, data)
    assert status == 0, out
    assert f"deal: seed matches commitment {data['commitment']['sha256']}" in out
    assert "| sha256sum" in out and out.count("valid: ") == 1


def test_a_tampered_seed_is_refused_naming_the_commitment(tmp_path, capsys) -> None:
    data = _finished()
    data["seed"] += 1
    status, out = _check(tmp_path, capsys, data)
    assert status == 1 and "invalid:" in out and "commitment: " in out, out
    assert data["commitment"]["sha256"] in out
    assert deal_problem(loads_record(json.dumps(data)), RULES).startswith("commitment:")


def test_a_tampered_commitment_is_refused_naming_it(tmp_path, capsys) -> None:
    data = _finished()
    data["commitment"]["sha256"] = "0" * 64
    status, out = _check(tmp_path, capsys, data)
    assert status == 1 and "commitment: " in out and "0" * 64 in out, out


def test_a_tampered_deal_is_refused_naming_the_deal(tmp_path, capsys) -> None:
    data = _finished()
    data["commitment"]["deal_sha256"] = "f" * 64
    status, out = _check(tmp_path, capsys, data)
    assert status == 1 and "deal: " in out and "f" * 64 in out, out
    assert "not the deal that seed produces" in out


def test_a_record_without_a_commitment_checks_as_before(tmp_path, capsys) -> None:
    data = _finished()
    del data["commitment"]
    status, out = _check(tmp_path, capsys, data)
    assert status == 0 and "commitment" not in out, out


@pytest.mark.parametrize(("field", "value", "named"), [
    ("salt", "XYZ", "record.commitment.salt"),
    ("sha256", "ab", "record.commitment.sha256"),
    ("scheme", "v0", "record.commitment.scheme"),
])
def test_a_malformed_commitment_is_refused_naming_its_field(field, value, named) -> None:
    data = _finished()
    data["commitment"][field] = value
    with pytest.raises(DataError, match=named):
        loads_record(json.dumps(data))


def test_a_resumed_session_keeps_its_commitment() -> None:
    session = Session(RULES, ["greedy", "random"], commit=True)
    session.play_bot()
    again = Session.resume(loads_record(dumps_record(session.record())))
    assert again.commitment == session.commitment is not None
    assert Session(RULES, ["greedy", "random"]).commitment is None


# -- a game whose seats move at once (Spit): an arrival record with a commitment -----------

SPIT = sm.load("spit")


def _spit_finished(seed: int = 7) -> dict[str, Any]:
    """A greedy Spit game as a live table records it: arrivals, and the commitment."""
    from spitemalice.formats.commitment import commit
    from spitemalice.formats.records.making import record_arrivals
    from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival

    bot = game_bots(SPIT.simultaneous)["greedy"]
    played = play_arrival(SPIT, [bot, bot], seed, ReactionTimes())
    moves = [text for _, _, text, _ in played.log]
    times = [float(number) for number in range(len(moves))]
    made = record_arrivals(SPIT, seed, moves, times, outcome=played.final.outcome)
    return record_to_dict(attrs.evolve(made, commitment=commit(SPIT, seed, None)))


def test_a_spit_record_commits_to_its_state_as_one_line_of_json(tmp_path, capsys) -> None:
    from jsonschema import Draft202012Validator

    from spitemalice.formats.commitment import deal_digest
    from spitemalice.formats.plain_layout import plain_line
    from spitemalice.formats.schema import schema

    data = _spit_finished()
    assert not list(Draft202012Validator(schema("record")).iter_errors(data))
    dealt = plain_line(sm.deal(SPIT, data["seed"])).encode("utf-8")
    assert deal_digest(SPIT, data["seed"], None) == hashlib.sha256(dealt).hexdigest()
    assert data["commitment"]["deal_sha256"] == hashlib.sha256(dealt).hexdigest()
    status, out = _check(tmp_path, capsys, data)
    assert status == 0 and "seed matches commitment" in out and "valid: " in out, out


@pytest.mark.parametrize(("where", "named"), [
    ("seed", "commitment: "), ("deal_sha256", "deal: "),
])
def test_a_tampered_spit_record_is_refused_by_name(tmp_path, capsys, where, named) -> None:
    data = _spit_finished()
    if where == "seed":
        data["seed"] += 1
    else:
        data["commitment"]["deal_sha256"] = "e" * 64
    status, out = _check(tmp_path, capsys, data)
    assert status == 1 and "invalid:" in out and named in out, out
