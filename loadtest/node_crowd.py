"""The Node load generator (loadtest/node/crowd.mjs) behind the Python crowd's interface.

Members are spread round-robin over a few Node processes; each takes JSON commands on stdin
and answers one JSON line. The figures come back as the Python crowd's `Sends` and
`Received`, so the scenarios' steps, ramps and reports serve both.
"""

import json
import secrets
import subprocess
from array import array
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from agora.settings import REPO_ROOT
from loadtest.crowd import Member, Received, Sends, wait_for_deliveries

NODE_DIR = REPO_ROOT / "loadtest" / "node"
SCRIPT = NODE_DIR / "crowd.mjs"


class NodeLoadError(RuntimeError):
    pass


def check_installed() -> None:
    if not (NODE_DIR / "node_modules" / "socket.io-client").exists():
        raise NodeLoadError(
            "the Node load generator is not installed: `make bench` installs it "
            "(npm ci --prefix loadtest/node)"
        )


class NodeCrowd:
    """`via`: how members send, "http" (POST to `send_path`) or "socket" (the `send` event
    on their own socket, which they then must hold)."""

    def __init__(
        self,
        base_url: str,
        members: list[Member],
        processes: int,
        send_path: str,
        *,
        sockets: bool = True,
        via: str = "http",
        log: Path | None = None,
    ) -> None:
        check_installed()
        self.via = via
        self.log = log.open("w") if log else subprocess.DEVNULL
        self.workers = []
        tag = secrets.token_hex(3)
        for index in range(processes):
            worker = subprocess.Popen(
                ["node", str(SCRIPT)],
                cwd=NODE_DIR,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.log,
                text=True,
            )
            self.workers.append(worker)
            share = [{**asdict(m), "socket": sockets} for m in members[index::processes]]
            self._ask(
                worker,
                "init",
                index=index,
                tag=tag,
                base_url=base_url,
                send_path=send_path,
                members=share,
            )

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self.workers]

    def _ask(self, worker: subprocess.Popen, cmd: str, **args: Any) -> Any:
        worker.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
        worker.stdin.flush()
        return self._answer(worker, cmd)

    @staticmethod
    def _answer(worker: subprocess.Popen, cmd: str) -> Any:
        line = worker.stdout.readline()
        if not line:
            raise NodeLoadError(f"a Node load worker exited during {cmd!r}")
        reply = json.loads(line)
        if "error" in reply:
            raise NodeLoadError(f"a Node load worker failed {cmd!r}: {reply['error']}")
        return reply["ok"]

    def _all(self, cmd: str, **args: Any) -> list[Any]:
        for worker in self.workers:
            worker.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
            worker.stdin.flush()
        return [self._answer(worker, cmd) for worker in self.workers]

    def open(self) -> tuple[int, list[str]]:
        replies = self._all("open")
        return sum(r["opened"] for r in replies), [f for r in replies for f in r["failures"]]

    def send(self, seconds: float, rate: float, poisson: bool = False) -> Sends:
        total = Sends()
        for reply in self._all("send", seconds=seconds, rate=rate, poisson=poisson, via=self.via):
            total.add(
                Sends(
                    offered=reply["offered"],
                    backlogged=reply["backlogged"],
                    refused=reply["refused"],
                    acked=[tuple(a) for a in reply["acked"]],
                    errors=Counter(reply["errors"]),
                )
            )
        return total

    def wait_for(self, deliveries: int, seconds: float) -> None:
        wait_for_deliveries(lambda: sum(self._all("count")), deliveries, seconds)

    def collect(self) -> Received:
        total = Received()
        for reply in self._all("collect"):
            total.add(
                Received(
                    counts=Counter(reply["counts"]),
                    latencies_ms=array("d", reply["latencies"]),
                    frames=reply["frames"],
                    other_events=reply["other_events"],
                )
            )
        return total

    def behave(self, rates: dict[str, float]) -> None:
        """Every open socket acts as a person's tab (loadtest/node/behave.mjs) at `rates`
        (event name -> per person-minute) until closed."""
        self._all("behave", rates=rates)

    def events(self) -> dict[str, tuple[list[float], Counter]]:
        """Ack times (ms) and errors per socket event since the last call."""
        total: dict[str, tuple[list[float], Counter]] = {}
        for reply in self._all("events"):
            for name, stat in reply.items():
                times, errors = total.setdefault(name, ([], Counter()))
                times.extend(stat["times"])
                errors.update(stat["errors"])
        return total

    def close(self) -> None:
        for worker in self.workers:
            try:
                worker.stdin.write(json.dumps({"cmd": "close"}) + "\n")
                worker.stdin.close()
            except OSError:
                pass
        for worker in self.workers:
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        if self.log is not subprocess.DEVNULL:
            self.log.close()

    def __enter__(self) -> "NodeCrowd":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
