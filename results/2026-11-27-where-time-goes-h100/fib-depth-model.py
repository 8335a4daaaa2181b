#!/usr/bin/env python3
"""A model of fib(40)'s inline calls under a depth rule against a hand-written cutoff.

With the granularity policy, a spawn at depth D or deeper runs the child's whole subtree on
one lane; with a cutoff of C, every leaf is fib(C-1) or fib(C-2). A warp's round lasts as
long as its longest call, so the lanes' efficiency is the mean call over the longest in a
group of 32 (groups drawn at random). Prints both."""
import random
from collections import Counter
from functools import lru_cache


@lru_cache(None)
def calls(n):
    return 1 if n < 2 else 1 + calls(n - 1) + calls(n - 2)


def efficiency(sizes, groups=2000):
    random.seed(1)
    eff = [sum(g) / (32 * max(g)) for g in (random.sample(sizes, 32) for _ in range(groups))]
    return sum(eff) / len(eff)


def at_depth(n, depth):
    level = Counter({n: 1})
    for _ in range(depth):
        nxt = Counter()
        for m, c in level.items():
            if m >= 2:
                nxt[m - 1] += c
                nxt[m - 2] += c
        level = nxt
    return [calls(m) for m, c in level.items() for _ in range(c)]


def below_cutoff(n, cutoff):
    level, leaves = Counter({n: 1}), []
    while level:
        nxt = Counter()
        for m, c in level.items():
            if m >= cutoff:
                nxt[m - 1] += c
                nxt[m - 2] += c
            else:
                leaves += [calls(m)] * c
        level = nxt
    return leaves


for d in (20, 22, 24):
    s = at_depth(40, d)
    print(f"depth {d}: {len(s)} calls, mean {sum(s) / len(s):.0f}, largest {max(s)}, "
          f"lane efficiency {efficiency(s):.2f}")
s = below_cutoff(40, 10)
print(f"cutoff 10: {len(s)} leaves, mean {sum(s) / len(s):.0f}, largest {max(s)}, "
      f"lane efficiency {efficiency(s):.2f}")
