"""The web app's pages for watching and replaying (issue 36 §2), and the JSON the replay
page reads.  Routes, all ``GET``:

* ``/watch/ID``: a table's watch page (:mod:`spitemalice.server.watching`);
* ``/replay``: the replay page; ``/replay#TABLE-N`` opens game ``N`` of table ``TABLE``;
* ``/games``: the finished games of public tables, newest first (JSON);
* ``/games/TABLE-N``: one finished game: its rules, seats, outcome and moves in words;
* ``/games/TABLE-N/K``: the position after move ``K`` (0: the deal) as an SVG picture;
* ``POST /games``: a record file the person picked on the replay page (its text, at most
  :data:`~spitemalice.server.replays.MAX_FILE_BYTES`), replayed and kept for a while under
  an id ``file-...`` that the two routes above then take (a 400 says what is wrong with it).

A game not finished, or not on this server, is a 404 whose text says why
(:mod:`spitemalice.server.replays`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import whole_number
from spitemalice.server import replays
from spitemalice.server.store import TABLE_ID, Store
from spitemalice.wording import shown

_JSON_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


def routes(store: Store, page: Callable[[str], Response]) -> list[Route]:
    """The routes above; ``page(name)`` answers with one of the package's static pages."""

    async def watch(request: Request) -> Response:
        if not TABLE_ID.fullmatch(request.path_params["table"]):
            return PlainTextResponse("no such table", status_code=404)
        return page("watch.html")

    async def replay_page(request: Request) -> Response:
        return page("replay.html")

    async def games(request: Request) -> Response:
        listed = await asyncio.to_thread(replays.finished_games, store)
        return JSONResponse({"games": listed}, headers=_JSON_HEADERS)

    async def sent(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():  # read no more than the bound, whatever is sent
            body += chunk
            if len(body) > replays.MAX_FILE_BYTES:
                return PlainTextResponse(f"a record file of at most {replays.MAX_FILE_BYTES:,} "
                                         "bytes, please", status_code=413)
        try:
            game_id = await asyncio.to_thread(replays.sent_file, body)
        except SpiteMaliceError as problem:
            return PlainTextResponse(str(problem), status_code=400)
        return JSONResponse({"game": game_id}, headers=_JSON_HEADERS)

    async def game(request: Request) -> Response:
        game_id = request.path_params["game"]
        try:
            found = await asyncio.to_thread(replays.replayed, store, game_id)
        except SpiteMaliceError as problem:
            return PlainTextResponse(str(problem), status_code=404)
        return JSONResponse(replays.summary(game_id, found), headers=_JSON_HEADERS)

    async def position(request: Request) -> Response:
        number = request.path_params["number"]
        try:
            found = await asyncio.to_thread(replays.replayed, store, request.path_params["game"])
            # ASCII digits, at most MAX_DIGITS of them: never int() of a huge or foreign text
            given = whole_number(number)
            if given is None:
                raise SpiteMaliceError(f"a move's number is 0 or more, in digits 0-9, not "
                                       f"{shown(number)}")
            drawn = replays.position(found, given)
        except SpiteMaliceError as problem:
            return PlainTextResponse(str(problem), status_code=404)
        return JSONResponse(drawn, headers=_JSON_HEADERS)

    return [Route("/watch/{table}", watch), Route("/replay", replay_page),
            Route("/games", games), Route("/games", sent, methods=["POST"]),
            Route("/games/{game}", game),
            Route("/games/{game}/{number}", position)]


__all__ = ["routes"]
