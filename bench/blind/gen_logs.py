# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""Log text for the blind bundles: the RLark Ray wrapper markers (CONTRACT §1) and ordinary noise around them."""

from __future__ import annotations

from datetime import datetime, timedelta

PIP_EDITABLE = """Obtaining file:///workspace/RLinf
  Installing build dependencies: started
  Installing build dependencies: finished with status 'done'
  Checking if build backend supports build_editable: started
  Checking if build backend supports build_editable: finished with status 'done'
  Getting requirements to build editable: started
  Getting requirements to build editable: finished with status 'done'
Requirement already satisfied: hydra-core>=1.3.2 in /opt/conda/envs/rlinf/lib/python3.10/site-packages (1.3.2)
Requirement already satisfied: ray[default]==2.40.0 in /opt/conda/envs/rlinf/lib/python3.10/site-packages (2.40.0)
Requirement already satisfied: omegaconf<2.4,>=2.2 in /opt/conda/envs/rlinf/lib/python3.10/site-packages (2.3.0)
Building wheels for collected packages: rlinf
  Building editable for rlinf (pyproject.toml): started
  Building editable for rlinf (pyproject.toml): finished with status 'done'
  Created wheel for rlinf: filename=rlinf-0.2.0-0.editable-py3-none-any.whl size=11873
Successfully built rlinf
Installing collected packages: rlinf
Successfully installed rlinf-0.2.0
WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv"""

PIP_NPU = """Looking in indexes: https://repo.huaweicloud.com/repository/pypi/simple
Obtaining file:///workspace/RLinf
  Installing build dependencies: started
  Installing build dependencies: finished with status 'done'
Requirement already satisfied: torch==2.5.1 in /usr/local/python3.10/lib/python3.10/site-packages (2.5.1)
Requirement already satisfied: torch-npu==2.5.1 in /usr/local/python3.10/lib/python3.10/site-packages (2.5.1)
Requirement already satisfied: ray==2.40.0 in /usr/local/python3.10/lib/python3.10/site-packages (2.40.0)
Successfully installed rlinf-0.2.0"""

RAY_START_HEAD = """Usage stats collection is disabled.

Local node IP: {ip}

--------------------
Ray runtime started.
--------------------

Next steps
  To add another node to this Ray cluster, run
    ray start --address='{ip}:6379'

  To connect to this Ray cluster:
    import ray
    ray.init(_node_ip_address='{ip}')

  To terminate the Ray runtime, run
    ray stop

  To view the status of the cluster, use
    ray status

  To monitor and debug Ray, view the dashboard at
    {ip}:8265

  If connection to the dashboard fails, check your firewall settings and network configuration."""

RAY_START_WORKER = """Local node IP: {ip}

--------------------
Ray runtime started.
--------------------

To terminate the Ray runtime, run
  ray stop
--block
  This command will now block forever until terminated by a signal.
  Running subprocesses are monitored and a message will be printed if any of them terminate unexpectedly. Subprocesses exit with SIGTERM will be treated as graceful, thus NOT reported."""


def stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{(t.microsecond // 1000) or 117:03d}"


def rl(t: datetime, module: str, level: str, msg: str) -> str:
    """An RLinf (hydra logging) line."""
    return f"[{stamp(t)}][{module}][{level}] - {msg}"


def ray_py(t: datetime, level: str, where: str, msg: str) -> str:
    return f"{stamp(t)}\t{level} {where} -- {msg}"


def ray_status(t: datetime, nodes: int, cpus: int, gpus: int, accel: str = "GPU") -> str:
    ids = [f"node_{(i * 7919 + 104729) * 2654435761 % (1 << 64):016x}{i:016x}"[:37] for i in range(nodes)]
    lines = [f"======== Autoscaler status: {t.strftime('%Y-%m-%d %H:%M:%S')}.000000 ========", "Node status",
             "-" * 63, "Active:"]
    lines += [f" 1 {i}" for i in ids]
    lines += ["Pending:", " (no pending nodes)", "Recent failures:", " (no failures)", "", "Resources", "-" * 63,
              "Total Usage:", f" 0.0/{cpus}.0 CPU", f" 0.0/{gpus}.0 {accel}", f" 0B/{nodes * 1.41:.2f}TiB memory",
              f" 0B/{nodes * 186.26:.2f}GiB object_store_memory", "", "Total Constraints:",
              " (no request_resources() constraints)", "Total Demands:", " (no resource demands)"]
    return "\n".join(lines)


def head_log(*, t0: datetime, total: int, ip: str = "100.96.0.5", host: str = "", prepare: str = PIP_EDITABLE,
             counts: list[int] | None = None, check_failed: bool = False, run: list[str] | None = None,
             status_nodes: int | None = None, cpus_per_node: int = 124, gpus_per_node: int = 8,
             accel: str = "GPU", rank: int = 0, extra_after_rank: list[str] | None = None) -> str:
    """The head's main log, up to and including the run script's own lines."""
    counts = counts if counts is not None else list(range(2, total + 1))
    lines = [f"RLINF_NODE_RANK: {rank}", "rlark-sshd started on port 22"]
    lines += extra_after_rank or []
    lines += ["Executing prepare script...", prepare, "Did not find any active Ray processes."]
    lines += ["Waiting for domain IP from /etc/hosts... (attempt 1)",
              f"Resolved domain IP: {ip} ({host or 'head'}.rlark-domain)"]
    lines.append(RAY_START_HEAD.format(ip=ip))
    lines += [f"Waiting for {total} nodes to join the Ray cluster...", "Starting Ray cluster status check...",
              f"Waiting for cluster to have at least {total} nodes.", f"Ray Address: {ip}:6379"]
    t = t0 + timedelta(seconds=50)
    remaining = 900
    for c in counts:
        lines.append(ray_py(t, "INFO", "worker.py:1654", f"Connecting to existing Ray cluster at address: {ip}:6379..."))
        lines.append(ray_py(t, "INFO", "worker.py:1832", f"Connected to Ray cluster. View the dashboard at http://{ip}:8265 "))
        lines.append(f"Found {c} total nodes, {c} of which are alive.")
        lines.append(f"Current node count: {c}")
        if c < total:
            lines.append(f"Time remaining: {remaining}s")
        t += timedelta(seconds=10)
        remaining -= 10
    if run is None:
        return "\n".join(lines)
    n = status_nodes if status_nodes is not None else (counts[-1] if counts else 1)
    if check_failed:
        lines.append(f"Timed out waiting for {total} nodes; only {n} joined.")
        lines.append("Warning: Ray cluster check failed, proceeding anyway.")
    else:
        lines.append(f"Cluster is ready: {n} nodes available (required: {total}).")
        lines.append("Ray cluster check passed.")
    lines.append("Ray cluster is ready. Printing cluster information:")
    lines.append("=" * 42)
    lines.append(ray_status(t, n, n * cpus_per_node, n * gpus_per_node, accel))
    lines.append("=" * 42)
    lines.append("Executing run script...")
    lines += run
    return "\n".join(lines)


def worker_log(*, rank: int, head: str, ip: str, prepare: str = PIP_EDITABLE, head_ip: str = "100.96.0.5",
               waits: int = 2, reachable: bool = True, tail: list[str] | None = None,
               exit_code: int | None = None) -> str:
    lines = [f"RLINF_NODE_RANK: {rank}", "SSH public key injected into authorized_keys", "Executing prepare script...",
             prepare, f"Connecting to Ray head at {head}:6379..."]
    for k in range(1, waits + 1):
        lines.append(f"HEAD IP: {head_ip}")
        lines.append(f"Waiting for head to be reachable at {head}:6379... (attempt {k})")
    if reachable:
        lines.append(f"HEAD IP: {head_ip}")
        lines.append(f"Head is reachable at {head_ip}:6379")
        lines.append(RAY_START_WORKER.format(ip=ip))
    lines += tail or []
    if exit_code is not None:
        lines.append(f"Ray worker process exited with code {exit_code}")
    return "\n".join(lines)


def progress(t0: datetime, first: int, last: int, total: int, step_s: float = 43.0, start_reward: float = 0.05,
             label: str = "Global Step") -> list[str]:
    out = []
    for i in range(first, last + 1):
        el = int(i * step_s)
        rest = int((total - i) * step_s)
        pct = int(100 * i / total)
        out.append(
            f"{label}: {pct:3d}%|{'#' * (pct // 10):<10}| {i}/{total} [{_hms(el)}<{_hms(rest)}, {step_s:.2f}s/it, "
            f"rollout/rewards={start_reward + 0.004 * i:.3f}, train/actor/policy_loss={-0.012 + 0.0001 * i:.4f}, "
            f"train/actor/grad_norm={0.91 - 0.002 * i:.3f}]")
    return out


def _hms(n: int) -> str:
    return f"{n // 3600}:{n // 60 % 60:02d}:{n % 60:02d}" if n >= 3600 else f"{n // 60:02d}:{n % 60:02d}"


def tensorboard_log(t: datetime, pod: str) -> str:
    return (f"{t.strftime('%Y-%m-%d %H:%M:%S')}.512194: I tensorflow/core/util/port.cc:153] oneDNN custom operations "
            "are on. You may see slightly different numerical results due to floating-point round-off errors from "
            "different computation orders.\nNOTE: Using experimental fast data loading logic. To disable, pass\n"
            '    "--load_fast=false" and report issues on GitHub. More details:\n'
            "    https://github.com/tensorflow/tensorboard/issues/4784\n\n"
            f"TensorBoard 2.15.1 at http://{pod}:6006/ (Press CTRL+C to quit)")


def sidecar_log(t: datetime, tun_ip: str) -> str:
    z = t.strftime("%Y-%m-%dT%H:%M:%S")
    return "\n".join([
        f'{z}.201Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "http get: Get \\"http://localhost/get_ip\\": '
        'dial unix /var/run/rlark/nodeserver.sock: connect: connection refused", "backoff": "500ms"}',
        f'{z}.733Z\tINFO\tRetrieved pod IP info from nodeserver\t{{"ip": "{tun_ip}", "prefixLength": 16}}',
        f'{z}.734Z\tINFO\tProxy listening for inbound connections\t{{"address": "0.0.0.0:15006"}}',
        f'{z}.735Z\tINFO\tHosts sync started\t{{"interval": "5s", "hostsFile": "/etc/hosts"}}',
    ])
