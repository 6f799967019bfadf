#!/usr/bin/env python3
"""A bounded loopback load test of `zero serve`: many idle (slowloris) connections plus a steady rate of real
requests, some of them oversized, while the server's memory is sampled.

    python3 scripts/load-test.py BUNDLE [--idle 500] [--rate 50] [--seconds 60] [--zero target/release/zero]

It starts `zero serve BUNDLE --port 0`, keeps `--idle` connections open that send half a request head and then
nothing (reopening each one the server cuts off), and sends `--rate` requests a second for `--seconds`: GET
/api/state, and every tenth a POST with a 20 KiB body, which must get 413. It prints the statuses, the latency of
the well-formed requests, how many idle connections the server cut off, and the server's resident memory at the
start, its peak and at the end; it exits 1 if any well-formed request got anything but 200 or an oversized one
anything but 413. Latest results: docs/reliability.md.
"""

import argparse
import asyncio
import collections
import subprocess
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def request(host, port, method, body=b""):
    reader, writer = await asyncio.open_connection(host, port)
    head = (f"{method} /api/{'state' if method == 'GET' else 'move'} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    writer.write(head.encode() + body)
    await writer.drain()
    reply = await reader.read()
    writer.close()
    return int(reply[9:12]) if len(reply) >= 12 else 0


async def idle_connection(host, port, stop, cut):
    """Holds one connection with half a request head; reopens it when the server cuts it off."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(b"GET /api/state HTTP/1.1\r\nHost: loc")
            await writer.drain()
            done = asyncio.ensure_future(reader.read())
            waiter = asyncio.ensure_future(stop.wait())
            finished, _ = await asyncio.wait({done, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if done in finished:
                cut.append(1)
            else:
                done.cancel()
            writer.close()
        except OSError:
            await asyncio.sleep(0.1)


async def load(args, host, port, pid):
    stop = asyncio.Event()
    cut = []
    idlers = [asyncio.ensure_future(idle_connection(host, port, stop, cut)) for _ in range(args.idle)]
    await asyncio.sleep(2)
    statuses = collections.Counter()
    failures = []
    latencies = []
    memory = [rss_kib(pid)]

    async def one(k):
        oversized = k % 10 == 9
        started = time.monotonic()
        try:
            status = await request(host, port, "POST" if oversized else "GET", b"x" * 20480 if oversized else b"")
        except OSError as e:
            status = f"error {e}"
        statuses[status] += 1
        if oversized and status != 413:
            failures.append(f"oversized request got {status}")
        if not oversized:
            latencies.append(time.monotonic() - started)
            if status != 200:
                failures.append(f"request got {status}")

    tasks = []
    start = time.monotonic()
    k = 0
    while time.monotonic() - start < args.seconds:
        tasks.append(asyncio.ensure_future(one(k)))
        k += 1
        if k % args.rate == 0:
            memory.append(rss_kib(pid))
        await asyncio.sleep(max(0.0, start + k / args.rate - time.monotonic()))
    await asyncio.gather(*tasks)
    memory.append(rss_kib(pid))
    stop.set()
    await asyncio.gather(*idlers)
    latencies.sort()
    print(f"{k} requests in {args.seconds} s beside {args.idle} idle connections: statuses {dict(statuses)}")
    if latencies:
        print(f"latency of the well-formed ones: median {1000 * latencies[len(latencies) // 2]:.1f} ms, "
              f"99th percentile {1000 * latencies[int(len(latencies) * 0.99)]:.1f} ms, "
              f"max {1000 * latencies[-1]:.1f} ms")
    print(f"idle connections cut off by the server: {len(cut)}")
    print(f"server memory (RSS): {memory[0] / 1024:.0f} MiB at the start, peak {max(memory) / 1024:.0f} MiB, "
          f"{memory[-1] / 1024:.0f} MiB at the end")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle")
    parser.add_argument("--idle", type=int, default=500)
    parser.add_argument("--rate", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--zero", default="target/release/zero")
    args = parser.parse_args()
    server = subprocess.Popen([args.zero, "serve", args.bundle, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        address = line.strip().removeprefix("zero serve: http://").rstrip("/")
        host, port = address.rsplit(":", 1)
        failures = asyncio.run(load(args, host, int(port), server.pid))
    finally:
        server.kill()
        server.wait()
    for failure in collections.Counter(failures).items():
        print(f"FAILED: {failure[0]} ({failure[1]} times)")
    if failures:
        sys.exit(1)
    print("ok: every well-formed request answered 200, every oversized one 413")


if __name__ == "__main__":
    main()
