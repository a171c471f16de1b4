//! `-o json|yaml`: messages printed in the proto3 JSON mapping (the form every
//! generated SDK reads), through prost-reflect and the contract's own descriptor
//! set, so the CLI never hand-writes a field name. YAML is the same value.
//!
//! Output goes through [`out`], which ends the process quietly when stdout is
//! closed (`adas job list | head`): a CLI's reader going away is not an error.

use std::io::Write;

use clap::ValueEnum;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};
use serde_json::Value;

/// How a command prints its result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Lines for people.
    #[default]
    Text,
    /// The proto3 JSON mapping, pretty-printed.
    Json,
    /// The same value as YAML.
    Yaml,
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
    let options = SerializeOptions::new().stringify_64_bit_integers(false);
    dynamic
        .serialize_with_options(serde_json::value::Serializer, &options)
        .map_err(|error| format!("{full_name}: {error}"))
}

/// Prints `value` as JSON or YAML.
pub fn print_value(value: &Value, format: Format) {
    match format {
        Format::Json | Format::Text => {
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
        assert_eq!(value["version"], 3);
    }
}
