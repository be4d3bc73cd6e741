"""Load on the play server: N tables of bots playing through the WebSocket protocol over
loopback (issue 18 §4; not part of the tests).

    nice -n 10 python bench/serve_load.py --tables 10,20,40,80 --seconds 20 --think 0.5

Starts ``spitemalice serve`` in a process of its own (one asyncio loop: one core), then for
each N keeps N tables busy for the given seconds: every table has two seats taken by client
bots that answer each ``state`` on their turn after ``--think`` seconds (a quick person's
pace; 0 plays as fast as the server answers), with a cheap choice from the ``legal`` list
(a pay-off play, else a build, else the first move).  A finished game is followed by a new
table.  The bots run in ``--clients`` processes of their own.

For each N it prints the moves made, the move-to-announcement latency (from sending a move
to receiving the ``state`` that announces it: median, p99, max, in ms), the errors (any
``error`` or ``refused`` message, or a dropped connection), the server's CPU use (CPU
seconds of its process per wall second: 1.0 is one core) and its CPU milliseconds per move
(a move's whole cost: reading it, refereeing it, rewriting the record file, building and
sending a ``state`` to both seats), with the reference workload (bench/reference.py) timed
before and after, since the machine may be shared.  A step's games are left unfinished when
its time is up.

Every wait is bounded, so the script stops by itself whatever the server does: a message
that does not come within ``--wait`` seconds (default 30) is counted as an error and its
table left, and a client process that has not reported ``--wait`` seconds after its step's
time is stopped and counted as an error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import reference

from spitemalice.formats import strict_json
from spitemalice.runs.workers import start_method
from spitemalice.wording import count_of

GAME = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 10},
        "seats": [{"name": "a", "player": "human"}, {"name": "b", "player": "human"}]}


def choose(legal: list[dict[str, Any]]) -> str:
    """A cheap bot: a pay-off play, else a build, else the first legal move."""
    for move in legal:
        if move["from"] and "payoff" in move["from"]:
            return str(move["move"])
    for move in legal:
        if move["to"] and move["to"].startswith("build"):
            return str(move["move"])
    return str(legal[0]["move"])


WAIT = 30.0
"""Seconds a client waits for one message before it gives its table up (``--wait``)."""


async def next_text(socket_: Any, wait: float) -> str | None:
    """The next message's text, or ``None`` when none comes within ``wait`` seconds."""
    try:
        return str(await asyncio.wait_for(socket_.recv(), wait))
    except TimeoutError:
        return None


async def seat(url: str, table: str, number: int, token: str, think: float,
               deadline: float, latencies: list[float], errors: list[str],
               wait: float = WAIT) -> None:
    import websockets

    async with websockets.connect(url, max_size=2**24, open_timeout=wait) as socket_:
        await socket_.send(json.dumps({"type": "join", "table": table, "seat": number,
                                       "token": token}))
        sent: tuple[int, float] | None = None
        while True:
            text = await next_text(socket_, wait + think)
            if text is None:
                errors.append(f"no message from the server in {wait + think:g} s")
                return
            try:  # read as strictly as the library reads any JSON from outside
                message = strict_json.loads(text)
            except ValueError as problem:
                errors.append(f"a message that is not JSON: {problem}")
                return
            if message["type"] in ("error", "refused"):
                errors.append(message.get("message", message["type"]))
                return
            if message["type"] != "state":
                continue
            if sent is not None and message["number"] >= sent[0]:
                latencies.append(time.perf_counter() - sent[1])
                sent = None
            view = message["view"]
            if view["outcome"] is not None or time.monotonic() > deadline:
                return  # the game ended, or the step's time is up (the table is left)
            if view["seat"] == number and message["legal"] and sent is None:
                if think:
                    await asyncio.sleep(think)
                sent = (message["number"] + 1, time.perf_counter())
                await socket_.send(json.dumps({"type": "move", "number": sent[0],
                                               "move": choose(message["legal"])}))


async def table_loop(url: str, deadline: float, think: float, latencies: list[float],
                     errors: list[str], games: list[int], wait: float = WAIT) -> None:
    import websockets

    while time.monotonic() < deadline:
        try:
            async with websockets.connect(url, open_timeout=wait) as lobby:
                await lobby.send(json.dumps(GAME))
                text = await next_text(lobby, wait)
            if text is None:
                errors.append(f"no answer to create in {wait:g} s")
                return
            created = strict_json.loads(text)
            if created["type"] != "created":
                errors.append(created.get("message", "no table"))
                return
            await asyncio.gather(*(
                seat(url, created["table"], s["seat"], s["token"], think, deadline, latencies,
                     errors, wait)
                for s in created["seats"]))
            games.append(1)
        except (OSError, ValueError, websockets.ConnectionClosed) as problem:
            errors.append(f"connection: {problem}")
            return


def client_process(url: str, tables: int, seconds: float, think: float,
                   out: Any, wait: float = WAIT) -> None:
    latencies: list[float] = []
    errors: list[str] = []
    games: list[int] = []

    async def run() -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(table_loop(url, deadline, think, latencies, errors, games,
                                          wait) for _ in range(tables)))

    asyncio.run(run())
    out.put((latencies, errors, len(games)))


def collect(queue: Any, workers: list[Any], seconds: float) -> list[Any]:
    """Each worker's result, waiting ``seconds`` at most in all; a worker that has not
    reported by then is stopped and counted as an error."""
    import queue as queues

    results: list[Any] = []
    end = time.monotonic() + seconds
    for _ in workers:
        try:
            results.append(queue.get(timeout=max(end - time.monotonic(), 0.1)))
        except queues.Empty:
            results.append(([], ["a client process did not report in time"], 0))
    for worker in workers:
        worker.join(max(end - time.monotonic(), 1.0))
        if worker.is_alive():
            worker.terminate()
            worker.join(10)
    return results


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,20,40,80",
                        help="table counts to try, comma-separated")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a bot waits before each move (default 0.5)")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--wait", type=float, default=WAIT,
                        help=f"seconds to wait for any one message (default {WAIT:g})")
    args = parser.parse_args()
    port = free_port()
    records = tempfile.mkdtemp(prefix="serve-load-")
    server = subprocess.Popen([sys.executable, "-m", "spitemalice", "serve", "--port",
                               str(port), "--records", records, "--max-tables", "100000",
                               "--max-tables-per-client", "100000"],
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        url = f"ws://127.0.0.1:{port}/ws"
        print(f"reference workload before: {reference.reference_seconds() * 1000:.0f} ms CPU "
              "(bench/reference.py)")
        print(f"think {args.think} s, {args.seconds:.0f} s per step, "
              f"{count_of(args.clients, 'client process', 'client processes')}; latency from "
              "sending a move to its announcement")
        print(f"{'tables':>6} {'moves':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'max ms':>7} {'errors':>6} {'server CPU':>10} {'CPU ms/move':>11}")
        # Client processes start as every worker of the library does, never by fork (issue
        # 20: a fork of a process with threads can hang or crash).
        context = multiprocessing.get_context(start_method())
        for count in (int(n) for n in args.tables.split(",")):
            queue: Any = context.Queue()
            shares = [count // args.clients + (i < count % args.clients)
                      for i in range(args.clients)]
            cpu, wall = cpu_seconds(server.pid), time.monotonic()
            workers = [context.Process(target=client_process,
                                       args=(url, n, args.seconds, args.think, queue,
                                             args.wait))
                       for n in shares if n]
            for worker in workers:
                worker.start()
            results = collect(queue, workers, args.seconds + 2 * args.wait + args.think + 30)
            cpu, wall = cpu_seconds(server.pid) - cpu, time.monotonic() - wall
            latencies = [x for r in results for x in r[0]]
            errors = [x for r in results for x in r[1]]
            print(f"{count:>6} {len(latencies):>7} {len(latencies) / wall:>8.1f} "
                  f"{1000 * percentile(latencies, 0.5):>7.1f} "
                  f"{1000 * percentile(latencies, 0.99):>7.1f} "
                  f"{1000 * max(latencies, default=0):>7.1f} {len(errors):>6} "
                  f"{cpu / wall:>10.2f} {1000 * cpu / max(len(latencies), 1):>11.2f}")
            for error in errors[:3]:
                print(f"       error: {error}")
        print(f"reference workload after: {reference.reference_seconds() * 1000:.0f} ms CPU")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


if __name__ == "__main__":
    main()
