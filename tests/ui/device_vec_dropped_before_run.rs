#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A task call borrows the DeviceVec whose view it holds, until the run that consumes it.
use gtap::DeviceVec;
use gtap::host::cpu::{CpuConfig, CpuRuntime};

#[gtap::program]
mod p {
    use gtap::ViewMut;

    #[gtap::task]
    pub fn zero(mut v: ViewMut<'_, u32>) {
        v.as_mut_slice().fill(0);
    }
}

fn main() {
    let mut rt = CpuRuntime::new(CpuConfig::new()).unwrap();
    let mut data = DeviceVec::from_slice(&rt, &[1u32, 2, 3]).unwrap();
    let call = p::zero(data.view_mut());
    drop(data);
    rt.run(call).unwrap();
}
