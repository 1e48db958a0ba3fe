"""A traceback or Ray's unhandled-error report is read to the exception line that names the failure."""

from __future__ import annotations

from bot.scope.tracebacks import exception_line


def _line_of(text: str, pos: int) -> str:
    end = text.find("\n", pos)
    return text[pos:end if end >= 0 else len(text)]


def test_a_plain_traceback() -> None:
    text = ("starting\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
            "    import flash_attn\nModuleNotFoundError: No module named 'flash_attn'\nbye\n")
    pos = exception_line(text, text.index("Traceback"))
    assert _line_of(text, pos).startswith("ModuleNotFoundError")


def test_a_traceback_behind_a_ray_actor_prefix() -> None:
    pre = "(EmbodiedFSDPActor pid=2417, ip=10.0.1.14) "
    text = (f"{pre}Traceback (most recent call last):\n{pre}  File \"w.py\", line 9, in run\n"
            f"{pre}    step()\n{pre}torch.OutOfMemoryError: CUDA out of memory.\n")
    pos = exception_line(text, text.index(pre))
    assert "OutOfMemoryError" in _line_of(text, pos)


def test_an_interleaved_traceback_stays_at_its_header() -> None:
    pre = "(A pid=1) "
    text = f"{pre}Traceback (most recent call last):\n(B pid=2) hello\n{pre}ValueError: x\n"
    assert exception_line(text, 0) == 0


def test_rays_unhandled_error_heads_the_exception_below_it() -> None:
    text = ("2026-11-20 07:41:12,345\tERROR worker.py:422 -- Unhandled error (suppress with "
            "'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::EnvWorker.interact() (pid=3107, ip=10.0.1.14)\n"
            "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n")
    pos = exception_line(text, 0)
    assert _line_of(text, pos).startswith("ray.exceptions.OutOfMemoryError")


def test_any_other_line_is_itself() -> None:
    text = "x\nERROR: disk full\ny\n"
    assert exception_line(text, 2) == 2


def test_rays_task_error_wrapper_heads_the_exception_it_carries() -> None:
    text = ("ray.exceptions.RayTaskError(DistBackendError): \x1b[36mray::FSDPActor.init_worker()\x1b[39m "
            "(pid=2231, ip=10.0.1.12, actor_id=4f1a)\n"
            "  File \"/opt/rlinf/workers/actor.py\", line 88, in init_worker\n"
            "    dist.barrier()\n"
            "ValueError: a different exception printed in between\n"
            "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:2006, unhandled system error\n")
    pos = exception_line(text, 0)
    assert _line_of(text, pos).startswith("torch.distributed.DistBackendError")


def test_an_actor_error_wrapper_behind_an_unhandled_report_is_read_through() -> None:
    text = ("ERROR worker.py:422 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::A.f()\n"
            "ray.exceptions.RayActorError(OutOfMemoryError): The actor died unexpectedly before finishing this task.\n"
            "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n")
    assert _line_of(text, exception_line(text, 0)).startswith("ray.exceptions.OutOfMemoryError")


def test_a_wrapper_whose_exception_is_never_printed_stays_itself() -> None:
    text = "ray.exceptions.RayTaskError(KeyError): ray::A.f() (pid=1)\nbye\n"
    assert exception_line(text, 0) == 0


def test_a_traceback_ending_in_rays_wrapper_is_read_to_the_exception_it_carries() -> None:
    text = ("Traceback (most recent call last):\n  File \"main.py\", line 40, in <module>\n"
            "    ray.get(refs)\n"
            "ray.exceptions.RayTaskError(DistBackendError): ray::A.init_worker() (pid=2231, ip=10.0.1.12)\n"
            "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:2006, unhandled system error\n")
    assert _line_of(text, exception_line(text, 0)).startswith("torch.distributed.DistBackendError")
