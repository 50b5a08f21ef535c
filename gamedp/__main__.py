"""``python -m gamedp``: the same as the ``gamedp`` command."""

from gamedp.cli.main import main

main()
