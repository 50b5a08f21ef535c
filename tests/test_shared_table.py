"""The table the workers of a local cluster share (gamedp.solvers.shared_table): one table for every process that
maps it, refused where another user could have written it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from gamedp.errors import GamedpError
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
    with SharedTable(1 << 16) as shared, pytest.raises(GamedpError, match="is not 1,048,576 bytes"):
        map_table(TableFile(shared.file.path, 1 << 17))


def test_slots_are_a_power_of_two():
    with pytest.raises(ValueError, match="power of 2"):
        SharedTable(3 << 16)
