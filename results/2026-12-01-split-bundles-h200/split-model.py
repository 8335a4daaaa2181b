#!/usr/bin/env python3
"""A model of fib's split tasks, without the GPU: which tasks the split makes and how many
calls each walks, with and without bundles (session 50's estimate before the GPU calls).

Usage: python3 split-model.py N [SINGLES ...]   (SINGLES 0: one task per pending call)

It walks fib(N) as gtap-macros/src/split.rs's walk does (first site's child next, the other
put; stop after `budget` bodies or when a body's two children might not fit the 32-entry
stack), with budgets 4, doubled per generation up to 2048, and makes tasks of the pending
calls as `SplitPending::take_task` does (the oldest SINGLES on their own while more are left
than a bundle of 17 holds, the rest one bundle). `eff` is the lanes' share of a round's time
when tasks are put 32 to a round at random and a round lasts as long as its longest walk.
"""
import random
import sys

PENDING, CAP, SITES = 32, 17, 2


def walk(calls, budget):
    stack = list(calls)
    cur = stack.pop()
    left, bodies = budget, 0
    while True:
        bodies += 1
        kids = [cur - 1, cur - 2] if cur >= 2 else []
        stack.extend(reversed(kids[1:]))
        left -= 1
        held = bool(kids)
        n = len(stack) + held
        if left == 0 or not (n != 0 and n + SITES <= PENDING + 1):
            if held:
                stack.append(kids[0])
            return bodies, stack
        cur = kids[0] if held else stack.pop()


def tasks(n, singles):
    todo, sizes = [([n], 4)], []
    while todo:
        calls, budget = todo.pop()
        bodies, pending = walk(calls, budget)
        sizes.append(bodies)
        nxt = min(budget * 2, 2048) if budget < 2048 else budget
        i = 0
        while i < len(pending):
            left = len(pending) - i
            if singles and 2 <= left <= min(CAP, PENDING + 1 - SITES) and i >= singles:
                todo.append((pending[i:], nxt))
                break
            todo.append(([pending[i]], nxt))
            i += 1
    return sizes


def main():
    n = int(sys.argv[1])
    for singles in [int(s) for s in sys.argv[2:]] or [0, 2]:
        s = tasks(n, singles)
        random.seed(1)
        random.shuffle(s)
        rounds = sum(max(s[i:i + 32]) for i in range(0, len(s), 32)) * 32
        small = sum(1 for x in s if x <= 16)
        print(f"fib({n}) singles {singles}: {len(s)} tasks, {sum(s)} calls, "
              f"{sum(s) / len(s):.0f} per task, {small} walking 16 or fewer, eff {sum(s) / rounds:.2f}")


if __name__ == "__main__":
    main()
