"""Credentials as they appear in RLark jobs and Ascend CI logs, in many spellings per family.

Each family generator returns (lines, values that must not survive). ``embed`` then puts a record
in a realistic context: a log prefix (timestamp, CRI ``stdout F``, ``[pod/x]``), ANSI colour,
Chinese text around it, a JSON log envelope, URL-encoding, or ``fold`` wrapping (the values to
check become the pieces). Deterministic for a seeded ``random.Random``.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from urllib.parse import quote

from bench.redact.shapes3 import FAMILIES as SHAPES3

ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
PW_CHARS = ALNUM + "!#%^*_+.@-"

Record = tuple[list[str], list[str]]


def _s(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _mixed(rng: random.Random, alphabet: str, n: int) -> str:
    """A random value that surely has upper, lower and digit characters (a real key's look)."""
    while True:
        v = _s(rng, alphabet, n)
        if any(c.isupper() for c in v) and any(c.islower() for c in v) and any(c.isdigit() for c in v):
            return v


def _ak(rng: random.Random) -> str:
    while True:
        v = _s(rng, UPPER, 20)
        if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
            return v


def _sk(rng: random.Random, n: int = 40) -> str:
    return _mixed(rng, ALNUM, n)


def _pw(rng: random.Random) -> str:
    return rng.choice(string.ascii_letters) + _mixed(rng, PW_CHARS, rng.randint(10, 18))


def _uuid(rng: random.Random) -> str:
    h = _s(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _host(rng: random.Random) -> str:
    return rng.choice(
        [
            "obs.cn-north-4.myhuaweicloud.com",
            "obs.cn-southwest-2.myhuaweicloud.com",
            "oss-cn-hangzhou.aliyuncs.com",
            "cos.ap-guangzhou.myqcloud.com",
        ]
    )


def obsutil(rng: random.Random) -> Record:
    ak, sk, sts = _ak(rng), _sk(rng), _mixed(rng, ALNUM + "-_", 120)
    e = _host(rng)
    return rng.choice(
        [
            ([f"obsutil config -i={ak} -k={sk} -t={sts} -e={e}"], [ak, sk, sts]),
            ([f"./obsutil config -i {ak} -k {sk} -e https://{e}"], [ak, sk]),
            ([f"+ /opt/obsutil/obsutil ls obs://rlinf-ckpt -i={ak} -k={sk} -e={e} -limit=10"], [ak, sk]),
            ([f"obsutil cp ./ckpt obs://rlinf-ckpt/run-7/ -r -f -i {ak} -k {sk} -e {e}"], [ak, sk]),
            ([f'obsutil config -i="{ak}" -k="{sk}" -e="{e}" && obsutil mb obs://tmp'], [ak, sk]),
        ]
    )


def ossutil(rng: random.Random) -> Record:
    kid, sec, sts = "LTAI5t" + _mixed(rng, ALNUM, 18), _sk(rng, 30), _mixed(rng, ALNUM, 64)
    return rng.choice(
        [
            ([f"ossutil config -e oss-cn-hangzhou.aliyuncs.com -i {kid} -k {sec}"], [kid, sec]),
            (
                [f"ossutil64 cp -r ./data oss://rl-data/ -i {kid} -k {sec} -t {sts} -e oss-cn-beijing.aliyuncs.com"],
                [kid, sec, sts],
            ),
            ([f"ossutil ls oss://rl-data --access-key-id {kid} --access-key-secret {sec}"], [kid, sec]),
            ([f"./ossutil config -i={kid} -k={sec} -e=oss-cn-shanghai.aliyuncs.com"], [kid, sec]),
        ]
    )


def coscmd(rng: random.Random) -> Record:
    sid, skey = "AKID" + _mixed(rng, ALNUM, 32), _sk(rng, 32)
    return rng.choice(
        [
            ([f"coscmd config -a {sid} -s {skey} -b rlinf-1250000000 -r ap-guangzhou"], [sid, skey]),
            ([f"+ coscmd config -r ap-shanghai -b ckpt-1300000000 -a {sid} -s {skey} -t {_sk(rng, 48)}"], [sid, skey]),
            ([f"coscmd config -a '{sid}' -s '{skey}' -b b-1250000000 -r ap-beijing"], [sid, skey]),
        ]
    )


def minio_mc(rng: random.Random) -> Record:
    ak, sk = _ak(rng), _sk(rng)
    pw = _pw(rng).replace("@", "x")
    return rng.choice(
        [
            ([f"mc alias set minio http://minio.rlark-system:9000 {ak} {sk}"], [ak, sk]),
            ([f"mc config host add obs https://{_host(rng)} {ak} {sk} --api S3v4"], [ak, sk]),
            ([f"+ mc alias set local http://127.0.0.1:9000 minioadmin '{pw}'"], [pw]),
            ([f"mc alias set ckpt https://minio.example.internal {ak} {sk} --api s3v4 --path auto"], [ak, sk]),
        ]
    )


def rclone(rng: random.Random) -> Record:
    ak, sk = _ak(rng), _sk(rng)
    return rng.choice(
        [
            (
                [
                    f"rclone config create obs s3 provider HuaweiOBS access_key_id {ak} secret_access_key {sk} "
                    f"endpoint {_host(rng)}"
                ],
                [ak, sk],
            ),
            ([f"rclone config update ckpt secret_access_key {sk}"], [sk]),
            ([f"rclone config create oss s3 provider Alibaba access_key_id={ak} secret_access_key={sk}"], [ak, sk]),
            ([f"+ rclone config create minio s3 env_auth false access_key_id {ak} secret_access_key '{sk}'"], [ak, sk]),
        ]
    )


def aws_configure(rng: random.Random) -> Record:
    kid = "AKIA" + _s(rng, string.ascii_uppercase + "234567", 16)
    sk, tok = _sk(rng), _mixed(rng, B64, 200)
    return rng.choice(
        [
            ([f"aws configure set aws_secret_access_key {sk}"], [sk]),
            ([f"+ aws configure set aws_access_key_id {kid} --profile obs"], [kid]),
            ([f"aws configure set default.aws_session_token {tok}"], [tok]),
            ([f"aws configure set aws_secret_access_key {sk} --profile ckpt && aws s3 ls"], [sk]),
            ([f"aws --profile obs configure set aws_secret_access_key '{sk}'"], [sk]),
        ]
    )


def sdk_positional(rng: random.Random) -> Record:
    ak, sk = _ak(rng), _sk(rng)
    kid, sec = "LTAI5t" + _mixed(rng, ALNUM, 18), _sk(rng, 30)
    return rng.choice(
        [
            ([f'client = ObsClient("{ak}", "{sk}", server="https://{_host(rng)}")'], [ak, sk]),
            ([f"obs_client = ObsClient('{ak}', '{sk}', 'https://{_host(rng)}')"], [ak, sk]),
            ([f"auth = oss2.Auth('{kid}', '{sec}')"], [kid, sec]),
            ([f"auth = oss2.StsAuth('{kid}', '{sec}', '{_mixed(rng, ALNUM, 60)}')"], [kid, sec]),
            ([f'mc = Minio("minio.rlark-system:9000", "{ak}", "{sk}", secure=False)'], [ak, sk]),
            ([f'credentials = BasicCredentials("{ak}", "{sk}", project_id)'], [ak, sk]),
        ]
    )


def passwd_file(rng: random.Random) -> Record:
    ak, sk = _ak(rng), _sk(rng)
    blob = base64.b64encode(f"{ak}:{sk}\n".encode()).decode()
    return rng.choice(
        [
            ([f"echo {ak}:{sk} > /etc/passwd-obsfs"], [ak, sk]),
            ([f'echo "{ak}:{sk}" > ${{HOME}}/.passwd-s3fs && chmod 600 ${{HOME}}/.passwd-s3fs'], [ak, sk]),
            ([f"{ak}:{sk}"], [ak, sk]),
            ([f"rlinf-ckpt:{ak}:{sk}"], [ak, sk]),
            ([f"echo {blob} | base64 -d > /etc/passwd-s3fs"], [blob]),
        ]
    )


def quoted_password(rng: random.Random) -> Record:
    pw = _pw(rng)
    return rng.choice(
        [
            ([f"mysql -uroot -p'{pw}' -h 10.0.3.9 -e 'show databases'"], [pw]),
            ([f'+ mysql -h db.rlark-system -u rl -p"{pw}" rlark < init.sql'], [pw]),
            ([f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no root@10.0.0.5"], [pw]),
            ([f'sshpass -p"{pw}" scp ckpt.tar root@npu-node-3:/mnt/'], [pw]),
            ([f"redis-cli -h redis-master -a '{pw}' ping"], [pw]),
            ([f"docker login -u cn-north-4@{_ak(rng)} -p '{pw}' swr.cn-north-4.myhuaweicloud.com"], [pw]),
            ([f'helm registry login swr.cn-north-4.myhuaweicloud.com --username ci --password "{pw}"'], [pw]),
        ]
    )


def piped_password(rng: random.Random) -> Record:
    pw = _pw(rng).replace("@", "x")
    bare = pw.replace("!", "x").replace("#", "x")
    return rng.choice(
        [
            (
                [
                    f"echo '{pw}' | docker login swr.cn-north-4.myhuaweicloud.com -u cn-north-4@{_ak(rng)} "
                    "--password-stdin"
                ],
                [pw],
            ),
            ([f'+ echo "{pw}" | docker login --username ci --password-stdin ghcr.io'], [pw]),
            (
                [f"printf '%s' '{pw}' | helm registry login swr.cn-east-3.myhuaweicloud.com -u ci --password-stdin"],
                [pw],
            ),
            ([f"echo '{pw}' | sudo -S apt-get install -y sshpass"], [pw]),
            (
                [f"echo -n {bare} | nerdctl login --password-stdin -u ci harbor.local"],
                [bare],
            ),
        ]
    )


def add_mask(rng: random.Random) -> Record:
    v = _sk(rng, rng.choice([32, 40, 48]))
    return rng.choice(
        [
            ([f"+ echo ::add-mask::{v}"], [v]),
            ([f"::add-mask::{v}"], [v]),
            ([f'echo "::add-mask::{v}"'], [v]),
        ]
    )


def curl_user(rng: random.Random) -> Record:
    pw = _pw(rng).replace("'", "x").replace('"', "x")
    url = "https://artifactory.rlark.internal/api/pypi/pypi-local"
    return rng.choice(
        [
            ([f"curl -fsSL -u admin:'{pw}' {url}"], [pw]),
            ([f"curl -u 'ci-bot:{pw}' -T dist/rlinf.whl {url}/"], [pw]),
            ([f'curl -sS -u "ci-bot":"{pw}" {url}'], [pw]),
            ([f"curl --user ci-bot:{pw.replace('#', 'x')} {url}"], [pw.replace("#", "x")]),
            (["+ curl -fsSL \\", f"    -u ci-bot:'{pw}' \\", f"    {url}/simple/"], [pw]),
            ([f"wget --user=ci-bot --password='{pw}' {url}/rlinf.whl"], [pw]),
        ]
    )


def vendor_header(rng: random.Random) -> Record:
    code, art = _mixed(rng, HEX + "ABCDEF", 32), "AKCp" + _mixed(rng, ALNUM, 69)
    url = "https://apig.cn-north-4.huaweicloud.com/v1/infer"
    return rng.choice(
        [
            ([f"curl -X POST -H 'X-Apig-AppCode: {code}' -d @req.json {url}"], [code]),
            ([f"> X-Apig-AppCode: {code}"], [code]),
            ([f'curl -H "X-JFrog-Art-Api: {art}" -T a.whl https://art.rlark.internal/pypi/'], [art]),
            ([f"headers = {{'X-Apig-AppCode': '{code}', 'Content-Type': 'application/json'}}"], [code]),
            ([f"X-JFrog-Art-Api: {art}"], [art]),
        ]
    )


def cookie(rng: random.Random) -> Record:
    sid, csrf = _s(rng, HEX + "abcdefghijklmnopqrstuvwxyz", 32), _mixed(rng, ALNUM, 32)
    return rng.choice(
        [
            ([f"Cookie: sessionid={sid}; csrftoken={csrf}"], [sid, csrf]),
            ([f"curl -b 'sessionid={sid}' https://rlark.internal/api/jobs"], [sid]),
            ([f'curl --cookie "JSESSIONID={sid}" https://jenkins.rlark.internal/job/rl/'], [sid]),
            ([f"curl -s -H 'Cookie: _gitlab_session={sid}' https://gitlab.rlark.internal/api/v4/projects"], [sid]),
            ([f"< Set-Cookie: sessionid={sid}; Path=/; HttpOnly"], [sid]),
        ]
    )


def wandb_context(rng: random.Random) -> Record:
    k = _s(rng, HEX, 40)
    return rng.choice(
        [
            ([f'wandb.login(key="{k}")'], [k]),
            ([f"wandb.login(key='{k}', relogin=True)"], [k]),
            ([f"wandb login --host=https://wandb.rlark.internal local-{k}"], [k]),
            ([f"+ wandb login --relogin {k}"], [k]),
            ([f"wandb login {k}"], [k]),
        ]
    )


def webhook(rng: random.Random) -> Record:
    u = _uuid(rng)
    return rng.choice(
        [
            (
                [
                    f"curl -X POST -H 'Content-Type: application/json' -d @msg.json "
                    f"https://open.feishu.cn/open-apis/bot/v2/hook/{u}"
                ],
                [u],
            ),
            ([f'FEISHU_WEBHOOK_URL="https://open.feishu.cn/open-apis/bot/v2/hook/{u}"'], [u]),
            ([f'{{"webhook": "https://open.larksuite.com/open-apis/bot/v2/hook/{u}", "msg_type": "text"}}'], [u]),
            ([f"notify: POST https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={u} -> 200"], [u]),
            ([f"requests.post('https://open.feishu.cn/open-apis/bot/v2/hook/{u}', json=card)"], [u]),
        ]
    )


def uuid_token(rng: random.Random) -> Record:
    u = _uuid(rng)
    return rng.choice(
        [
            ([f"modelscope login --token {u}"], [u]),
            ([f"python upload.py --api-token={u} --repo rlinf/ckpt"], [u]),
            ([f"Authorization: token {u}"], [u]),
            ([f"  token: {u}"], [u]),
            ([f"CODECOV_TOKEN={u}"], [u]),
        ]
    )


def netrc(rng: random.Random) -> Record:
    pw = _pw(rng)
    return rng.choice(
        [
            ([f"machine github.com login ci-bot password {pw}"], [pw]),
            (["machine gitcode.com", "  login ci-bot", f"  password {pw}"], [pw]),
            ([f"machine artifactory.rlark.internal login admin password {pw}"], [pw]),
            (["default", "login anonymous", f"password {pw}"], [pw]),
        ]
    )


def k8s_secret(rng: random.Random) -> Record:
    raw = [_sk(rng, 24), _pw(rng), _sk(rng, 40)]
    b = [base64.b64encode(v.encode()).decode() for v in raw]
    auth = base64.b64encode(f"ci:{raw[1]}".encode()).decode()
    dockercfg = json.dumps({"swr.cn-north-4.myhuaweicloud.com": {"auth": auth}})
    return rng.choice(
        [
            (
                [
                    "apiVersion: v1",
                    "data:",
                    f"  endpoint: {b[0]}",
                    f"  config.yaml: {b[2]}",
                    "kind: Secret",
                    "metadata:",
                    "  name: obs-cred",
                    "type: Opaque",
                ],
                b[::2],
            ),
            (
                [
                    "apiVersion: v1",
                    "kind: Secret",
                    "metadata:",
                    "  name: db",
                    "stringData:",
                    f"  url: {raw[0]}",
                    f"  init.sql: {raw[2]}",
                ],
                [raw[0], raw[2]],
            ),
            (
                ["kind: Secret", "type: kubernetes.io/dockercfg", "stringData:", "  .dockercfg: |", f"    {dockercfg}"],
                [auth],
            ),
            (
                [
                    "{",
                    '    "apiVersion": "v1",',
                    '    "data": {',
                    f'        "hf": "{b[0]}",',
                    f'        "extra.conf": "{b[2]}"',
                    "    },",
                    '    "kind": "Secret",',
                    '    "type": "Opaque"',
                    "}",
                ],
                b[::2],
            ),
            ([json.dumps({"apiVersion": "v1", "data": {"a": b[0], "b.json": b[2]}, "kind": "Secret"})], b[::2]),
        ]
    )


def next_line(rng: random.Random) -> Record:
    v, pw = _sk(rng, 36), _pw(rng)
    ts = f"2026-03-0{rng.randint(1, 9)}T0{rng.randint(0, 9)}:1{rng.randint(0, 9)}:2{rng.randint(0, 9)}.5Z"
    return rng.choice(
        [
            (["obs:", "  secret_access_key:", f"    {v}"], [v]),
            ([f"{ts} INFO config password:", f"{ts} INFO config   {pw}"], [pw]),
            (["{", "    'client_secret':", f"        '{v}',", "    'region': 'cn-north-4',", "}"], [v]),
            (['  "token":', f'    "{v}",'], [v]),
            (["export HUAWEICLOUD_SDK_SK=\\", f"  {v}"], [v]),
            (["python train.py --hf-token \\", f"    {v} \\", "    --config ppo.yaml"], [v]),
        ]
    )


def chinese(rng: random.Random) -> Record:
    pw, sk, tok, ak = _pw(rng), _sk(rng), _mixed(rng, ALNUM, 40), _ak(rng)
    return rng.choice(
        [
            ([f"数据库密码：{pw}"], [pw]),
            ([f"初始化完成，root 密码: {pw}，请妥善保管"], [pw]),
            ([f"口令={pw}"], [pw]),
            ([f"秘密访问密钥：{sk}"], [sk]),
            ([f"访问密钥ID: {ak}，秘密访问密钥: {sk}"], [ak, sk]),
            ([f"访问令牌：{tok}（有效期 24 小时）"], [tok]),
            ([f"令牌: {tok}"], [tok]),
            ([f"密钥为 {sk}"], [sk]),
        ]
    )


def ansi_key(rng: random.Random) -> Record:
    pw, sk = _pw(rng), _sk(rng)
    return rng.choice(
        [
            ([f"\x1b[33mpassword\x1b[0m: {pw}"], [pw]),
            ([f"\x1b[1;32mAWS_SECRET_ACCESS_KEY\x1b[0m=\x1b[2m{sk}\x1b[0m"], [sk]),
            ([f"\x1b[36m  client_secret\x1b[0m = {sk}"], [sk]),
        ]
    )


def double_url(rng: random.Random) -> Record:
    v = _sk(rng, 32)
    pw = _mixed(rng, ALNUM, 16)
    return rng.choice(
        [
            ([f"GET /redirect?next=%2Fapi%3Ftoken%3D{v} 302"], [v]),
            ([f"q=%257B%2522password%2522%253A%2522{pw}%2522%257D"], [pw]),
            ([f"callback=https%253A%252F%252Fci%252Fhook%253Faccess_token%253D{v}"], [v]),
        ]
    )


def _azure(rng: random.Random) -> str:
    return _s(rng, ALNUM, 3) + str(rng.randint(0, 9)) + "Q~" + _s(rng, ALNUM + "_~.-", 31) + "a1"


TOKENS: dict[str, Callable[[random.Random], str]] = {
    "azure-client-secret": _azure,
    "stripe-restricted": lambda r: "rk_prod_" + _mixed(r, ALNUM, 40),
    "stripe-prod": lambda r: "sk_prod_" + _mixed(r, ALNUM, 30),
    "aws-bedrock": lambda r: "ABSKQmVkcm9ja0FQSUtleS" + _mixed(r, B64, 110),
    "tencent-secret-id": lambda r: "AKID" + _mixed(r, ALNUM, 32),
    "volcengine": lambda r: "AKLT" + _mixed(r, ALNUM, 40),
    "jfrog": lambda r: "AKCp" + _mixed(r, ALNUM, 69),
    "grafana-sa": lambda r: "glsa_" + _mixed(r, ALNUM, 32) + "_" + _s(r, HEX, 8),
    "grafana-cloud": lambda r: "glc_" + _mixed(r, ALNUM, 64),
    "digitalocean": lambda r: "dop_v1_" + _s(r, HEX, 64),
    "sentry-user": lambda r: "sntryu_" + _s(r, HEX, 64),
    "perplexity": lambda r: "pplx-" + _mixed(r, ALNUM, 48),
    "groq": lambda r: "gsk_" + _mixed(r, ALNUM, 52),
    "nvidia": lambda r: "nvapi-" + _mixed(r, ALNUM + "-_", 64),
    "replicate": lambda r: "r8_" + _mixed(r, ALNUM, 37),
    "linear": lambda r: "lin_api_" + _mixed(r, ALNUM, 40),
    "postman": lambda r: "PMAK-" + _s(r, HEX, 24) + "-" + _s(r, HEX, 34),
    "pulumi": lambda r: "pul-" + _s(r, HEX, 40),
    "doppler": lambda r: "dp.pt." + _mixed(r, ALNUM, 43),
    "heroku": lambda r: "HRKU-AA" + _mixed(r, ALNUM + "_-", 58),
    "age": lambda r: "AGE-SECRET-KEY-1" + _s(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    "openshift": lambda r: "sha256~" + _mixed(r, ALNUM + "_-", 43),
    "newrelic": lambda r: "NRAK-" + _s(r, UPPER, 27),
    "gitlab-routable": lambda r: "glpat-" + _mixed(r, ALNUM + "_-", 36) + ".01.0" + _s(r, HEX + "xyz", 8),
    "slack-config": lambda r: "xoxe.xoxp-1-" + _mixed(r, ALNUM, 160),
    "sendgrid": lambda r: "SG." + _mixed(r, ALNUM + "_-", 22) + "." + _mixed(r, ALNUM + "_-", 43),
    "anthropic": lambda r: "sk-ant-api03-" + _mixed(r, ALNUM + "_-", 93) + "AA",
    "atlassian": lambda r: "ATATT3xFfGF0" + _mixed(r, ALNUM + "_-", 180),
}
_TOKEN_LINES = (
    "export {env}={v}",
    "{env}: {v}",
    'client = Client(api_key="{v}")',
    "+ curl -H 'Authorization: Bearer {v}' https://api.example.com/v1/models",
    "using credential {v} for upload",
    '{{"name": "{env}", "value": "{v}"}}',
)


def token_formats(rng: random.Random) -> Record:
    name = rng.choice(sorted(TOKENS))
    v = TOKENS[name](rng)
    line = rng.choice(_TOKEN_LINES).format(env=name.upper().replace("-", "_") + "_CRED", v=v)
    return [line], [v]


def wrapped(rng: random.Random) -> Record:
    """A token cut by ``fold -w N`` or a log shipper; both pieces must go."""
    tok = rng.choice(
        [
            "ghp_" + _mixed(rng, ALNUM, 36),
            "hf_" + _mixed(rng, ALNUM, 34),
            "glpat-" + _mixed(rng, ALNUM, 20),
            "sk-proj-" + _mixed(rng, ALNUM, 48),
        ]
    )
    line = rng.choice([f"export GITHUB_TOKEN={tok}", f"HF_TOKEN={tok}", f"token {tok}", tok])
    lo, hi = len(line) - len(tok) + 8, len(line) - 6
    widths = [w for w in (24, 32, 40, 48, 60, 64, 72, 76) if lo <= w <= hi]  # fold -w N
    width = rng.choice(widths) if widths and rng.random() < 0.7 else rng.randint(lo, hi)
    head, tail = line[:width], line[width:]
    cut = width - (len(line) - len(tok))
    return [head, tail], [tok[:cut], tok[cut:]]


FAMILIES: dict[str, Callable[[random.Random], Record]] = {
    "obsutil": obsutil,
    "ossutil": ossutil,
    "coscmd": coscmd,
    "minio-mc": minio_mc,
    "rclone": rclone,
    "aws-configure": aws_configure,
    "sdk-positional": sdk_positional,
    "passwd-file": passwd_file,
    "quoted-password": quoted_password,
    "piped-password": piped_password,
    "add-mask": add_mask,
    "curl-user": curl_user,
    "vendor-header": vendor_header,
    "cookie": cookie,
    "wandb-context": wandb_context,
    "webhook": webhook,
    "uuid-token": uuid_token,
    "netrc": netrc,
    "k8s-secret": k8s_secret,
    "next-line": next_line,
    "chinese-keys": chinese,
    "ansi-key": ansi_key,
    "double-url": double_url,
    "token-formats": token_formats,
    "wrapped": wrapped,
    **SHAPES3,  # the third round's shapes (bench/redact/shapes3.py)
}
_PREFIXES = (
    lambda r: (
        f"2026-03-0{r.randint(1, 9)}T1{r.randint(0, 9)}:0{r.randint(0, 9)}:3{r.randint(0, 9)}.{r.randint(100, 999)}Z "
    ),
    lambda r: f"2026-03-01T12:00:0{r.randint(0, 9)}.123456789Z stdout F ",
    lambda r: f"[pod/ppo-franka-0412-actor-{r.randint(0, 15)}] ",
    lambda r: f"(RolloutWorker pid={r.randint(100, 9999)}) ",
    lambda r: "",
)


def embed(rng: random.Random, lines: list[str], values: list[str]) -> Record:
    """The record in one of the contexts real logs put it in; values become the forms that must go."""
    style = rng.choice(["plain", "prefix", "ansi", "chinese", "json", "url"])
    if style == "prefix":
        p = rng.choice(_PREFIXES)(rng)
        return [p + line for line in lines], values
    if style == "ansi" and len(lines) == 1:
        return [f"\x1b[36m{lines[0]}\x1b[0m"], values
    if style == "chinese" and len(lines) == 1:
        return [f"执行命令：{lines[0]} （已完成）"], values
    if style == "json" and len(lines) == 1:
        return [json.dumps({"log": lines[0], "stream": "stdout"}, ensure_ascii=False)], [
            json.dumps(v)[1:-1] for v in values
        ]
    if style == "url" and len(lines) == 1 and "\x1b" not in lines[0]:
        return [f"GET /debug?cmd={quote(lines[0], safe='')} 200"], [quote(v, safe="") for v in values]
    return lines, values


def record(rng: random.Random, family: str) -> Record:
    lines, values = FAMILIES[family](rng)
    if family in {"wrapped", "k8s-secret", "netrc"}:
        return lines, values  # their shape is the point; an envelope would change what they are
    return embed(rng, lines, values)
