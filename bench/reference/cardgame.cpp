// Baekjoon 11062 (card game), the O(N^2) interval DP a C++ contestant writes: dp[i][j] is the best margin of
// the player to move on cards i..j; one row per interval length keeps memory O(N).
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int t;
    cin >> t;
    while (t--) {
        int n;
        cin >> n;
        vector<long long> a(n), prev(n + 1, 0), cur(n + 1, 0);
        long long sum = 0;
        for (auto &x : a) cin >> x, sum += x;
        for (int len = 1; len <= n; len++) {
            for (int i = 0; i + len <= n; i++)
                cur[i] = max(a[i] - prev[i + 1], a[i + len - 1] - prev[i]);
            swap(prev, cur);
        }
        cout << (sum + prev[0]) / 2 << '\n';
    }
}
