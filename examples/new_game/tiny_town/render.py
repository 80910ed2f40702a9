"""How Tiny Town is drawn: a text line per player, a small SVG, the web panels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from citybuilders.core.panels import seat_name
from citybuilders.core.view import Panel, View, esc

from .texts import CATEGORY_NAMES, MOVE_RULES

if TYPE_CHECKING:  # pragma: no cover - types only
    from .rules import TinyTownState

__all__ = ["TinyTownView"]


class TinyTownView(View):
    """Text, SVG and panels of a Tiny Town state."""

    def render_text(self, state: "TinyTownState", player: int | None = None,
                    color: bool = False) -> str:
        lines = [f"turn {state.turn + 1} of {state.game.options['turns']}"]
        for p, score in enumerate(state.scores()):
            hand = f" hand {state.hands[p]}" if player == p else ""
            lines.append(f"P{p + 1}: built {state.built[p] or '-'} · {score.total} points{hand}")
        return "\n".join(lines)

    def render_svg(self, state: "TinyTownState", player: int | None = None) -> str:
        rows = []
        for p, score in enumerate(state.scores()):
            y = 24 + 28 * p
            rows.append(f"<text x='8' y='{y}'>{esc(f'P{p + 1}')}: "
                        f"{esc(', '.join(map(str, state.built[p])) or '-')} "
                        f"({score.total})</text>")
        height = 16 + 28 * state.num_players
        buttons = "".join(
            f"<g data-key='{esc(k)}'><title>{esc(MOVE_RULES[k])}</title>"
            f"<rect x='{200 + 70 * i}' y='8' width='60' height='24' fill='#ddd'/>"
            f"<text x='{206 + 70 * i}' y='25'>{esc(k)}</text></g>"
            for i, k in enumerate(("build", "roll")))
        return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 360 {height}' "
                f"font-family='sans-serif' font-size='14'>{''.join(rows)}{buttons}</svg>")

    def action_path(self, state: "TinyTownState", action: int, player: int | None = None
                    ) -> tuple[str, ...]:
        return (state.action_to_string(action, player),)

    def display_panels(self, obs: Any, names: Sequence[str], you: int | None,
                       terminal: bool) -> list[Panel] | None:
        out: list[Panel] = []
        if obs.get("hand"):
            out.append({"title": "Your card", "value": obs["hand"]})
        out.append({"title": CATEGORY_NAMES["buildings"], "value": {
            seat_name(names, p, you): ", ".join(map(str, b)) or "(none)"
            for p, b in enumerate(obs.get("built", []))}})
        return out
