//! `cutlab variants`: the preset parts a variant name joins with `+`.

use cutlab_search::config::{PRESET_ALIASES, PRESET_PARTS};

/// Prints every preset part with what it switches on, and the default variant.
pub fn run() -> Result<(), String> {
    let width = PRESET_PARTS
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    for (name, what) in PRESET_PARTS {
        println!("{name:<width$}  {what}");
    }
    println!("\nearlier names, still accepted:");
    for (alias, name) in PRESET_ALIASES {
        println!("{alias:<width$}  {name}");
    }
    println!("\ndefault: {}", cutlab_search::DEFAULT_VARIANT);
    Ok(())
}
