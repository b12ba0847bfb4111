"""python -m docread.cli"""

import sys

from . import main

sys.exit(main())
