// BLOCKGAME strong solve with remoteness, the straightforward way: one board at a time from the full board down,
// a byte each (remoteness; odd = the mover wins). A winner takes the quickest lost child, a loser the slowest child.
// Prints counts by remoteness; the compute time (without start-up) goes to stderr.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

static std::string commas(long long x) {  // the table gamedp prints: 1,234,567
    std::string s = std::to_string(x);
    for (int i = (int)s.size() - 3; i > 0; i -= 3) s.insert(i, ",");
    return s;
}

static std::vector<uint32_t> moves;

static void add(int r1, int c1, int r2, int c2, int r3 = -1, int c3 = -1) {
    uint32_t m = (1u << (r1 * 5 + c1)) | (1u << (r2 * 5 + c2));
    if (r3 >= 0) m |= 1u << (r3 * 5 + c3);
    moves.push_back(m);
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
    auto t0 = std::chrono::steady_clock::now();
    std::vector<uint8_t> rem(1 << 25);
    long long count[64] = {};
    for (int b = (1 << 25) - 1; b >= 0; b--) {
        int best_win = 1000, worst_loss = -1;  // remoteness of the quickest lost child / slowest won child
        for (uint32_t m : moves)
            if ((b & m) == 0) {
                int r = rem[b | m];
                if (r % 2 == 0) {
                    if (r < best_win) best_win = r;
                } else if (r > worst_loss) {
                    worst_loss = r;
                }
            }
        int r = best_win < 1000 ? best_win + 1 : worst_loss + 1;
        rem[b] = (uint8_t)r;
        count[r]++;
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fprintf(stderr, "compute %.4f s\n", s);
    long long wins = 0;
    for (int r = 1; r < 64; r += 2) wins += count[r];
    printf("%-10s%14s\n%-10s%14s\n%-10s%14s\n", "outcome", "positions", "WIN", commas(wins).c_str(), "LOSE",
           commas((1LL << 25) - wins).c_str());
    printf("\n%-12s%12s%12s\n", "remoteness", "WIN", "LOSE");
    int top = 63;
    while (!count[top]) top--;
    for (int r = 0; r <= top; r++)
        printf("%-12d%12s%12s\n", r, commas(r % 2 ? count[r] : 0).c_str(), commas(r % 2 ? 0 : count[r]).c_str());
}
