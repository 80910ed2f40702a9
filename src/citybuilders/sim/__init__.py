"""Simulation: batch runs of bot games, statistics and tables."""

from __future__ import annotations

from .batch import BatchSpec, play_one, run_batch, summarize

__all__ = ["BatchSpec", "play_one", "run_batch", "summarize"]
