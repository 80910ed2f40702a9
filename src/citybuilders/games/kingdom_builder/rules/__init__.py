"""Kingdom Builder rules (base game and the Crossroads expansion): positions, legal moves and
applying them, with the board geometry, location tiles and Crossroads pieces as helper modules.

Modules: ``board`` (geometry, assembled boards), ``tiles`` (location-tile kinds), ``state`` (the
base position), ``options`` (rules options), ``crossroads`` (Crossroads pieces and tasks as pure
functions), ``crossroads_tiles`` (its 8 tile kinds), ``crossroads_state`` (the Crossroads
position).
"""
