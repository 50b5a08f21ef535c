// Baekjoon 28218 (grid game), O(N*M) whatever K: the reference gamedp is measured against.
// A cell loses iff no move reaches a losing cell. Cells are done bottom-up, right to left; per diagonal we keep
// the row of the nearest losing cell below, so "some diagonal jump of length <= K lands on a losing cell" is one
// comparison. Diagonal jumps fly over '#': only the landing cell must be open.
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n, m, k;
    if (!(cin >> n >> m >> k)) return 1;
    vector<string> grid(n);
    for (auto &row : grid) cin >> row;
    vector<unsigned char> lose((size_t)(n + 1) * m, 0);  // row n: below the board, nothing loses there
    vector<long long> nearest(n + m - 1, LLONG_MAX / 2);   // per diagonal c - r + n - 1
    for (int r = n - 1; r >= 0; --r) {
        for (int c = m - 1; c >= 0; --c) {
            size_t i = (size_t)r * m + c;
            if (grid[r][c] == '#') continue;
            int d = c - r + n - 1;
            bool win = nearest[d] - r <= k || lose[i + m] || (c + 1 < m && lose[i + 1]);
            if (!win) {
                lose[i] = 1;
                nearest[d] = r;
            }
        }
    }
    int q;
    cin >> q;
    string out;
    out.reserve((size_t)q * 7);
    for (int j = 0; j < q; ++j) {
        int x, y;
        cin >> x >> y;
        out += lose[(size_t)(x - 1) * m + (y - 1)] ? "Second\n" : "First\n";
    }
    cout << out;
    return 0;
}
