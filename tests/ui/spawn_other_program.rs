#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A program's tasks form one enum: a task of another program cannot be spawned.
#[gtap::program]
mod a {
    #[gtap::task]
    pub fn leaf() -> u32 {
        1
    }
}

#[gtap::program]
mod b {
    #[gtap::task]
    pub fn root() -> u32 {
        let x = spawn!(super::a::leaf());
        taskwait!();
        x.get()
    }
}

fn main() {}
