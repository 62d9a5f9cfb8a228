"""``python -m agentmem`` runs the CLI."""

import sys

from agentmem.cli import main

sys.exit(main())
