//! Doc-string fragments shared by the generated raw wrappers: what each PTX semantic and
//! scope qualifier guarantees, in one place so every wrapper says the same thing.

/// What a `.sem` qualifier of `atom`, `ld` or `st` guarantees.
macro_rules! sem_doc {
    (relaxed) => {
        "`.relaxed`: the access is atomic (never torn; all accesses to the location by threads \
         in scope fall into one order), and orders no other memory operation."
    };
    (acquire) => {
        "`.acquire`: no later memory operation of this thread is performed before it; when it \
         reads the value of a release (or of a later write in that release's sequence) by a \
         thread in scope, everything before that release happens before everything after this."
    };
    (release) => {
        "`.release`: every earlier memory operation of this thread is performed before it; an \
         acquire by a thread in scope that reads its value synchronises with it."
    };
    (acq_rel) => {
        "`.acq_rel`: both acquire (later operations stay after it) and release (earlier \
         operations stay before it), for threads in scope."
    };
}

/// What a `.scope` qualifier guarantees.
macro_rules! scope_doc {
    (cta) => {
        "`.cta`: atomic with respect to, and synchronising with, threads of the same block \
         only; a thread of another block may see it as a plain read and a later write."
    };
    (gpu) => {
        "`.gpu`: atomic with respect to, and synchronising with, every thread of the program \
         on this GPU (not the host or peer GPUs)."
    };
    (sys) => {
        "`.sys`: atomic with respect to, and synchronising with, every thread of the program, \
         on this GPU, peer GPUs and the host (for mapped or managed memory)."
    };
}

pub(crate) use {scope_doc, sem_doc};
