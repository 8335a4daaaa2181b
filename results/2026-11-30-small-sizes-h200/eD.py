p='gtap-device/src/runtime/gpu/lanes.rs'; s=open(p).read()
old="if P::WEIGHS && n != 0 && w.run().granularity.on != 0 {"
assert old in s; s=s.replace(old,"if P::WEIGHS && n != 0 && w.run().granularity.on == 12345 {"); open(p,'w').write(s)
p='gtap-device/src/runtime/gpu/spawn.rs'; s=open(p).read()
old="    if w.run().granularity.on != 0 {\n"
assert s.count(old)==1; s=s.replace(old,"    if w.run().granularity.on == 12345 {\n"); open(p,'w').write(s)
