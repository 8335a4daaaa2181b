p='gtap-device/src/runtime/gpu/close.rs'; s=open(p).read()
old="""    let run = w.run();
    if run.granularity.on == 0 {
        return;
    }"""
assert old in s; s=s.replace(old,"""    let run = w.run();
    if run.granularity.on != 12345 {
        return;
    }"""); 
old2="""    if run.granularity.on != 0 {
        sh.run_started = clock64();"""
assert old2 in s; s=s.replace(old2,"""    if run.granularity.on == 12345 {
        sh.run_started = clock64();""")
open(p,'w').write(s)
