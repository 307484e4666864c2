//! CSV files that name their columns even when they hold no row: a run with nothing to write
//! (an empty shard, a trace without a cut test, no sampled cut) leaves a header, which pandas
//! and polars read as an empty table, where a file of zero bytes is an error to them.

use std::io::Write;

use serde::Serialize;

/// The column names of the rows of type `T`, as `csv` writes them (taken from the fields of
/// `T::default()`).
///
/// # Errors
/// A type that `csv` cannot write as a row.
pub fn header<T: Serialize + Default>() -> csv::Result<csv::StringRecord> {
    let mut probe = csv::Writer::from_writer(Vec::new());
    probe.serialize(T::default())?;
    let bytes = probe
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(bytes.as_slice());
    Ok(reader.records().next().transpose()?.unwrap_or_default())
}

/// A CSV writer on `inner` that has written the header of `T` already, whether or not a row
/// follows.
///
/// # Errors
/// The header cannot be written.
pub fn writer<T: Serialize + Default, W: Write>(inner: W) -> csv::Result<csv::Writer<W>> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(inner);
    writer.write_record(&header::<T>()?)?;
    Ok(writer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Serialize)]
    struct Row {
        position: String,
        depth_plies: i32,
        score_cp: Option<i32>,
    }

    #[test]
    fn a_file_without_rows_names_its_columns() {
        let writer = writer::<Row, _>(Vec::new()).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        assert_eq!(text, "position,depth_plies,score_cp\n");
    }

    #[test]
    fn rows_follow_the_header_once() {
        let mut writer = writer::<Row, _>(Vec::new()).unwrap();
        let row = Row {
            position: "a".into(),
            depth_plies: 3,
            score_cp: None,
        };
        writer.serialize(&row).unwrap();
        writer.serialize(&row).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        assert_eq!(text, "position,depth_plies,score_cp\na,3,\na,3,\n");
    }
}
