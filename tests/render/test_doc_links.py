"""`RLARK_BOT_DOC_URLS`: a finding's source `<page> § <section>` as a link to the section."""

from __future__ import annotations

from urllib.parse import unquote

from bot.render.doc_links import anchor, linked, source_url

LINKS = {"ci-runner": "https://docs.example.com/ci-runner", "bad": "javascript:alert(1)",
         "spaced": "https://docs.example.com/a b"}


def test_the_anchor_is_the_headings_as_markdown_renderers_make_it() -> None:
    assert anchor("安装 / 编译阶段 OOM（并行度过高）") == "安装--编译阶段-oom并行度过高"
    assert anchor("Ray 初始化或组网失败") == "ray-初始化或组网失败"
    assert anchor("Step 2: check_the-logs!") == "step-2-check_the-logs"


def test_a_source_whose_page_has_a_url_links_to_its_section() -> None:
    url = source_url("ci-runner § 依赖缓存异常（pypi / rust）", LINKS)
    assert url is not None and url.startswith("https://docs.example.com/ci-runner#")
    assert unquote(url.split("#", 1)[1]) == "依赖缓存异常pypi--rust"
    assert " " not in url and "（" not in url, "percent-encoded"
    assert source_url("ci-runner", LINKS) == "https://docs.example.com/ci-runner"


def test_pages_without_a_usable_url_stay_text() -> None:
    for source in ("rlark-jobs § x", "bad § x", "spaced § x"):
        assert source_url(source, LINKS) is None
        assert linked(source, "as shown", LINKS) == "as shown"


def test_the_link_text_cannot_break_out_of_the_link() -> None:
    text = linked("ci-runner § a|b>c", "ci-runner § a|b&gt;c", LINKS)
    assert text.startswith("<https://docs.example.com/ci-runner#") and text.endswith(">")
    assert text.count("|") == 1 and text.count(">") == 1
