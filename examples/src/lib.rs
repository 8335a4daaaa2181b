//! gtap's example programs (being filled in).
#![no_std]
