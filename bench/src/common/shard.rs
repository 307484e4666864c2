//! Shards: a stable partition of a run's items over several processes (`--shard K/N`).

use std::{fmt, str::FromStr};

/// The `k`-th of `n` shares of a run's items (`--shard K/N`, 1 <= K <= N), parsed once where
/// the option is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1.
    pub k: usize,
    /// How many shares.
    pub n: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(spec: &str) -> Result<Shard, String> {
        let bad = || format!("expected 'K/N' with 1 <= K <= N, got '{spec}'");
        let (k, n) = spec.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.parse::<usize>().map_err(|_| bad())?,
            n.parse::<usize>().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Recorded as written, `K/N` (a run's configuration keeps its arguments as text).
impl serde::Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Shard {
    /// Whether this shard takes the item at `index` (from 0) of a list: every N-th item from
    /// the K-th, a stable partition.
    pub fn takes(self, index: usize) -> bool {
        index % self.n == self.k - 1
    }

    /// This shard's slice of `items`, the ones it [takes](Shard::takes).
    pub fn of<T>(self, items: &[T]) -> Vec<&T> {
        let taken = items.iter().enumerate().filter(|&(i, _)| self.takes(i));
        taken.map(|(_, item)| item).collect()
    }
}

/// The items a run with `--shard` (or without it: all) takes.
pub fn shard<T>(items: &[T], shard: Option<Shard>) -> Vec<&T> {
    shard.map_or_else(|| items.iter().collect(), |s| s.of(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_suite() {
        let items: Vec<u32> = (0..10).collect();
        let mut all: Vec<u32> = (1..=3)
            .flat_map(|k| shard(&items, Some(Shard { k, n: 3 })))
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(all, items);
        assert_eq!(Shard { k: 2, n: 3 }.of(&items), [&1, &4, &7]);
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        assert_eq!(Shard { k: 2, n: 3 }.to_string(), "2/3");
        for bad in ["0/3", "4/3", "3", "a/b"] {
            assert!(bad.parse::<Shard>().unwrap_err().contains("K/N"), "{bad}");
        }
    }
}
