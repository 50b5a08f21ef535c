// Grundy sequence G(0..n) of an octal game, the way a contestant writes it: for each heap, stamp every
// reachable value in a seen array (no clearing: the stamp is the heap size), then take the mex.
// Usage: octal CODE N   (e.g. octal 0.77 100000); prints G(0..N) on one line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using namespace std;

int main(int argc, char** argv) {
    if (argc != 3) { fprintf(stderr, "usage: octal CODE N\n"); return 2; }
    const char* code = argv[1];
    long n = atol(argv[2]);
    vector<int> d;  // d[k]: what removing k stones may leave (1: nothing, 2: one heap, 4: two heaps)
    const char* dot = strchr(code, '.');
    d.push_back(dot == code ? 0 : code[0] - '0');
    for (const char* c = dot + 1; *c; ++c) d.push_back(*c - '0');
    int t = (int)d.size() - 1;
    vector<int> g(n + 1, 0), seen(2 * n + 64, -1);
    for (long i = 1; i <= n; ++i) {
        for (int k = 0; k <= t && k <= i; ++k) {
            long m = i - k;
            if ((d[k] & 1) && m == 0) seen[0] = i;
            if ((d[k] & 2) && m > 0) seen[g[m]] = i;
            if (d[k] & 4)
                for (long a = 1; a <= m / 2; ++a) seen[g[a] ^ g[m - a]] = i;
        }
        int v = 0;
        while (seen[v] == i) ++v;
        g[i] = v;
    }
    vector<char> out;
    out.reserve(8 * (n + 1));
    char buf[16];
    for (long i = 0; i <= n; ++i) {
        int len = snprintf(buf, sizeof buf, i ? " %d" : "%d", g[i]);
        out.insert(out.end(), buf, buf + len);
    }
    out.push_back('\n');
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
