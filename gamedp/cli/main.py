"""Entry point of the ``gamedp`` command: subcommands load lazily, so looking things up stays fast."""

from __future__ import annotations

import importlib
import sys

import click

from gamedp import __version__
from gamedp.errors import GamedpError

#: subcommand -> "module:click command"; each module imports its heavy parts (numba) only when run.
COMMANDS: dict[str, str] = {
    "analyze": "gamedp.cli.analyze:analyze",
    "cards": "gamedp.cli.cards:cards",
    "explain": "gamedp.cli.explain:explain",
    "check": "gamedp.cli.check:check",
    "grundy": "gamedp.cli.nimber:grundy",
    "judge": "gamedp.cli.judge:judge",
    "nimber": "gamedp.cli.nimber:nimber",
    "play": "gamedp.cli.play:play",
    "query": "gamedp.cli.query:query",
    "serve": "gamedp.cli.serve:serve",
    "solve": "gamedp.cli.solve:solve",
    "stress": "gamedp.cli.stress:stress",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported when used."""

    def __init__(self, *args, lazy: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.lazy)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = self.lazy.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gamedp")
def cli() -> None:
    """Solve two-player games by dynamic programming: who wins, by how much, how soon, and why."""


def main(argv: list[str] | None = None) -> None:
    """Run the command line; user errors end as one line on stderr and exit status 2."""
    try:
        cli.main(args=argv, prog_name="gamedp", standalone_mode=False)
    except GamedpError as e:
        click.echo(f"gamedp: error: {e}", err=True)
        sys.exit(e.exit_status)
    except click.exceptions.Abort:
        click.echo("gamedp: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing left to say
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
