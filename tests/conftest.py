import sys
from pathlib import Path

# Oracles and helpers shared by the tests live beside them.
sys.path.insert(0, str(Path(__file__).parent))

# The stress tester's bundled wrong solutions are programs that read stdin, not test modules.
collect_ignore = ["fixtures"]
