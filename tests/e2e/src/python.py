# The python3 runtime fixture (tests/e2e/run.sh, run_python): a small
# recursive workload that checks its own result.
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def main():
    r = fib(15)
    if r != 610:
        sys.exit("fib(15) = %d, not 610" % r)


main()
