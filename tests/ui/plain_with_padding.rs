// #[derive(gtap::Plain)] refuses a struct with padding bytes, which are not values (and
// one without #[repr(C)], whose layout the host and the GPU may not share).
#[derive(Clone, Copy, gtap::Plain)]
#[repr(C)]
pub struct Padded {
    pub flag: u8,
    pub value: u32,
}

#[derive(Clone, Copy, gtap::Plain)]
pub struct NoRepr {
    pub value: u32,
}

fn main() {}
