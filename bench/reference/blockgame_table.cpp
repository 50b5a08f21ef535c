// BLOCKGAME strong solve: the value of all 2^25 boards, printed as counts by outcome.
//   (default)  the straightforward way: one board at a time, from the full board down (b | move > b), a char each.
//   --words    64 boards per machine word: the cells are renumbered so that the 6 lowest bits (lanes) never hold
//              a whole piece; then every move is one shift and mask on the word of 64 boards (a bit each).
// The compute time (without start-up) goes to stderr.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static std::string commas(long long x) {  // the table gamedp prints: 1,234,567
    std::string s = std::to_string(x);
    for (int i = (int)s.size() - 3; i > 0; i -= 3) s.insert(i, ",");
    return s;
}

static std::vector<uint32_t> moves;  // in natural cell order r * 5 + c

static void add(int r1, int c1, int r2, int c2, int r3 = -1, int c3 = -1) {
    uint32_t m = (1u << (r1 * 5 + c1)) | (1u << (r2 * 5 + c2));
    if (r3 >= 0) m |= 1u << (r3 * 5 + c3);
    moves.push_back(m);
}

static long long plain() {
    std::vector<char> win(1 << 25);
    long long wins = 0;
    for (int b = (1 << 25) - 1; b >= 0; b--) {
        char w = 0;
        for (uint32_t m : moves)
            if ((b & m) == 0 && !win[b | m]) { w = 1; break; }
        win[b] = w;
        wins += w;
    }
    return wins;
}

static long long words() {
    // lanes: cells a1 c1 e1 a3 c3 e3 (no two in one piece), then the others in reading order
    const int lanes[6] = {0, 2, 4, 10, 12, 14};
    int order[25], n = 0;
    bool is_lane[25] = {};
    for (int c : lanes) order[n++] = c, is_lane[c] = true;
    for (int c = 0; c < 25; c++)
        if (!is_lane[c]) order[n++] = c;
    int where[25];
    for (int k = 0; k < 25; k++) where[order[k]] = k;
    std::vector<uint64_t> hi, lo, mask;
    for (uint32_t m : moves) {
        uint32_t x = 0;
        for (int c = 0; c < 25; c++)
            if (m >> c & 1) x |= 1u << where[c];
        uint64_t l = x & 63, msk = 0;
        for (int j = 0; j < 64; j++)
            if ((j & l) == 0) msk |= 1ull << j;
        hi.push_back(x >> 6), lo.push_back(l), mask.push_back(msk);
    }
    std::vector<uint64_t> win(1 << 19);
    const size_t np = hi.size();
    for (uint32_t w = (1u << 19); w-- > 0;) {
        uint64_t acc = 0;
        for (size_t k = 0; k < np; k++)
            if ((w & hi[k]) == 0) acc |= (~win[w | hi[k]] >> lo[k]) & mask[k];
        win[w] = acc;
    }
    long long wins = 0;
    for (uint64_t x : win) wins += __builtin_popcountll(x);
    return wins;
}

int main(int argc, char **argv) {
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            add(r, c, r, c + 1, r + 1, c);
            add(r, c, r, c + 1, r + 1, c + 1);
            add(r, c, r + 1, c, r + 1, c + 1);
            add(r, c + 1, r + 1, c, r + 1, c + 1);
        }
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 4; c++) add(r, c, r, c + 1), add(c, r, c + 1, r);
    auto t0 = std::chrono::steady_clock::now();
    long long wins = argc > 1 && !strcmp(argv[1], "--words") ? words() : plain();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fprintf(stderr, "compute %.4f s\n", s);
    printf("%-10s%14s\n%-10s%14s\n%-10s%14s\n", "outcome", "positions", "WIN", commas(wins).c_str(), "LOSE",
           commas((1LL << 25) - wins).c_str());
}
