"""`python -m mteval_core.cli`, the same as the `mteval` command."""

from mteval_core.cli import main

raise SystemExit(main())
