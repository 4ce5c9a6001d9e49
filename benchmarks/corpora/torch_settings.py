"""The torch corpus both benchmarks share: its modules, its settings, its mirror.

``run.py`` (findings, recall and precision) and ``benchmarks.corpus`` (instruction
counts) check the same torch modules with the same plugin settings, from here.
"""

from __future__ import annotations

from pathlib import Path

#: The recommended settings for torch library code (docs/plugin.md).
TORCH_TRACED = """\
traced_functions =
    torch.nn.functional.*,
    torch.nn.modules.*,
    torch._decomp.*,
    torch._refs.*,
    torch._meta_registrations.*,
    torch._prims_common.*
symbolic_shapes = true
static_only_aliases = torch._prims_common.IntWithoutSymInt, torch._prims_common.FloatWithoutSymFloat
static_parameters = dim, dims, *_dim, *_dims, ndim, rank, idx, *_mode
"""

#: The torch module set of ground_truth.toml.
TORCH_MODULES = ("torch.nn.functional", "torch.nn.modules", "torch._decomp", "torch._refs",
                 "torch._meta_registrations", "torch._prims_common")

#: Left out of the mirror: next to this stub mypy would check it, never the module.
_HIDING_STUB = "nn/functional.pyi"


def mirror_torch_sources(torch_dir: Path, destination: Path) -> None:
    """Link every .py/.pyi file of the torch package ``torch_dir`` under ``destination/torch``.

    Outside site-packages the plugin treats torch like a project, so its
    settings apply there, as in a checkout of torch.
    """
    for path in sorted(torch_dir.rglob("*.py*")):
        relative = path.relative_to(torch_dir)
        if path.suffix not in (".py", ".pyi") or relative.as_posix() == _HIDING_STUB:
            continue
        link = destination / "torch" / relative
        if not link.exists():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path)
