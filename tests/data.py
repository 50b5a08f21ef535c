"""Where the tests' data lives: all of it inside the repository, so a clone with nothing beside it passes."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the judge problems' official samples (``NAME.in`` and ``NAME.out``), as the README's examples use them
SAMPLES = ROOT / "examples"
#: Pascal Pons' six Connect-Four benchmark sets (``Test_L?_R?``), with their provenance in a README
CONNECT4_SETS = ROOT / "tests" / "fixtures" / "connect4-positions"
