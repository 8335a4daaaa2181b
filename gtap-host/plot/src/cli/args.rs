//! Hand-rolled argument parsing: `--name value`, `--name=value`, switches and positionals.

use super::CliError;
use std::collections::VecDeque;

/// One command-line item.
#[derive(Debug, PartialEq, Eq)]
pub enum Arg {
    /// `--name` or `-o` (without any `=value` part).
    Flag(String),
    /// Anything else.
    Positional(String),
}

/// The remaining arguments.
pub struct Args {
    items: VecDeque<String>,
    /// The `value` of a `--name=value` just returned by [`Args::next`], not yet taken.
    inline: Option<(String, String)>,
}

impl Args {
    pub fn new(items: impl IntoIterator<Item = String>) -> Args {
        Args {
            items: items.into_iter().collect(),
            inline: None,
        }
    }

    /// The next item. A `--name=value` gives `Flag("--name")`; take its value with
    /// [`Args::value`] or get an error from the next call.
    pub fn next(&mut self) -> Result<Option<Arg>, CliError> {
        if let Some((flag, _)) = self.inline.take() {
            return Err(CliError::Usage(format!("{flag} takes no value")));
        }
        let Some(item) = self.items.pop_front() else {
            return Ok(None);
        };
        if item.starts_with('-') && item.len() > 1 && item.parse::<f64>().is_err() {
            if let Some((flag, value)) = item.split_once('=') {
                self.inline = Some((flag.to_string(), value.to_string()));
                return Ok(Some(Arg::Flag(flag.to_string())));
            }
            return Ok(Some(Arg::Flag(item)));
        }
        Ok(Some(Arg::Positional(item)))
    }

    /// The value of `flag`, just returned by [`Args::next`].
    pub fn value(&mut self, flag: &str) -> Result<String, CliError> {
        if let Some((_, value)) = self.inline.take() {
            return Ok(value);
        }
        self.items
            .pop_front()
            .ok_or_else(|| CliError::Usage(format!("{flag} needs a value")))
    }

    /// Takes the next item if it is a plain `col=value` (for `--filter a=b c=d`).
    pub fn more_filters(&mut self) -> Option<String> {
        let next = self.items.front()?;
        if !next.starts_with('-') && next.contains('=') {
            return self.items.pop_front();
        }
        None
    }
}

/// Parses `900x600`.
pub fn size(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::Usage(format!(
            "bad --size `{text}`: expected WIDTHxHEIGHT, e.g. 900x600"
        ))
    };
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(16..=16384).contains(&w) || !(16..=16384).contains(&h) {
        return Err(CliError::Usage(format!(
            "--size {text}: each side must be 16..=16384 pixels"
        )));
    }
    Ok((w, h))
}

/// Parses `col=value`.
pub fn filter(text: &str) -> Result<(String, String), CliError> {
    match text.split_once('=') {
        Some((col, value)) if !col.is_empty() => Ok((col.to_string(), value.to_string())),
        _ => Err(CliError::Usage(format!(
            "bad --filter `{text}`: expected COLUMN=VALUE"
        ))),
    }
}

/// Parses a number for `flag`.
pub fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, CliError> {
    text.parse()
        .map_err(|_| CliError::Usage(format!("{flag}: `{text}` is not a valid number")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Args {
        Args::new(s.split_whitespace().map(String::from))
    }

    #[test]
    fn flags_values_and_positionals() {
        let mut a = args("data.csv --x=n --y ms -o out.png -3");
        assert_eq!(a.next().unwrap(), Some(Arg::Positional("data.csv".into())));
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("--x".into())));
        assert_eq!(a.value("--x").unwrap(), "n");
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("--y".into())));
        assert_eq!(a.value("--y").unwrap(), "ms");
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("-o".into())));
        assert_eq!(a.value("-o").unwrap(), "out.png");
        assert_eq!(a.next().unwrap(), Some(Arg::Positional("-3".into())));
        assert_eq!(a.next().unwrap(), None);
    }

    #[test]
    fn switch_with_a_value_and_missing_value_are_errors() {
        let mut a = args("--log-x=yes");
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("--log-x".into())));
        assert!(
            a.next()
                .unwrap_err()
                .to_string()
                .contains("--log-x takes no value")
        );
        let mut a = args("--x");
        a.next().unwrap();
        assert!(
            a.value("--x")
                .unwrap_err()
                .to_string()
                .contains("--x needs a value")
        );
    }

    #[test]
    fn filters_and_sizes() {
        let mut a = args("a=1 b=2 --y c=3");
        assert_eq!(a.more_filters().as_deref(), Some("a=1"));
        assert_eq!(a.more_filters().as_deref(), Some("b=2"));
        assert_eq!(a.more_filters(), None);
        assert_eq!(
            filter("backend=gpu").unwrap(),
            ("backend".into(), "gpu".into())
        );
        assert_eq!(filter("n=").unwrap(), ("n".into(), "".into()));
        assert!(filter("=x").is_err() && filter("x").is_err());
        assert_eq!(size("900x600").unwrap(), (900, 600));
        assert!(size("900").is_err() && size("0x10").is_err() && size("axb").is_err());
    }
}
