"""`rlark-bot timeline TARGET`: the target's pods over time, as text, an SVG or a PNG."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.bundle import BundleError, read_bundle
from bot.bundle.logs import LogVisitor
from bot.commands.common import Runtime, add_source_args, interactive, parse_now, parse_target
from bot.errors import EXIT_OK, SourceError, UsageError
from bot.models import Evidence
from bot.models.evidence import echo
from bot.service import resolve_now
from bot.sinks import write_file, write_png
from bot.sources import BundleSource

PICTURES = (".png", ".svg")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("timeline", help="a RLark job's (or a pod's) pods over time: text, SVG or PNG")
    p.add_argument("target", metavar="TARGET", help="JOB, job/NAME, pod/NAME or runner/NAME")
    add_source_args(p)
    p.add_argument("--output", metavar="FILE.png|FILE.svg", help="write the picture; PNG or SVG by the extension")
    p.add_argument("--format", choices=("text",), default=None,
                   help="print the text form to stdout (the default when no --output is given)")
    p.add_argument("--now", metavar="RFC3339", help="the right edge of the picture (default: capturedAt)")
    p.add_argument("--diagnose", action="store_true",
                   help="diagnose too and mark the diagnosis's first error (else: error-looking lines of failing pods)")
    p.set_defaults(run=run, bounded=True)  # bounded work: see bot.launch


def output_path(text: str | None) -> Path | None:
    """The picture's path, checked before anything is read: a known extension, not a directory."""
    if text is None:
        return None
    path = Path(text)
    if path.suffix.lower() not in PICTURES:
        raise UsageError(f"--output {echo(text, 80)}: name a .png or .svg file (the extension picks the format)")
    try:
        is_dir = path.is_dir()
        above = next((p for p in path.parents if p.exists()), None)
    except OSError as exc:  # a name too long for the file system, and the like
        raise UsageError(f"--output {echo(text, 80)}: {exc.strerror or exc}") from exc
    if is_dir:
        raise UsageError(f"--output {echo(text, 80)}: is a directory, not a file")
    if above is not None and not above.is_dir():
        raise UsageError(f"--output {echo(text, 80)}: {above} is a file, not a directory")
    return path


def _read(source: BundleSource, *, kinds: frozenset[str], visitor: LogVisitor) -> Evidence:
    try:
        return read_bundle(source.path, processes=source.processes, kinds=kinds, visitor=visitor)
    except BundleError as exc:
        raise SourceError(f"cannot read snapshot {source.path}: {exc}") from exc
    except RecursionError as exc:
        raise SourceError(f"cannot read snapshot {source.path}: a file is nested too deeply") from exc


def run(args: argparse.Namespace, rt: Runtime) -> int:
    # Imported here, as every command's own machinery: start-up loads only the command that runs.
    from bot.timeline import TIMELINE_KINDS, StageVisitor, render_svg, render_text, timeline_of, visits_of
    from bot.timeline.raster import RasterError, rasterise

    target = parse_target(args.target, args.namespace)
    now = parse_now(args.now)
    out = output_path(args.output)
    source = rt.source(args)
    first = None
    if isinstance(source, BundleSource) and not args.diagnose:
        # Only the kinds a timeline is drawn from, each log visited for its stages while the reader holds it (in
        # the helpers forked before the objects are read): a large log is never held next to every object.
        evidence = _read(source, kinds=TIMELINE_KINDS, visitor=StageVisitor())
    else:
        gathered = source.for_target(target, progress=rt.progress(enabled=interactive(args)))
        evidence = gathered.evidence
        if args.diagnose:
            first = rt.service.diagnose(target, source=source, now=now, gathered=gathered).first_error
    tl = timeline_of(evidence, target, now=resolve_now(now, evidence), redactor=rt.redactor,
                     processes=rt.service.processes, first_error=first, visits=visits_of(evidence.logs))
    if out is not None:
        svg = render_svg(tl, redactor=rt.redactor)
        try:
            if out.suffix.lower() == ".png":
                write_png(out, svg, rasterise=rasterise)
            else:
                write_file(out, svg)
        except OSError as exc:
            raise SourceError(f"cannot write {out}: {exc.strerror or exc}") from exc
        except RasterError as exc:
            raise SourceError(f"cannot draw {out}: {exc}") from exc
    if args.format == "text" or out is None:
        rt.out(render_text(tl, redactor=rt.redactor))
    return EXIT_OK
