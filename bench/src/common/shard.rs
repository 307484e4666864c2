//! Shards: a stable partition of a run's items over several processes (`--shard K/N`).

/// `K/N` as (K, N), with 1 <= K <= N.
pub fn parse(spec: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard: expected 'K/N' with 1 <= K <= N, got '{spec}'");
    let (k, n) = spec.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.parse::<usize>().map_err(|_| bad())?,
        n.parse::<usize>().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// `--shard`'s value parser: `K/N` checked where it is parsed, kept as written.
///
/// # Errors
/// Not `K/N` with 1 <= K <= N.
pub fn spec(text: &str) -> Result<String, String> {
    parse(text)
        .map(|_| text.to_string())
        .map_err(|e| e.trim_start_matches("--shard: ").to_string())
}

/// The `K/N` slice of `items` (K from 1): every N-th item from the K-th, a stable partition.
pub fn shard<'a, T>(items: &'a [T], spec: Option<&str>) -> Result<Vec<&'a T>, String> {
    let Some(spec) = spec else {
        return Ok(items.iter().collect());
    };
    let (k, n) = parse(spec)?;
    Ok(items.iter().skip(k - 1).step_by(n).collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn shards_partition_the_suite() {
        let items: Vec<u32> = (0..10).collect();
        let mut all: Vec<u32> = (1..=3)
            .flat_map(|k| super::shard(&items, Some(&format!("{k}/3"))).unwrap())
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(all, items);
        assert!(super::shard(&items, Some("0/3")).is_err());
        assert!(super::shard(&items, Some("4/3")).is_err());
    }
}
