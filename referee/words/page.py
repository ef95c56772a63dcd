"""placeholder"""

from __future__ import annotations

from referee.words.base import Catalogue

CATALOGUES = (Catalogue("page", {}),)
