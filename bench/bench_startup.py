"""Start-up: a judge's whole process against Python starting and doing nothing.

    python bench/bench_startup.py [--rounds 15]

On an empty input every judge refuses the input (exit status 2) before it loads anything beyond the standard
library's basics; the bar is 2x ``python -c pass`` with the same interpreter. On the official samples, the native
kernels answer (their library built beforehand, by the untimed warm-up run). The ``gamedp`` executable beside the
interpreter is used when there is one (what a user runs), else ``python -m gamedp``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from harness import GAMEDP, PYTHON, Contender, arguments, compare

from gamedp.judge import JUDGES

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    script = shutil.which("gamedp", path=str(Path(sys.executable).parent))
    gamedp = [script] if script else GAMEDP
    rounds = max(args.rounds, 15)
    compare("empty input (every judge refuses it: exit status 2)",
            [Contender("python -c pass", [*PYTHON, "-c", "pass"])]
            + [Contender(f"gamedp judge {p}", [*gamedp, "judge", p], status=2) for p in sorted(JUDGES)],
            rounds=rounds)
    for problem in sorted(JUDGES):
        samples = sorted(EXAMPLES.glob(f"{problem}-sample*.in"))
        if samples:
            compare(f"{problem}: {samples[0].name}",
                    [Contender("python -c pass", [*PYTHON, "-c", "pass"]),
                     Contender(f"gamedp judge {problem}", [*gamedp, "judge", problem])],
                    stdin_path=samples[0], rounds=rounds, same_output=False)


if __name__ == "__main__":
    main()
