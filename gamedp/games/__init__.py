"""Built-in games, one module per family; :mod:`gamedp.games.registry` names them (one entry per game)."""
