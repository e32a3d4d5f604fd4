"""Checks on the printable parts as a slicer sees them: a closed mesh, no wall too thin, holes as drawn.

- :func:`mesh_of` tessellates a part (or reads an exported STL) into a trimesh mesh; a printable
  mesh is watertight (every edge shared by two triangles) and encloses a positive volume.
- :func:`wall_thickness` casts a ray inwards from points spread over the surface (seeded, by area)
  and measures how much plastic it crosses before leaving: the thinnest such wall is the figure a
  slicer would have to print.
- :func:`hole_diameter` finds the round edge of a hole where it meets a face, in the exact model.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import trimesh


def mesh_of(part_or_path, tolerance: float = 0.02) -> trimesh.Trimesh:
    """A triangle mesh of a build123d part, or of an STL file."""
    if isinstance(part_or_path, (str, Path)):
        return trimesh.load(str(part_or_path), force="mesh")
    vertices, triangles = part_or_path.tessellate(tolerance, 0.2)
    return trimesh.Trimesh(np.array([tuple(v) for v in vertices]), np.array(triangles), process=True)


@dataclasses.dataclass(frozen=True)
class Walls:
    """The thinnest wall found: ``thinnest`` mm, measured inwards from ``where``, over ``samples`` rays."""

    thinnest: float
    where: tuple[float, float, float]
    samples: int


def wall_thickness(mesh: trimesh.Trimesh, samples: int = 3000, seed: int = 7, facing: float = 0.5) -> Walls:
    """The thinnest wall of ``mesh``: rays from ``samples`` surface points (spread by area), straight
    in along the surface's inward normal, to where they leave the plastic through a face turned
    towards them (the cosine between the ray and that face's normal at least ``facing``). A ray that
    grazes out through the side of a hole, as near any hole's rim, does not measure a wall."""
    rng = np.random.default_rng(seed)
    areas = mesh.area_faces
    faces = rng.choice(len(areas), size=samples, p=areas / areas.sum())
    tri = mesh.triangles[faces]
    weights = rng.dirichlet((1.0, 1.0, 1.0), size=samples)
    points = np.einsum("ij,ijk->ik", weights, tri)
    inward = -mesh.face_normals[faces]
    start = points + inward * 1e-3
    hits, rays, triangles = mesh.ray.intersects_location(start, inward, multiple_hits=True)
    depth = np.full(samples, np.inf)
    if len(rays):
        dist = np.linalg.norm(hits - start[rays], axis=1)
        cosine = np.einsum("ij,ij->i", mesh.face_normals[triangles], inward[rays])
        keep = (dist > 1e-4) & (cosine >= facing)
        np.minimum.at(depth, rays[keep], dist[keep] + 1e-3)
    i = int(np.argmin(depth))
    return Walls(float(depth[i]), tuple(float(v) for v in points[i]), samples)


def hole_diameter(part, x: float, y: float, z: float, tolerance: float = 0.05) -> list[float]:
    """Diameters of the round edges centred on ``(x, y)`` lying at height ``z`` in ``part`` (largest first)."""
    from build123d import GeomType

    out = []
    for edge in part.edges().filter_by(GeomType.CIRCLE):
        centre = edge.arc_center
        if abs(centre.X - x) < tolerance and abs(centre.Y - y) < tolerance and abs(centre.Z - z) < tolerance:
            out.append(round(2 * edge.radius, 4))
    return sorted(set(out), reverse=True)
