"""Test helper: approximate bounding boxes of the elements of a renderer's SVG.

Used by the renderer tests of every game to check that drawn elements lie inside the viewBox
and that labels do not overlap. Text width is estimated as ``0.6 × font-size`` per character
(sans-serif digits and lower-case letters are narrower, so the estimate errs on the wide side),
``1 × font-size`` per CJK character, or the text's ``textLength`` when it has one.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

__all__ = ["Box", "parse", "boxes", "viewbox", "overlap"]

_NS = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class Box:
    """Axis-aligned box of one element: ``tag``, its ``key`` (data-key of the element or its
    enclosing group, or ""), ``text`` (for <text>), corners ``x0 <= x1``, ``y0 <= y1``."""

    tag: str
    key: str
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


def parse(svg: str) -> ET.Element:
    """The root element of ``svg`` (raises ``ET.ParseError`` for malformed XML)."""
    return ET.fromstring(svg)


def viewbox(root: ET.Element) -> tuple[float, float, float, float]:
    """``(x, y, width, height)`` of the root's viewBox."""
    x, y, w, h = (float(v) for v in root.get("viewBox", "").replace(",", " ").split())
    return x, y, w, h


def _f(el: ET.Element, name: str, default: float = 0.0) -> float:
    v = el.get(name)
    return default if v is None else float(v)


def _font_size(el: ET.Element, inherited: float) -> float:
    v = el.get("font-size")
    return float(v) if v else inherited


def boxes(root: ET.Element) -> list[Box]:
    """Boxes of every rect, circle, line, polygon and text (no transforms are used by the
    renderers; a ``transform`` attribute raises AssertionError so the helper cannot lie)."""
    out: list[Box] = []

    def walk(el: ET.Element, key: str, fs: float) -> None:
        assert el.get("transform") is None, "svg_layout does not handle transforms"
        tag = el.tag.replace(_NS, "")
        key = el.get("data-key", key)
        fs = _font_size(el, fs)
        if tag == "rect":
            x, y = _f(el, "x"), _f(el, "y")
            out.append(Box(tag, key, "", x, y, x + _f(el, "width"), y + _f(el, "height")))
        elif tag == "circle":
            cx, cy, r = _f(el, "cx"), _f(el, "cy"), _f(el, "r")
            out.append(Box(tag, key, "", cx - r, cy - r, cx + r, cy + r))
        elif tag == "line":
            xs = (_f(el, "x1"), _f(el, "x2"))
            ys = (_f(el, "y1"), _f(el, "y2"))
            out.append(Box(tag, key, "", min(xs), min(ys), max(xs), max(ys)))
        elif tag == "polygon":
            nums = [float(v) for v in re.split(r"[\s,]+", el.get("points", "").strip()) if v]
            xs, ys = nums[0::2], nums[1::2]
            out.append(Box(tag, key, "", min(xs), min(ys), max(xs), max(ys)))
        elif tag == "text":
            text = "".join(el.itertext())
            x, y = _f(el, "x"), _f(el, "y")
            # CJK characters are a full em wide; a textLength squeezes the text to it
            width = fs * sum(1.0 if ord(ch) >= 0x2E80 else 0.6 for ch in text)
            if el.get("textLength"):
                width = float(el.get("textLength"))
            anchor = el.get("text-anchor", "start")
            x0 = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
            out.append(Box(tag, key, text, x0, y - 0.8 * fs, x0 + width, y + 0.2 * fs))
            return
        for child in el:
            if child.tag.replace(_NS, "") != "title":
                walk(child, key, fs)

    walk(root, "", _font_size(root, 16.0))
    return out


def overlap(a: Box, b: Box) -> bool:
    """Whether the interiors of ``a`` and ``b`` intersect."""
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
