import sys
from pathlib import Path

# Oracles and helpers shared by the tests live beside them.
sys.path.insert(0, str(Path(__file__).parent))
