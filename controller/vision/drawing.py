"""The camera frame with what the analysis of it found drawn on it (``bitbox vision snapshot``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from controller.vision.analysis import Analysis
from controller.vision.measuring import footprint
from controller.vision.snapshot import TableSnapshot

if TYPE_CHECKING:
    from controller.vision.pipeline import FrameAnalyser


def draw_analysis(frame: np.ndarray, analysis: Analysis, analyser: FrameAnalyser,
                  snapshot: TableSnapshot | None = None) -> np.ndarray:
    """The camera frame with each die's footprint, level, reading and id drawn on it."""
    out = frame.copy()
    cam = analyser.profile.camera
    ids = {}
    if snapshot is not None:
        for d in snapshot.dice:
            ids[(round(d.x_mm, 3), round(d.y_mm, 3))] = d.die_id
    for die in analysis.dice:
        base = footprint(np.array([die.x_mm, die.y_mm]), die.angle_deg, analyser.edge)
        top_h = die.level * analyser.edge
        for z, colour in ((0.0, (0, 200, 255)), (-top_h, (0, 255, 0) if die.level == 1 else (255, 0, 255))):
            px = cam.project(np.column_stack([base, np.full(4, z)]))
            cv2.polylines(out, [np.round(px).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        px = cam.project(np.array([[die.x_mm, die.y_mm, -top_h]]))[0]
        label = die.face.label + ("" if die.level == 1 else " (L2)")
        if not die.on_mat:
            label += " off"
        elif die.at_edge:
            label += " edge"
        did = ids.get((round(die.x_mm, 3), round(die.y_mm, 3)))
        if did is not None:
            label = f"#{did} {label}"
        cv2.putText(out, label, (int(px[0]) + 8, int(px[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, (int(px[0]) + 8, int(px[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (255, 255, 255), 1, cv2.LINE_AA)
    for occ in analysis.occlusions:
        box = np.array([[occ.x_mm, occ.y_mm, 0], [occ.x_mm + occ.width_mm, occ.y_mm, 0],
                        [occ.x_mm + occ.width_mm, occ.y_mm + occ.height_mm, 0],
                        [occ.x_mm, occ.y_mm + occ.height_mm, 0]])
        px = cam.project(box)
        cv2.polylines(out, [np.round(px).astype(np.int32)], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.putText(out, occ.kind, tuple(np.round(px[0]).astype(int) + (4, 18)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, (0, 0, 255), 2, cv2.LINE_AA)
    return out
