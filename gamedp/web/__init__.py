"""The local web board (``gamedp serve``): an ASGI app, the worker processes that solve, and the page.

Importing this package imports nothing heavy; :mod:`gamedp.web.app` needs Starlette.
"""
