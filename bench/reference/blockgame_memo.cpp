// BLOCKGAME (algospot) the way contestants write it: a memoised DFS over 25-bit boards with a char cache of
// 2^25 entries (-1 unknown), trying the 104 placements (64 L-trominoes, 40 dominoes) in a fixed order.
#include <cstdio>
#include <cstring>
#include <vector>

static signed char cache[1 << 25];
static std::vector<int> moves;

static void add(int r1, int c1, int r2, int c2, int r3 = -1, int c3 = -1) {
    int m = (1 << (r1 * 5 + c1)) | (1 << (r2 * 5 + c2));
    if (r3 >= 0) m |= 1 << (r3 * 5 + c3);
    moves.push_back(m);
}

static bool win(int board) {
    signed char &ret = cache[board];
    if (ret != -1) return ret;
    ret = 0;
    for (int m : moves)
        if ((board & m) == 0 && !win(board | m)) { ret = 1; break; }
    return ret;
}

int main() {
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            add(r, c, r, c + 1, r + 1, c);
            add(r, c, r, c + 1, r + 1, c + 1);
            add(r, c, r + 1, c, r + 1, c + 1);
            add(r, c + 1, r + 1, c, r + 1, c + 1);
        }
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 4; c++) add(r, c, r, c + 1), add(c, r, c + 1, r);
    memset(cache, -1, sizeof cache);
    int cases;
    if (scanf("%d", &cases) != 1) return 1;
    while (cases--) {
        int board = 0;
        for (int r = 0; r < 5; r++) {
            char row[8];
            if (scanf("%7s", row) != 1) return 1;
            for (int c = 0; c < 5; c++)
                if (row[c] == '#') board |= 1 << (r * 5 + c);
        }
        puts(win(board) ? "WINNING" : "LOSING");
    }
}
