"""The package's layers, as docs/architecture.rst draws them: arrows point down only, no import
circle, numba only in the engine.

Imports are read from the source (module level and inside functions alike: a lazy import is an
arrow too), so a violation fails here before anyone meets it as an import error or a circle.
"""
import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "fastpr"

# Bottom up. A module may import modules of its own layer or of the layers below it; the
# subpackages of one layer (learn, distributed, spark) do not import each other. The package's
# own __init__ is the public facade over every layer and is not a layer.
LAYERS = [
    ["fastpr.exceptions", "fastpr._optional"],
    ["fastpr._engine"],
    ["fastpr._validation"],
    ["fastpr.metrics", "fastpr.results", "fastpr._rankings", "fastpr._undefined",
     "fastpr.curves", "fastpr.swept", "fastpr.space", "fastpr.unachievable",
     "fastpr.prevalence", "fastpr.thresholds", "fastpr.fmeasure", "fastpr.gain",
     "fastpr.intervals", "fastpr._student_t", "fastpr.accumulator", "fastpr.aggregate",
     "fastpr.multiclass", "fastpr.kernels", "fastpr.datasets", "fastpr.io", "fastpr.operating",
     "fastpr.partial", "fastpr.top", "fastpr._point_metrics",
     "fastpr._partitioned"],
    ["fastpr.learn", "fastpr.distributed", "fastpr.spark"],
    ["fastpr.plot"],
    ["fastpr.sklearn"],
    ["fastpr.cli", "fastpr.__main__"],
]


def _modules():
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


MODULES = _modules()


def _imports(name, path):
    """The fastpr modules that module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from package import module` imports the module, not the package's __init__.
            submodules = {f"{target}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules if len(submodules) == len(node.names) else
                         {target, *submodules})
    return {module for module in found if module in MODULES and module != name}


ARROWS = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name):
    for number, layer in enumerate(LAYERS):
        for part in layer:
            if name == part or name.startswith(part + "."):
                return number, part
    return None


def test_every_module_has_a_layer():
    assert [name for name in MODULES if name != "fastpr" and _layer(name) is None] == []


def test_arrows_point_down():
    upward = []
    for name, targets in ARROWS.items():
        if name == "fastpr":
            continue
        layer, part = _layer(name)
        for target in targets:
            if target == "fastpr":
                # The facade imports the analytics' layer (the rest at first use), so the
                # layers above it may use it; the analytics and below may not.
                if layer <= 3:
                    upward.append(f"{name} -> fastpr (the facade)")
                continue
            target_layer, target_part = _layer(target)
            if target_layer > layer or (target_layer == layer and target_part != part
                                        and layer == 4):
                upward.append(f"{name} -> {target}")
    assert upward == []


def test_no_import_circle():
    # Tarjan's strongly connected components over the arrows.
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in ARROWS[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in MODULES:
        if module not in index:
            visit(module)
    assert circles == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_only_the_engine_imports_numba(name):
    tree = ast.parse(MODULES[name].read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert "numba" not in imported or name.startswith("fastpr._engine")
