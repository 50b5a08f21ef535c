"""``python -m gamedp``: the same as the ``gamedp`` command."""

from gamedp.cli.entry import main

main()
