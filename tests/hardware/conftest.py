"""The hardware tests need the ``hardware`` extra (SKiDL, build123d, schemdraw, trimesh, rtree); without it they skip."""

import importlib.util

import pytest

missing = [m for m in ("skidl", "build123d", "schemdraw", "trimesh", "rtree", "matplotlib")
           if importlib.util.find_spec(m) is None]
if missing:
    pytest.skip(f"the hardware extra is not installed ({', '.join(missing)}): pip install -e '.[hardware]'",
                allow_module_level=True)
