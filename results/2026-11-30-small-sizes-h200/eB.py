p='gtap-device/src/runtime/gpu/worker.rs'; s=open(p).read()
old="if period && sh.cfg.granularity.on != 0 {"
assert old in s; s=s.replace(old,"if period && sh.cfg.granularity.on == 12345 {"); open(p,'w').write(s)
