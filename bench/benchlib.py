"""What bench/callgrind-bench and bench/stacks-bench share: the workloads
and configurations benchmarking services use, the builds' locations,
building the workload programs, one timed Valgrind run, and the report's
machine line and number formats.  Imported, not run.
"""
import glob
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))

FULL = ["--trace-children=yes", "--cache-sim=yes", "--I1=32768,8,64",
        "--D1=32768,8,64", "--LL=8388608,16,64", "--collect-systime=nsec",
        "--compress-strings=no", "--combine-dumps=yes", "--dump-line=no"]
CONFIGS = {
    "no-inline": ["--read-inline-info=no"],
    "inline": ["--read-inline-info=yes"],
    "full-no-inline": FULL,
    "full-with-inline": FULL + ["--read-inline-info=yes"],
}
LATE = ["--instr-atstart=no"]
ALL_CONFIGS = list(CONFIGS) + [c + "+late" for c in CONFIGS]
# Under qemu-user a run is 5 to 10 times longer: arm64 gets the two ends of
# the matrix (plain and full), and --quick fewer still.
DEFAULT_CONFIGS = {
    "full": {"x86_64": ALL_CONFIGS,
             "arm64": ["no-inline", "no-inline+late", "full-with-inline", "full-with-inline+late"]},
    "quick": {"x86_64": ["no-inline", "no-inline+late", "full-with-inline", "full-with-inline+late"],
              "arm64": ["no-inline", "no-inline+late"]},
}

# name: (command, has a START client request, architectures); the command
# is a function of (binaries dir, quick, architecture).
WORKLOADS = {
    "echo": (lambda b, q, a: (["/bin/echo"] if a == "x86_64" else [b + "/echo"])
             + ["Hello,", "World!"], False, ("x86_64", "arm64")),
    "python": (lambda b, q, a: ["/usr/bin/python3", HERE + "/workloads/work.py",
                                "0.1" if q else "1"], False, ("x86_64",)),
    "stress-ng": (lambda b, q, a: ["stress-ng", "--cpu", "1", "--cpu-ops",
                                   "2" if q else "10", "--quiet"],
                  False, ("x86_64",)),
    "cxx-recursion": (lambda b, q, a: [b + "/recursion", "10" if q else "100"],
                      True, ("x86_64", "arm64")),
    "jit": (lambda b, q, a: [b + "/jit", "50" if q else "500", "20000"],
            True, ("x86_64", "arm64")),
    "depth256": (lambda b, q, a: [b + "/depth", "256", "1", "100000"],
                 True, ("x86_64", "arm64")),
}

# (upstream, patched) install prefixes per architecture.
PREFIXES = {
    "x86_64": (os.path.join(BUILD, "upstream/install"), os.path.join(BUILD, "install")),
    "arm64": (os.path.join(BUILD, "upstream/arm64/install"),
              os.path.join(BUILD, "arm64/install")),
}
TOOL = {"x86_64": "callgrind-amd64-linux", "arm64": "callgrind-arm64-linux"}
COMPILERS = {"x86_64": ("gcc", "g++"),
             "arm64": ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-g++")}


def die(msg):
    sys.exit("%s: error: %s" % (os.path.basename(sys.argv[0]), msg))


def check_names(workloads, configs):
    """Die on a workload or configuration name the tables do not know."""
    for w in workloads:
        if w not in WORKLOADS:
            die("unknown workload %s (known: %s)" % (w, ", ".join(WORKLOADS)))
    for c in configs:
        if c.replace("+late", "") not in CONFIGS:
            die("unknown config %s (known: %s, each also +late)" % (c, ", ".join(CONFIGS)))


def check_programs(workloads, arches):
    """Die, before the first cell rather than when its turn comes, on a
    workload run on one of ARCHES whose program (the first word of its
    command, when not one of the binaries built here) is not installed."""
    built = "\0built"
    for w in workloads:
        make_cmd, _, wl_arches = WORKLOADS[w]
        for a in sorted(set(arches) & set(wl_arches)):
            prog = make_cmd(built, True, a)[0]
            if not prog.startswith(built) and not shutil.which(prog):
                die("workload %s needs %s, which is not installed "
                    "(scripts/deps.sh bench, as make bench runs it)" % (w, prog))


def cells(arch, workloads, configs, binaries, quick):
    """The (workload, config, options, command) of every cell of ARCH, in
    report order: a +late config only for a workload with a START."""
    for w in workloads:
        make_cmd, has_start, wl_arches = WORKLOADS[w]
        if arch not in wl_arches:
            continue
        for c in configs:
            late = c.endswith("+late")
            if late and not has_start:
                continue
            yield (w, c, CONFIGS[c.replace("+late", "")] + (LATE if late else []),
                   make_cmd(binaries, quick, arch))


def shown(cmd):
    """A command line for the report, paths under TOP relative to it."""
    return " ".join(os.path.relpath(x, TOP) if x.startswith(TOP) else x for x in cmd)


def build_workloads(arch, out, include):
    """Compile bench/workloads/*.c* for ARCH into OUT; return OUT."""
    cc, cxx = COMPILERS[arch]
    os.makedirs(out, exist_ok=True)
    src = os.path.join(HERE, "workloads")
    for name, comp in (("depth.c", cc), ("echo.c", cc), ("jit.c", cc),
                       ("recursion.cc", cxx)):
        if not shutil.which(comp):
            die("%s is not installed (make deps%s)" % (comp, "-arm64" if arch == "arm64" else ""))
        cmd = [comp, "-O1", "-g", "-I" + include, "-o",
               os.path.join(out, name.split(".")[0]), os.path.join(src, name)]
        if subprocess.call(cmd):
            die("cannot build %s: %s" % (name, " ".join(cmd)))
    return out


def bench_env(arch):
    """The environment of the runs: fixed hash seed and locale; on arm64
    the qemu-user settings of scripts/cross-setup.sh arm64."""
    env = dict(os.environ, PYTHONHASHSEED="0", LC_ALL="C")
    if arch == "arm64":
        try:
            setup = subprocess.check_output([TOP + "/scripts/cross-setup.sh", "arm64", "--env"],
                                            text=True)
        except (OSError, subprocess.CalledProcessError):
            die("scripts/cross-setup.sh arm64 --env failed (run scripts/cross-setup.sh arm64)")
        for m in re.finditer(r"export (\w+)=(\S+)", setup):
            env[m.group(1)] = m.group(2)
    return env


def tool_mtime(prefix, arch):
    """When PREFIX's Callgrind tool was built (UTC), or None."""
    tool = os.path.join(prefix, "libexec/valgrind", TOOL[arch])
    if not os.path.exists(tool):
        return None
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(os.path.getmtime(tool)))


def run_valgrind(build, opts, cmd, rundir, env):
    """One Callgrind run in a fresh RUNDIR: (wall seconds, peak RSS KiB of
    the valgrind process from wait4(), the output files callgrind.out.*).
    BUILD is (valgrind binary, VALGRIND_LIB).  Dies if the run fails."""
    valgrind, libdir = build
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    env = dict(env, VALGRIND_LIB=libdir)
    argv = [valgrind, "--tool=callgrind",
            "--callgrind-out-file=" + rundir + "/callgrind.out.%p"] + opts + cmd
    with open(rundir + "/stdout", "wb") as out, open(rundir + "/stderr", "wb") as err:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code:
        with open(rundir + "/stderr", errors="replace") as f:
            tail = f.read()[-800:]
        die("exit %d from: %s\n%s" % (code, " ".join(argv), tail))
    files = sorted(glob.glob(rundir + "/callgrind.out.*"))
    if not files:
        die("no Callgrind output from: " + " ".join(argv))
    return wall, usage.ru_maxrss, files


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def machine_line():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s %s, %s, %d cores, load average %s" % (
        platform.system(), platform.release(), cpu, os.cpu_count() or 0,
        " ".join("%.2f" % x for x in os.getloadavg()))


def fmt_spread(s, unit=1.0, digits=3):
    f = "%%.%df" % digits
    return (f + " (" + f + "–" + f + ")") % (s["median"] * unit, s["min"] * unit, s["max"] * unit)


def fmt_set(values):
    return "/".join("{:,}".format(v) for v in values)
