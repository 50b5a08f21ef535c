"""The ``gamedp`` executable's first step: judge runs take a short path, everything else goes to click.

A judge run is timed whole-process against C++ programs that finish in a tenth of a second, so
``gamedp judge PROBLEM`` (with nothing else on the line) skips importing the command-line library and answers
straight away; so do ``gamedp value GAME [--threads N] [--format tab|pons]`` and ``gamedp cgt domineering POSITION... [--json]``, whose small
answers would otherwise be mostly start-up. Any other command line, including ``judge --help`` or
``judge -i FILE``, gets the full CLI.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "judge":
        from gamedp.judge import JUDGES

        if args[1] in JUDGES:
            status = _answered(lambda: _judge(args[1]))
            _leave_to_exit()
            sys.exit(status)
    options = _value_options(args[2:]) if args[:1] == ["value"] and len(args) >= 2 else None
    if options is not None:
        status = _answered(lambda: _value(args[1], **options))
        if status >= 0:
            _leave_to_exit()
            sys.exit(status)
    if len(args) >= 3 and args[0] == "cgt" and args[1].lower() == "domineering":
        status = _answered(lambda: _cgt(args[2:]))
        if status >= 0:
            _leave_to_exit()
            sys.exit(status)
    from gamedp.cli.main import main as full_cli

    full_cli(argv)


#: what ``--threads`` takes on the short path (the full command line checks anything else)
THREAD_COUNTS = {str(n) for n in range(1, 65)}


def _value_options(args: list[str]) -> dict | None:
    """``value``'s options after GAME as :func:`_value`'s arguments, if they are only ``--threads N`` and
    ``--format tab|pons``, each at most once (else None: the full path)."""
    options: dict = {}
    for name, given in zip(args[::2], args[1::2]):
        if name == "--threads" and given in THREAD_COUNTS and "threads" not in options:
            options["threads"] = int(given)
        elif name == "--format" and given in ("tab", "pons") and "scores" not in options:
            options["scores"] = given == "pons"
        else:
            return None
    return options if len(args) % 2 == 0 else None


def _value(spec: str, threads: int = 1, scores: bool = False) -> int:
    """``gamedp value GAME [--threads N] [--format tab|pons]``, for a game with the exact-score search (-1: the
    full path)."""
    from gamedp.batch import fast_value

    return fast_value(spec, threads, scores)


def _cgt(args: list[str]) -> int:
    """``gamedp cgt domineering POSITION... [--json]`` with no other option (-1: the full path)."""
    positions = [a for a in args if a != "--json"]
    if not positions or any(a.startswith("-") for a in positions):
        return -1
    from gamedp.cli.cgt_answer import answer_positions, show

    sys.stdout.write(show(answer_positions("domineering", positions), "--json" in args))
    return 0


def _answered(compute) -> int:
    """``compute()``'s exit status, its output flushed; gamedp's errors as one line (status 2), standard output
    failing as one line too (see :mod:`gamedp.streams`), and the end of a pipe quiet (status 1)."""
    from gamedp.errors import GamedpError
    from gamedp.streams import check_standard_streams, output_failure, say

    try:
        check_standard_streams()
        status = compute()
        sys.stdout.flush()
        return status
    except GamedpError as e:
        say(f"gamedp: error: {e}")
        return e.exit_status
    except OSError as e:
        message = output_failure(e)
        if message == "":
            return 1
        say(f"gamedp: error: {message or e.strerror or e}")
        return 2
    except KeyboardInterrupt:
        say("gamedp: interrupted")
        return 130


def _leave_to_exit() -> None:
    """Spare the interpreter's last garbage collection, which walks every object the imports made (3-5 ms of a
    short run): what is left now is freed with the process. Streams are flushed and exit handlers run as ever."""
    import gc

    gc.freeze()


def _judge(problem: str) -> int:
    from gamedp.judge import answer

    sys.stdout.write(answer(problem, sys.stdin.buffer))
    return 0
