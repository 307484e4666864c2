//! `cutlab variants`: the preset parts a variant name joins with `+`.

use cutlab_search::config::{PRESET_ALIASES, preset_parts};

/// Prints every preset part with what it switches on, and the default variant.
pub fn run() -> Result<(), String> {
    let width = preset_parts().map(|p| p.name.len()).max().unwrap_or(0);
    for part in preset_parts() {
        println!("{:<width$}  {}", part.name, (part.describe)());
    }
    println!("\nearlier names, still accepted:");
    for (alias, name) in PRESET_ALIASES {
        println!("{alias:<width$}  {name}");
    }
    println!("\ndefault: {}", cutlab_search::DEFAULT_VARIANT);
    Ok(())
}
