import sys, glob, os, collections
d = sys.argv[1]; settings = sys.argv[2].split(',')
rows = collections.OrderedDict()
for f in sorted(glob.glob(os.path.join(d, '*.md'))):
    name = os.path.basename(f)[:-3]
    for s in settings:
        if name.startswith(s + '-'):
            grp = name[len(s) + 1:]
            break
    else:
        continue
    grp = grp.split('-r')[0] if '-r' in grp and grp.split('-r')[-1].isdigit() else grp
    for line in open(f):
        c = [x.strip() for x in line.strip().strip('|').split('|')]
        if len(c) < 13 or c[0] in ('benchmark',) or c[0].startswith('---'):
            continue
        key = (grp, c[0], c[1], c[2], c[3], c[5])
        rows.setdefault(key, {}).setdefault(s, []).append(float(c[8]))
print('| group | program | size | cutoff | q | variant | ' + ' | '.join(settings) + ' | ' + ' | '.join('%s vs %s' % (s, settings[0]) for s in settings[1:]) + ' |')
for k, v in rows.items():
    base = v.get(settings[0])
    cells = [' / '.join('%.3f' % x for x in v.get(s, [])) for s in settings]
    ch = []
    for s in settings[1:]:
        if base and v.get(s):
            m0 = sum(base) / len(base); m1 = sum(v[s]) / len(v[s])
            ch.append('%+.1f%%' % (100 * (m1 / m0 - 1)))
        else:
            ch.append('')
    print('| ' + ' | '.join(list(k) + cells + ch) + ' |')
