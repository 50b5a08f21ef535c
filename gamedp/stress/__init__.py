"""Stress testing a judge solution: random inputs within a problem's limits, gamedp's answers, shrinking.

One module per idea: :mod:`~gamedp.stress.run` runs a program under limits and measures it,
:mod:`~gamedp.stress.verdict` compares and classifies a run, :mod:`~gamedp.stress.problems` generates and
simplifies inputs of the judge problems (and of a person's own generator), :mod:`~gamedp.stress.shrink` reduces a
failing input, :mod:`~gamedp.stress.saving` keeps it where a rerun finds it (and never replaces a person's file),
:mod:`~gamedp.stress.session` runs the trials and reports.
"""
