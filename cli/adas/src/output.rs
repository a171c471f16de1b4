//! `-o text|table|json|yaml` (every command): messages printed in the proto3
//! JSON mapping (the form every generated SDK reads), through prost-reflect and
//! the contract's own descriptor set, so the CLI never hand-writes a field
//! name; YAML is the same value; tables align columns for people. Colour
//! only when the stream is a terminal (and `NO_COLOR` is unset), and a
//! spinner on stderr while a call that may take a while runs.
//!
//! Output goes through [`out`], which ends the process quietly when stdout is
//! closed (`adas job list | head`): a CLI's reader going away is not an error.

use std::io::{IsTerminal, Write};

use clap::ValueEnum;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};
use serde_json::Value;

/// How a command prints its result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Lines for people (tab-separated in lists, for `cut` and `awk`).
    #[default]
    Text,
    /// Aligned columns with a header row (one row per field for a single item).
    Table,
    /// The proto3 JSON mapping, pretty-printed.
    Json,
    /// The same value as YAML.
    Yaml,
}

impl Format {
    /// Whether the result is printed as data (JSON or YAML).
    pub fn is_data(self) -> bool {
        matches!(self, Self::Json | Self::Yaml)
    }
}

/// Whether `stream` gets colour: a terminal, `NO_COLOR` unset, not a dumb terminal.
fn colour_on(stream: &impl std::io::IsTerminal) -> bool {
    stream.is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
        && std::env::var("TERM").map_or(true, |term| term != "dumb")
}

/// Colour for stdout, decided once.
pub fn colour() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| colour_on(&std::io::stdout()))
}

/// `text` in the colour a status word deserves, when stdout takes colour.
pub fn status_colour(text: &str) -> String {
    let code = match text.to_ascii_lowercase().as_str() {
        "completed" | "success" | "available" => "32",
        "paused"
        | "queued"
        | "running"
        | "user_action_required"
        | "approval_required"
        | "needs approval"
        | "not accepted" => "33",
        "failed"
        | "cancelled"
        | "unavailable"
        | "policy_denied"
        | "tool_failed"
        | "internal_error"
        | "never allowed"
        | "undeclared"
        | "not served"
        | "held: needs an approver" => "31",
        _ => return text.to_owned(),
    };
    paint(text, code)
}

fn paint(text: &str, code: &str) -> String {
    if colour() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

/// Prints aligned columns under a header (widths by characters, colour
/// codes not counted).
pub fn print_table(headers: &[&str], rows: &[Vec<String>]) {
    let visible = |cell: &str| strip_colour(cell).chars().count();
    let mut widths: Vec<usize> = headers.iter().map(|header| header.len()).collect();
    for row in rows {
        for (index, cell) in row.iter().enumerate() {
            if let Some(width) = widths.get_mut(index) {
                *width = (*width).max(visible(cell));
            }
        }
    }
    let line = |cells: Vec<String>| {
        let last = cells.len().saturating_sub(1);
        let mut text = String::new();
        for (index, cell) in cells.into_iter().enumerate() {
            text.push_str(&cell);
            if index < last {
                let pad = widths[index].saturating_sub(visible(&cell)) + 2;
                text.push_str(&" ".repeat(pad));
            }
        }
        text
    };
    out(&line(
        headers
            .iter()
            .map(|header| paint(&header.to_ascii_uppercase(), "1"))
            .collect(),
    ));
    for row in rows {
        out(&line(row.clone()));
    }
}

/// One item as a two-column table: FIELD, VALUE.
pub fn print_fields(fields: &[(&str, String)]) {
    let rows: Vec<Vec<String>> = fields
        .iter()
        .map(|(name, value)| vec![(*name).to_owned(), value.clone()])
        .collect();
    print_table(&["field", "value"], &rows);
}

fn strip_colour(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Skip to the end of the CSI sequence (a letter).
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs `call` with a spinner and `what` on stderr while it takes longer than
/// a moment, when stderr is a terminal; the line is cleared after.
pub async fn progress<T>(what: &str, call: impl Future<Output = T>) -> T {
    if !std::io::stderr().is_terminal() {
        return call.await;
    }
    let what = what.to_owned();
    let spinner = tokio::spawn(async move {
        const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        // Quick calls show nothing.
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        for frame in FRAMES.iter().cycle() {
            eprint!("\r{frame} {what}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    });
    let result = call.await;
    spinner.abort();
    let _ = spinner.await;
    eprint!("\r\x1b[2K");
    result
}

fn pool() -> Result<DescriptorPool, String> {
    let mut pool = DescriptorPool::global();
    pool.decode_file_descriptor_set(adas_proto::FILE_DESCRIPTOR_SET)
        .map_err(|error| format!("the contract's descriptors do not load: {error}"))?;
    Ok(pool)
}

/// `message` (of proto type `full_name`, e.g. `adas.v1.Job`) as its proto3 JSON value.
pub fn to_json(message: &impl Message, full_name: &str) -> Result<Value, String> {
    let descriptor = pool()?
        .get_message_by_name(full_name)
        .ok_or_else(|| format!("no message {full_name} in the contract"))?;
    let dynamic = DynamicMessage::decode(descriptor, message.encode_to_vec().as_slice())
        .map_err(|error| format!("{full_name}: {error}"))?;
    let options = SerializeOptions::new();
    dynamic
        .serialize_with_options(serde_json::value::Serializer, &options)
        .map_err(|error| format!("{full_name}: {error}"))
}

/// Prints `value` as JSON or YAML.
pub fn print_value(value: &Value, format: Format) {
    match format {
        Format::Json | Format::Text | Format::Table => {
            out(&serde_json::to_string_pretty(value).unwrap_or_default())
        }
        Format::Yaml => {
            let mut text = String::new();
            let mut emitter = yaml_rust2::YamlEmitter::new(&mut text);
            // Emitting into a String cannot fail but for a value YAML can't hold.
            let _ = emitter.dump(&to_yaml(value));
            out(text.strip_prefix("---\n").unwrap_or(&text));
        }
    }
}

fn to_yaml(value: &Value) -> yaml_rust2::Yaml {
    use yaml_rust2::Yaml;
    match value {
        Value::Null => Yaml::Null,
        Value::Bool(flag) => Yaml::Boolean(*flag),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => Yaml::Integer(integer),
            None => Yaml::Real(number.to_string()),
        },
        Value::String(text) => Yaml::String(text.clone()),
        Value::Array(items) => Yaml::Array(items.iter().map(to_yaml).collect()),
        Value::Object(fields) => Yaml::Hash(
            fields
                .iter()
                .map(|(key, value)| (Yaml::String(key.clone()), to_yaml(value)))
                .collect(),
        ),
    }
}

/// Prints a line on stdout; exits 0 quietly when the reader has gone (EPIPE).
pub fn out(line: &str) {
    write_out(&format!("{line}\n"));
}

/// Writes `text` to stdout as is (a prompt), flushed; EPIPE as in [`out`].
pub fn write_out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to stdout: {error}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use adas_proto::pb;

    #[test]
    fn colour_codes_do_not_count_as_width() {
        assert_eq!(strip_colour("\x1b[32mcompleted\x1b[0m"), "completed");
        assert_eq!(strip_colour("plain"), "plain");
    }

    #[test]
    fn jobs_print_in_the_proto3_json_mapping() {
        let job = pb::Job {
            name: "skills/cs-tier-1/jobs/j1".into(),
            status: pb::JobStatus::Paused as i32,
            version: 3,
            ..Default::default()
        };
        let value = to_json(&job, "adas.v1.Job").unwrap();
        assert_eq!(value["name"], "skills/cs-tier-1/jobs/j1");
        assert_eq!(value["status"], "JOB_STATUS_PAUSED");
        // int64 is a string in the proto3 JSON mapping (as `buf curl` prints it).
        assert_eq!(value["version"], "3");
    }
}
