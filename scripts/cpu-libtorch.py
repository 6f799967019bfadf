"""Assembles a CPU-only libtorch directory from the PyPI wheels that scripts/setup.sh downloaded (no install).

    python3 scripts/cpu-libtorch.py WHEELS_DIR OUT_DIR

The PyPI torch wheel is a CUDA build: installed with its dependencies it brings 3.4 GB of CUDA libraries (cuBLAS,
cuDNN, NCCL, triton...) that a machine without a GPU never loads. zero needs only libtorch's CPU part, so this
takes from the torch wheel its headers, `libtorch_cpu.so`, `libc10.so`, `libgomp.so.1` and `libtorch.so` (which
the `tch` crate names at link time; nothing calls into it), and from the CUDA runtime and CUPTI wheels the two
libraries that `libtorch_cpu.so` lists as needed (`libcudart.so.13`, `libcupti.so.13`: they load, find no driver
and stay idle). `libtorch_cuda.so` is left out, so torch-sys links the CPU build. OUT_DIR gets `include/`, `lib/`,
the wheel's `version.py` and a `build-version` file (what torch-sys and `zero` read to check the release), and
`cxx11-abi` (`1` or `0`, read from libc10.so's symbols). Prints nothing; exits non-zero naming what is missing.
"""

import sys
import zipfile
from pathlib import Path

TORCH_LIBS = ["libtorch_cpu.so", "libc10.so", "libgomp.so.1", "libtorch.so"]
CUDA_LIBS = ["libcudart.so.13", "libcupti.so.13"]


def wheel(wheels: Path, prefix: str) -> zipfile.ZipFile:
    found = sorted(wheels.glob(f"{prefix}-*.whl"))
    if not found:
        sys.exit(f"no {prefix} wheel in {wheels}")
    return zipfile.ZipFile(found[-1])


def extract(archive: zipfile.ZipFile, member: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with archive.open(member) as src, open(target, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
    target.chmod(0o755 if ".so" in target.name else 0o644)


def main() -> None:
    wheels, out = Path(sys.argv[1]), Path(sys.argv[2])
    torch = wheel(wheels, "torch")
    names = torch.namelist()
    for member in names:
        if member.startswith("torch/include/") and not member.endswith("/"):
            extract(torch, member, out / member.removeprefix("torch/"))
    for lib in TORCH_LIBS:
        if f"torch/lib/{lib}" not in names:
            sys.exit(f"{torch.filename} has no torch/lib/{lib}")
        extract(torch, f"torch/lib/{lib}", out / "lib" / lib)
    extract(torch, "torch/version.py", out / "version.py")
    for prefix in ["nvidia_cuda_runtime", "nvidia_cuda_cupti"]:
        archive = wheel(wheels, prefix)
        for member in archive.namelist():
            if Path(member).name in CUDA_LIBS:
                extract(archive, member, out / "lib" / Path(member).name)
    missing = [lib for lib in CUDA_LIBS if not (out / "lib" / lib).is_file()]
    if missing:
        sys.exit(f"the CUDA runtime wheels in {wheels} hold no {', '.join(missing)}")
    version = next(
        line.split("=", 1)[1].strip().strip("'\"")
        for line in (out / "version.py").read_text().splitlines()
        if line.startswith("__version__")
    )
    (out / "build-version").write_text(version + "\n")
    abi = b"__cxx11" in (out / "lib" / "libc10.so").read_bytes()
    (out / "cxx11-abi").write_text("1\n" if abi else "0\n")


if __name__ == "__main__":
    main()
