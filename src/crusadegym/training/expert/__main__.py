"""``python -m crusadegym.training.expert`` = ``crusadegym expert``."""

import sys

from .recipe import main

sys.exit(main())
