// A loop that keeps one core busy in its registers (no memory traffic): its time alone and beside a copy of
// itself shows what two busy cores of this machine give, whatever the program (bench_two_cores.py).
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    long steps = argc > 1 ? std::atol(argv[1]) : 1000000000L;
    auto start = std::chrono::steady_clock::now();
    unsigned long x = 1;
    for (long i = 0; i < steps; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        x ^= x >> 29;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%lu %.4f\n", x & 1, seconds);  // the low bit keeps the loop from being optimised away
}
