"""`python -m agora run` (what `make run` runs) as a developer runs it: beside another
program's Ray, which it must leave alone, with its Ray head dying under its edge, and with its
edge dying. Each test runs it with ports of its own (so it can run beside a developer's `make
run`) in a session of its own, against the test session's nx-27017 and Redis."""

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.harness import wait_for_edge
from tests.integration.fault_tools import agora_process
from tests.integration.helpers import Member, bearer, item_chat
from tests.mail import SmtpSink
from tests.processes import in_session, kill_session, process_sessions
from tests.services import RAY_START_ATTEMPTS, free_port, late_bound_port

GUARD_SECONDS = 180  # a hang guard for Ray heads starting on two busy cores, not a speed check
# A hang guard for a run's first answer: its Ray head (up to RAY_START_ATTEMPTS starts), then
# its edge.
RUN_START_SECONDS = 2 * GUARD_SECONDS
# How long a send may wait before it is answered (AGORA_SEND_ANSWER_SECONDS in these runs),
# and the margin its answer is given: a bound the docs promise, not a speed measurement. What
# the bound rules out is a send left hanging (Ray retries a call to a lost actor for as long
# as it takes); the margin covers an edge slowed by two cores busy with every suite at once.
SEND_ANSWER_SECONDS = 3
ANSWER_MARGIN_SECONDS = 12
# Sends refused while the Ray head is away.
REFUSED_SENDS = 3


def kill_ray_head(run: subprocess.Popen) -> None:
    """The run's Ray head and its actors' workers, as when their machine dies. Ray 2.60 starts
    each worker in a process group of its own, and a shard whose raylet died serves its
    edge's calls on for a while (storing in MongoDB as before)."""
    workers = [pid for pid, command in in_session(run.pid).items() if command.startswith("ray::")]
    os.killpg(child_running(run, "ray start --head"), signal.SIGKILL)
    for pid in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def children(parent: int) -> dict[int, str]:
    return {pid: cmd for pid, (_, ppid, cmd) in process_sessions().items() if ppid == parent}


def ray_executable() -> str:
    return str(Path(sys.executable).parent / "ray")


@contextlib.contextmanager
def another_programs_ray(log_path: Path):
    """A Ray head as another program on the machine would start it (ports and temp dir of its
    own); yields its GCS address and its session id (its processes). Ray gives a new node a
    fixed 30 s to register; on a busy machine it may miss it, and is started again."""
    for attempt in range(1, RAY_START_ATTEMPTS + 1):
        temp_dir = Path(tempfile.mkdtemp(prefix="other-ray-"))
        port = free_port()
        process = _start_other_ray(temp_dir, port, log_path)
        try:
            if _until_started(process, temp_dir / "ray_current_cluster", log_path, attempt):
                yield f"127.0.0.1:{port}", process.pid
                return
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            kill_session(process.pid)
            process.wait()
            shutil.rmtree(temp_dir, ignore_errors=True)


def _start_other_ray(temp_dir: Path, port: int, log_path: Path) -> subprocess.Popen:
    args = [ray_executable(), "start", "--head", "--block", f"--port={port}"]
    args += [f"--temp-dir={temp_dir}", "--include-dashboard=false", "--disable-usage-stats"]
    args += [f"--ray-client-server-port={free_port()}", f"--metrics-export-port={free_port()}"]
    args += [f"--dashboard-agent-listen-port={free_port()}"]
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}
    with log_path.open("w") as log:
        return subprocess.Popen(
            args, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )


def _until_started(
    process: subprocess.Popen, address_file: Path, log_path: Path, attempt: int
) -> bool:
    """True once the head wrote its address; False when it missed Ray's start deadline and
    another attempt is left."""
    deadline = time.monotonic() + GUARD_SECONDS
    while not (address_file.exists() and address_file.read_text().strip()):
        if process.poll() is not None:
            log = log_path.read_text()
            assert "timed out during startup" in log and attempt < RAY_START_ATTEMPTS, log
            return False
        assert time.monotonic() < deadline, "the other program's Ray did not start"
        time.sleep(0.2)
    return True


NO_RAY_TOKEN = {"RAY_AUTH_MODE": "disabled"}


def ray_answers(address: str, auth: dict[str, str]) -> bool:
    """Whether the Ray cluster at `address` answers a client with these RAY_AUTH_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    status = subprocess.run(
        [ray_executable(), "status", f"--address={address}"],
        env={**env, **auth},
        capture_output=True,
        timeout=GUARD_SECONDS,
        check=False,
    )
    return status.returncode == 0


@pytest.fixture
def run_env(mongo_url, redis_url, smtp_sink, web_dist, tmp_path) -> dict[str, str]:
    """Settings of one `agora run`: the test's services, every port its own (restartable ones:
    the supervisor starts its children again on the same ports)."""
    port = late_bound_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AGORA_", "RAY_"))}
    return {
        **env,
        "AGORA_PORT": str(port),
        "AGORA_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        "AGORA_MONGO_URL": mongo_url,
        "AGORA_MONGO_DB": "agora_run_test",
        "AGORA_REDIS_URL": redis_url,
        "AGORA_REDIS_PREFIX": f"test:run:{uuid.uuid4().hex[:8]}:",
        "AGORA_SMTP_URL": smtp_sink.url,
        "AGORA_VAR_DIR": str(tmp_path / "var"),
        "AGORA_WEB_DIST": str(web_dist),
        "AGORA_SECRET_KEY": secrets.token_urlsafe(32),
        "AGORA_RAY_PORT": str(late_bound_port()),
        "AGORA_RAY_DASHBOARD_PORT": str(late_bound_port()),
        "AGORA_RAY_METRICS_PORT": str(late_bound_port()),
        "AGORA_RAY_CLIENT_PORT": str(late_bound_port()),
        "AGORA_RAY_DASHBOARD_AGENT_PORT": str(late_bound_port()),
        "AGORA_SEND_ANSWER_SECONDS": str(SEND_ANSWER_SECONDS),
        "AGORA_LOGIN_ATTEMPTS_PER_IP": "1000",
        "AGORA_OTP_SENDS_PER_IP": "1000",
    }


@contextlib.asynccontextmanager
async def agora_run(env: dict[str, str], log_path: Path):
    """`python -m agora run` in a session of its own, serving; yields its process. Started as
    a shell's background job (SIGINT ignored): the test's Ctrl-C must stop it all the same."""
    run = agora_process("run", env, log_path, as_background_job=True)
    try:
        # A run starts its Ray head first, which Ray may have to start again on a busy machine.
        await asyncio.to_thread(
            wait_for_edge, env["AGORA_PUBLIC_BASE_URL"], run, log_path, RUN_START_SECONDS
        )
        yield run
    except BaseException:
        # What the run logged, for the report.
        sys.stderr.write((await asyncio.to_thread(log_path.read_text))[-20_000:])
        raise
    finally:
        if run.poll() is None:
            run.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(run.wait, GUARD_SECONDS)
        kill_session(run.pid)
        run.wait()


async def send_answer(user: Member, session_id: str, local_id: str) -> tuple[int, dict]:
    """A send's answer, which must come within the bound: stored, or 503 with Retry-After."""
    body = {"dest_session_id": session_id, "payload": local_id, "local_id": local_id}
    try:
        async with asyncio.timeout(SEND_ANSWER_SECONDS + ANSWER_MARGIN_SECONDS):
            reply = await user.client.post("/session/send", json=body, headers=bearer(user.key))
            answer = await reply.json()
    except TimeoutError:
        pytest.fail(f"no answer within {SEND_ANSWER_SECONDS} s to {body}")
    assert reply.status in (200, 503), (reply.status, answer)
    if reply.status == 503:
        assert answer["errors"] and reply.headers["Retry-After"], (answer, reply.headers)
    return reply.status, answer


async def until_stored(user: Member, session_id: str, local_id: str) -> dict:
    """Sends the message again (the same local_id) until it is stored, as a client does, while
    the edge is refused or down."""
    deadline = time.monotonic() + GUARD_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(aiohttp.ClientConnectionError):
            status, answer = await send_answer(user, session_id, local_id)
            if status == 200:
                return answer
        await asyncio.sleep(1)
    pytest.fail(f"{local_id} was never stored")


def child_running(run: subprocess.Popen, command: str) -> int:
    [pid] = [pid for pid, cmd in children(run.pid).items() if command in cmd]
    return pid


# Two Ray heads and a head started again: beside the Python suite's workers they missed Ray's
# start deadline (alone it passes in 35-45 s), so it runs in the cluster lane. One run for
# both halves: they were two tests of a run each, and each run's start (its Ray head with its
# dashboard, its edge, the demo city) took about 20 core-seconds.
@pytest.mark.cluster
async def test_make_run_survives_its_ray_head_and_edge_dying_and_stops_only_its_own_ray(
    run_env, smtp_sink, tmp_path
):
    with another_programs_ray(tmp_path / "other-ray.log") as (other_address, other_session):
        others_processes = in_session(other_session)
        async with agora_run(run_env, tmp_path / "run.log") as run:
            started = in_session(run.pid)
            assert any("gcs_server" in command for command in started.values()), started
            await _head_and_edge_die(run, run_env, smtp_sink)
            run.send_signal(signal.SIGINT)
            assert await asyncio.to_thread(run.wait, GUARD_SECONDS) == 0
            # Every process the run started is gone: the edge, its Ray head and the head's
            # workers (the shard actors) alike, those started again included.
            assert in_session(run.pid) == {}
        assert in_session(other_session) == others_processes
        assert await asyncio.to_thread(ray_answers, other_address, NO_RAY_TOKEN)


async def _head_and_edge_die(
    run: subprocess.Popen, run_env: dict[str, str], sink: SmtpSink
) -> None:
    """The run's Ray head dies under its edge: sends answer 503 meanwhile and are stored once
    it is back; then its edge dies, and the one started again serves."""
    base_url = run_env["AGORA_PUBLIC_BASE_URL"]
    async with aiohttp.ClientSession(base_url=base_url) as http:
        owner, asker, item = await item_chat(http, sink)
        session_id = f"r_{item['_id']}_{asker.id}"
        await until_stored(asker, session_id, "before")
        # Ray listens on every interface: only a client with the run's token is let in.
        ray_address = f"127.0.0.1:{run_env['AGORA_RAY_PORT']}"
        token = (Path(run_env["AGORA_VAR_DIR"]) / "ray_auth_token").read_text().strip()
        with_token = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
        answers = await asyncio.gather(
            asyncio.to_thread(ray_answers, ray_address, with_token),
            asyncio.to_thread(ray_answers, ray_address, NO_RAY_TOKEN),
        )
        assert answers == [True, False]
        # The head dies: its GCS, its raylet and the shards with them. The supervisor is held
        # meanwhile: on a quiet machine it has the head back within the send's answer bound,
        # and no send would be refused.
        run.send_signal(signal.SIGSTOP)
        kill_ray_head(run)

        # Three at once: each is refused only once its answer bound has passed.
        refused = 0
        for n in range(GUARD_SECONDS):
            answers = await asyncio.gather(
                *(send_answer(asker, session_id, f"away {n}.{k}") for k in range(REFUSED_SENDS))
            )
            refused += sum(status == 503 for status, _ in answers)
            if refused >= REFUSED_SENDS:
                break
        assert refused >= REFUSED_SENDS
        # Calls that need no Ray still answer; a page the shard would have served comes from
        # MongoDB.
        page = await owner.call(
            "/session/messages", {"session_id": session_id, "greater_than_timestamp": 0}
        )
        assert "before" in [m["local_id"] for m in page["inbox_messages"]]

        # The supervisor starts the head again, and the edge joins it.
        run.send_signal(signal.SIGCONT)
        await until_stored(asker, session_id, "back")

        # An edge that exits is started again.
        edge = child_running(run, "agora serve")
        os.kill(edge, signal.SIGKILL)
        await until_stored(asker, session_id, "after the edge")
        assert child_running(run, "agora serve") != edge


# With workers (-n), these start Ray heads and edges of their own one after another on one
# worker: Ray's start has fixed deadlines that several at once on two cores can miss.
pytestmark = [
    pytest.mark.timeout(3 * GUARD_SECONDS),
    pytest.mark.xdist_group("own-processes"),
    pytest.mark.slow,
]


# Nothing is started (the check comes first), so it stays in the Python lane. It exits within
# seconds; the guard is for a run that joins and waits for a GCS for ever, as it did.
async def test_make_run_refuses_a_ray_port_another_program_holds_before_starting_anything(
    run_env, tmp_path
):
    with socket.create_server(("127.0.0.1", 0)) as not_ray:
        env = {**run_env, "AGORA_RAY_PORT": str(not_ray.getsockname()[1])}
        log_path = tmp_path / "run.log"
        run = agora_process("run", env, log_path)
        try:
            code = await asyncio.to_thread(run.wait, GUARD_SECONDS)
        finally:
            kill_session(run.pid)
    said = log_path.read_text()
    assert code == os.EX_CONFIG, said
    assert f"127.0.0.1:{env['AGORA_RAY_PORT']} is taken by a program that does not answer" in said
    assert "set AGORA_RAY_PORT to a free port" in said
