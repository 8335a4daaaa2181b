//! Valid files damaged at random, and random bytes: whatever the input, a read gives a valid
//! graph or an error naming a line of it, and never panics or allocates beyond its limits.

use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use proptest::prelude::*;
use proptest::sample::select;

use super::generate::spec;
use super::{SMALL, check_outcome, config};
use crate::graph::mtx;

/// A position in a collection of a size known only when it is used: `size * fraction`, the
/// fraction being `self.0 / 2^64`. (proptest's `Index`, which can be built in a test.)
#[derive(Clone, Copy, Debug)]
struct Index(u64);

impl Index {
    /// The position in a collection of `size > 0` elements.
    fn index(self, size: usize) -> usize {
        ((size as u128 * self.0 as u128) >> 64) as usize
    }
}

impl Arbitrary for Index {
    type Parameters = ();
    type Strategy = proptest::strategy::Map<proptest::num::u64::Any, fn(u64) -> Index>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        any::<u64>().prop_map(Index)
    }
}

/// One way to damage a file.
#[derive(Clone, Debug)]
enum Mutation {
    /// Cut it after some byte.
    Truncate(Index),
    DeleteLine(Index),
    DuplicateLine(Index),
    SwapLines(Index, Index),
    /// Replace a word of a line (or append one to a line with fewer words).
    ReplaceWord(Index, Index, String),
    SetByte(Index, u8),
    InsertBytes(Index, Vec<u8>),
}

/// Words that break a file in interesting ways, where a word fits.
const NASTY: [&str; 34] = [
    "0",
    "-1",
    "-0",
    "1",
    "+3",
    "65536",
    "65537",
    "2147483648",
    "4294967295",
    "4294967296",
    "8589934592",
    "1000000000000",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999999999999",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e39",
    "-1e39",
    "3.4028235e38",
    "1e-45",
    "1.5",
    "0x10",
    "abc",
    "%",
    "%%MatrixMarket",
    "\u{feff}1",
    "\u{e9}",
    "\u{663}",
    "1 2",
    "\t",
    "pattern",
];

/// A replacement word: a nasty one, any integer, or a few arbitrary characters.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(NASTY.to_vec()).prop_map(String::from),
        1 => any::<i64>().prop_map(|x| x.to_string()),
        1 => any::<u64>().prop_map(|x| x.to_string()),
        1 => proptest::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => any::<Index>().prop_map(Mutation::Truncate),
        1 => any::<Index>().prop_map(Mutation::DeleteLine),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        3 => (any::<Index>(), any::<Index>(), word())
            .prop_map(|(l, w, s)| Mutation::ReplaceWord(l, w, s)),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::SetByte(i, b)),
        1 => (any::<Index>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Mutation::InsertBytes(i, b)),
    ]
}

/// `bytes` split into lines, each with its line ending.
fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// Replaces word `k` of `line` by `word` (appends it if the line has fewer words), keeping
/// the line ending; words are split at ASCII whitespace and joined by single spaces.
fn replace_word(line: &[u8], k: Index, word: &str) -> Vec<u8> {
    let end = line.len() - line.strip_suffix(b"\n").map_or(0, |_| 1);
    let mut words: Vec<&[u8]> = line[..end]
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
        .collect();
    let k = k.index(words.len() + 1);
    if k < words.len() {
        words[k] = word.as_bytes();
    } else {
        words.push(word.as_bytes());
    }
    let mut out = words.join(&b' ');
    out.extend_from_slice(&line[end..]);
    out
}

impl Mutation {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let mut ls = lines(bytes);
        match self {
            Mutation::Truncate(i) => {
                bytes.truncate(i.index(bytes.len() + 1));
                return;
            }
            Mutation::SetByte(i, b) if !bytes.is_empty() => {
                let i = i.index(bytes.len());
                bytes[i] = *b;
                return;
            }
            Mutation::InsertBytes(i, new) => {
                let i = i.index(bytes.len() + 1);
                bytes.splice(i..i, new.iter().copied());
                return;
            }
            _ if ls.is_empty() => return,
            Mutation::DeleteLine(i) => {
                ls.remove(i.index(ls.len()));
            }
            Mutation::DuplicateLine(i) => {
                let i = i.index(ls.len());
                let copy = ls[i].clone();
                ls.insert(i, copy);
            }
            Mutation::SwapLines(a, b) => {
                let (a, b) = (a.index(ls.len()), b.index(ls.len()));
                ls.swap(a, b);
            }
            Mutation::ReplaceWord(l, k, w) => {
                let l = l.index(ls.len());
                ls[l] = replace_word(&ls[l], *k, w);
            }
            Mutation::SetByte(..) => return,
        }
        *bytes = ls.concat();
    }
}

/// Lines that look like Matrix Market data: integers, mostly small, and nasty words.
fn data_lines() -> impl Strategy<Value = Vec<u8>> {
    let small = (0u32..6).prop_map(|x| x.to_string());
    let token = prop_oneof![4 => small, 1 => word()];
    let line = proptest::collection::vec(token, 0..5).prop_map(|w| w.join(" "));
    proptest::collection::vec(line, 0..12).prop_map(|l| l.join("\n").into_bytes())
}

proptest! {
    #![proptest_config(config())]

    /// Valid files, damaged a few times over.
    #[test]
    fn damaged_files_never_panic(
        spec in spec(),
        mutations in proptest::collection::vec(mutation(), 1..5),
    ) {
        let mut bytes = spec.render().bytes();
        for m in &mutations {
            m.apply(&mut bytes);
        }
        check_outcome(&bytes, SMALL, mtx::read_with(&bytes[..], SMALL));
    }

    /// Random bytes, alone or after a valid banner.
    #[test]
    fn random_bytes_never_panic(
        banner in select(vec![
            "",
            "%%MatrixMarket matrix coordinate pattern general\n",
            "%%MatrixMarket matrix coordinate real symmetric\n",
            "%%MatrixMarket matrix coordinate integer general\n3 3 2\n",
        ]),
        tail in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let bytes = [banner.as_bytes(), &tail].concat();
        check_outcome(&bytes, SMALL, mtx::read_with(&bytes[..], SMALL));
    }

    /// A valid banner over lines of small integers and nasty words: deep into the entries
    /// more often than random bytes get.
    #[test]
    fn random_data_lines_never_panic(
        field in select(vec!["pattern", "real", "integer"]),
        symmetry in select(vec!["general", "symmetric"]),
        data in data_lines(),
    ) {
        let banner = format!("%%MatrixMarket matrix coordinate {field} {symmetry}\n");
        let bytes = [banner.as_bytes(), &data].concat();
        check_outcome(&bytes, SMALL, mtx::read_with(&bytes[..], SMALL));
    }
}

#[test]
fn mutations_do_what_they_say() {
    let (first, middle, last) = (Index(0), Index(1 << 63), Index(u64::MAX));
    let mut bytes = b"a b\nc d\n".to_vec();
    Mutation::ReplaceWord(last, first, "x".into()).apply(&mut bytes);
    assert_eq!(bytes, b"a b\nx d\n");
    Mutation::ReplaceWord(first, last, "y".into()).apply(&mut bytes);
    assert_eq!(bytes, b"a b y\nx d\n");
    Mutation::DuplicateLine(first).apply(&mut bytes);
    assert_eq!(bytes, b"a b y\na b y\nx d\n");
    Mutation::SwapLines(first, last).apply(&mut bytes);
    assert_eq!(bytes, b"x d\na b y\na b y\n");
    Mutation::DeleteLine(middle).apply(&mut bytes);
    assert_eq!(bytes, b"x d\na b y\n");
    Mutation::SetByte(first, b'z').apply(&mut bytes);
    Mutation::InsertBytes(last, vec![b'!']).apply(&mut bytes);
    assert_eq!(bytes, b"z d\na b y\n!");
    Mutation::Truncate(middle).apply(&mut bytes);
    assert_eq!(bytes, b"z d\na ");
}
