"""The table the workers of a local cluster share (gamedp.solvers.shared_table): one table for every process that
maps it, refused where another user could have written it."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from gamedp.errors import GamedpError
from gamedp.kernels import null_window
from gamedp.solvers.shared_table import SharedTable, TableFile, map_table


def test_what_one_process_writes_another_reads():
    with SharedTable(1 << 16) as shared:
        subprocess.run([sys.executable, "-c", "import sys; from gamedp.solvers.shared_table import TableFile, "
                        "map_table; t = map_table(TableFile(sys.argv[1], 1 << 16)); t[8:16] = bytes(range(1, 9))",
                        shared.file.path], check=True)
        assert map_table(shared.file)[:24] == bytes(8) + bytes(range(1, 9)) + bytes(8)
    assert not os.path.exists(shared.file.path)


@pytest.mark.parametrize("where", ["folder", "file"])
def test_a_table_others_may_write_or_read_is_refused(where):
    with SharedTable(1 << 16) as shared:
        path = shared.file.path if where == "file" else os.path.dirname(shared.file.path)
        os.chmod(path, 0o702 if where == "folder" else 0o644)
        with pytest.raises(GamedpError, match="is not used: it is writable by others|is not used: others may read"):
            map_table(shared.file)


def test_a_table_of_another_size_is_refused():
    with SharedTable(1 << 16) as shared, pytest.raises(GamedpError, match="is not 1,052,672 bytes"):
        map_table(TableFile(shared.file.path, 1 << 17))


def test_slots_are_a_power_of_two():
    with pytest.raises(ValueError, match="power of 2"):
        SharedTable(3 << 16)


def test_a_doubled_table_finds_every_entry_it_had_and_no_other():
    """Sharing a table that grows rests on this: an entry's slot is its hashed key's low bits and it keeps the top
    48, so the kernel that doubles a table moves each entry to where a search of the new size looks for it."""
    rng = np.random.default_rng(7)
    keys = rng.integers(0, 1 << 63, 4000, dtype=np.uint64)
    size = 1 << 16
    table = np.zeros(2 * size, np.uint64)
    with np.errstate(over="ignore"):
        for i, key in enumerate(keys):
            null_window.store(table, np.uint64(size - 1), key, i % 50, True)
        kept = {int(key): i % 50 for i, key in enumerate(keys) if table[null_window.mix(key) & np.uint64(size - 1)]
                >> np.uint64(16) == null_window.mix(key) >> np.uint64(16)}
        assert len(kept) > 3800  # a few met in a slot
        null_window.grow(table, size)
        for key in keys:
            hashed = null_window.mix(key)
            entry = table[hashed & np.uint64(2 * size - 1)]
            found = entry >> np.uint64(16) == hashed >> np.uint64(16)
            assert found == (int(key) in kept)
            if found:
                assert int(entry & np.uint64(255)) - null_window.OFFSET == kept[int(key)]


def test_searches_sharing_a_table_grow_it_together_and_read_what_the_other_proved():
    from gamedp.loader import load_game
    from gamedp.solvers.score_search import FIRST_SLOTS, ScoreSearch, score_rules

    rules = score_rules(load_game("connect4:7x6"))
    position = rules.read_moves("4444443")
    with SharedTable(1 << 24) as shared:
        first, second = (ScoreSearch(rules, progress=False, book=False, table=shared.file) for _ in range(2))
        assert first.slots == second.slots == FIRST_SLOTS
        value = first.score(position)
        assert first.slots > FIRST_SLOTS  # it explored millions of positions
        second.score(rules.read_moves("4444443333"))  # a few positions: no reason of its own to grow
        assert second.slots == first.slots  # the size in use, read from the table
        assert second.score(position) == value
        # the first's proofs (a search of one process asked the same position again explores 57% as many
        # positions as the first time)
        assert second.explored < 0.7 * first.explored
