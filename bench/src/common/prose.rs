//! The English of the reports' generated sentences.

/// `items` as an English list, "a", "a and b", "a, b and c" (no comma before the last, as the
/// reports write); empty for none.
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [only] => only.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::list;

    #[test]
    fn lists_read_as_english() {
        assert_eq!(list::<&str>(&[]), "");
        assert_eq!(list(&["5000"]), "5000");
        assert_eq!(list(&["5000", "20000"]), "5000 and 20000");
        assert_eq!(list(&["5000", "20000", "80000"]), "5000, 20000 and 80000");
    }
}
