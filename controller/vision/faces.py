"""The DiXe face library: reference images of each face of each die, and matching a crop against them.

DiXe faces carry characters and symbols rather than pips, so they are read by comparison with pictures
of the same dice taken by the table's own camera (``bitbox calibrate faces``). References are stored as
greyscale PNGs under ``state_dir()/faces/DIE/FACE.png``, at the size of a face crop
(:data:`~controller.vision.lookalikes.DETAIL_SIZE`); pictures stored by earlier versions, already
reduced to :data:`REF_SIZE`, still load.

A crop is read in two looks. The first compares it, small (:data:`REF_SIZE`), with every reference at
any rotation: each reference at its four quarter turns (and 10 degrees either side of each), with a few
pixels of slack for a crop cut off-centre, by normalised cross-correlation. That tells symbols apart.
Faces that share most of their drawing (the characters: one horned head, a different letter) all match
almost equally there; those look-alikes are compared again at the crop's full size, on the pixels where
they differ (:mod:`controller.vision.lookalikes`). A crop none of them explains clearly is unreadable.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import cv2
import numpy as np

from controller import paths
from controller.vision import lookalikes
from controller.vision.snapshot import DieFace

#: Side of the normalised reference images, and of the search window around them.
REF_SIZE = 40
SEARCH_SIZE = 48

#: Below this correlation a crop matches no face; a best match this close to a different symbol
#: is ambiguous and reported as unreadable.
MIN_SCORE = 0.7
MIN_MARGIN = 0.08

#: Faces whose first-look correlation lies this close to the best are look-alikes, compared again in
#: detail. There the best must be closer to the crop than each other look-alike by DETAIL_MARGIN (on the
#: pixels where the two differ), and leave no patch of the face unexplained beyond MAX_RESIDUE (in
#: squared standard deviations: another letter in the same head leaves one).
LOOKALIKE = 0.1
DETAIL_MARGIN = 0.15
MAX_RESIDUE = 0.5

#: A face read at the first look is checked whole against its reference at full size: a patch left
#: unexplained beyond this (squared standard deviations) is a drawing never taught that shares the
#: reference's outline (a yin-yang where only a smiley was taught).
MAX_UNEXPLAINED = 2.5

#: An unreadable crop whose first look still matches a reference this well is a taught face, unclear
#: (glare on a letter, two look-alikes too close to call), not a pip face: pip faces match DiXe
#: references at 0.6 at best.
RESEMBLANCE = 0.65

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]*$")


def library_dir() -> Path:
    """Where ``bitbox calibrate faces`` stores the references."""
    return paths.state_dir() / "faces"


def check_name(kind: str, name: str) -> str:
    """``name`` if usable as a die or face name (letters, digits, - and _); ValueError otherwise."""
    if not _NAME.match(name):
        raise ValueError(f"{kind} name {name!r} must be letters, digits, '-' or '_' (e.g. oni, pirate)")
    return name


def looks_taught(reading: DieFace) -> bool:
    """Whether a :meth:`FaceLibrary.match` reading is of a taught face, even when which one is unclear:
    such a face is no pip face, and must stay unreadable rather than be read as pips."""
    return reading.readable or reading.confidence >= RESEMBLANCE


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


def _small(face_grey: np.ndarray) -> np.ndarray:
    """The first look's reference picture of a face picture, edge to edge: REF_SIZE square."""
    return _normalise(face_grey, SEARCH_SIZE)[4:-4, 4:-4].copy()


@dataclasses.dataclass(frozen=True)
class Reference:
    """One face of one die as the camera saw it: the first look's small picture and, unless it was
    stored by an earlier version as the small picture alone, the face itself for the detailed look."""

    die: str
    face: str
    image: np.ndarray                       # REF_SIZE x REF_SIZE, uint8, normalised (see _normalise)
    picture: np.ndarray | None = None       # DETAIL_SIZE x DETAIL_SIZE, uint8 grey, as taken

    @classmethod
    def of(cls, die: str, face: str, picture_grey: np.ndarray) -> Reference:
        """The reference of a grey picture of the face, edge to edge, at any size."""
        side = lookalikes.DETAIL_SIZE
        if picture_grey.shape != (side, side):
            shrink = picture_grey.shape[0] > side
            picture_grey = cv2.resize(picture_grey, (side, side),
                                      interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
        return cls(die, face, _small(picture_grey), picture_grey)


class FaceLibrary:
    """Reference images of DiXe faces, matched against crops of top faces.

    >>> lib = FaceLibrary()
    >>> len(lib)
    0
    """

    def __init__(self, references: list[Reference] | None = None) -> None:
        self.references: list[Reference] = list(references or [])
        self._rotations: list[tuple[Reference, list[np.ndarray]]] = []
        self._details: dict[tuple[str, str], np.ndarray] = {}
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
        if ref.picture is not None:
            self._details[(ref.die, ref.face)] = lookalikes.detail_picture(ref.picture)

    def add(self, die: str, face: str, crop_bgr: np.ndarray) -> Reference:
        """Add (or replace) the reference of ``face`` on ``die`` from a crop of that face."""
        check_name("die", die)
        check_name("face", face)
        if crop_bgr is None or crop_bgr.size == 0:
            raise ValueError(f"empty image for face {face!r} of die {die!r}")
        grey = crop_bgr if crop_bgr.ndim == 2 else cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
        ref = Reference.of(die, face, grey)
        self.references = [r for r in self.references if (r.die, r.face) != (die, face)]
        self._rotations = [(r, rots) for r, rots in self._rotations if (r.die, r.face) != (die, face)]
        self._details.pop((die, face), None)
        self.references.append(ref)
        self._index(ref)
        return ref

    def scores(self, crop_bgr: np.ndarray, face_side: float = 1.0) -> list[tuple[float, Reference]]:
        """Every reference's best correlation with ``crop_bgr`` over rotations and small shifts.

        References are faces cut edge to edge; ``face_side`` is the face's side as a fraction of the
        crop's side, for crops taken with a margin around the face.
        """
        return [(score, ref) for score, _, ref in self._ranked(_face_only(crop_bgr, face_side))]

    def _ranked(self, face_bgr: np.ndarray) -> list[tuple[float, int, Reference]]:
        """The first look: each reference's best correlation with the face, and the quarter turn of
        the reference that gave it, best first."""
        window = _normalise(face_bgr, SEARCH_SIZE).astype(np.float32)
        out = []
        for ref, rotations in self._rotations:
            found = [float(cv2.matchTemplate(window, rot, cv2.TM_CCOEFF_NORMED).max()) for rot in rotations]
            best = int(np.argmax(found))
            out.append((found[best], best // 3, ref))
        out.sort(key=lambda item: -item[0])
        return out

    def match(self, crop_bgr: np.ndarray, face_side: float = 1.0) -> DieFace:
        """The face shown in ``crop_bgr`` (a square crop centred on a top face whose side is
        ``face_side`` of the crop's), or unreadable."""
        face_bgr = _face_only(crop_bgr, face_side)
        ranked = self._ranked(face_bgr)
        if not ranked:
            return DieFace()
        score, quarter, ref = ranked[0]
        confidence = round(float(np.clip(score, 0.0, 1.0)), 3)
        if score < MIN_SCORE:
            return DieFace(confidence=confidence)
        rival = next((s for s, _, r in ranked[1:] if r.face != ref.face), -1.0)
        if score - rival >= MIN_MARGIN:
            picture = self._details.get((ref.die, ref.face))
            if picture is not None and lookalikes.unexplained(
                    lookalikes.detail_picture(face_bgr), picture, quarter) > MAX_UNEXPLAINED:
                return DieFace(confidence=confidence)        # another drawing, never taught
            return DieFace(symbol=ref.face, confidence=confidence)
        return self._tell_apart(face_bgr, ranked, confidence)

    def _tell_apart(self, face_bgr: np.ndarray, ranked: list[tuple[float, int, Reference]],
                    confidence: float) -> DieFace:
        """The detailed look among the look-alikes of the first look's best (each face by its best
        reference), or unreadable when none is clearly the crop's face."""
        best = ranked[0][0]
        candidates: dict[str, tuple[int, Reference]] = {}
        for score, quarter, ref in ranked:
            if score >= best - LOOKALIKE and ref.face not in candidates:
                candidates[ref.face] = (quarter, ref)
        pictures = [(self._details.get((ref.die, ref.face)), quarter) for quarter, ref in candidates.values()]
        if any(picture is None for picture, _ in pictures):
            return DieFace(confidence=confidence)        # a reference stored small, by an earlier version
        verdict = lookalikes.compare(lookalikes.detail_picture(face_bgr), pictures)   # type: ignore[arg-type]
        k = int(np.argmax(verdict.margins))
        if verdict.margins[k] < DETAIL_MARGIN or verdict.residues[k] > MAX_RESIDUE:
            return DieFace(confidence=confidence)
        return DieFace(symbol=list(candidates)[k], confidence=confidence)

    def save(self, folder: Path | None = None) -> Path:
        """Write every reference as ``folder/DIE/FACE.png`` (default: :func:`library_dir`)."""
        folder = Path(folder) if folder is not None else library_dir()
        for ref in self.references:
            target = folder / ref.die / f"{ref.face}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".tmp.png")
            if not cv2.imwrite(str(tmp), ref.picture if ref.picture is not None else ref.image):
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
                if image.shape == (REF_SIZE, REF_SIZE):
                    refs.append(Reference(path.parent.name, path.stem, image))    # stored small, as before
                else:
                    refs.append(Reference.of(path.parent.name, path.stem, image))
        return cls(refs)
