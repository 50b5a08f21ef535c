"""Where databases live: the folder and the file name of a game's database.

Apart from :mod:`gamedp.database` (json, mmap, the values) so that a judge run can see whether a saved table is
there before importing what reads one.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

TYPE_CHECKING = False  # typing's own flag, and typing, would add ~3 ms to a judge run
if TYPE_CHECKING:
    from typing import Any, Mapping

SUFFIX = ".gdb"


def db_dir() -> Path:
    """The database directory: $GAMEDP_DB_DIR, else $XDG_CACHE_HOME/gamedp/db, else ~/.cache/gamedp/db."""
    env = os.environ.get("GAMEDP_DB_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gamedp" / "db"


def file_name(game_id: str, variant: Mapping[str, Any]) -> str:
    """The file name of a game's database: its id, then its parameters in key order.

    >>> file_name("blockgame", {"rows": 5, "cols": 5})
    'blockgame_cols5_rows5.gdb'
    >>> file_name("subtraction", {"n": 100, "moves": [1, 3, 4]})
    'subtraction_moves1.3.4_n100.gdb'
    """
    def text(v: Any) -> str:
        return ".".join(map(text, v)) if isinstance(v, (list, tuple)) else str(v)

    name = game_id + "".join(f"_{k}{text(v)}" for k, v in sorted(variant.items()))
    if len(name) > 120 or not all(c.isalnum() or c in "_.-" for c in name):
        name = f"{game_id}_{zlib.crc32(canonical(variant).encode()):08x}"
    return name + SUFFIX


def default_path(game_id: str, variant: Mapping[str, Any], db: str | os.PathLike | None = None) -> Path:
    """Where the database of ``game_id``/``variant`` lives; ``db`` (a file or an existing directory) overrides."""
    if db is not None:
        db = Path(db).expanduser()
        return db / file_name(game_id, variant) if db.is_dir() else db
    return db_dir() / file_name(game_id, variant)


def canonical(value: Any) -> str:
    """``value`` as one JSON text whatever the order of its keys."""
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"))
