"""Sprawlopolis rules: the state (:mod:`.state`), the city and its placement rule (:mod:`.city`)
and the options (:mod:`.options`)."""
