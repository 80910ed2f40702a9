"""Roll Builder action encoding (integer ids) and notation (id <-> text).

Id ranges (fixed part, then a part sized by the sheet; ``g`` is the game, whose ``A_ROAD`` ...
``A_END`` attributes hold the variable bases):

====================  =====================================  ===================================
ids                   action                                 notation
====================  =====================================  ===================================
0-5                   chance: a die shows 1-6                ``roll N``
6-13                  die i (0, 1) used as k: 6 + 4*i + k,   ``road d1`` ``build d2`` ``wonder d1``
                      k = road 0, build 1, wonder 2, skip 3  ``skip d2``
14-16                 both dice summed on road/build/wonder  ``road d1+d2`` (``dice_use=combine``)
17                    end of the turn                        ``done``
18-19                 cross the favor / strength track       ``track favor`` ``track strength``
20                    store a wealth                         ``store wealth``
21-26                 discard a gained unit                  ``discard food`` ... ``discard bonus``
27, 28                skip a pending Build / Wonder          ``skip build`` ``skip wonder``
29-30                 caravan: stored wealth -> favor/str.   ``caravan favor`` ``caravan strength``
31                    (unused)
g.A_ROAD + edge       a road segment                         ``road R,C,SIDE``
g.A_MARK + space      an X on a connected space              ``mark R,C``
g.A_BUILD + (n-1)*S   building n on space s (S = spaces)     ``build N R,C``
  + s
g.A_WONDER + box      fill a wonder box                      ``wonder BOX``
g.A_CROSS + 3*c + v   cross circle c, paid with v = 0 the    ``cross I2.3`` / ``cross I2.3 bonus``
                      resource, 1 an innovation bonus,       / ``cross I2.3 stored``
                      2 stored wealth
g.A_END               (size of the action space)
====================  =====================================  ===================================
"""

from __future__ import annotations

from ...core.i18n import N_

from typing import Any

from citybuilders.core.errors import IllegalActionError

__all__ = [
    "A_ROLL", "A_DIE", "A_BOTH", "A_DONE", "A_TRACK", "A_STORE", "A_DISCARD", "A_SKIP_BUILD",
    "A_SKIP_WONDER", "A_CARAVAN", "A_FIRST_VAR", "USE_ROAD", "USE_BUILD", "USE_WONDER",
    "USE_SKIP", "KINDS", "DISCARD_NAMES", "DISCARD_BONUS", "PAY_RESOURCE", "PAY_BONUS",
    "PAY_STORED", "die_action", "action_text",
]

A_ROLL = 0  # 0..5 = die value 1..6
A_DIE = 6  # 6 + 4*die + use (USE_*)
A_BOTH = 14  # 14..16: both dice combined on road/build/wonder (option dice_use=combine)
A_DONE = 17
A_TRACK = 18  # 18 favor, 19 strength
A_STORE = 20
A_DISCARD = 21  # 21..26: food supplies wealth favor strength innovation-bonus
A_SKIP_BUILD = 27
A_SKIP_WONDER = 28
A_CARAVAN = 29  # 29 favor, 30 strength
A_FIRST_VAR = 32

USE_ROAD, USE_BUILD, USE_WONDER, USE_SKIP = range(4)
"""What a die is used for (``k`` in ``A_DIE + 4*die + k`` and ``A_BOTH + k``)."""
KINDS = ("road", "build", "wonder", "skip")
"""Notation word of each die use (index ``USE_*``)."""
DISCARD_NAMES = ("food", "supplies", "wealth", "favor", "strength", "bonus")
"""Notation of ``discard`` (index = resource kind; 5 = an innovation bonus)."""
DISCARD_BONUS = 5
PAY_RESOURCE, PAY_BONUS, PAY_STORED = range(3)
"""How a ``cross`` pays its circle (``v`` in ``A_CROSS + 3*c + v``)."""
_PAY_WORDS = ("", " bonus", " stored")


def die_action(die: int, use: int) -> int:
    """Action id of using die ``die`` (0 or 1) for ``use`` (``USE_*``)."""
    return A_DIE + 4 * die + use


def action_text(g: Any, action: int) -> str:
    """Notation of ``action`` in game ``g`` (its sheet and ``A_*`` bases; table above).

    Raises IllegalActionError when the id is out of range."""
    sh = g.sheet
    if not 0 <= action < g.A_END:
        raise IllegalActionError(N_("action {action} is out of range 0-{A_END}",
                                    action=action, A_END=g.A_END - 1))
    if action < A_DIE:
        return f"roll {action - A_ROLL + 1}"
    if action < A_BOTH:
        i, k = divmod(action - A_DIE, 4)
        return f"{KINDS[k]} d{i + 1}"
    if action < A_DONE:
        return f"{KINDS[action - A_BOTH]} d1+d2"
    if action == A_DONE:
        return "done"
    if action < A_STORE:
        return "track favor" if action == A_TRACK else "track strength"
    if action == A_STORE:
        return "store wealth"
    if action < A_SKIP_BUILD:
        return f"discard {DISCARD_NAMES[action - A_DISCARD]}"
    if action == A_SKIP_BUILD:
        return "skip build"
    if action == A_SKIP_WONDER:
        return "skip wonder"
    if action < A_FIRST_VAR:
        return "caravan favor" if action == A_CARAVAN else "caravan strength"
    if action < g.A_MARK:
        return f"road {sh.edge_name[action - g.A_ROAD]}"
    if action < g.A_BUILD:
        return f"mark {sh.space_name(action - g.A_MARK)}"
    if action < g.A_WONDER:
        n, s = divmod(action - g.A_BUILD, sh.n_spaces)
        return f"build {n + 1} {sh.space_name(s)}"
    if action < g.A_CROSS:
        return f"wonder {sh.boxes[action - g.A_WONDER].id}"
    k, var = divmod(action - g.A_CROSS, 3)
    inn = sh.innovations[sh.circles[k][0]]
    return f"cross {inn.id}.{k - inn.first_circle + 1}" + _PAY_WORDS[var]
