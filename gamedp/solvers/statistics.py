"""A solved table's outcome codes: packing, and the statistics ``gamedp solve`` prints.

Codes are packed four to a byte, index i at bits 2*(i%4) of byte i//4 (0 LOSE, 1 WIN, 2 TIE, 3 DRAW):

>>> [CODE_NAMES[code_at(bytes([0b11100100]), i)] for i in range(4)]
['LOSE', 'WIN', 'TIE', 'DRAW']

Each function takes numpy arrays, or ``bytes`` for the tiny index spaces solved by plain Python: those never
import numpy (a tenth of a second of start-up where the whole solve takes less).
"""

from __future__ import annotations

from typing import Any

CODE_NAMES = ("LOSE", "WIN", "TIE", "DRAW")
#: Bits 0, 2, 4, 6 of a byte (the low bits of its four codes) as bits 0..3: four WIN/LOSE codes as four bits.
NIBBLE = tuple((b & 1) | ((b >> 1) & 2) | ((b >> 2) & 4) | ((b >> 3) & 8) for b in range(256))


def code_at(outcomes: Any, index: int) -> int:
    """The 2-bit code of ``index`` in a packed outcome array."""
    return (int(outcomes[index >> 2]) >> ((index & 3) << 1)) & 3


def pack_codes(codes: Any) -> Any:
    """Codes (one uint8 each) packed four to a byte.

    >>> import numpy as np
    >>> pack_codes(np.array([0, 1, 2, 3, 1], dtype=np.uint8)).tolist()
    [228, 1]
    >>> list(pack_codes(bytes([0, 1, 2, 3, 1])))
    [228, 1]
    """
    if isinstance(codes, bytes):
        padded = codes + bytes(-len(codes) % 4)
        return bytes(a | b << 2 | c << 4 | d << 6 for a, b, c, d in zip(*(padded[k::4] for k in range(4))))
    import numpy as np

    padded = np.zeros(-(-len(codes) // 4) * 4, dtype=np.uint8)
    padded[:len(codes)] = codes
    quads = padded.reshape(-1, 4)
    return quads[:, 0] | (quads[:, 1] << 2) | (quads[:, 2] << 4) | (quads[:, 3] << 6)


def unreached_codes(reach: Any, length: int) -> Any:
    """``length`` bytes of packed codes: 3 at every index whose bit in ``reach`` (bit i % 8 of byte i // 8) is 0,
    else 0; OR them into outcomes to mark what play does not reach.

    >>> import numpy as np
    >>> [code_at(unreached_codes(np.array([0b101], np.uint8), 1), i) for i in range(4)]
    [0, 3, 0, 3]
    """
    import numpy as np

    spread = np.array([sum(3 << 2 * k for k in range(4) if not n >> k & 1) for n in range(16)], dtype=np.uint8)
    out = np.empty(2 * len(reach), dtype=np.uint8)
    out[0::2], out[1::2] = spread[reach & 15], spread[reach >> 4]
    return np.pad(out, (0, max(0, length - len(out))), constant_values=255)[:length]


def compact(outcomes: Any, size: int) -> tuple[Any, int]:
    """The outcome section of a database: 1 bit per position when all are WIN or LOSE, else the 2-bit packing
    (a TIE, DRAW or unreachable index: codes 2 and 3).

    >>> import numpy as np
    >>> data, bits = compact(pack_codes(np.array([1, 0, 1, 1, 0, 0, 0, 0, 1], dtype=np.uint8)), 9)
    >>> bits, data.tolist()
    (1, [13, 1])
    >>> data, bits = compact(pack_codes(bytes([1, 0, 1, 1, 0, 0, 0, 0, 1])), 9)
    >>> bits, list(data)
    (1, [13, 1])
    """
    if isinstance(outcomes, bytes):
        if any(b & 0b10101010 for b in outcomes):
            return outcomes, 2
        padded = outcomes + bytes(len(outcomes) % 2)
        return bytes(NIBBLE[lo] | NIBBLE[hi] << 4 for lo, hi in zip(padded[0::2], padded[1::2]))[:-(-size // 8)], 1
    import numpy as np

    step = 1 << 24  # a piece at a time: a test of the whole would be a copy as big as the outcomes
    if any(np.any(outcomes[at:at + step] & 0b10101010) for at in range(0, len(outcomes), step)):
        return outcomes, 2
    nibble = np.array(NIBBLE, dtype=np.uint8)
    padded = np.zeros(-(-len(outcomes) // 2) * 2, dtype=np.uint8)
    padded[:len(outcomes)] = outcomes
    bits = nibble[padded[0::2]] | (nibble[padded[1::2]] << 4)
    return bits[:-(-size // 8)], 1


def table_stats(outcomes: Any, remoteness: Any, size: int) -> dict:
    """Counts by outcome (and by remoteness), the longest win and loss, as ``gamedp solve`` prints them.

    >>> stats = table_stats(pack_codes(bytes([1, 0, 1, 2])), bytes([3, 2, 1, 0]), 4)
    >>> stats["outcomes"], stats["longest"]
    ({'LOSE': 1, 'WIN': 2, 'TIE': 1}, {'WIN': {'remoteness': 3, 'index': 0}, 'LOSE': {'remoteness': 2, 'index': 1}})
    """
    if remoteness is None:
        import numpy as np

        # Outcomes alone: count bits, 32 positions per word (low and high bit of each code).
        words = np.zeros(-(-len(outcomes) // 8), dtype=np.uint64)
        words.view(np.uint8)[:len(outcomes)] = outcomes
        low = words & np.uint64(0x5555555555555555)
        high = (words >> np.uint64(1)) & np.uint64(0x5555555555555555)
        counts = [0] + [int(np.bitwise_count(w).sum()) for w in (low & ~high, high & ~low, low & high)]
        counts[0] = size - sum(counts)  # padding after the last position reads as LOSE, so LOSE is the rest
        hist = None
    else:
        hist = _histogram(outcomes, remoteness, size)
        counts = [sum(row) for row in hist]
    stats: dict[str, Any] = {"positions": size, "outcomes": {CODE_NAMES[c]: counts[c] for c in range(4)
                                                             if counts[c]}}
    if hist is not None:
        stats["remoteness"] = {CODE_NAMES[c]: {str(r): n for r, n in enumerate(hist[c]) if n}
                               for c in range(3) if counts[c]}
        longest = {}
        for c in (1, 0):
            if counts[c]:
                r = max(r for r, n in enumerate(hist[c]) if n)
                longest[CODE_NAMES[c]] = {"remoteness": r, "index": _first(outcomes, remoteness, c, r)}
        stats["longest"] = longest
    return stats


def _histogram(outcomes: Any, remoteness: Any, size: int) -> list[list[int]]:
    """How many indices have each (code, remoteness): 4 rows of 256 counts."""
    if isinstance(outcomes, bytes):
        hist = [[0] * 256 for _ in range(4)]
        for i in range(size):
            hist[code_at(outcomes, i)][remoteness[i]] += 1
        return hist
    import numpy as np

    counts = np.zeros((4, 256), dtype=np.int64)
    step = 1 << 22
    for start in range(0, size, step):
        stop = min(start + step, size)
        packed = outcomes[start // 4:-(-stop // 4)]
        codes = ((packed[:, None] >> np.array([0, 2, 4, 6], dtype=np.uint8)) & 3).ravel()[:stop - start]
        counts += np.bincount((codes.astype(np.int64) << 8) | remoteness[start:stop],
                              minlength=1024).reshape(4, 256)
    return counts.tolist()


def _first(outcomes: Any, remoteness: Any, code: int, r: int) -> int:
    """The least index with ``code`` and remoteness ``r`` (there is one)."""
    if isinstance(outcomes, bytes):
        return next(i for i in range(len(remoteness)) if remoteness[i] == r and code_at(outcomes, i) == code)
    import numpy as np

    at = np.flatnonzero(remoteness == r)
    at = at[((outcomes[at >> 2] >> ((at & 3) << 1).astype(np.uint8)) & 3) == code]
    return int(at[0])
