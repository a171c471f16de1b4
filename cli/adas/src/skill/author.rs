//! Authoring aids that need no server: `adas skill init` writes a commented
//! starter skill (tools with mocks, scenarios) that validates and passes its
//! own tests; `adas skill schema` prints the JSON Schema of the format for
//! editors.

use super::*;

/// The starter skill, `{NAME}` standing for the slag.
const STARTER: &str = include_str!("starter.yaml");

/// `adas skill init NAME`: writes `DIR/NAME.yaml`; never over a file.
pub(super) fn init(name: &str, dir: &Path) -> ExitCode {
    if !adas_skill::slag::is_valid_slag(name) {
        eprintln!("`{name}` is no skill name: {}", adas_skill::slag::SLAG_RULE);
        return ExitCode::from(EXIT_USAGE);
    }
    let file = dir.join(format!("{name}.yaml"));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)
        .and_then(|mut out| {
            std::io::Write::write_all(&mut out, STARTER.replace("{NAME}", name).as_bytes())
        });
    match written {
        Ok(()) => {
            out(&file.display().to_string());
            eprintln!(
                "next: adas skill validate {0} && adas skill test {0}",
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!("{} exists: not overwritten", file.display());
            ExitCode::from(crate::fail::Exit::Conflict as u8)
        }
        Err(error) => {
            eprintln!("{}: cannot write: {error}", file.display());
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// `adas skill schema`: the JSON Schema of a skill document.
pub(super) fn schema() -> ExitCode {
    out(&serde_json::to_string_pretty(&adas_skill::json_schema()).expect("a schema is JSON"));
    ExitCode::SUCCESS
}
