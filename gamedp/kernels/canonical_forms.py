"""Canonical forms of short partizan games in flat int64 arrays, for compiled valuations (the same algebra as
:mod:`gamedp.cgt.canonical`, whose docstring gives the theory: dominated options removed, reversible options
bypassed, number avoidance and translation, the simplicity rule).

Everything lives in one *arena* ``A`` (int64) whose sections the caller lays out in the *state* ``S``: first
the forms (``WIDTH`` words each: a number's numerator and exponent, then where its Left and Right options sit in
the pool and how many, and its negative once known), the pool of options, a hash of forms by their options,
memo tables of numbers, comparisons and sums, a memo of the caller's positions (two-word keys); the last section
is scratch, used as a stack. A form is its index in the forms section, which starts the arena (form g's words
start at ``WIDTH * g``); its options were made before it. Numbers are m/2^k with |m| <= ``MOST_NUMERATOR`` and
k <= ``MOST_EXPONENT``, so that any two compare and add in 64 bits.

No two functions call each other (a function may call itself): numba cannot link mutual recursion into a
library, nor cache it. Nothing allocates or raises: a function that cannot go on returns -1 with ``S[STATUS]``
saying why (a section full, and which; a number out of range; a caller's limit reached), every caller passes
the -1 up, and the caller of the kernels grows the arena or gives up. What was stored before stays right, so a
call may simply be made again.
"""
# -- the state ------------------------------------------------------------------------------------------------
#: S slots: forms made, scratch top, why the last call stopped, which section was full, the form 0
FORMS_MADE, TOP, STATUS, FULL_SECTION, ZERO_FORM = 0, 1, 2, 3, 4
#: sections of the arena; section s is at S[SECTIONS + 3 s], its capacity (words or slots) and slots used after
FORMS, POOL, FORM_HASH, NUMBERS, LEQ, SUMS, BOARDS, SCRATCH = 0, 1, 2, 3, 4, 5, 6, 7
SECTIONS = 8
#: words per slot of each section (the hash tables' capacities are powers of two; a memo slot is a two-word key
#: and its value)
SLOT_WORDS = (7, 1, 1, 3, 3, 3, 3, 1)
#: the state's length: the slots above, then the caller's (from CALLER on)
CALLER = SECTIONS + 3 * len(SLOT_WORDS)
STATE_WORDS = CALLER + 8
#: what S[STATUS] says
OK, FULL, OUT_OF_RANGE, LIMIT = 0, 1, 2, 3
#: an empty slot's key
EMPTY = -(1 << 63)
#: a form's words
WIDTH = 7
M, K, LEFT_AT, LEFT_COUNT, RIGHT_AT, RIGHT_COUNT, NEGATIVE = 0, 1, 2, 3, 4, 5, 6
#: K of a form that is not a number, and of one made only to be compared with (not canonical, in no hash)
NOT_NUMBER, RAW = -1, -2
MOST_EXPONENT = 20
MOST_NUMERATOR = 1 << 40
GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64

#: the recursive kernels, typed up front (see gamedp.aot.jit_functions); S and A are C-contiguous int64 arrays
SIGNATURES = {"number": "i8(i8[::1], i8[::1], i8, i8)", "leq": "i8(i8[::1], i8[::1], i8, i8)",
              "negate": "i8(i8[::1], i8[::1], i8)", "add": "i8(i8[::1], i8[::1], i8, i8)"}
BORROW = ("at", "capacity", "used", "full", "slot", "memo_get", "memo_put", "compare_numbers", "is_number",
          "reserve", "sort_unique", "form_hash", "same_options", "form_slot", "find_form", "all_numbers")


def at(S, section):
    return S[SECTIONS + 3 * section]


def capacity(S, section):
    return S[SECTIONS + 3 * section + 1]


def used(section):
    """The state slot counting the slots (or pool words) a section has in use."""
    return SECTIONS + 3 * section + 2


def full(S, section):
    S[STATUS] = FULL
    S[FULL_SECTION] = section
    return -1


def slot(S, A, section, k1, k2):
    """The slot of the key (k1, k2) in a memo section: where it is, or the empty slot where it would go."""
    base, cap = at(S, section), capacity(S, section)
    i = ((((k1 * GOLDEN) ^ k2) * GOLDEN) >> 20) & (cap - 1)
    while True:
        k = A[base + 3 * i]
        if (k == k1 and A[base + 3 * i + 1] == k2) or k == EMPTY:
            return base + 3 * i
        i = (i + 1) & (cap - 1)


def memo_get(S, A, section, k1, k2):
    """The value (>= 0) stored for the key (k1, k2), or -1."""
    s = slot(S, A, section, k1, k2)
    return A[s + 2] if A[s] != EMPTY else -1


def memo_put(S, A, section, k1, k2, value):
    """Store ``value`` for the key (k1, k2); -1 when the section is half full (grown before it slows down)."""
    count = used(section)
    if 2 * (S[count] + 1) > capacity(S, section):
        return full(S, section)
    s = slot(S, A, section, k1, k2)
    if A[s] == EMPTY:
        S[count] += 1
    A[s], A[s + 1], A[s + 2] = k1, k2, value
    return 0


def reserve(S, n):
    """The arena index of n free scratch words (the caller puts S[TOP] back when done), or -1."""
    top = S[TOP]
    if top + n > capacity(S, SCRATCH):
        return full(S, SCRATCH)
    S[TOP] = top + n
    return at(S, SCRATCH) + top


def is_number(A, g):
    return A[g * WIDTH + K] >= 0


def compare_numbers(A, g, h):
    """-1, 0 or 1 as number g is below, equal to or above number h."""
    m1, k1, m2, k2 = A[g * WIDTH + M], A[g * WIDTH + K], A[h * WIDTH + M], A[h * WIDTH + K]
    if k1 < k2:
        m1 <<= k2 - k1
    else:
        m2 <<= k1 - k2
    return -1 if m1 < m2 else 1 if m1 > m2 else 0


def sort_unique(A, first, n):
    """Sort A[first:first + n] (insertion sort: option lists are short) and drop repeats; the new length."""
    for i in range(first + 1, first + n):
        x = A[i]
        j = i - 1
        while j >= first and A[j] > x:
            A[j + 1] = A[j]
            j -= 1
        A[j + 1] = x
    kept = 0
    for i in range(first, first + n):
        if kept == 0 or A[i] != A[first + kept - 1]:
            A[first + kept] = A[i]
            kept += 1
    return kept


def form_hash(A, lat, nl, rat, nr):
    h = nl * 31 + 7
    for i in range(nl):
        h = (h ^ A[lat + i]) * GOLDEN
    h = (h ^ -1) * GOLDEN
    for i in range(nr):
        h = (h ^ A[rat + i]) * GOLDEN
    return h


def same_options(A, g, lat, nl, rat, nr):
    if A[g * WIDTH + LEFT_COUNT] != nl or A[g * WIDTH + RIGHT_COUNT] != nr:
        return False
    pl, pr = A[g * WIDTH + LEFT_AT], A[g * WIDTH + RIGHT_AT]
    for i in range(nl):
        if A[pl + i] != A[lat + i]:
            return False
    for i in range(nr):
        if A[pr + i] != A[rat + i]:
            return False
    return True


def form_slot(S, A, lat, nl, rat, nr):
    """The FORM_HASH slot (an arena index) of the form with these (sorted) options: where it is, or the empty
    slot where it would go."""
    base, cap = at(S, FORM_HASH), capacity(S, FORM_HASH)
    i = ((form_hash(A, lat, nl, rat, nr) * GOLDEN) >> 20) & (cap - 1)
    while A[base + i] != EMPTY and not same_options(A, A[base + i], lat, nl, rat, nr):
        i = (i + 1) & (cap - 1)
    return base + i


def find_form(S, A, lat, nl, rat, nr):
    """The form with these (sorted) options, or -1."""
    g = A[form_slot(S, A, lat, nl, rat, nr)]
    return -1 if g == EMPTY else g


def new_form(S, A, m, k, lat, nl, rat, nr):
    """A new form with these options (in the arena, sorted), numerator m and exponent k (k < 0: not a number);
    hashed by its options unless it is RAW. Its id, or -1."""
    g = S[FORMS_MADE]
    if g + 1 > capacity(S, FORMS):
        return full(S, FORMS)
    if S[used(POOL)] + nl + nr > capacity(S, POOL):
        return full(S, POOL)
    if k != RAW and 2 * (S[used(FORM_HASH)] + 1) > capacity(S, FORM_HASH):
        return full(S, FORM_HASH)
    p = at(S, POOL) + S[used(POOL)]
    for i in range(nl):
        A[p + i] = A[lat + i]
    for i in range(nr):
        A[p + nl + i] = A[rat + i]
    S[used(POOL)] += nl + nr
    f = WIDTH * g
    A[f + M], A[f + K], A[f + LEFT_AT], A[f + LEFT_COUNT] = m, k, p, nl
    A[f + RIGHT_AT], A[f + RIGHT_COUNT], A[f + NEGATIVE] = p + nl, nr, -1
    S[FORMS_MADE] = g + 1
    if k != RAW:
        A[form_slot(S, A, lat, nl, rat, nr)] = g
        S[used(FORM_HASH)] += 1
    return g


def intern(S, A, lat, nl, rat, nr):
    """The id of a canonical form that is not a number, options given sorted."""
    g = find_form(S, A, lat, nl, rat, nr)
    return g if g >= 0 else new_form(S, A, 0, NOT_NUMBER, lat, nl, rat, nr)


def intern_options(S, A, ops, nl, nr):
    """:func:`intern` of the options at A[ops:ops + nl] (Left's) and the nr after them, in any order."""
    return intern(S, A, ops, sort_unique(A, ops, nl), ops + nl, sort_unique(A, ops + nl, nr))


def number(S, A, m, k):
    """The id of the number m/2^k."""
    while k > 0 and m % 2 == 0:
        m //= 2
        k -= 1
    if k > MOST_EXPONENT or m > MOST_NUMERATOR or m < -MOST_NUMERATOR:
        S[STATUS] = OUT_OF_RANGE
        return -1
    g = memo_get(S, A, NUMBERS, m, k)
    if g >= 0:
        return g
    top = S[TOP]
    ops = reserve(S, 2)
    if ops < 0:
        return -1
    if k > 0:  # m/2^k = {(m-1)/2^k | (m+1)/2^k}, each reduced
        for side in range(2):
            o = number(S, A, m - 1 + 2 * side, k)
            if o < 0:
                return -1
            A[ops + side] = o
        g = new_form(S, A, m, k, ops, 1, ops + 1, 1)
        if g < 0 or memo_put(S, A, NUMBERS, m, k, g) < 0:
            return -1
    else:  # integers one by one from 0: n + 1 = {n|}, -(n + 1) = {|-n}
        g = memo_get(S, A, NUMBERS, 0, 0)
        if g < 0:
            g = new_form(S, A, 0, 0, ops, 0, ops, 0)
            if g < 0 or memo_put(S, A, NUMBERS, 0, 0, g) < 0:
                return -1
        step = 1 if m > 0 else -1
        n = 0
        while n != m:
            n += step
            found = memo_get(S, A, NUMBERS, n, 0)
            if found < 0:
                A[ops] = g
                found = new_form(S, A, n, 0, ops, 1 if step > 0 else 0, ops, 0 if step > 0 else 1)
                if found < 0 or memo_put(S, A, NUMBERS, n, 0, found) < 0:
                    return -1
            g = found
    S[TOP] = top
    return g


def leq(S, A, g, h):
    """1 if G <= H, else 0 (-1: stopped). A number's options are skipped against a canonical non-number
    (number avoidance), never against a RAW form, which may equal a number."""
    if g == h:
        return 1
    kg, kh = A[g * WIDTH + K], A[h * WIDTH + K]
    if kg >= 0 and kh >= 0:
        return 1 if compare_numbers(A, g, h) <= 0 else 0
    found = memo_get(S, A, LEQ, g, h)
    if found >= 0:
        return found
    answer = 1
    if kg < 0 or kh == RAW:
        p = A[g * WIDTH + LEFT_AT]
        for i in range(A[g * WIDTH + LEFT_COUNT]):
            r = leq(S, A, h, A[p + i])
            if r < 0:
                return -1
            if r:
                answer = 0
                break
    if answer and (kh < 0 or kg == RAW):
        p = A[h * WIDTH + RIGHT_AT]
        for i in range(A[h * WIDTH + RIGHT_COUNT]):
            r = leq(S, A, A[p + i], g)
            if r < 0:
                return -1
            if r:
                answer = 0
                break
    if memo_put(S, A, LEQ, g, h, answer) < 0:
        return -1
    return answer


def negate(S, A, g):
    """-G = {-G^R | -G^L}: the negative of a canonical form is canonical."""
    known = A[g * WIDTH + NEGATIVE]
    if known >= 0:
        return known
    if is_number(A, g):
        n = number(S, A, -A[g * WIDTH + M], A[g * WIDTH + K])
    else:
        top = S[TOP]
        nl, nr = A[g * WIDTH + RIGHT_COUNT], A[g * WIDTH + LEFT_COUNT]
        ops = reserve(S, nl + nr)
        if ops < 0:
            return -1
        for side in range(2):
            src = A[g * WIDTH + (RIGHT_AT if side == 0 else LEFT_AT)]
            dst = ops if side == 0 else ops + nl
            for i in range(nl if side == 0 else nr):
                o = negate(S, A, A[src + i])
                if o < 0:
                    return -1
                A[dst + i] = o
        n = intern_options(S, A, ops, nl, nr)
        S[TOP] = top
    if n < 0:
        return -1
    A[g * WIDTH + NEGATIVE] = n
    A[n * WIDTH + NEGATIVE] = g
    return n


def add(S, A, g, h):
    """G + H in canonical form."""
    zero = S[ZERO_FORM]
    if g == zero:
        return h
    if h == zero:
        return g
    if g > h:
        g, h = h, g
    found = memo_get(S, A, SUMS, g, h)
    if found >= 0:
        return found
    kg, kh = A[g * WIDTH + K], A[h * WIDTH + K]
    if kg >= 0 and kh >= 0:
        m1, m2 = A[g * WIDTH + M], A[h * WIDTH + M]
        k = kg if kg > kh else kh
        s = number(S, A, (m1 << (k - kg)) + (m2 << (k - kh)), k)
    else:
        top = S[TOP]
        if kg >= 0 or kh >= 0:  # x + G = {x + G^L | x + G^R}, canonical (number translation)
            if kh >= 0:
                g, h = h, g
            nl, nr = A[h * WIDTH + LEFT_COUNT], A[h * WIDTH + RIGHT_COUNT]
            ops = reserve(S, nl + nr)
            if ops < 0:
                return -1
            for i in range(nl + nr):
                o = add(S, A, g, A[A[h * WIDTH + LEFT_AT] + i] if i < nl else A[A[h * WIDTH + RIGHT_AT] + i - nl])
                if o < 0:
                    return -1
                A[ops + i] = o
            s = intern_options(S, A, ops, nl, nr)
        else:
            gl, gr, hl, hr = (A[g * WIDTH + LEFT_COUNT], A[g * WIDTH + RIGHT_COUNT], A[h * WIDTH + LEFT_COUNT],
                              A[h * WIDTH + RIGHT_COUNT])
            ops = reserve(S, gl + gr + hl + hr)
            if ops < 0:
                return -1
            n = 0
            for side in range(2):  # G^L + H, G + H^L, then G^R + H, G + H^R
                for which in range(2):
                    f = g if which == 0 else h
                    p = A[f * WIDTH + (LEFT_AT if side == 0 else RIGHT_AT)]
                    for i in range(A[f * WIDTH + (LEFT_COUNT if side == 0 else RIGHT_COUNT)]):
                        o = add(S, A, A[p + i], h) if which == 0 else add(S, A, g, A[p + i])
                        if o < 0:
                            return -1
                        A[ops + n] = o
                        n += 1
            s = make(S, A, ops, gl + hl, ops + gl + hl, gr + hr)
        S[TOP] = top
    if s < 0 or memo_put(S, A, SUMS, g, h, s) < 0:
        return -1
    return s


def make(S, A, lat, nl, rat, nr):
    """The canonical form of {lefts | rights}, the options (ids) at A[lat:lat + nl] and A[rat:rat + nr] (which
    it reorders)."""
    nl = sort_unique(A, lat, nl)
    nr = sort_unique(A, rat, nr)
    g = find_form(S, A, lat, nl, rat, nr)
    if g >= 0:
        return g
    if all_numbers(A, lat, nl, rat, nr):
        return on_numbers(S, A, lat, nl, rat, nr)
    return simplify(S, A, lat, nl, rat, nr)


def all_numbers(A, lat, nl, rat, nr):
    for i in range(nl + nr):
        if not is_number(A, A[lat + i] if i < nl else A[rat + i - nl]):
            return False
    return True


def on_numbers(S, A, lat, nl, rat, nr):
    """The canonical form of a game whose options are all numbers: the simplest number between Left's best and
    Right's best, or {a|b} when a >= b (hot: canonical once dominated options go; no number reverses)."""
    low, high = -1, -1
    for i in range(nl):
        if low < 0 or compare_numbers(A, A[lat + i], low) > 0:
            low = A[lat + i]
    for i in range(nr):
        if high < 0 or compare_numbers(A, A[rat + i], high) < 0:
            high = A[rat + i]
    if low < 0 or high < 0 or compare_numbers(A, low, high) < 0:
        return simplest_between(S, A, low, high)
    top = S[TOP]
    ops = reserve(S, 2)
    if ops < 0:
        return -1
    A[ops], A[ops + 1] = low, high
    g = intern(S, A, ops, 1, ops + 1, 1)
    S[TOP] = top
    return g


def simplest_between(S, A, low, high):
    """The simplest number strictly between numbers ``low`` and ``high`` (-1: unbounded on that side)."""
    lm, lk = (A[low * WIDTH + M], A[low * WIDTH + K]) if low >= 0 else (0, 0)
    hm, hk = (A[high * WIDTH + M], A[high * WIDTH + K]) if high >= 0 else (0, 0)
    lfloor = lm >> lk  # floor(low)
    hceil = -((-hm) >> hk)  # ceil(high)
    if low < 0 and high < 0:
        return number(S, A, 0, 0)
    if low < 0:
        return number(S, A, 0, 0) if hm > 0 else number(S, A, hceil - 1, 0)
    if high < 0:
        return number(S, A, 0, 0) if lm < 0 else number(S, A, lfloor + 1, 0)
    if lm < 0 < hm:
        return number(S, A, 0, 0)
    if lm >= 0 and (lfloor + 1) << hk < hm:
        return number(S, A, lfloor + 1, 0)
    if hm <= 0 and (hceil - 1) << lk > lm:
        return number(S, A, hceil - 1, 0)
    k = 1
    while True:  # the least n/2^k above low, k = 1, 2, ...: the first below high is the simplest
        n = ((lm << k) >> lk) + 1
        e = k if k > hk else hk
        if n << (e - k) < hm << (e - hk):
            return number(S, A, n, k)
        k += 1


def extremes(S, A, first, n, largest):
    """Keep, of the options at A[first:first + n], those no other dominates (Left's largest or Right's smallest);
    the number kept (they stay at the front), or -1."""
    best = -1  # of the numbers only the best can stay
    for i in range(n):
        a = A[first + i]
        if is_number(A, a):
            if best < 0 or (compare_numbers(A, a, best) > 0 if largest else compare_numbers(A, a, best) < 0):
                best = a
    kept = 0
    for i in range(n):
        a = A[first + i]
        if is_number(A, a) and a != best:
            continue
        dominated = False
        for j in range(kept):
            r = leq(S, A, a, A[first + j]) if largest else leq(S, A, A[first + j], a)
            if r < 0:
                return -1
            if r:
                dominated = True
                break
        if not dominated:
            still = 0
            for j in range(kept):
                b = A[first + j]
                r = leq(S, A, b, a) if largest else leq(S, A, a, b)
                if r < 0:
                    return -1
                if not r:
                    A[first + still] = b
                    still += 1
            A[first + still] = a
            kept = still + 1
    return kept


def undominated(S, A, first, n, largest):
    """The options at A[first:first + n] sorted, without repeats, without those another dominates (see
    :func:`extremes`); their number, or -1."""
    n = extremes(S, A, first, sort_unique(A, first, n), largest)
    return -1 if n < 0 else sort_unique(A, first, n)


def simplify(S, A, lat, nl, rat, nr):
    """Remove dominated options and bypass reversible ones until neither is left; the canonical form."""
    top = S[TOP]
    nl = undominated(S, A, lat, nl, True)
    nr = undominated(S, A, rat, nr, False) if nl >= 0 else -1
    if nr < 0:
        return -1
    whole = new_form(S, A, 0, RAW, lat, nl, rat, nr)  # G's value never changes: any form of it compares
    if whole < 0:
        return -1
    changed = True
    while changed:
        changed = False
        for side in range(2):  # Left's a reverses through a^R <= G: a gives way to a^R's Left options
            first, n = (lat, nl) if side == 0 else (rat, nr)
            out = at(S, SCRATCH) + S[TOP]  # grown a word at a time: comparisons take no scratch
            size = 0
            for i in range(n):
                a = A[first + i]
                p, count = (A[a * WIDTH + RIGHT_AT], A[a * WIDTH + RIGHT_COUNT]) if side == 0 else \
                    (A[a * WIDTH + LEFT_AT], A[a * WIDTH + LEFT_COUNT])
                through = -1
                for j in range(count):
                    r = leq(S, A, A[p + j], whole) if side == 0 else leq(S, A, whole, A[p + j])
                    if r < 0:
                        return -1
                    if r:
                        through = A[p + j]
                        break
                if through >= 0:
                    changed = True
                    q = A[through * WIDTH + (LEFT_AT if side == 0 else RIGHT_AT)]
                    count = A[through * WIDTH + (LEFT_COUNT if side == 0 else RIGHT_COUNT)]
                else:
                    q, count = first + i, 1
                if reserve(S, count) < 0:
                    return -1
                for j in range(count):
                    A[out + size] = A[q + j]
                    size += 1
            size = undominated(S, A, out, size, side == 0)
            if size < 0:
                return -1
            if side == 0:
                lat, nl = out, size
            else:
                rat, nr = out, size
    g = find_form(S, A, lat, nl, rat, nr)
    if g < 0:
        g = on_numbers(S, A, lat, nl, rat, nr) if all_numbers(A, lat, nl, rat, nr) else \
            new_form(S, A, 0, NOT_NUMBER, lat, nl, rat, nr)
    S[TOP] = top
    return g


def setup(S, A):
    """Empty every hash section and make the form 0; returns 0, or -1 when the arena is too small."""
    for section in (FORM_HASH, NUMBERS, LEQ, SUMS, BOARDS):
        base, width = at(S, section), SLOT_WORDS[section]
        for i in range(capacity(S, section)):
            A[base + width * i] = EMPTY
        S[used(section)] = 0
    S[used(POOL)] = 0
    S[FORMS_MADE] = 0
    S[TOP] = 0
    S[STATUS] = OK
    zero = number(S, A, 0, 0)
    S[ZERO_FORM] = zero
    return 0 if zero >= 0 else -1
