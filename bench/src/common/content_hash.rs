//! An input recorded by its content: the 64-bit FNV-1a hash (Fowler, Noll and Vo, through the
//! `fnv` crate), stable across builds and machines (std's hasher is not).

use std::hash::Hasher;

pub use fnv::FnvHasher as ContentHash;

/// The hash so far, 16 hex digits.
#[must_use]
pub fn hex(hash: &ContentHash) -> String {
    format!("{:016x}", hash.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three of the test vectors published with FNV-1a (64 bits): "", "a" and "foobar".
    #[test]
    fn the_hash_is_fnv_1a_of_64_bits() {
        let of = |bytes: &[u8]| {
            let mut hash = ContentHash::default();
            hash.write(bytes);
            hex(&hash)
        };
        assert_eq!(of(b""), "cbf29ce484222325");
        assert_eq!(of(b"a"), "af63dc4c8601ec8c");
        assert_eq!(of(b"foobar"), "85944171f73967e8");
    }
}
