"""Solving engines, one module each: memo (Python-defined games), retrograde (cycles), compiled (numba)."""
