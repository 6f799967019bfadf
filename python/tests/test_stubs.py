"""The type stubs (zero/_zero.pyi) name exactly what the extension has: every class, function and public member,
and each function's parameters."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import zero._zero as native

STUBS = Path(native.__file__).parent / "_zero.pyi"


def stub_tree() -> ast.Module:
    source = Path(__file__).resolve().parents[1] / "zero" / "_zero.pyi"
    return ast.parse(source.read_text())


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_") or n in ("__copy__", "__deepcopy__")}


def test_the_stubs_are_installed_beside_the_extension():
    assert STUBS.is_file() and (STUBS.parent / "py.typed").is_file()


def test_every_class_and_function_is_in_the_stubs_and_nothing_else():
    tree = stub_tree()
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    runtime = {n for n in public(dir(native)) if callable(getattr(native, n))}
    assert stubbed == runtime
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = {n.name for n in node.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"}
            cls = getattr(native, node.name)
            assert members == public(vars(cls)) - {"__new__"}, node.name


def test_function_parameters_match():
    tree = stub_tree()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(native, node.name)
        for fn in node.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            if any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list):
                # A property in the stubs is a getter of the extension's class, not a method.
                assert inspect.isdatadescriptor(getattr(cls, fn.name)), f"{node.name}.{fn.name}"
                continue
            target = cls if fn.name == "__init__" else getattr(cls, fn.name)
            signature = inspect.signature(target)
            names = [p.name for p in signature.parameters.values() if p.name not in ("self", "cls", "$self")]
            stub = [a.arg for a in fn.args.args if a.arg != "self"]
            assert stub == names, f"{node.name}.{fn.name}: stub {stub}, module {names}"
