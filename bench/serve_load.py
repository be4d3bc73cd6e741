"""Load on the play server: N tables of bots playing through the WebSocket protocol over
loopback (issue 18 §4; not part of the tests).

    nice -n 10 python bench/serve_load.py --tables 10,20,40,80 --seconds 20 --think 0.5
    nice -n 10 python bench/serve_load.py --tables 10,20,40 --seconds 10 --redis

With ``--redis`` (issue 36 §3) the same steps run a second time against two server processes
sharing a Redis of the script's own (Debian's ``redis-server`` on a free port, no
persistence): each table is opened at one process, both its seats ask the other first and are
sent to the owner (``moved``), and a spectator watches it from the other process, so every
move also crosses Redis (the owner publishes it, the other process relays it).  The server
CPU is then both processes' together, and the Redis server's own CPU is shown beside it.
The one-process steps then have a spectator per table too (at the same process), so the two
runs differ only by the second process and Redis.
Before the steps, the script times Redis round trips from this process: ``PING`` and a
``PUBLISH`` of a spectator's message of a typical size, wall and CPU (this process's and the
Redis server's) per round trip.  ``tables/core`` is the tables held per server core busy
(tables / server CPU share): read it at the largest step whose p99 stays under 50 ms.

Starts ``spitemalice serve`` in a process of its own (one asyncio loop: one core), then for
each N keeps N tables busy for the given seconds: every table has two seats taken by client
bots that answer each ``state`` on their turn after ``--think`` seconds (a quick person's
pace; 0 plays as fast as the server answers), with a cheap choice from the ``legal`` list
(a pay-off play, else a build, else the first move).  A finished game is followed by a new
table.  The bots run in ``--clients`` processes of their own; each table's connections come
from a loopback address of its own (127.0.0.2, 127.0.0.3...), so the server's per-address
bounds (connections, tables, the lobby rate) apply as they do to people.

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
import shutil
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


def client_address(n: int) -> str:
    """The loopback address the ``n``-th table's clients connect from (127.0.0.2 on): each
    table is a client of its own, so the server's per-address bounds apply as they do to
    people."""
    return f"127.{n // 62500 % 250}.{n // 250 % 250}.{2 + n % 250}"


async def seat(url: str, table: str, number: int, token: str, think: float,
               deadline: float, latencies: list[float], errors: list[str],
               wait: float = WAIT, hops: int = 2, source: str = "127.0.0.1") -> None:
    """Play one seat from the address ``source``; a ``moved`` answer (another process owns
    the table) is followed, at most ``hops`` times."""
    import websockets

    async with websockets.connect(url, max_size=2**24, open_timeout=wait,
                                  local_addr=(source, 0)) as socket_:
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
            if message["type"] == "moved" and hops > 0:
                break
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
    await seat(message["socket"], table, number, token, think, deadline, latencies, errors,
               wait, hops - 1, source)


async def watcher(url: str, table: str, deadline: float, wait: float = WAIT,
                  source: str = "127.0.0.1") -> None:
    """Watch ``table`` from ``url`` until ``deadline`` (what arrives is read and let be)."""
    import websockets

    async with websockets.connect(url, max_size=2**24, open_timeout=wait,
                                  local_addr=(source, 0)) as socket_:
        await socket_.send(json.dumps({"type": "watch", "table": table}))
        while time.monotonic() < deadline:
            if await next_text(socket_, min(wait, max(deadline - time.monotonic(), 0.01))) \
                    is None and time.monotonic() < deadline:
                return


async def table_loop(url: str, deadline: float, think: float, latencies: list[float],
                     errors: list[str], games: list[int], wait: float = WAIT,
                     other: str | None = None, source: str = "127.0.0.1",
                     watch: bool = False) -> None:
    """Open tables at ``url`` one after another until ``deadline`` and play them, every
    connection from the address ``source``; with ``other`` (another process of the site),
    the seats ask it first; with ``watch``, a spectator watches each table (from ``other``
    when given)."""
    import websockets

    while time.monotonic() < deadline:
        try:
            async with websockets.connect(url, open_timeout=wait,
                                          local_addr=(source, 0)) as lobby:
                await lobby.send(json.dumps(GAME))
                text = await next_text(lobby, wait)
            if text is None:
                errors.append(f"no answer to create in {wait:g} s")
                return
            created = strict_json.loads(text)
            if created["type"] != "created":
                errors.append(created.get("message", "no table"))
                return
            spectator = [] if not watch else [
                asyncio.ensure_future(watcher(other or url, created["table"], deadline, wait,
                                              source))]
            await asyncio.gather(*(
                seat(other or url, created["table"], s["seat"], s["token"], think, deadline,
                     latencies, errors, wait, source=source)
                for s in created["seats"]))
            for task in spectator:
                task.cancel()
            await asyncio.gather(*spectator, return_exceptions=True)
            games.append(1)
        except (OSError, ValueError, websockets.ConnectionClosed) as problem:
            errors.append(f"connection: {problem}")
            return


def client_process(urls: list[str], tables: int, seconds: float, think: float,
                   out: Any, wait: float = WAIT, first: int = 0, watch: bool = False) -> None:
    """Keep ``tables`` tables busy for ``seconds``, the ``n``-th from
    :func:`client_address` ``(first + n)``; with two ``urls`` (two processes), the tables
    are opened at each in turn and played through the other."""
    latencies: list[float] = []
    errors: list[str] = []
    games: list[int] = []

    async def run() -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(table_loop(
            urls[n % len(urls)], deadline, think, latencies, errors, games, wait,
            urls[(n + 1) % len(urls)] if len(urls) > 1 else None, client_address(first + n),
            watch) for n in range(tables)))

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


def start_server(port: int, records: str, redis: str | None = None) -> subprocess.Popen[bytes]:
    """``spitemalice serve`` on ``port`` (one of a site's processes with ``redis``)."""
    command = [sys.executable, "-m", "spitemalice", "serve", "--port", str(port), "--records",
               records, "--max-tables", "100000", "--max-tables-per-client", "100000"]
    if redis is not None:
        command += ["--redis", redis]
    return subprocess.Popen(command, stderr=subprocess.DEVNULL)


def wait_for(port: int, seconds: float = 20.0) -> None:
    """Wait until something listens on ``port`` (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port} after {seconds:g} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def steps(urls: list[str], servers: list[int], redis: int | None, args: Any) -> None:
    """Each step of ``--tables`` against the server processes ``servers`` at ``urls``."""
    print(f"{'tables':>6} {'moves':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'errors':>6} {'server CPU':>10} {'CPU ms/move':>11} "
          f"{'tables/core':>11}" + (f" {'Redis CPU ms/move':>17}" if redis else ""))
    # Client processes start as every worker of the library does, never by fork (issue
    # 20: a fork of a process with threads can hang or crash).
    context = multiprocessing.get_context(start_method())
    for count in (int(n) for n in args.tables.split(",")):
        queue: Any = context.Queue()
        shares = [count // args.clients + (i < count % args.clients)
                  for i in range(args.clients)]
        cpu, wall = sum(cpu_seconds(pid) for pid in servers), time.monotonic()
        redis_cpu = cpu_seconds(redis) if redis else 0.0
        workers = [context.Process(target=client_process,
                                   args=(urls, n, args.seconds, args.think, queue, args.wait,
                                         sum(shares[:i]), args.redis))
                   for i, n in enumerate(shares) if n]
        for worker in workers:
            worker.start()
        results = collect(queue, workers, args.seconds + 2 * args.wait + args.think + 30)
        cpu = sum(cpu_seconds(pid) for pid in servers) - cpu
        wall = time.monotonic() - wall
        redis_cpu = cpu_seconds(redis) - redis_cpu if redis else 0.0
        latencies = [x for r in results for x in r[0]]
        errors = [x for r in results for x in r[1]]
        moves = max(len(latencies), 1)
        print(f"{count:>6} {len(latencies):>7} {len(latencies) / wall:>8.1f} "
              f"{1000 * percentile(latencies, 0.5):>7.1f} "
              f"{1000 * percentile(latencies, 0.99):>7.1f} "
              f"{1000 * max(latencies, default=0):>7.1f} {len(errors):>6} "
              f"{cpu / wall:>10.2f} {1000 * cpu / moves:>11.2f} "
              f"{count / max(cpu / wall, 1e-9):>11.0f}"
              + (f" {1000 * redis_cpu / moves:>17.3f}" if redis else ""))
        for error in errors[:3]:
            print(f"       error: {error}")


def round_trips(url: str, redis: int, count: int = 2000, seconds: float = 10.0) -> None:
    """Time ``count`` Redis round trips of each kind from this process, one after another
    (``seconds`` at most each): wall and CPU (this process's, the Redis server's) per trip."""
    import redis.asyncio as aioredis

    text = json.dumps({"picture": False, "snapshot": False, "texts": ["x" * 2500]})

    async def run() -> None:
        client = aioredis.Redis.from_url(url)
        await client.ping()
        for name, call in (("PING", client.ping),
                           ("PUBLISH of a spectator's message (2.5 kB)",
                            lambda: client.publish("bench", text))):
            wall, own, server = time.perf_counter(), time.process_time(), cpu_seconds(redis)
            done, end = 0, time.monotonic() + seconds
            while done < count and time.monotonic() < end:
                await call()
                done += 1
            wall = (time.perf_counter() - wall) / done
            own = (time.process_time() - own) / done
            server = (cpu_seconds(redis) - server) / done
            print(f"Redis round trip, {name}: {wall * 1e6:.0f} us wall, {own * 1e6:.0f} us "
                  f"CPU here, {server * 1e6:.0f} us CPU in redis-server ({done} trips)")
        await client.aclose()

    asyncio.run(run())


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
    parser.add_argument("--redis", action="store_true",
                        help="then run the steps against two processes sharing a Redis of "
                             "the script's own (redis-server must be installed)")
    args = parser.parse_args()
    print(f"reference workload before: {reference.reference_seconds() * 1000:.0f} ms CPU "
          "(bench/reference.py)")
    print(f"think {args.think} s, {args.seconds:.0f} s per step, "
          f"{count_of(args.clients, 'client process', 'client processes')}; latency from "
          "sending a move to its announcement")
    port = free_port()
    server = start_server(port, tempfile.mkdtemp(prefix="serve-load-"))
    try:
        wait_for(port)
        print("one process, no outside service:")
        steps([f"ws://127.0.0.1:{port}/ws"], [server.pid], None, args)
    finally:
        stop(server)
    if args.redis:
        with_redis(args)
    print(f"reference workload after: {reference.reference_seconds() * 1000:.0f} ms CPU")


def with_redis(args: Any) -> None:
    """The steps against two processes sharing a Redis started here, and its round trips."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--redis needs redis-server (apt-get install redis-server)")
    folder = tempfile.mkdtemp(prefix="serve-load-redis-")
    redis_port = free_port()
    redis = subprocess.Popen([binary, "--port", str(redis_port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", folder],
                             stdout=subprocess.DEVNULL)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        wait_for(redis_port)
        url = f"redis://127.0.0.1:{redis_port}/0"
        round_trips(url, redis.pid)
        ports = [free_port(), free_port()]
        records = tempfile.mkdtemp(prefix="serve-load-")
        servers = [start_server(p, records, url) for p in ports]
        for p in ports:
            wait_for(p)
        print("two processes sharing a Redis (seats sent to the owner, a spectator at the "
              "other process):")
        steps([f"ws://127.0.0.1:{p}/ws" for p in ports], [s.pid for s in servers],
              redis.pid, args)
    finally:
        for process in [*servers, redis]:
            stop(process)


if __name__ == "__main__":
    main()
