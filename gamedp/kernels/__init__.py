"""Kernel modules: the hot loops of the built-in games, compiled ahead of time by :mod:`gamedp.aot`."""
