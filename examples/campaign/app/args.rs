//! A small `--name value` argument parser: every option is declared, an
//! unknown or repeated one is an error, flags take no value.

use std::collections::HashMap;
use std::str::FromStr;

use super::AppError;

/// The options a command accepts: `(name, takes a value)`.
pub type Spec = &'static [(&'static str, bool)];

/// Parsed options.
#[derive(Debug, Default)]
pub struct Args {
    values: HashMap<&'static str, String>,
    flags: Vec<&'static str>,
}

impl Args {
    /// Parses `argv` against `spec`: `--name value`, `--name=value`, `--flag`.
    ///
    /// # Errors
    /// An unknown, repeated or valueless option, or a stray argument.
    pub fn parse(argv: &[String], spec: Spec) -> Result<Self, AppError> {
        let mut out = Self::default();
        let mut i = 0;
        while i < argv.len() {
            let arg = &argv[i];
            let Some(body) = arg.strip_prefix("--") else {
                return Err(AppError::msg(format!("unexpected argument {arg:?}")));
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (body, None),
            };
            let Some(&(key, takes_value)) = spec.iter().find(|(n, _)| *n == name) else {
                return Err(AppError::msg(format!("unknown option --{name}")));
            };
            if out.values.contains_key(key) || out.flags.contains(&key) {
                return Err(AppError::msg(format!("option --{key} given twice")));
            }
            if takes_value {
                let value = match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        argv.get(i)
                            .cloned()
                            .ok_or_else(|| AppError::msg(format!("option --{key} needs a value")))?
                    }
                };
                out.values.insert(key, value);
            } else {
                if inline.is_some() {
                    return Err(AppError::msg(format!("option --{key} takes no value")));
                }
                out.flags.push(key);
            }
            i += 1;
        }
        Ok(out)
    }

    /// The value of an option.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value of a required option.
    ///
    /// # Errors
    /// When it is missing.
    pub fn required(&self, name: &str) -> Result<&str, AppError> {
        self.get(name)
            .ok_or_else(|| AppError::msg(format!("option --{name} is required")))
    }

    /// A parsed value, if given.
    ///
    /// # Errors
    /// When it does not parse.
    pub fn parsed<T: FromStr>(&self, name: &str, what: &str) -> Result<Option<T>, AppError> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| AppError::msg(format!("--{name} {v:?}: expected {what}")))
            })
            .transpose()
    }

    /// `true` when a flag is given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }
}
