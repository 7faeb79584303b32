"""What tools/train counts as the same computation, for heldout.sh and probe-clamp.sh (imported from the repository
root): a generated task's map with its inputs renamed by position ($0, $1, ...), constants and types kept, so that
one computation under other register names is one shape. The held-out row's honesty rests on this one definition.
"""
import os
import re
import shutil


def shape(path):
    """The task file's map, inputs renamed by their position among the task's inputs."""
    y = open(path).read()
    m = re.search(r'^map: "(.*)"$', y, re.M).group(1)
    for i, n in enumerate(re.findall(r"\{name: (\w+), type: \w+, role: in", y)):
        m = re.sub(rf"\b{n}\b", f"${i}", m)
    return m


def level(path):
    return int(re.search(r"^level: (\d)", open(path).read(), re.M).group(1))


def take(path, dst):
    """Copy a task file and its OpenCL C reference (amdgcn/ID.cl beside it) into dst and dst/amdgcn."""
    tid = os.path.basename(path)[:-5]
    shutil.copy(path, dst)
    shutil.copy(os.path.join(os.path.dirname(path), "amdgcn", tid + ".cl"), os.path.join(dst, "amdgcn"))
