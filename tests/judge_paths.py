"""The check every judge with a native fast path must pass: the fast path answers exactly what the checked
path answers, takes every well-formed input, and hands back everything the checked path refuses."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gamedp.errors import InputError


def assert_paths_agree(cases: Iterable[tuple[bytes, bool]], native: Callable[[bytes], str | None],
                       checked: Callable[[bytes], str]) -> tuple[int, int]:
    """For each (input, surely well formed) case; returns how many inputs were accepted and refused."""
    accepted = refused = 0
    for data, well_formed in cases:
        fast = native(data)
        try:
            answer = checked(data)
        except InputError:
            assert fast is None, data
            refused += 1
            continue
        assert fast == answer, data
        assert fast is not None or not well_formed, data
        accepted += 1
    return accepted, refused
