//! UTS's tree shapes: how many children a node has, from its random number and its height.
//!
//! Two of UTS's tree types (its `-t`), with its parameter letters:
//!
//! - **Binomial** (`-t 0`): the root has `floor(b)` children (`-b`); every other node has `m`
//!   children (`-m`) with probability `q` (`-q`), none otherwise. With `q * m` just under one
//!   the tree is a few long thin chains with bursts of width: the hard case for a work
//!   stealer, and the reason for the benchmark (T3, T3L).
//! - **Geometric** (`-t 1`): a node at height `h` has `floor(ln(1 - u) / ln(1 - p))` children,
//!   `u` its random number over `2^31` and `p = 1 / (1 + b_h)`: geometrically distributed
//!   with mean `b_h`. The shape (`-a`) gives `b_h` from the root's `b` (`-b`) and the depth
//!   `d` (`-d`): linear decrease `b (1 - h / d)`, exponential decrease `b h^(-ln b / ln d)`,
//!   cyclic `b^sin(2 pi h / d)` (none below `5 d`), or fixed `b` above `d` and none at `d`
//!   (T1, T1L).
//!
//! As UTS, a node has at most 100 children, except a binomial root. The floating-point
//! functions are `libm`'s, on the host and on the GPU alike, so both count the same tree;
//! binomial trees need none: `u < q` is decided on the integer `rand < ceil(q 2^31)`, which is
//! the same comparison (`rand / 2^31` is exact).

use super::rng::State;

/// UTS's cap on a node's children (`MAXNUMCHILDREN`), which a binomial root is exempt from.
pub const MAX_CHILDREN: u32 = 100;

/// How a geometric tree's expected branching factor changes with height (UTS's `-a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Shape {
    /// `-a 0`: `b (1 - h / d)`.
    Linear = 0,
    /// `-a 1`: `b h^(-ln b / ln d)`.
    ExpDec = 1,
    /// `-a 2`: `b^sin(2 pi h / d)`, none below height `5 d`.
    Cyclic = 2,
    /// `-a 3`: `b` above height `d`, none at `d`.
    Fixed = 3,
}

/// A UTS tree: its type and parameters, and its root's seed.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Tree {
    /// The root's seed (`-r`).
    pub seed: u32,
    /// The tree type and its parameters.
    pub kind: Kind,
}

/// A tree type with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, u32)]
pub enum Kind {
    /// `-t 0`.
    Binomial {
        /// The root's children, `floor(b)`.
        root_children: u32,
        /// Another node has children when its random number is below this: `ceil(q 2^31)`.
        threshold: u32,
        /// Children of a node that has any (`-m`), at most [`MAX_CHILDREN`].
        m: u32,
    },
    /// `-t 1`.
    Geometric {
        /// The shape function (`-a`).
        shape: Shape,
        /// The depth parameter (`-d`).
        depth: u32,
        /// The root's expected branching factor (`-b`).
        b: f64,
    },
}

impl Tree {
    /// A binomial tree (`-t 0 -b b -q q -m m -r seed`).
    pub fn binomial(b: f64, q: f64, m: u32, seed: u32) -> Tree {
        let scaled = core::f64::math::ceil(q * 2_147_483_648.0);
        Tree {
            seed,
            kind: Kind::Binomial {
                // `as` saturates: negative or NaN to 0, and `q >= 1` to every number.
                root_children: core::f64::math::floor(b) as u32,
                threshold: scaled.clamp(0.0, 2_147_483_648.0) as u32,
                m: m.min(MAX_CHILDREN),
            },
        }
    }

    /// A geometric tree (`-t 1 -a shape -d depth -b b -r seed`).
    pub fn geometric(shape: Shape, depth: u32, b: f64, seed: u32) -> Tree {
        Tree {
            seed,
            kind: Kind::Geometric { shape, depth, b },
        }
    }

    /// The tree of a UTS command line, e.g. `-t 1 -a 3 -d 10 -b 4 -r 19`: flags `-t` (0
    /// binomial, 1 geometric), `-b`, `-r`, `-q`, `-m`, `-a`, `-d`, each followed by its value;
    /// a flag not given takes UTS's default (`-t 1 -b 4 -r 0 -q 0.234375 -m 4 -a 0 -d 6`).
    pub fn from_uts_args(args: &str) -> Result<Tree, ArgError> {
        let (mut t, mut b, mut seed, mut q, mut m, mut a, mut d) = (1, 4.0, 0, 0.234375, 4, 0, 6);
        let mut words = args.split_whitespace();
        while let Some(flag) = words.next() {
            let value = words.next().ok_or(ArgError::MissingValue)?;
            let int = || value.parse::<u32>().map_err(|_| ArgError::BadValue);
            match flag {
                "-t" => t = int()?,
                "-b" => b = value.parse::<f64>().map_err(|_| ArgError::BadValue)?,
                "-r" => seed = int()?,
                "-q" => q = value.parse::<f64>().map_err(|_| ArgError::BadValue)?,
                "-m" => m = int()?,
                "-a" => a = int()?,
                "-d" => d = int()?,
                _ => return Err(ArgError::UnknownFlag),
            }
        }
        let shape = match a {
            0 => Shape::Linear,
            1 => Shape::ExpDec,
            2 => Shape::Cyclic,
            3 => Shape::Fixed,
            _ => return Err(ArgError::BadValue),
        };
        match t {
            0 => Ok(Tree::binomial(b, q, m, seed)),
            1 => Ok(Tree::geometric(shape, d, b, seed)),
            _ => Err(ArgError::UnsupportedType),
        }
    }

    /// The largest height a node of this tree can have whatever its random numbers, if there
    /// is one: a fixed or linear tree's `d` (its nodes at `d` have no children), a cyclic
    /// tree's `5 d + 1`; none for binomial and exponential-decrease trees (T3L reaches 17,844).
    pub fn max_height(&self) -> Option<u32> {
        match self.kind {
            Kind::Binomial { .. } => None,
            Kind::Geometric { shape, depth, .. } => match shape {
                Shape::Fixed | Shape::Linear => Some(depth),
                Shape::Cyclic => Some(depth.saturating_mul(5).saturating_add(1)),
                Shape::ExpDec => None,
            },
        }
    }

    /// How many children the node of state `state` at height `height` has (UTS's
    /// `uts_numChildren`).
    #[inline]
    pub fn children(&self, state: &State, height: u32) -> u32 {
        match self.kind {
            Kind::Binomial {
                root_children,
                threshold,
                m,
            } => {
                if height == 0 {
                    root_children
                } else if state.rand() < threshold {
                    m
                } else {
                    0
                }
            }
            Kind::Geometric { shape, depth, b } => {
                let b_h = expected_children(shape, depth, b, height);
                geometric_children(b_h, state.rand()).min(MAX_CHILDREN)
            }
        }
    }
}

/// Why [`Tree::from_uts_args`] refused a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// A flag other than `-t -b -r -q -m -a -d`.
    UnknownFlag,
    /// A flag without a value after it.
    MissingValue,
    /// A value that is not a number of the flag's kind, or a shape other than 0 to 3.
    BadValue,
    /// A tree type other than binomial (0) and geometric (1): UTS's hybrid and balanced trees
    /// are not implemented.
    UnsupportedType,
}

impl core::fmt::Display for ArgError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ArgError::UnknownFlag => "unknown flag (UTS flags: -t -b -r -q -m -a -d)",
            ArgError::MissingValue => "a flag without a value",
            ArgError::BadValue => "a value that is not a number of the flag's kind (-a: 0 to 3)",
            ArgError::UnsupportedType => "only tree types 0 (binomial) and 1 (geometric)",
        })
    }
}

/// A geometric tree's expected branching factor at `height` (UTS's shape functions; the root
/// always has `b`).
#[inline]
fn expected_children(shape: Shape, depth: u32, b: f64, height: u32) -> f64 {
    if height == 0 {
        return b;
    }
    let (h, d) = (f64::from(height), f64::from(depth));
    match shape {
        Shape::Linear => b * (1.0 - h / d),
        Shape::ExpDec => b * libm::pow(h, -libm::log(b) / libm::log(d)),
        Shape::Cyclic if height > 5 * depth => 0.0,
        Shape::Cyclic => libm::pow(b, libm::sin(2.0 * core::f64::consts::PI * h / d)),
        Shape::Fixed if height < depth => b,
        Shape::Fixed => 0.0,
    }
}

/// `floor(ln(1 - u) / ln(1 - p))` children, `u = rand / 2^31`, `p = 1 / (1 + b_h)`: the
/// inverse of the geometric distribution's CDF with mean `b_h`. A negative or undefined count
/// (`b_h <= 0`, where UTS's C cast gives a negative or zero count) is no children.
#[inline]
fn geometric_children(b_h: f64, rand: u32) -> u32 {
    if b_h <= 0.0 || b_h.is_nan() {
        // Also what the formula gives for `b_h = 0`: `ln(1 - u) / -inf` is `-0.0` or `0.0`.
        return 0;
    }
    let p = 1.0 / (1.0 + b_h);
    let u = f64::from(rand) / 2_147_483_648.0;
    let n = core::f64::math::floor(libm::log(1.0 - u) / libm::log(1.0 - p));
    // `as` saturates: a count past `u32::MAX` is capped by the caller anyway.
    n as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_threshold_decides_as_the_probability_does() {
        // `rand / 2^31 < q` and `rand < threshold` agree, around the threshold too.
        for q in [0.0, 0.124875, 0.200014, 0.234375, 0.5, 1.0] {
            let t = Tree::binomial(2000.0, q, 8, 1);
            let Kind::Binomial { threshold, .. } = t.kind else {
                unreachable!()
            };
            for r in [0u32, 1, threshold.saturating_sub(1), threshold, 0x7FFF_FFFF] {
                let r = r.min(0x7FFF_FFFF);
                assert_eq!(
                    r < threshold,
                    f64::from(r) / 2_147_483_648.0 < q,
                    "q {q}, r {r}"
                );
            }
        }
    }

    #[test]
    fn geometric_counts_follow_the_inverse_cdf() {
        // u = 0: no children; b_h = 0 (a fixed tree's last level): none.
        assert_eq!(geometric_children(4.0, 0), 0);
        assert_eq!(geometric_children(0.0, 0x7FFF_FFFF), 0);
        assert_eq!(geometric_children(-1.5, 0x4000_0000), 0);
        // u = 1/2 with b_h = 4: ln(1/2) / ln(4/5) = 3.106.. -> 3.
        assert_eq!(geometric_children(4.0, 0x4000_0000), 3);
        // The largest u: ln(2^-31) / ln(4/5) = 96.2.. -> 96, under the cap.
        assert_eq!(geometric_children(4.0, 0x7FFF_FFFF), 96);
    }

    #[test]
    fn height_bounds_hold_where_the_shapes_end() {
        let geo = |shape| Tree::geometric(shape, 10, 4.0, 1);
        let top = State::root(1);
        // At the bound a node has no children, whatever its random number.
        for (shape, bound) in [(Shape::Fixed, 10), (Shape::Linear, 10), (Shape::Cyclic, 51)] {
            assert_eq!(geo(shape).max_height(), Some(bound));
            assert_eq!(geo(shape).children(&top, bound), 0, "{shape:?}");
        }
        assert_eq!(geo(Shape::ExpDec).max_height(), None);
        assert_eq!(Tree::binomial(2000.0, 0.2, 5, 7).max_height(), None);
    }

    #[test]
    fn shapes_give_uts_branching_factors() {
        let e = |shape, h| expected_children(shape, 10, 4.0, h);
        assert_eq!(e(Shape::Fixed, 0), 4.0);
        assert_eq!(e(Shape::Fixed, 9), 4.0);
        assert_eq!(e(Shape::Fixed, 10), 0.0);
        assert_eq!(e(Shape::Linear, 5), 2.0);
        assert_eq!(e(Shape::Cyclic, 51), 0.0);
        assert!((e(Shape::Cyclic, 5) - 1.0).abs() < 1e-9, "sin(pi) = 0");
        assert!(
            (e(Shape::ExpDec, 10) - 1.0).abs() < 1e-9,
            "b d^(-ln b / ln d) = 1"
        );
    }
}
