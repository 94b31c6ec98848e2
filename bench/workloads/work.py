"""About 0.2 s of ordinary Python work natively (at SCALE 1): parsing,
dictionaries, sorting, string building and a little recursion.

    python3 work.py [SCALE]
"""
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def words(n):
    text = " ".join("w%d" % (i * 7919 % 1000) for i in range(n))
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]


def main():
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    if scale <= 0:
        sys.exit("usage: work.py [SCALE > 0]")
    out = [fib(int(20 + scale * 5)), words(int(150000 * scale))]
    out.append(sum(x * x for x in range(int(700000 * scale))))
    print(out)


main()
