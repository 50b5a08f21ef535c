"""What a test reads from a command's stderr, without the one line that announces a first compile (which a fresh
machine shows for a kernel a test is the first to use)."""

import re

_NOTICE = re.compile(r"^gamedp: compiling .*\n?", re.M)


def without_compile_notices(stderr: str) -> str:
    """``stderr`` less its compile notices.

    >>> without_compile_notices("gamedp: compiling the children kernel for this machine, once ... done in 1.3 s\\n")
    ''
    """
    return _NOTICE.sub("", stderr)
