// Grundy value of an empty R x C placement board (Cram or BLOCKGAME) by a plain whole-board memoised search: a
// byte per board of 2^(R*C) (-1 unknown), mex over every placement that fits. No regions, no symmetry.
// Usage: placement_grundy cram|blockgame ROWS COLS; prints the nimber, and the compute time on stderr.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static std::vector<signed char> memo;
static std::vector<unsigned> moves;

static int grundy(unsigned board) {
    signed char &m = memo[board];
    if (m >= 0) return m;
    unsigned long long seen = 0;
    for (unsigned p : moves)
        if ((board & p) == 0) {
            int g = grundy(board | p);
            if (g < 64) seen |= 1ULL << g;
        }
    int v = 0;
    while (seen >> v & 1) v++;
    return m = (signed char)v;
}

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    bool blockgame = !strcmp(argv[1], "blockgame");
    int rows = atoi(argv[2]), cols = atoi(argv[3]);
    if (rows * cols > 30) return 2;  // a byte per board: 1 GiB at 30 cells
    auto cell = [&](int r, int c) { return 1u << (r * cols + c); };
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            if (c + 1 < cols) moves.push_back(cell(r, c) | cell(r, c + 1));
            if (r + 1 < rows) moves.push_back(cell(r, c) | cell(r + 1, c));
            if (blockgame && r + 1 < rows && c + 1 < cols) {
                unsigned a = cell(r, c), b = cell(r, c + 1), d = cell(r + 1, c), e = cell(r + 1, c + 1);
                moves.push_back(a | b | d);
                moves.push_back(a | b | e);
                moves.push_back(a | d | e);
                moves.push_back(b | d | e);
            }
        }
    auto t0 = std::chrono::steady_clock::now();
    memo.assign(size_t(1) << (rows * cols), -1);
    int g = grundy(0);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%d\n", g);
    fprintf(stderr, "compute %.4f s\n", s);
    return 0;
}
