"""The controller's hardware as checked code: its circuit (SKiDL), its printable case, knobs and
camera mount (build123d), and the drawings and checks made from them.

Everything here needs the ``hardware`` extra (``pip install -e '.[hardware]'``); ``bitbox hardware``
is its command line.
"""
