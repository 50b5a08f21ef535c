"""The ``gamedp`` command line: a thin front end over the public API."""
