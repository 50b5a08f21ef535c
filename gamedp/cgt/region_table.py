"""The Domineering region table on disk, in gamedp's database format (:func:`gamedp.database.write_container`).

Sections: ``forms``, the canonical forms the values need, each a record of int64 (a number: 1, numerator,
denominator; else 0, 0, 0, the counts of Left's and Right's options, then the options as indices of earlier
records); ``dims`` (uint16, height << 8 | width) and ``cells`` (uint64, empty cells row by row) of each region in
its least symmetric image; ``values`` (int64), each region's form. A file is read only if this user owns it and
no one else may write it, since its forms are taken as canonical without being simplified again.
"""

from __future__ import annotations

import os
from array import array
from pathlib import Path

from gamedp.cgt import canonical as cf
from gamedp.cgt import domineering
from gamedp.cgt.numbers import Dyadic

TABLE_ID = "cgt-regions"
VARIANT = {"game": "domineering"}


def default_path() -> Path:
    from gamedp.database import default_path as in_db

    return in_db(TABLE_ID, VARIANT)


def save(path: str | os.PathLike) -> None:
    """Write every region value known to ``path``, atomically."""
    from gamedp.database import write_container

    keys = sorted(domineering.table)
    needed: set[int] = set()
    todo = [domineering.table[k] for k in keys]
    while todo:
        g = todo.pop()
        if g not in needed:
            needed.add(g)
            todo.extend(cf.left[g] + cf.right[g])
    index: dict[int, int] = {}
    forms = array("q")
    for g in sorted(needed):  # options are made before the forms that hold them
        x = cf.value_of_number[g]
        if x is not None:
            forms.extend((1, x.numerator, x.denominator))
        else:
            forms.extend((0, 0, 0, len(cf.left[g]), len(cf.right[g])))
            forms.extend(index[o] for o in cf.left[g] + cf.right[g])
        index[g] = len(index)
    meta = {"game_id": TABLE_ID, "variant": VARIANT, "size": len(keys), "forms": len(index),
            "key": "dims = h << 8 | w of the bounding box; cells row by row at stride w; least of the 8 images"}
    write_container(path, meta, [("forms", forms), ("dims", array("H", (k & 0xFFFF for k in keys))),
                                 ("cells", array("Q", (k >> 16 for k in keys))),
                                 ("values", array("q", (index[domineering.table[k]] for k in keys)))])


def load(path: str | os.PathLike) -> int:
    """Add the regions saved in ``path`` to the table; the number read (0 if there is no file)."""
    from gamedp.database import Container, DatabaseError

    path = Path(path)
    if not path.exists():
        return 0
    fix = f"delete {path} (the regions are valued again) or pass another --table"
    with Container(path, fix=fix, elsewhere="pass --table with a file of your own, or leave --table out") as c:
        if c.meta.get("game_id") != TABLE_ID or c.meta.get("variant") != VARIANT:
            raise DatabaseError(f"{path} is not a table of Domineering region values; {fix}")
        forms, dims, cells, values = array("q"), array("H"), array("Q"), array("q")
        for name, into in (("forms", forms), ("dims", dims), ("cells", cells), ("values", values)):
            data = c.section(name)
            if len(data) % into.itemsize:
                raise DatabaseError(f"the region table {path} has a section {name} of {len(data)} bytes: it is "
                                    f"damaged; {fix}")
            into.frombytes(data)
    if not len(dims) == len(cells) == len(values):
        raise DatabaseError(f"the region table {path} has sections of different lengths: it is damaged; {fix}")
    ids = _forms(forms, path, fix)
    if not all(0 <= v < len(ids) for v in values):  # a negative index would read another form
        raise DatabaseError(f"the region table {path} gives a region a form it does not hold: it is damaged; {fix}")
    for d, c_, v in zip(dims, cells, values):
        domineering.table[c_ << 16 | d] = ids[v]
    return len(dims)


def _forms(records: array, path: Path, fix: str) -> list[int]:
    from gamedp.database import DatabaseError

    ids: list[int] = []
    at = 0
    try:
        while at < len(records):
            if records[at]:
                ids.append(cf.number(Dyadic.ratio(records[at + 1], records[at + 2])))
                at += 3
            else:
                nl, nr = records[at + 3], records[at + 4]
                given = records[at + 5:at + 5 + nl + nr]
                if min(nl, nr) < 0 or len(given) < nl + nr or not all(0 <= k < len(ids) for k in given):
                    raise IndexError  # not options made before: a negative index would read another form
                opts = [ids[k] for k in given]
                ids.append(cf.adopt(tuple(sorted(opts[:nl])), tuple(sorted(opts[nl:]))))
                at += 5 + nl + nr
    except (IndexError, ValueError):
        raise DatabaseError(f"the region table {path} holds a malformed form record: it is damaged; {fix}") from None
    return ids
