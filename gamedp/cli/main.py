"""Entry point of the ``gamedp`` command: subcommands load lazily, so looking things up stays fast."""

from __future__ import annotations

import importlib
import os
import re
import sys
import sysconfig
import traceback
from typing import Any

import click

from gamedp import __version__
from gamedp.errors import GamedpError
from gamedp.streams import check_standard_streams, output_failure

#: subcommand -> "module:click command"; each module imports its heavy parts (numba) only when run.
COMMANDS: dict[str, str] = {
    "analyze": "gamedp.cli.analyze:analyze",
    "book": "gamedp.cli.book:book",
    "cards": "gamedp.cli.cards:cards",
    "cgt": "gamedp.cli.cgt:cgt",
    "explain": "gamedp.cli.explain:explain",
    "check": "gamedp.cli.check:check",
    "games": "gamedp.cli.games:games",
    "grundy": "gamedp.cli.nimber:grundy",
    "judge": "gamedp.cli.judge:judge",
    "nimber": "gamedp.cli.nimber:nimber",
    "play": "gamedp.cli.play:play",
    "query": "gamedp.cli.query:query",
    "serve": "gamedp.cli.serve:serve",
    "solve": "gamedp.cli.solve:solve",
    "stress": "gamedp.cli.stress:stress",
    "value": "gamedp.cli.value:value",
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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:  # past click, which would put a blank line on stderr before our word
            raise _Interrupted from e


class _Interrupted(Exception):
    """Ctrl-C in a command."""


#: set by ``gamedp --debug``: errors raised in a game's own code show their traceback
_debug = False


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    global _debug
    _debug = _debug or value


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gamedp")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug,
              help="When a game's own code (or gamedp) fails, show the full traceback after the error line.")
def cli() -> None:
    """Solve two-player games by dynamic programming: who wins, by how much, how soon, and why."""


def main(argv: list[str] | None = None) -> None:
    """Run the command line; every error ends as one line on stderr (``gamedp: error: ...``) and exit status 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        check_standard_streams()
        _check_numbers(args)
        cli.main(args=args, prog_name="gamedp", standalone_mode=False)
        sys.stdout.flush()  # here, where a failure is reported, rather than at the interpreter's exit
    except GamedpError as e:
        _fail(str(e), e.exit_status)
    except click.exceptions.Abort as e:  # click's word for Ctrl-C (and for an input that ended at a prompt)
        ctrl_c = isinstance(e.__cause__ or e.__context__, KeyboardInterrupt)
        click.echo("gamedp: interrupted" if ctrl_c else "gamedp: aborted", err=True)
        sys.exit(130)
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx is not None else "gamedp"
        _fail(f"{_sentence(e.format_message())} (see '{where} --help')")
    except click.ClickException as e:
        _fail(_sentence(e.format_message()))
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except (KeyboardInterrupt, _Interrupted):
        click.echo("gamedp: interrupted", err=True)
        sys.exit(130)
    except MemoryError:
        _fail("out of memory: this needs more memory than the machine (or `ulimit -v`) allows; try a smaller "
              "position or game", traceback_of=sys.exc_info()[1])
    except OSError as e:
        output = output_failure(e)
        if output == "":  # the reader went away (e.g. `| head`): nothing left to say
            sys.exit(1)
        what = f"cannot use {e.filename}: " if e.filename else ""
        _fail(output or f"{what}{e.strerror or e}", traceback_of=e)
    except Exception as e:  # a game's own hook failed, or gamedp has a bug: one line either way
        _fail(hook_error(e) or f"internal error: {type(e).__name__}: {e}; please report it with the traceback "
                               f"that `gamedp --debug ...` shows", traceback_of=e)


def _check_numbers(args: list[str]) -> None:
    """Refuse arguments with numbers longer than Python converts, before anything tries to read them."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    if not limit:
        return
    for i, arg in enumerate(args, 1):
        longest = max((len(m) for m in re.findall(r"\d+", arg)), default=0)
        if longest > limit:
            raise GamedpError(f"argument {i} holds a number of {longest} digits; numbers have at most {limit} "
                              "digits here (far more than any position that can be searched)")


def _sentence(message: str) -> str:
    """Click's message as part of one line: its lines joined, the first letter small, no closing full stop."""
    text = " ".join(line.strip() for line in message.splitlines() if line.strip()).rstrip(".")
    return text[:1].lower() + text[1:]


def _fail(message: str, status: int = 2, *, traceback_of: BaseException | None = None) -> None:
    if _debug and traceback_of is not None:
        traceback.print_exception(traceback_of)
    click.echo(f"gamedp: error: {one_line(message)}", err=True)
    sys.exit(status)


def one_line(message: str, longest_word: int = 200) -> str:
    """``message`` on one line, with any word longer than ``longest_word`` (a pasted board, a huge number) cut.

    >>> one_line("cannot read '" + "7" * 500 + "'\\nas a position")
    "cannot read '77777777777777777777777777777777777777777777777777777777777...(502 characters)...77777777777777777777777777777' as a position"
    """
    def cut(m: re.Match) -> str:
        word = m.group()
        return f"{word[:60]}...({len(word)} characters)...{word[-30:]}"

    text = " ".join(message.split())
    return re.sub(r"\S{%d,}" % (longest_word + 1), cut, text)


def hook_error(e: BaseException) -> str | None:
    """What failed, when ``e`` came out of a game's own code: the hook gamedp called, its arguments, the error.

    The hook is the outermost frame of the traceback that runs code outside gamedp and the Python installation.
    """
    installed = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for frame, line in traceback.walk_tb(e.__traceback__):
        path = os.path.realpath(frame.f_code.co_filename)
        if path.startswith(here + os.sep) or any(path.startswith(p + os.sep) for p in installed) \
                or frame.f_code.co_filename.startswith("<"):
            continue
        code = frame.f_code
        names = code.co_varnames[:code.co_argcount]
        args = ", ".join(f"{n}={_short(frame.f_locals.get(n))}" for n in names if n != "self")
        owner = frame.f_locals.get("self")
        hook = f"{type(owner).__name__}.{code.co_name}" if owner is not None and names[:1] == ("self",) \
            else code.co_name
        where = f"{os.path.relpath(path) if not os.path.relpath(path).startswith('..') else path}, line {line}"
        return (f"the game's {hook}({args}) raised {type(e).__name__}: {e} ({where}; `gamedp --debug ...` "
                "shows the traceback)")
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:45] + "..." + text[-10:]
