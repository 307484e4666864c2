//! `cutlab variants`: the preset parts a variant name joins with `+`.

/// Prints every preset part with what it switches on, and the default variant.
pub fn run() -> Result<(), String> {
    for (name, what) in cutlab_search::config::PRESET_PARTS {
        println!("{name:<14} {what}");
    }
    println!("\nearlier names, still accepted:");
    for (alias, name) in cutlab_search::config::PRESET_ALIASES {
        println!("{alias:<14} {name}");
    }
    println!("\ndefault: {}", cutlab_search::DEFAULT_VARIANT);
    Ok(())
}
