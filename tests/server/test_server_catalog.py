"""The lobby's catalog offers only the bots that can be made on this server (a plugin bot
whose extra is missing, the learned bot without the rl extra, would only be refused later)."""

from __future__ import annotations

import pytest

from spitemalice.bots import players
from spitemalice.errors import SpiteMaliceError
from spitemalice.server import lobby


def _missing_extra(seed: int) -> players.Player:
    raise SpiteMaliceError("the ghost bot cannot be loaded: needs the ghost extra")


def test_the_catalog_leaves_out_a_bot_that_cannot_be_made_here(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players.PLAYERS, "ghost", _missing_extra)
    offered = lobby.catalog()["players"]
    assert "ghost" not in offered
    assert offered[0] == "human" and {"greedy", "heuristic"} <= set(offered)
    assert set(offered) - {"human"} <= set(players.PLAYERS)
