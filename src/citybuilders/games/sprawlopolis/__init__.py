"""Sprawlopolis (Button Shy Games, 2018): solo and co-operative card-placement city builder."""
