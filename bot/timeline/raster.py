"""SVG to PNG with resvg (a Rust renderer; the `resvg-py` wheel is ~1.4 MB and needs no system library, no
browser and no network). Fonts: DejaVu Sans and WenQuanYi Micro Hei where the system has them (the image copies
both in, from Debian's fonts-dejavu-core and fonts-wqy-microhei), else whatever fonts the system has. Names and
stage ids are ASCII, which DejaVu covers; a Chinese log line or message falls back to WenQuanYi."""

from __future__ import annotations

from pathlib import Path

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/wqy", "/usr/share/fonts/dejavu",
             "/usr/share/fonts/TTF")


def rasterise(svg: str) -> bytes:
    import resvg_py  # loaded only when a PNG is asked for

    dirs = [d for d in FONT_DIRS if Path(d).is_dir()]
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, font_dirs=dirs or None, skip_system_fonts=bool(dirs)))
    except ValueError as exc:
        raise RasterError(str(exc).splitlines()[0] if str(exc) else "resvg could not render the picture") from exc


class RasterError(Exception):
    """The renderer refused the picture (a defect of ours: the SVG is built here)."""
