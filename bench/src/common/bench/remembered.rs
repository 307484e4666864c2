//! Search signatures remembered between runs of one binary: a signature is a node count at a
//! fixed depth, so the same executable searching the same configuration (and network) counts
//! the same nodes every time. Probabilistic alpha-beta's at 0.95 takes 37 s in a debug build,
//! the bench signature each study and datagen run records 7 s, and a short `match` spends most
//! of its time on its two engines' signatures; each is searched once per binary and read back
//! after that.
//!
//! One file a signature, `$XDG_CACHE_HOME/cutlab/signatures/<key>` (else
//! `~/.cache/cutlab/…`), named by the FNV-1a hash of the executable's bytes, the signature's
//! depth and positions, the configuration and the network file's bytes. A file that is missing
//! or unreadable is searched again; one that cannot be written is not remembered.

use std::hash::Hasher;
use std::path::PathBuf;
use std::sync::OnceLock;

use cutlab_search::SearchConfig;

use crate::common::content_hash::{self, ContentHash};

/// The signature of `config` remembered by this binary, or `search`'s, remembered for next time.
///
/// # Errors
/// `search`'s error.
pub fn signature(
    config: &SearchConfig,
    depth: i32,
    every: u16,
    search: impl FnOnce() -> Result<u64, String>,
) -> Result<u64, String> {
    signature_in(directory(), config, depth, every, search)
}

/// [`signature`], remembered in `dir` (`None`: not remembered).
fn signature_in(
    dir: Option<PathBuf>,
    config: &SearchConfig,
    depth: i32,
    every: u16,
    search: impl FnOnce() -> Result<u64, String>,
) -> Result<u64, String> {
    let Some(path) = dir
        .zip(key(config, depth, every))
        .map(|(dir, key)| dir.join(key))
    else {
        return search();
    };
    if let Some(nodes) = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| text.trim().parse().ok())
    {
        return Ok(nodes);
    }
    let nodes = search()?;
    remember(&path, nodes);
    Ok(nodes)
}

/// Writes `nodes` to `path` whole or not at all (a temporary file renamed): processes that
/// search the same signature at once each write the same number.
fn remember(path: &std::path::Path, nodes: u64) {
    if std::fs::create_dir_all(path.parent().unwrap_or(path)).is_ok() {
        let _ = crate::common::results::write_whole(path, format!("{nodes}\n"));
    }
}

/// The folder of remembered signatures (`None` without a home to keep them in).
fn directory() -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(cache.join("cutlab").join("signatures"))
}

/// The name of `config`'s signature file: everything its node count depends on, hashed
/// (`None` when this executable or the network cannot be read: the search says why).
fn key(config: &SearchConfig, depth: i32, every: u16) -> Option<String> {
    let mut hash = ContentHash::default();
    hash.write(executable()?.as_bytes());
    hash.write(format!("depth={depth} every={every}\n").as_bytes());
    hash.write(toml::to_string(config).ok()?.as_bytes());
    if let Some(network) = &config.network {
        hash.write(&std::fs::read(network).ok()?);
    }
    Some(content_hash::hex(&hash))
}

/// The hash of this executable's bytes, read once a process: the running image, even when
/// its file has been rebuilt or removed meanwhile.
fn executable() -> Option<&'static str> {
    static HASH: OnceLock<Option<String>> = OnceLock::new();
    HASH.get_or_init(|| {
        let bytes = std::fs::read("/proc/self/exe")
            .or_else(|_| std::fs::read(std::env::current_exe()?))
            .ok()?;
        let mut hash = ContentHash::default();
        hash.write(&bytes);
        Some(content_hash::hex(&hash))
    })
    .as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(name: &str) -> SearchConfig {
        crate::common::options::ModelOptions::default()
            .config(name)
            .unwrap()
    }

    #[test]
    fn a_signature_is_searched_once_and_read_back() {
        let dir = std::env::temp_dir().join(format!("cutlab-remembered-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let plain = config("plain");
        let first = signature_in(Some(dir.clone()), &plain, 6, 4, || Ok(1234));
        assert_eq!(first, Ok(1234));
        let again = signature_in(Some(dir.clone()), &plain, 6, 4, || Err("searched".into()));
        assert_eq!(again, Ok(1234), "read back, not searched");
        // Another configuration, depth or set of positions is another signature.
        let other = |config: &SearchConfig, depth, every| {
            signature_in(Some(dir.clone()), config, depth, every, || Ok(99))
        };
        assert_eq!(other(&config("null-move"), 6, 4), Ok(99));
        assert_eq!(other(&plain, 5, 4), Ok(99));
        assert_eq!(other(&plain, 6, 2), Ok(99));
        // A file cut short is searched again and written whole.
        for entry in std::fs::read_dir(&dir).unwrap() {
            std::fs::write(entry.unwrap().path(), "").unwrap();
        }
        assert_eq!(other(&plain, 6, 4), Ok(99));
        let again = signature_in(Some(dir.clone()), &plain, 6, 4, || Err("searched".into()));
        assert_eq!(again, Ok(99));
        // Nowhere to remember it: searched every time.
        assert_eq!(signature_in(None, &plain, 6, 4, || Ok(7)), Ok(7));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
