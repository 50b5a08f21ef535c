"""What a test reads from a command's stderr, without the one line that announces a first compile (which a fresh
machine shows for a kernel a test is the first to use), and with the plain progress lines of a long search."""

import re

_NOTICE = re.compile(r"^gamedp: compiling .*\n?", re.M)


def without_compile_notices(stderr: str) -> str:
    """``stderr`` less its compile notices.

    >>> without_compile_notices("gamedp: compiling the children kernel for this machine, once ... done in 1.3 s\\n")
    ''
    """
    return _NOTICE.sub("", stderr)


#: what analyze and play say on a piped stderr during a search of more than a few seconds, and when it ends
_PLAIN_PROGRESS = re.compile(r"gamedp: (.*: [\d,]+ positions, [\d.]+ s|.* moves valued in .* \([\d,]+ positions\))")


def only_plain_progress(stderr: str) -> bool:
    """Whether ``stderr`` says nothing but compile notices and plain progress lines (a search that took a while).

    >>> only_plain_progress("gamedp: searching chain: 65,536 positions, 5.0 s\\n"), only_plain_progress("oops\\n")
    (True, False)
    """
    return all(_PLAIN_PROGRESS.fullmatch(line) for line in without_compile_notices(stderr).splitlines())
