"""Offline rules about the pod template: image, main container, limits, volumes, reserved names, labels."""

from __future__ import annotations

from bot.preflight.document import JobDocument, join
from bot.preflight.findings import Findings
from bot.preflight.quantity import parse_quantity
from bot.preflight.view import TaskView, as_dict, as_list, is_gpu_key, text

RESERVED_CONTAINERS = ("tensorboard", "rlark-network-sidecar", "rlark-sshd-init")
RESERVED_VOLUMES = ("ray-init-scripts", "rlark-tensorboard", "rlark-sshd", "rlark-nodeserver-socket")
RESERVED_ENV_ALLOWED = ("RLARK_TASK_ROLE",)
RESERVED_MOUNT = "/rlark/scripts"
PROBES = ("livenessProbe", "readinessProbe", "startupProbe")


def check_image(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        main = t.main()
        if main is None:
            names = ", ".join(repr(c.name) for c in t.containers()) or "none"
            out.error("P11", task=t.label, path=f"{t.pod_path}.containers",
                      en=f"no container is named exactly 'main' (containers: {names}): only 'main' gets the Ray "
                         "wrapper; rename the workload container",
                      zh=f"没有名为 main 的容器（现有：{names}）：只有 main 会被注入 Ray 包装脚本；请把工作负载容器命"
                         "名为 main")
            continue
        image = main.data.get("image")
        path = f"{main.path}.image"
        if not text(image).strip():
            out.error("P10", task=t.label, path=path, en="container 'main' has no image: fill in the image",
                      zh="main 容器没有镜像：请填写镜像")
        elif any(ch.isspace() for ch in text(image)):
            out.error("P10", task=t.label, path=path, en=f"image {image!r} holds whitespace: remove it",
                      zh=f"镜像 {image!r} 含有空白字符：请删除")
        elif "@" not in text(image):
            last = text(image).rsplit("/", 1)[-1]
            if ":" not in last or last.endswith(":latest"):
                why = "':latest'" if ":" in last else "no tag"
                out.warn("P10", task=t.label, path=path,
                         en=f"image {image!r} has {why}: a rerun may pull another image; pin a tag or, better, a "
                            "digest (@sha256:...)",
                         zh=f"镜像 {image!r} 使用{'latest 标签' if ':' in last else '默认标签'}：重跑可能拉到不同镜像；"
                            "请固定标签，最好使用摘要（@sha256:...）")


def check_limits(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        for c in t.containers() + t.containers(init=True):
            res = as_dict(c.data.get("resources"))
            requests, limits = as_dict(res.get("requests")), as_dict(res.get("limits"))
            for key in sorted({str(k) for k in (*requests, *limits) if is_gpu_key(str(k))}):
                req, lim = requests.get(key), limits.get(key)
                if lim is None:
                    out.error("P22", task=t.label, path=join(f"{c.path}.resources.requests", key),
                              en=f"container {c.name!r} requests {key}: {req} with no limit: extended resources "
                                 f"need a limit equal to the request; add limits {key}: {req}",
                              zh=f"容器 {c.name!r} 请求了 {key}: {req} 但没有 limits：扩展资源需要相等的 limits；"
                                 f"请添加 limits {key}: {req}")
                elif req is not None and parse_quantity(req) != parse_quantity(lim):
                    out.error("P22", task=t.label, path=join(f"{c.path}.resources.limits", key),
                              en=f"container {c.name!r}: {key} request {req} differs from limit {lim}: make them "
                                 "equal",
                              zh=f"容器 {c.name!r}：{key} 的 requests {req} 与 limits {lim} 不相等：请设为相同")


def check_mounts(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        declared: dict[str, str] = {}
        for path, vol in t.volumes():
            name = text(vol.get("name"))
            if name in declared:
                out.error("P23", task=t.label, path=f"{path}.name",
                          en=f"volume name {name!r} is declared twice: give each volume its own name",
                          zh=f"卷名 {name!r} 重复声明：每个卷需用不同名称")
            declared.setdefault(name, path)
            _check_hostpath(t, path, vol=vol, out=out)
        for c in t.containers() + t.containers(init=True):
            seen: set[str] = set()
            for i, m in enumerate(as_list(c.data.get("volumeMounts"))):
                mpath = join(f"{c.path}.volumeMounts", i)
                mount = as_dict(m)
                where, vname = text(mount.get("mountPath")), text(mount.get("name"))
                if not where.strip():
                    out.error("P23", task=t.label, path=mpath,
                              en=f"container {c.name!r}: volumeMount {vname or i!r} has no mountPath: set the "
                                 "directory inside the container",
                              zh=f"容器 {c.name!r}：挂载 {vname or i!r} 没有 mountPath：请填写容器内挂载目录")
                elif where in seen:
                    out.error("P23", task=t.label, path=f"{mpath}.mountPath",
                              en=f"container {c.name!r}: mountPath {where} is used twice: mount each directory once",
                              zh=f"容器 {c.name!r}：mountPath {where} 重复：每个目录只能挂载一次")
                seen.add(where)
                if vname not in declared:
                    out.error("P23", task=t.label, path=f"{mpath}.name",
                              en=f"container {c.name!r}: volumeMount names {vname!r}, which is not a declared "
                                 "volume: declare it under volumes or fix the name",
                              zh=f"容器 {c.name!r}：挂载引用的卷 {vname!r} 未在 volumes 中声明：请声明或更正名称")


def _check_hostpath(t: TaskView, path: str, *, vol: dict[str, object], out: Findings) -> None:
    if "hostPath" not in vol:
        return
    host = text(as_dict(vol.get("hostPath")).get("path"))
    if not host.strip():
        out.error("P24", task=t.label, path=f"{path}.hostPath",
                  en=f"hostPath volume {text(vol.get('name'))!r} has no path: fill in the host directory",
                  zh=f"hostPath 卷 {text(vol.get('name'))!r} 没有主机目录：请填写 path")
    else:
        out.warn("P24", task=t.label, path=f"{path}.hostPath.path",
                 en=f"hostPath {host} must exist, with the permissions the container needs, on whichever matched "
                    "node the pod lands on: confirm with the admin",
                 zh=f"hostPath {host} 必须在实际调度到的每个匹配节点上存在并具备容器所需权限：请与管理员确认")


def claims(t: TaskView) -> list[tuple[str, str]]:
    """(path, claim name) of every PVC volume (an empty claim name: the agent generates <task>-<volume>)."""
    return [(f"{path}.persistentVolumeClaim", text(as_dict(vol.get("persistentVolumeClaim")).get("claimName")))
            for path, vol in t.volumes() if "persistentVolumeClaim" in vol]


def check_storage(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        storage = as_dict(t.workload.get("pvcStorageMap"))
        for path, claim in claims(t):
            if not claim:
                out.error("P25", task=t.label, path=path,
                          en="a PVC volume has no claimName: name the claim and map it to a StorageClass in "
                             "pvcStorageMap",
                          zh="PVC 卷没有 claimName：请命名并在 pvcStorageMap 中为其指定 StorageClass")
            elif not text(storage.get(claim)).strip():
                out.error("P25", task=t.label, path=f"{path}.claimName",
                          en=f"claim {claim!r} has no StorageClass: add {claim}: <class> to "
                             "kubernetes.workload.pvcStorageMap",
                          zh=f"PVC {claim!r} 没有 StorageClass：请在 kubernetes.workload.pvcStorageMap 中添加 {claim}"
                             ": <class>")
        if t.effective_replicas > 1:
            for path, claim in claims(t):
                out.warn("P26", task=t.label, path=path,
                         en=f"{t.effective_replicas} replicas share claim {claim!r}, which the agent creates "
                            "ReadWriteOnce: pods on different nodes cannot all mount it; give each replica its own "
                            "directory or use shared storage",
                         zh=f"{t.effective_replicas} 个副本共用 PVC {claim!r}，agent 以 ReadWriteOnce 创建：不同节点"
                            "上的 Pod "
                            "无法同时挂载；请为每个副本使用独立目录或共享存储")


def check_reserved(doc: JobDocument, tasks: list[TaskView], *, out: Findings) -> None:
    for t in tasks:
        for c in t.containers() + t.containers(init=True):
            if c.name in RESERVED_CONTAINERS:
                out.error("P28", task=t.label, path=f"{c.path}.name",
                          en=f"container name {c.name!r} is the platform's own: rename it",
                          zh=f"容器名 {c.name!r} 为平台保留：请改名")
            for i, env in enumerate(as_list(c.data.get("env"))):
                name = text(as_dict(env).get("name"))
                if (name.startswith("RLARK_") and name not in RESERVED_ENV_ALLOWED) or name == "POD_NAME":
                    out.error("P28", task=t.label, path=f"{join(f'{c.path}.env', i)}.name",
                              en=f"env {name} is set by the platform (the Ray wrapper reads it): rename your variable",
                              zh=f"环境变量 {name} 由平台设置（Ray 包装脚本会读取）：请改用其他名称")
            for i, m in enumerate(as_list(c.data.get("volumeMounts"))):
                where = text(as_dict(m).get("mountPath")).rstrip("/")
                if where == RESERVED_MOUNT or where.startswith(RESERVED_MOUNT + "/"):
                    out.error("P28", task=t.label, path=f"{join(f'{c.path}.volumeMounts', i)}.mountPath",
                              en=f"mountPath {where} is where the platform mounts the Ray scripts: mount elsewhere",
                              zh=f"mountPath {where} 是平台挂载 Ray 脚本的目录：请挂载到其他位置")
        for path, vol in t.volumes():
            if text(vol.get("name")) in RESERVED_VOLUMES:
                out.error("P28", task=t.label, path=f"{path}.name",
                          en=f"volume name {vol.get('name')!r} is the platform's own: rename it",
                          zh=f"卷名 {vol.get('name')!r} 为平台保留：请改名")


def check_labels(doc: JobDocument, tasks: list[TaskView], *, out: Findings) -> None:
    for t in tasks:
        meta = as_dict(t.template.get("metadata"))
        if "labels" not in meta or not doc.name or not t.name:
            continue
        labels = as_dict(meta.get("labels"))
        want = f"{doc.name}-{t.name}"
        if labels.get("app") != want:
            has = f"app: {labels['app']}" if "app" in labels else "no app label"
            out.error("P29", task=t.label, path=f"{t.workload_path}.template.metadata.labels",
                      en=f"template labels have {has}: the StatefulSet selects its pods by app: {want}; remove the "
                         f"labels or add app: {want}",
                      zh=f"模板标签为 {has}：StatefulSet 按 app: {want} 选择 Pod；请删除 labels 或添加 app: {want}")


def check_unsupported(tasks: list[TaskView], out: Findings) -> None:
    def say(t: TaskView, path: str, *, what_en: str, what_zh: str) -> None:
        out.warn("P32", task=t.label, path=path,
                 en=f"{what_en}: the creator cannot set this; save this YAML and confirm with the admin before "
                    "submitting",
                 zh=f"{what_zh}：创建器无法设置此项；提交前请保存该 YAML 并与管理员确认")

    for t in tasks:
        containers = t.containers()
        for c in containers[1:] if t.main() is None else [c for c in containers if c.name != "main"]:
            say(t, c.path, what_en=f"extra container {c.name!r}",
                what_zh=f"额外容器 {c.name!r}")
        for c in t.containers(init=True):
            say(t, c.path, what_en=f"init container {c.name!r}",
                what_zh=f"init 容器 {c.name!r}")
        for c in containers:
            for probe in PROBES:
                if probe in c.data:
                    say(t, f"{c.path}.{probe}", what_en=f"container {c.name!r} has a {probe}",
                        what_zh=f"容器 {c.name!r} 设置了 {probe}")
            if "securityContext" in c.data:
                say(t, f"{c.path}.securityContext", what_en=f"container {c.name!r} has a securityContext",
                    what_zh=f"容器 {c.name!r} 设置了 securityContext")
        if "securityContext" in t.pod_spec:
            say(t, f"{t.pod_path}.securityContext", what_en="a pod securityContext",
                what_zh="Pod 级 securityContext")
        for path, vol in t.volumes():
            if as_dict(vol.get("emptyDir")).get("medium") == "Memory":
                say(t, f"{path}.emptyDir.medium", what_en=f"memory-backed volume {vol.get('name')!r} (/dev/shm)",
                    what_zh=f"内存卷 {vol.get('name')!r}（/dev/shm）")
