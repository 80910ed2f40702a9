"""Sprawlopolis (Button Shy Games, 2018): the game state, solo and co-operative 2–4 players.

Rules as implemented (rulebook ``shared/seeds/002``; digest ``reference/sprawlopolis/rules.md``):

* Setup: 3 condition cards (option ``conditions`` or drawn from the seed; public); target = the sum
  of their numbers. The other 15 cards are the deck. Deal (private chance nodes, one card at a
  time): the start player (player 0) 3 cards, every other player 1. Then the top card of the deck
  starts the city at (0, 0), rotation 0 (public chance), and the next card is revealed on top of the
  face-up deck (public chance: everyone sees the next card to be drawn).
* Turn: the active player plays one card from hand (choose card, top-left block position and
  rotation 0°/180°). Co-op: they pass the rest of their hand to the left (player + 1), who becomes
  the active player, then draw the face-up top card (if any) so they hold 1 card. Solo: draw the
  top card back to 3. A new top card is revealed after each draw while the deck lasts.
* End: after 14 plays (15 cards in the city). Win (``returns`` 1.0 for every player) when the final
  score reaches the target.

Actions and notation: see :mod:`..actions`.
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Mapping

from ....core.errors import IllegalActionError
from ....core.game import CHANCE, TERMINAL, PlayerScore, State
from ..actions import (
    CARD_SPAN,
    CHANCE_BASE,
    MAX_USER,
    MIN_USER,
    action_to_string,
    decode,
    index_of,
    notation_numbers,
    parse_chance,
    parse_play,
    rc_of,
)
from ..loader import CARD_NUMBERS, NUM_CARDS, token_of
from ..scoring import Breakdown, condition_name, score_city
from .city import CITY_SIZE, PLACEMENT_TEXT, City, Placement, placement_problem
from ....core.i18n import N_

if TYPE_CHECKING:  # pragma: no cover
    from ....core.game import Game

__all__ = ["SprawlopolisState", "Pending", "SAVED_FIELDS", "CACHE_FIELDS"]


class Pending(IntEnum):
    """Which chance event the state waits for (``state.pending``; saved as its integer)."""

    NONE = 0
    """No chance event: a player is to play (or the game is over)."""
    DEAL = 1
    """Dealing the starting hands (private: only ``state.receiver`` sees the card)."""
    START = 2
    """The card that starts the city at (0, 0) (public)."""
    REVEAL = 3
    """The next card shown face up on top of the deck (public)."""


_NONE, _DEAL, _START, _REVEAL = (int(p) for p in Pending)
"""Plain-int copies for the hot paths (and so positions save plain integers)."""

SAVED_FIELDS: tuple[str, ...] = (
    "conditions", "city", "hands", "deck", "top", "pending", "receiver", "active", "public", "known",
)
"""The state's own fields, in saved-position order (``city`` is saved as ``placements``);
``__slots__`` is built from this and :data:`CACHE_FIELDS`, and a test checks that ``_clone``,
``_position_json`` and ``_load_position`` cover exactly these."""
CACHE_FIELDS: tuple[str, ...] = ("target", "_legal", "_score")
"""Fields derived from the saved ones (``target`` = sum of the conditions) or caches."""


class SprawlopolisState(State):
    """One Sprawlopolis position (see the module docstring for the turn structure)."""

    __slots__ = SAVED_FIELDS + CACHE_FIELDS

    def __init__(self, game: "Game", num_players: int, seed: int,
                 conditions: tuple[int, ...]) -> None:
        super().__init__(game, num_players, seed)
        self.conditions: tuple[int, ...] = conditions
        self.target: int = sum(conditions)
        self.city = City()
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.deck: list[int] = [c for c in CARD_NUMBERS if c not in conditions]
        self.top: int = 0
        self.pending: int = _DEAL
        self.receiver: int = 0
        self.active: int = 0
        self.public: int = 0  # bitmask of cards everyone has seen (bit card-1)
        self.known: list[int] = [0] * num_players  # cards each player has held
        self._legal: list[int] | None = None
        self._score: Breakdown | None = None

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self.pending:
            return CHANCE
        if len(self.city.placements) >= CITY_SIZE:
            return TERMINAL
        return self.active

    def chance_viewer(self) -> int | None:
        """The receiving player during the deal; the start card and top reveals are public."""
        return self.receiver if self.pending == _DEAL else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform over the cards left in the deck (below the visible top)."""
        p = 1.0 / len(self.deck)
        return [(CHANCE_BASE + c - 1, p) for c in self.deck]

    def sample_chance(self, rng: random.Random) -> int:
        return CHANCE_BASE + self.deck[rng.randrange(len(self.deck))] - 1

    def _positions(self) -> list[int]:
        """Sorted flat indices where the active player's card may go (its top-left block): the
        fast form of :func:`.city.placement_problem` (the city's candidate set)."""
        city = self.city
        if self.game.options["cover_whole_card"] == "forbidden":
            return sorted(p for p in city.cand if not city.buries_a_card(p))
        return sorted(city.cand)

    def _legal_actions(self, player: int) -> list[int]:
        if player == CHANCE:
            return [CHANCE_BASE + c - 1 for c in self.deck]
        if self._legal is None:
            poss = self._positions()
            pr = [2 * p for p in poss]
            pr += [x + 1 for x in pr]
            pr.sort()
            acts: list[int] = []
            for card in sorted(self.hands[self.active]):
                base = (card - 1) * CARD_SPAN
                acts += [base + x for x in pr]
            self._legal = acts
        return self._legal

    def sample_action(self, rng: random.Random, player: int | None = None) -> int:
        """A uniformly random legal play: exactly ``legal[rng.randrange(len(legal))]`` (the core
        contract), found by index arithmetic over the sorted hand and positions instead of
        listing every (card, position, rotation): the list is card-major, then position, then
        rotation, so index ``r`` is card ``r // (2 * positions)``."""
        if (self.pending or self._legal is not None
                or (player is not None and player != self.active)
                or len(self.city.placements) >= CITY_SIZE):
            return super().sample_action(rng, player)
        poss = self._positions()
        hand = sorted(self.hands[self.active])
        span = 2 * len(poss)
        if not span or not hand:
            return super().sample_action(rng, player)
        r = rng.randrange(len(hand) * span)
        j = r % span
        return (hand[r // span] - 1) * CARD_SPAN + 2 * poss[j >> 1] + (j & 1)

    def _apply(self, action: int, player: int) -> None:
        self._legal = None
        if player == CHANCE:
            card = action - CHANCE_BASE + 1
            self.deck.remove(card)
            bit = 1 << (card - 1)
            if self.pending == _DEAL:
                self.hands[self.receiver].append(card)
                self.known[self.receiver] |= bit
                need = [3] + [1] * (self.num_players - 1)
                nxt = next((p for p in range(self.num_players) if len(self.hands[p]) < need[p]), None)
                if nxt is None:
                    self.pending = _START
                else:
                    self.receiver = nxt
            elif self.pending == _START:
                self.public |= bit
                self.city.place(card, index_of(0, 0), 0)
                self._score = None
                self.pending = _REVEAL
            else:
                self.public |= bit
                self.top = card
                self.pending = _NONE
            return
        card, pos, rot = decode(action)
        hand = self.hands[player]
        hand.remove(card)
        self.public |= 1 << (card - 1)
        self.city.place(card, pos, rot)
        self._score = None
        if len(self.city.placements) >= CITY_SIZE:
            return
        if self.num_players > 1:
            left = (player + 1) % self.num_players
            for c in hand:
                self.known[left] |= 1 << (c - 1)
            self.hands[left] += hand
            hand.clear()
            self.active = left
        if self.top:
            hand.append(self.top)
            self.known[player] |= 1 << (self.top - 1)
            self.top = 0
            if self.deck:
                self.pending = _REVEAL

    def _clone(self) -> "SprawlopolisState":
        s = SprawlopolisState.__new__(SprawlopolisState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.conditions, s.target = self.conditions, self.target
        s.city = self.city.copy()
        s.hands = [h.copy() for h in self.hands]
        s.deck = self.deck.copy()
        s.top, s.pending, s.receiver, s.active = self.top, self.pending, self.receiver, self.active
        s.public, s.known = self.public, self.known.copy()
        s._legal = None
        s._score = self._score
        return s

    # ------------------------------------------------------------------ scoring
    def breakdown(self) -> Breakdown:
        """The city's current score (cached until the next placement)."""
        if self._score is None:
            city = self.city
            self._score = score_city(city.cells, city.occ, self.conditions, self.game.rules)
        return self._score

    def scores(self) -> list[PlayerScore]:
        """The same team score for every player; ``extra`` holds ``won`` and ``target``."""
        b = self.breakdown()
        return [
            PlayerScore(b.total, b.parts(), {"won": b.won, "target": b.target})
            for _ in range(self.num_players)
        ]

    def returns(self) -> list[float]:
        """Co-operative: 1.0 for everyone if the final score reaches the target, else 0.0."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        return [1.0 if self.breakdown().won else 0.0] * self.num_players

    def winners(self) -> list[int]:
        """Every player if the team reached the target, otherwise nobody."""
        return list(range(self.num_players)) if self.breakdown().won else []

    def result_info(self) -> dict[str, Any]:
        """``{"won": bool, "target": int, "conditions": "n1-n2-n3"}`` (numbers ascending)."""
        b = self.breakdown()
        return {
            "won": b.won,
            "target": self.target,
            "conditions": "-".join(str(n) for n in sorted(self.conditions)),
        }

    # ------------------------------------------------------------------ views
    def placements_json(self) -> list[dict[str, int]]:
        """Cards of the city in play order: ``[{"card", "row", "col", "rot"}, ...]``."""
        out = []
        for card, pos, rot in self.city.placements:
            r, c = rc_of(pos)
            out.append({"card": card, "row": r, "col": c, "rot": 180 * rot})
        return out

    def grid_rows(self) -> tuple[int, int, list[str]]:
        """(top row, left col, rows of block tokens) of the city's bounding box."""
        if not self.city.occ:
            return 0, 0, []
        r0, c0, r1, c1 = self.city.bounds()
        cells = self.city.cells
        rows = [
            " ".join(token_of(cells[index_of(r, c)]) for c in range(c0, c1 + 1))
            for r in range(r0, r1 + 1)
        ]
        return r0, c0, rows

    def observation(self, player: int | None) -> dict[str, Any]:
        """Public view plus ``player``'s own hand; other hands only as sizes; the deck below its
        visible top card only as a count."""
        r0, c0, rows = self.grid_rows()
        b = self.breakdown()
        obs: dict[str, Any] = {
            "conditions": list(self.conditions),
            "condition_names": [condition_name(n) for n in self.conditions],
            "target": self.target,
            "placements": self.placements_json(),
            "grid": {"top": r0, "left": c0, "rows": rows},
            "hand_sizes": [len(h) for h in self.hands],
            "deck_top": self.top or None,
            "deck_size": len(self.deck),
            "active_player": self.active,
            "plays": max(0, len(self.city.placements) - 1),
            "score": {"total": b.total, **b.to_json()},
        }
        if player is not None and 0 <= player < self.num_players:
            obs["player"] = player
            obs["hand"] = sorted(self.hands[player])
        return obs

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """``play 7 at 2,-1`` (rotation 0) / ``play 7 at 2,-1 rot 180``; ``card 7`` at chance."""
        return action_to_string(action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse ``play 7 at 2,-1 rot 180``, ``7 2,-1 180``, ``7 2 -1`` (rotation 0 if omitted);
        ``card 7`` / ``7`` at a chance node. Raises IllegalActionError saying what is wrong."""
        nums = notation_numbers(text)
        if self.is_chance_node():
            card = parse_chance(text, nums)
            if not 1 <= card <= NUM_CARDS or card not in self.deck:
                raise IllegalActionError(N_("card {card} is not in the deck", card=card))
            return CHANCE_BASE + card - 1
        if self.is_terminal():
            raise IllegalActionError(N_("the game is over"))
        a = parse_play(text, nums)
        p = self.current_player() if player is None else player
        if a not in self.legal_actions(p):
            raise IllegalActionError(self.explain_illegal(a, p))
        return a

    def explain_illegal(self, action: int, player: int) -> str:
        """Names the card and why: not in hand, corner-only, detached, burying a card."""
        if action >= CHANCE_BASE or action < 0:
            return super().explain_illegal(action, player)
        card, pos, rot = decode(action)
        text = self.action_to_string(action, player)
        r, c = rc_of(pos)
        if not (MIN_USER <= r <= MAX_USER and MIN_USER <= c <= MAX_USER):
            return f"'{text}': position {r},{c} is too far from the city"
        if self.current_player() != player:
            return f"'{text}': it is not P{player + 1}'s turn"
        hand = self.hands[player]
        if card not in hand:
            return f"'{text}': card {card} is not in your hand (hand: {', '.join(map(str, sorted(hand)))})"
        problem = placement_problem(self.city, pos, self.game.options["cover_whole_card"])
        if problem == Placement.BURIES_A_CARD:
            why = "it would cover every visible block of an earlier card (cover_whole_card=forbidden)"
        else:
            why = PLACEMENT_TEXT.get(problem, "cannot be placed there")
        return f"'{text}': card {card} {why}"

    def undo_blocked_after(self, history_index: int) -> bool:
        """Only the latest play may be taken back (one play per turn, also with an empty deck)."""
        return history_index < self.move_number() - 1

    # ------------------------------------------------------------------ hidden information
    def resample_from_infostate(self, player: int, rng: random.Random) -> "SprawlopolisState":
        """A state ``player`` cannot tell apart: the cards they never saw (others' initial deal,
        the deck below its top) are permuted among their places, history included."""
        s = self.clone()
        seen = self.public | self.known[player]
        unseen = [c for c in CARD_NUMBERS
                  if c not in self.conditions and not (seen >> (c - 1)) & 1]
        if len(unseen) < 2:
            return s
        shuffled = unseen.copy()
        rng.shuffle(shuffled)
        sigma = dict(zip(unseen, shuffled))
        s.hands = [[sigma.get(c, c) for c in h] for h in s.hands]
        s.deck = sorted(sigma.get(c, c) for c in s.deck)
        hist = []
        for actor, action in s.history():
            if actor < -1 and action >= CHANCE_BASE:
                card = action - CHANCE_BASE + 1
                action = CHANCE_BASE + sigma.get(card, card) - 1
            hist.append((actor, action))
        s._history = hist  # core keeps no public setter: the permuted history replaces the copy
        known = []
        for k in s.known:
            m = 0
            for c in CARD_NUMBERS:
                if (k >> (c - 1)) & 1:
                    m |= 1 << (sigma.get(c, c) - 1)
            known.append(m)
        s.known = known
        return s

    # ------------------------------------------------------------------ JSON
    def _position_json(self) -> dict[str, Any]:
        return {
            "conditions": list(self.conditions),
            "placements": self.placements_json(),
            "hands": [list(h) for h in self.hands],
            "deck": sorted(self.deck),
            "top": self.top,
            "pending": self.pending,
            "receiver": self.receiver,
            "active": self.active,
            "public": self.public,
            "known": list(self.known),
        }

    def _load_position(self, data: Mapping[str, Any]) -> None:
        self.conditions = tuple(int(c) for c in data["conditions"])
        self.target = sum(self.conditions)
        self.city = City()
        for pl in data["placements"]:
            self.city.place(int(pl["card"]), index_of(int(pl["row"]), int(pl["col"])),
                            1 if int(pl["rot"]) == 180 else 0)
        self.hands = [[int(c) for c in h] for h in data["hands"]]
        if len(self.hands) != self.num_players:
            raise ValueError("hands: one hand per player expected")
        self.deck = [int(c) for c in data["deck"]]
        self.top = int(data["top"])
        self.pending = int(data["pending"])
        self.receiver = int(data["receiver"])
        self.active = int(data["active"])
        self.public = int(data["public"])
        self.known = [int(k) for k in data["known"]]
        self._legal = None
        self._score = None
