#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// What a child borrows stays borrowed until the taskwait that joins it: the parent cannot
// write it meanwhile.
#[gtap::program]
mod p {
    #[gtap::task]
    fn fill(xs: &mut [u32], v: u32) {
        xs.fill(v);
    }

    #[gtap::task]
    fn parent(mut data: gtap::ViewMut<'_, u32>) -> u32 {
        let (lo, hi) = data.split_at_mut(2);
        let a = spawn!(fill(lo.into_mut_slice(), 1));
        let b = spawn!(fill(hi.into_mut_slice(), 2));
        data.as_mut_slice()[0] = 7;
        taskwait!();
        data.as_slice()[0]
    }
}

fn main() {}
