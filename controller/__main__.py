"""``python -m controller`` is the same as the ``bitbox`` command."""

from controller.cli import main

raise SystemExit(main())
