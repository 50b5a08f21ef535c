"""Partizan game values: canonical forms of short games, their sums and comparisons, mean and temperature.

:class:`~gamedp.cgt.values.GameValue` is the value type; :func:`~gamedp.cgt.values.parse` reads CGSuite's
notation; :func:`~gamedp.cgt.search.value` values a position of a game that gives Left's and Right's options
(:meth:`gamedp.game.Game.options`).
"""
