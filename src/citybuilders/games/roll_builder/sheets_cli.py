"""``citybuilders sheets`` and ``citybuilders sheets check FILE`` (wired by cli.py).

``list_sheets()`` describes the shipped city sheets; ``check_sheet(path)`` validates a user sheet
file and summarises it, raising FormatError with a one-line message for a bad sheet.
"""

from __future__ import annotations

from pathlib import Path

from citybuilders.core.errors import FormatError

from .loader import Sheet, compile_sheet, load_shipped_sheet, read_sheet_document, shipped_sheet_names

__all__ = ["list_sheets", "check_sheet", "summary"]
def summary(sh: Sheet) -> str:
    """One paragraph describing a compiled sheet (size, content counts, wonder, abilities)."""
    land = sh.land_mask.bit_count()
    icons = sum(1 for s in range(sh.n_spaces) if sh.icons[s])
    pts = sum(sh.space_points)
    return (
        f"{sh.id}: {sh.name} — {sh.theme}\n"
        f"  map {sh.rows}x{sh.cols}: {land} buildable land spaces, {icons} spaces with icons, "
        f"{pts} road points; {sh.start_roads.bit_count()} starting roads; restrictions: "
        f"{', '.join(sh.restrictions) or 'none'}\n"
        f"  buildings: " + ", ".join(f"{b.number} {b.name}" for b in sh.buildings) + "\n"
        f"  innovations: " + ", ".join(f"{i.id} {i.name} ({i.points})" for i in sh.innovations)
        + "\n"
        f"  wonder: {sh.wonder_name} ({sh.wonder_rule or 'custom'}, {len(sh.boxes)} boxes); "
        f"special: {sh.special_name or 'none'}; full hexagon x{sh.hex_max}; milestones: "
        + (", ".join(str(c) for c, _ in sh.milestones) or "none")
    )


def list_sheets() -> str:
    """Text listing every shipped sheet (``citybuilders sheets``)."""
    return "\n".join(summary(load_shipped_sheet(n)) for n in shipped_sheet_names())


def check_sheet(path: str | Path) -> str:
    """Validate the sheet file at ``path``; return ``"OK: ..."`` with its summary.

    Raises FormatError (one line naming the field) when the file is not a valid sheet (or not a
    readable regular JSON file of at most 64 KiB).
    """
    name = Path(path).name
    data = read_sheet_document(path)
    try:
        sh = compile_sheet(data)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    return f"OK: {name} is a valid Roll Builder sheet\n" + summary(sh)
