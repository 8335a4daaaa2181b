#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// `TeamMut` is how a block task's threads hold an exclusive view; a thread task takes the
// view itself (`ViewMut`).
#[gtap::program]
mod p {
    use gtap::TeamMut;

    #[gtap::task]
    pub fn scale(v: TeamMut<'_, f32>) {
        let _ = v;
    }
}

fn main() {}
