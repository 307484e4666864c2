//! The numbers a study's prose quotes, against those its data states. A study whose manifest
//! says `numbers = "checked"` may quote in its passages (`text`, `after`, `detail`) only
//! numbers that the rest of its report (the tables and sentences written from its data, its
//! header) states, to the digits the prose writes: `report --check` fails naming any other.
//! Code between backticks, link targets and an issue's number are not prose (commands,
//! files, references). A figure from outside the data is cited ([`super::cited`]).

/// Takes the passages out of a manifest: every `text`, `after` and `detail` string, at any
/// depth, returned in order and left empty, so that what remains is what the report states
/// without its prose.
pub fn take_passages(manifest: &mut toml::Value) -> Vec<String> {
    let mut found = Vec::new();
    take(manifest, &mut found);
    found
}

fn take(value: &mut toml::Value, found: &mut Vec<String>) {
    match value {
        toml::Value::Table(table) => {
            for (key, v) in table.iter_mut() {
                match v {
                    toml::Value::String(s)
                        if ["text", "after", "detail"].contains(&key.as_str()) =>
                    {
                        found.push(std::mem::take(s));
                    }
                    _ => take(v, found),
                }
            }
        }
        toml::Value::Array(items) => items.iter_mut().for_each(|v| take(v, found)),
        _ => {}
    }
}

/// The numbers of `text` outside code and link targets: each as written and as its value
/// with the decimals written (signs dropped: "costs 18" quotes a row of -18).
fn numbers(text: &str) -> Vec<(String, f64, i32)> {
    every_number(&without_code(text))
}

/// The numbers of `text`, code and all.
fn every_number(text: &str) -> Vec<(String, f64, i32)> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() || !starts_a_number(&chars, i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (matches!(chars[i], ',' | '.')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            i += 1;
        }
        let next = chars.get(i).copied();
        let time_control = next == Some('+') && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        // A ratio, `2.14x`, is a number; `x86` and `3rd` are words.
        let ratio = next == Some('x')
            && !chars
                .get(i + 1)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_');
        if next.is_some_and(|c| c.is_alphanumeric() || c == '_') && !ratio || time_control {
            continue;
        }
        let token: String = chars[start..i].iter().collect();
        let plain = token.replace(',', "");
        let decimals = plain.split_once('.').map_or(0, |(_, d)| d.len());
        if let Ok(value) = plain.parse::<f64>() {
            found.push((token, value, i32::try_from(decimals).unwrap_or(i32::MAX)));
        }
    }
    found
}

/// Whether a digit at `i` starts a number: not inside a word, a version, a path or a time
/// control (`10+0.1`), nor an issue's number (a reference, as a link is).
fn starts_a_number(chars: &[char], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).map(|j| chars[j]);
    let reference: String = chars[i.saturating_sub(6)..i]
        .iter()
        .map(|&c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    if reference.eq_ignore_ascii_case("issue ") {
        return false;
    }
    match before(1) {
        None => true,
        Some(c) if c.is_alphanumeric() || matches!(c, '.' | '_' | '/' | ',') => false,
        Some('+' | '-') => !before(2).is_some_and(char::is_alphanumeric),
        Some(_) => true,
    }
}

/// `text` without its code spans and link targets.
fn without_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut code = false;
    let mut link = false;
    let mut last = ' ';
    for c in text.chars() {
        match c {
            '`' => code = !code,
            '(' if last == ']' && !code => link = true,
            ')' if link => link = false,
            _ if !code && !link => out.push(c),
            _ => {}
        }
        last = c;
    }
    out
}

/// The numbers that `passages` quote and `stated` (the report without them) does not state;
/// 0, the reference an interval is read against ("excludes 0"), is stated by every report.
#[must_use]
pub fn unstated(passages: &[String], stated: &str) -> Vec<String> {
    let mut known: Vec<f64> = numbers(stated).into_iter().map(|(_, v, _)| v).collect();
    known.push(0.0);
    let mut missing = Vec::new();
    for passage in passages {
        for (token, value, decimals) in numbers(passage) {
            let stated = known.iter().any(|&k| rounds_to(k, value, decimals));
            if !stated && !missing.contains(&token) {
                missing.push(token);
            }
        }
    }
    missing
}

/// Whether `known`, rounded to `decimals`, is `value`.
fn rounds_to(known: f64, value: f64, decimals: i32) -> bool {
    let scale = 10_f64.powi(decimals);
    ((known * scale).round() / scale - value).abs() < 1e-9
}

/// Whether the file text `text` states the one number `figure` writes, to the figure's
/// digits, in its code too, its commas read as thousands or, as a CSV's, as separators
/// (`None`: `figure` is not one number).
#[must_use]
pub fn states(text: &str, figure: &str) -> Option<bool> {
    let [(_, value, decimals)] = numbers(figure)[..] else {
        return None;
    };
    let found = |t: &str| {
        every_number(t)
            .iter()
            .any(|&(_, k, _)| rounds_to(k, value, decimals))
    };
    Some(found(text) || found(&text.replace(',', " ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A number the tables state, rounded to the prose's digits and without its sign, passes;
    /// one worked out by hand, a second decimal the table does not give, does not; code and
    /// time controls are not numbers of the prose.
    #[test]
    fn prose_may_quote_only_what_the_data_states() {
        let stated = "| `a` vs `b` | -66.8 ± 42.3 | 3200 | 99.99% |";
        let prose = [
            "Leaving it out costs 67 Elo (-66.8 at 3,200 games), LOS 99.99%; at `--nodes 5000` \
             and 10+0.1 (issue\n55) it is 2.4 standard errors away, +66.81 by hand."
                .to_string(),
        ];
        assert_eq!(unstated(&prose, stated), ["2.4", "66.81"]);
        // A ratio is a number on either side; a word that starts with digits is none.
        let ratios = ["2.14 times the tree, 2.15x on x86 at 3rd".to_string()];
        assert_eq!(unstated(&ratios, "| 2.14x [2.02, 2.27] |"), ["2.15"]);
    }

    /// The reports that `text` links below `folder` (`](results/NAME/report.md)` for
    /// `results/`; `](NAME/report.md)` for the empty folder, from inside `results/`).
    fn linked_reports(text: &str, folder: &str) -> Vec<String> {
        text.split("](")
            .skip(1)
            .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
            .filter(|t| t.starts_with(folder) && t.ends_with("/report.md"))
            .map(str::to_string)
            .collect()
    }

    /// README's findings quote only numbers that the reports they link state, their commands
    /// included (a paragraph linking none: those the section links); its table of worths is
    /// not prose (`readme_table` holds it to the reports).
    #[test]
    fn the_readme_findings_quote_only_what_the_reports_state() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        let readme = read("README.md");
        let start = readme.find("## Findings").unwrap();
        let section = &readme[start..];
        let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
        let every = linked_reports(section, "results/");
        let mut paragraphs: Vec<String> = Vec::new();
        for line in section.lines().skip(1) {
            if line.starts_with('|') {
                continue;
            }
            match paragraphs.last_mut() {
                Some(p) if !line.is_empty() && !line.starts_with("- ") && !p.is_empty() => {
                    p.push('\n');
                    p.push_str(line);
                }
                _ => paragraphs.push(line.to_string()),
            }
        }
        for paragraph in paragraphs.iter().filter(|p| !p.is_empty()) {
            let links = linked_reports(paragraph, "results/");
            let reports = if links.is_empty() { &every } else { &links };
            // A report's commands state its time limits and sizes too.
            let stated: String = reports.iter().map(|r| read(r).replace('`', "")).collect();
            let missing = unstated(std::slice::from_ref(paragraph), &stated);
            assert!(
                missing.is_empty(),
                "README's findings quote {missing:?}, which {reports:?} do not state:\n{paragraph}"
            );
        }
    }

    /// results/README's table of studies quotes in each row only numbers that the row's
    /// study states in its report, its commands included.
    #[test]
    fn the_table_of_studies_quotes_only_what_their_reports_state() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        let table = read("README.md");
        let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| [")).collect();
        assert!(rows.len() > 10, "{}", rows.len());
        let mut unsupported = Vec::new();
        for row in rows {
            let reports = linked_reports(row, "");
            let stated: String = reports.iter().map(|r| read(r).replace('`', "")).collect();
            let missing = unstated(&[row.to_string()], &stated);
            if !missing.is_empty() {
                unsupported.push(format!("{reports:?}: {missing:?}"));
            }
        }
        assert!(
            unsupported.is_empty(),
            "results/README quotes numbers its studies' reports do not state:\n{}",
            unsupported.join("\n")
        );
    }

    /// Every published study with prose has its numbers checked (`report --check`, run on
    /// every study by CI, then holds its passages to its data).
    #[test]
    fn every_published_study_with_prose_checks_its_numbers() {
        let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
        let mut unchecked = Vec::new();
        for entry in std::fs::read_dir(&results).unwrap() {
            let manifest = entry.unwrap().path().join("manifest.toml");
            let Ok(text) = std::fs::read_to_string(&manifest) else {
                continue;
            };
            let mut value: toml::Value = toml::from_str(&text).unwrap();
            let checked = value.get("numbers").and_then(toml::Value::as_str) == Some("checked");
            if !take_passages(&mut value).is_empty() && !checked {
                unchecked.push(manifest.display().to_string());
            }
        }
        assert!(unchecked.is_empty(), "prose not checked: {unchecked:?}");
    }

    /// Every passage of a manifest is taken, at any depth, and nothing else: the passages are
    /// left empty, the rest as it was.
    #[test]
    fn the_passages_are_text_after_and_detail() {
        let mut manifest: toml::Value = toml::from_str(
            "title = \"1\"\ntext = \"2\"\n[[sections]]\nafter = \"3\"\n\
             [[sections.matches]]\ndetail = \"4\"\ngames = \"5\"\n",
        )
        .unwrap();
        let mut found = take_passages(&mut manifest);
        found.sort();
        assert_eq!(found, ["2", "3", "4"]);
        assert_eq!(manifest["text"].as_str(), Some(""));
        assert_eq!(manifest["title"].as_str(), Some("1"));
    }
}
