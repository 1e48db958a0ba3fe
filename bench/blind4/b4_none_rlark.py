# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark jobs of the fourth blind set whose right answer is `none`: healthy or still inside a normal start-up."""

from __future__ import annotations

import sys
from pathlib import Path

from b4_common import HERE, S0, S1, Scenario

if str(HERE.parent / "blind2") not in sys.path:
    sys.path.append(str(HERE.parent / "blind2"))

import gen_logs as L
from b2_rlark import NPU_IMG, RUN, job, npu_nodes, run_begin
from gen_k8s import at, mins, sec
from gen_rlark import write_job_bundle

ZH = [{"name": "LANG", "value": "zh_CN.UTF-8"}, {"name": "LC_ALL", "value": "zh_CN.UTF-8"}]
NPU_SET_ENV = "source /usr/local/Ascend/ascend-toolkit/set_env.sh"


def w_wandb_network_retry(out: Path) -> None:
    c = at(2026, 12, 5, 9, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24),
           "wandb: Currently logged in as: rl-team (rlinf-lab). Use `wandb login --relogin` to force relogin",
           "wandb: Tracking run with wandb version 0.18.7",
           "wandb: Run data is saved locally in /workspace/RLinf/wandb/run-20261205_090312-p4m8x2qa",
           *L.progress(t, 1, 11, 1000, 44.0),
           "wandb: Network error (ReadTimeout), entering retry loop.",
           *L.progress(t, 12, 14, 1000, 44.0),
           "wandb: Network error (ConnectionError), entering retry loop.",
           *L.progress(t, 15, 41, 1000, 44.0)]
    j = job("ppo-opendrawer-1205", c, t + sec(44 * 41) + mins(1), run=run, owner="renjie")
    write_job_bundle(j, out)


def _apt_zh() -> list[str]:
    return ["获取:1 http://repo.huaweicloud.com/ubuntu-ports jammy InRelease [270 kB]",
            "获取:2 http://repo.huaweicloud.com/ubuntu-ports jammy-updates InRelease [128 kB]",
            "获取:3 http://repo.huaweicloud.com/ubuntu-ports jammy-updates/main arm64 Packages [2,391 kB]",
            "已下载 31.6 MB，耗时 6秒 (5,012 kB/s)",
            "正在读取软件包列表...",
            "正在分析软件包的依赖关系树...",
            "正在读取状态信息...",
            "将会同时安装下列软件：",
            "  libegl-mesa0 libgbm1 libwayland-server0",
            "下列【新】软件包将被安装：",
            "  libegl-mesa0 libegl1 libgbm1 libgl1 libwayland-server0",
            "升级了 0 个软件包，新安装了 5 个软件包，要卸载 0 个软件包，有 37 个软件包未被升级。",
            "需要下载 412 kB 的归档。",
            "解压缩后会消耗 1,986 kB 的额外空间。",
            "获取:1 http://repo.huaweicloud.com/ubuntu-ports jammy-updates/main arm64 libwayland-server0 arm64 1.20.0-1ubuntu0.1 [33.9 kB]",
            "debconf: 无法初始化前端界面：Dialog",
            "debconf: (没有可用的对话框类程序，因此无法使用对话框界面。)",
            "debconf: 返回前端界面：Readline",
            "debconf: 无法初始化前端界面：Readline",
            "debconf: 返回前端界面：Teletype",
            "dpkg-preconfigure: 无法重新打开 stdin：",
            "正在选中未选择的软件包 libgbm1:arm64。",
            "正在解压 libgbm1:arm64 (23.2.1-1ubuntu3.1~22.04.3) ...",
            "正在设置 libgbm1:arm64 (23.2.1-1ubuntu3.1~22.04.3) ...",
            "正在处理用于 libc-bin (2.35-0ubuntu3.8) 的触发器 ...",
            "Looking in indexes: https://repo.huaweicloud.com/repository/pypi/simple",
            "Obtaining file:///workspace/RLinf",
            "  Installing build dependencies: started"]


def w_npu_prepare_apt_zh(out: Path) -> None:
    c = at(2026, 12, 5, 10, 0)
    name = "qwen-vl-grpo-npu-1205"
    prep = (f"{NPU_SET_ENV} && apt-get update && apt-get install -y libgl1 libegl1 && "
            "pip install -e /workspace/RLinf --no-deps -q")
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", *_apt_zh()])
    wlog = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...",
                      *_apt_zh()[:-3]])
    task = {"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b-math"},
            "prepare": prep, "env": ZH}
    j = job(name, c, c + mins(2) + sec(30), run=None, workers=1, nodes=npu_nodes(3), node_prefix="npu-b-910b",
            agent="npu-b", domain="math-rl", accel="NPU", gpus=8, owner="zhaoqi", head_ip="192.168.40.31",
            head_pod={"log": head}, worker_pod={0: {"log": wlog}}, task=task)
    write_job_bundle(j, out)


def w_smoke_tests_xfail(out: Path) -> None:
    c = at(2026, 12, 5, 11, 0)
    t = c + mins(4)
    runscript = "cd /workspace/RLinf && python -m pytest -q tests/smoke -p no:cacheprovider -rsx && " + RUN.removeprefix("cd /workspace/RLinf && ")
    tests = ["....x.....s..x...                                                        [100%]",
             "=========================== short test summary info ============================",
             "SKIPPED [1] tests/smoke/test_envs.py:41: ManiSkill GPU sim not requested (ENABLE_GPU_SIM=0)",
             "XFAIL tests/smoke/test_placement.py::test_placement_rejects_oversubscription - expected AssertionError: 24 accelerators requested on a 16-accelerator cluster",
             "XFAIL tests/smoke/test_rollout.py::test_vllm_sleep_mode_on_cpu - vLLM sleep mode needs CUDA",
             "14 passed, 1 skipped, 2 xfailed, 3 warnings in 41.27s"]
    run = [*tests, *run_begin(t, 3, 24), *L.progress(t, 1, 37, 800, 42.0)]
    j = job("ppo-liftpeg-1205", c, t + sec(42 * 37) + mins(1), run=run, owner="sunhao", domain="sim-team",
            task={"run": runscript})
    write_job_bundle(j, out)


def w_npu_domain_ip_retries(out: Path) -> None:
    c = at(2026, 12, 5, 12, 0)
    name = "qwen-dapo-npu-1205"
    hl = L.head_log(t0=c + sec(75), total=3, host=f"{name}-actor-0", ip="192.168.40.31", prepare=L.PIP_NPU,
                    counts=[1, 1, 2], run=None)
    hl = hl.replace("Waiting for domain IP from /etc/hosts... (attempt 1)",
                    "\n".join(f"Waiting for domain IP from /etc/hosts... (attempt {i})" for i in range(1, 6)))
    z = (c + sec(55)).strftime("%Y-%m-%dT%H:%M:%S")
    retry = ('{z}.{ms:03d}Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "http get: Get \\"http://localhost/get_ip\\": '
             'dial unix /var/run/rlark/nodeserver.sock: connect: connection refused", "backoff": "{b}"}}')
    side = "\n".join([*(retry.format(z=z, ms=100 + 150 * i, b=b) for i, b in enumerate(("500ms", "1s", "2s", "4s"))),
                      f'{z}.941Z\tINFO\tRetrieved pod IP info from nodeserver\t{{"ip": "100.96.0.5", "prefixLength": 16}}',
                      f'{z}.942Z\tINFO\tProxy listening for inbound connections\t{{"address": "0.0.0.0:15006"}}',
                      f'{z}.943Z\tINFO\tHosts sync started\t{{"interval": "5s", "hostsFile": "/etc/hosts"}}'])
    task = {"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b-math"},
            "prepare": NPU_SET_ENV + " && pip install -e /workspace/RLinf --no-deps -q"}
    j = job(name, c, c + mins(2) + sec(40), run=None, workers=2, nodes=npu_nodes(4), node_prefix="npu-b-910b",
            agent="npu-b", domain="math-rl", accel="NPU", gpus=8, owner="liuchang", head_ip="192.168.40.31",
            prepare=L.PIP_NPU, head_pod={"log": hl, "sidecar": side},
            worker_log={0: {"waits": 2}, 1: {"waits": 3, "reachable": False}}, task=task)
    write_job_bundle(j, out)


SCENARIOS: list[Scenario] = [
    Scenario("none-rlark-wandb-network-retry", "none", w_wandb_network_retry,
             "A healthy PPO job at step 41: wandb twice reports 'Network error (ReadTimeout/ConnectionError), entering retry loop.' while the training steps keep coming.",
             S1 + " § 处理没有 RLinf 训练信号的任务 (训练信号存在); " + S0 + " § Worker 异常或日志显示进程失败 (定位第一条错误): a logger's retry is not a process failure",
             "job/ppo-opendrawer-1205", "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-npu-prepare-apt-zh", "none", w_npu_prepare_apt_zh,
             "An Ascend job 2.5 minutes after submission: Head and worker are still in the prepare script's zh_CN apt-get install, with debconf's '无法初始化前端界面' and dpkg-preconfigure's '无法重新打开 stdin' noise.",
             S0 + " § 已出现 Worker，但仍为 Pending (初始化或准备脚本是否仍在执行); § Ray 初始化或组网失败 (角色准备脚本): nothing has failed yet",
             "job/qwen-vl-grpo-npu-1205", "none", last_stage="prepare-script", healthy=True),
    Scenario("none-rlark-smoke-tests-xfail-then-training", "none", w_smoke_tests_xfail,
             "The run script first runs a pytest smoke suite (14 passed, 1 skipped, 2 xfailed; an XFAIL reason quotes an AssertionError), then training runs to step 37.",
             S1 + " § 处理没有 RLinf 训练信号的任务 (训练信号存在): expected failures in a passing test run are not errors",
             "job/ppo-liftpeg-1205", "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-npu-domain-ip-retries-forming", "none", w_npu_domain_ip_retries,
             "An Ascend job 2m40s after submission: the Head needed five /etc/hosts attempts for its domain IP and its network sidecar retried the nodeserver four times; 2 of 3 nodes have joined, the last worker is on attempt 3.",
             S0 + " § Ray 初始化或组网失败 (Head 启动和节点检查; Worker 解析和连接 Head: 随后出现可达信息或重复等待信息); § Job 与 Worker 状态不一致 (Worker 启动时短暂不一致是正常的)",
             "job/qwen-dapo-npu-1205", "none", last_stage="ray-cluster-forming", healthy=True),
]
