"""The DiXe face library: reference images of each face of each die, and matching a crop against them.

DiXe faces carry characters and symbols rather than pips, so they are read by comparison with pictures
of the same dice taken by the table's own camera (``bitbox calibrate faces``). References are stored as
small greyscale PNGs under ``state_dir()/faces/DIE/FACE.png``. A crop matches a reference at any
rotation: each reference is compared at its four quarter turns (and 10 degrees either side of each),
with a few pixels of slack for a crop cut off-centre, by normalised cross-correlation.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import cv2
import numpy as np

from controller import paths
from controller.vision.snapshot import DieFace

#: Side of the normalised reference images, and of the search window around them.
REF_SIZE = 40
SEARCH_SIZE = 48

#: Below this correlation a crop matches no face; a best match this close to a different symbol
#: is ambiguous and reported as unreadable.
MIN_SCORE = 0.7
MIN_MARGIN = 0.08

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]*$")


def library_dir() -> Path:
    """Where ``bitbox calibrate faces`` stores the references."""
    return paths.state_dir() / "faces"


def check_name(kind: str, name: str) -> str:
    """``name`` if usable as a die or face name (letters, digits, - and _); ValueError otherwise."""
    if not _NAME.match(name):
        raise ValueError(f"{kind} name {name!r} must be letters, digits, '-' or '_' (e.g. oni, pirate)")
    return name


def _face_only(crop_bgr: np.ndarray, face_side: float) -> np.ndarray:
    """The central square of ``crop_bgr`` that holds the face, ``face_side`` of its side."""
    if not 0.0 < face_side <= 1.0:
        raise ValueError(f"face_side must be in (0, 1], not {face_side!r}")
    if face_side == 1.0:
        return crop_bgr
    h, w = crop_bgr.shape[:2]
    side = max(1, round(min(h, w) * face_side))
    y, x = (h - side) // 2, (w - side) // 2
    return crop_bgr[y:y + side, x:x + side]


def _normalise(crop_bgr: np.ndarray, size: int) -> np.ndarray:
    """Grey, resampled, contrast-equalised and softened: a blur makes the correlation forgive the
    few degrees of turn and pixel of shift between a reference and a later view."""
    grey = crop_bgr if crop_bgr.ndim == 2 else cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, (size, size), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(cv2.equalizeHist(grey), (5, 5), 1.5)


@dataclasses.dataclass(frozen=True)
class Reference:
    """One face of one die as the camera saw it."""

    die: str
    face: str
    image: np.ndarray        # REF_SIZE x REF_SIZE, uint8


class FaceLibrary:
    """Reference images of DiXe faces, matched against crops of top faces.

    >>> lib = FaceLibrary()
    >>> len(lib)
    0
    """

    def __init__(self, references: list[Reference] | None = None) -> None:
        self.references: list[Reference] = list(references or [])
        self._rotations: list[tuple[Reference, list[np.ndarray]]] = []
        for ref in self.references:
            self._index(ref)

    def __len__(self) -> int:
        return len(self.references)

    def _index(self, ref: Reference) -> None:
        img = ref.image.astype(np.float32)
        centre = ((REF_SIZE - 1) / 2.0, (REF_SIZE - 1) / 2.0)
        turned = []
        for k in range(4):
            quarter = np.ascontiguousarray(np.rot90(img, k))
            turned.append(quarter)
            for degrees in (-10.0, 10.0):
                m = cv2.getRotationMatrix2D(centre, degrees, 1.0)
                turned.append(cv2.warpAffine(quarter, m, (REF_SIZE, REF_SIZE), borderMode=cv2.BORDER_REFLECT))
        self._rotations.append((ref, turned))

    def add(self, die: str, face: str, crop_bgr: np.ndarray) -> Reference:
        """Add (or replace) the reference of ``face`` on ``die`` from a crop of that face."""
        check_name("die", die)
        check_name("face", face)
        if crop_bgr is None or crop_bgr.size == 0:
            raise ValueError(f"empty image for face {face!r} of die {die!r}")
        ref = Reference(die, face, _normalise(crop_bgr, SEARCH_SIZE)[4:-4, 4:-4].copy())
        self.references = [r for r in self.references if (r.die, r.face) != (die, face)]
        self._rotations = [(r, rots) for r, rots in self._rotations if (r.die, r.face) != (die, face)]
        self.references.append(ref)
        self._index(ref)
        return ref

    def scores(self, crop_bgr: np.ndarray, face_side: float = 1.0) -> list[tuple[float, Reference]]:
        """Every reference's best correlation with ``crop_bgr`` over rotations and small shifts.

        References are faces cut edge to edge; ``face_side`` is the face's side as a fraction of the
        crop's side, for crops taken with a margin around the face.
        """
        window = _normalise(_face_only(crop_bgr, face_side), SEARCH_SIZE).astype(np.float32)
        out = []
        for ref, rotations in self._rotations:
            best = max(float(cv2.matchTemplate(window, rot, cv2.TM_CCOEFF_NORMED).max())
                       for rot in rotations)
            out.append((best, ref))
        out.sort(key=lambda item: -item[0])
        return out

    def match(self, crop_bgr: np.ndarray, face_side: float = 1.0) -> DieFace:
        """The face shown in ``crop_bgr`` (a square crop centred on a top face whose side is
        ``face_side`` of the crop's), or unreadable."""
        ranked = self.scores(crop_bgr, face_side)
        if not ranked:
            return DieFace()
        score, ref = ranked[0]
        rival = next((s for s, r in ranked[1:] if r.face != ref.face), -1.0)
        confidence = float(np.clip(score, 0.0, 1.0))
        if score < MIN_SCORE or score - rival < MIN_MARGIN:
            return DieFace(confidence=round(confidence, 3))
        return DieFace(symbol=ref.face, confidence=round(confidence, 3))

    def save(self, folder: Path | None = None) -> Path:
        """Write every reference as ``folder/DIE/FACE.png`` (default: :func:`library_dir`)."""
        folder = Path(folder) if folder is not None else library_dir()
        for ref in self.references:
            target = folder / ref.die / f"{ref.face}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".tmp.png")
            if not cv2.imwrite(str(tmp), ref.image):
                raise OSError(f"could not write {tmp}")
            tmp.replace(target)
        return folder

    @classmethod
    def load(cls, folder: Path | None = None) -> FaceLibrary:
        """The references stored in ``folder`` (default: :func:`library_dir`); empty if none."""
        folder = Path(folder) if folder is not None else library_dir()
        refs = []
        if folder.is_dir():
            for path in sorted(folder.glob("*/*.png")):
                if path.name.endswith(".tmp.png"):
                    continue
                image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
                if image is None:
                    raise ValueError(f"{path}: not a readable image; delete it and run "
                                     "'bitbox calibrate faces' again for that face")
                if image.shape != (REF_SIZE, REF_SIZE):
                    image = cv2.resize(image, (REF_SIZE, REF_SIZE), interpolation=cv2.INTER_AREA)
                refs.append(Reference(path.parent.name, path.stem, image))
        return cls(refs)
