//! Offline checks of documents (`adas skill validate`, `adas solution
//! validate`) and how diagnostics are shown: `file:line:col: severity:
//! message`, what asks for a fix first, the Builder's own bookkeeping in one
//! line unless `--verbose`.

use super::*;

/// One diagnostic as shown, from the library's or the wire's.
pub(super) struct Shown<'a> {
    line: i64,
    column: i64,
    severity: &'a str,
    code: &'a str,
    message: &'a str,
}

impl<'a> From<&'a adas_skill::Diagnostic> for Shown<'a> {
    fn from(diagnostic: &'a adas_skill::Diagnostic) -> Self {
        Self {
            line: diagnostic.line.into(),
            column: diagnostic.column.into(),
            severity: if diagnostic.is_error() {
                "error"
            } else {
                "warning"
            },
            code: diagnostic.code,
            message: &diagnostic.message,
        }
    }
}

impl<'a> From<&'a pb::Diagnostic> for Shown<'a> {
    fn from(diagnostic: &'a pb::Diagnostic) -> Self {
        Self {
            line: diagnostic.line.into(),
            column: diagnostic.column.into(),
            severity: if diagnostic.severity == pb::Severity::Error as i32 {
                "error"
            } else {
                "warning"
            },
            code: &diagnostic.code,
            message: &diagnostic.message,
        }
    }
}

/// Prints each diagnostic at its line:col, in the order given (the reading
/// order: fixes first); the Builder's bookkeeping fields are summed up in one
/// line unless `verbose`.
pub(super) fn print_diagnostics<'a>(
    file: &str,
    diagnostics: impl IntoIterator<Item = Shown<'a>>,
    verbose: bool,
) {
    let mut bookkeeping = Vec::new();
    for shown in diagnostics {
        if !verbose && shown.code == adas_skill::diagnostics::codes::BUILDER_FIELD {
            // "`created_at` is the Builder's own bookkeeping": its field.
            bookkeeping.push(shown.message.split('`').nth(1).unwrap_or(shown.message));
            continue;
        }
        out(&format!(
            "{file}:{}:{}: {}: {}",
            shown.line, shown.column, shown.severity, shown.message
        ));
    }
    if !bookkeeping.is_empty() {
        out(&format!(
            "{file}: {} Builder bookkeeping field(s) kept, not used: {} (`adas skill validate --verbose` lists each)",
            bookkeeping.len(),
            bookkeeping.join(", ")
        ));
    }
}

/// `adas skill validate`: each file checked offline as a server would.
pub(super) fn validate(
    files: &[PathBuf],
    (quiet, verbose): (bool, bool),
    demo_mcp_url: &str,
) -> ExitCode {
    let catalog = expanding(demo_mcp_url);
    let mut any_errors = false;
    for file in files {
        let shown = file.display().to_string();
        let Some(source) = read(file) else {
            return ExitCode::from(EXIT_USAGE);
        };
        let loaded = catalog.load(&source, DocumentFormat::detect(Some(&shown), &source));
        print_diagnostics(
            &shown,
            loaded
                .diagnostics
                .iter()
                .filter(|d| !quiet || d.is_error())
                .map(Shown::from),
            verbose,
        );
        any_errors |= summary(&shown, &loaded.diagnostics);
    }
    exit(any_errors)
}

/// `adas solution validate`: the solution's structure, grants and handoffs,
/// and — for the skills whose files are given — each skill, that it is one of
/// the solution's, and the security contracts it must keep. Offline.
pub(super) fn validate_solution(
    file: &Path,
    skills: &[PathBuf],
    verbose: bool,
    demo_mcp_url: &str,
) -> ExitCode {
    let catalog = expanding(demo_mcp_url);
    let shown = file.display().to_string();
    let Some(source) = read(file) else {
        return ExitCode::from(EXIT_USAGE);
    };
    let format = DocumentFormat::detect(Some(&shown), &source);
    let mut loaded = adas_skill::solution::load(&source, format);
    let mut any_errors = false;
    let mut members = Vec::new();
    for skill_file in skills {
        let skill_shown = skill_file.display().to_string();
        let Some(skill_source) = read(skill_file) else {
            return ExitCode::from(EXIT_USAGE);
        };
        let skill = catalog.load(
            &skill_source,
            DocumentFormat::detect(Some(&skill_shown), &skill_source),
        );
        print_diagnostics(
            &skill_shown,
            skill.diagnostics.iter().map(Shown::from),
            verbose,
        );
        any_errors |= summary(&skill_shown, &skill.diagnostics);
        if let Some(skill) = skill.skill {
            let file_slag = slag_of_file(skill_file)
                .map(|slag| slag.to_ascii_lowercase())
                .unwrap_or_default();
            members.push((file_slag, skill_shown, skill));
        }
    }
    if let (Some(solution), Ok(document)) = (
        &loaded.solution,
        adas_skill::document::parse(&source, format),
    ) {
        // Each file is the solution's skill its `id`, else its file's name, names.
        let mut named = Vec::new();
        for (file_slag, skill_shown, skill) in &members {
            let id = skill.id.as_deref().unwrap_or_default();
            match solution.member(id, file_slag) {
                Some(slag) => named.push((slag.to_owned(), skill)),
                None => loaded.diagnostics.push(adas_skill::Diagnostic::error(
                    "skills",
                    document.positions.find("skills"),
                    adas_skill::diagnostics::codes::UNKNOWN_SKILL,
                    format!(
                        "{skill_shown} is none of the solution's `skills` ({}) by its id `{id}` or its file's name",
                        solution
                            .skills
                            .iter()
                            .map(|member| member.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
        let contracts = solution.contract_diagnostics(&document.positions, |slag| {
            named
                .iter()
                .find(|(member, _)| member == slag)
                .map(|(_, skill)| *skill)
        });
        loaded.diagnostics.extend(contracts);
        loaded
            .diagnostics
            .sort_by_key(adas_skill::Diagnostic::reading_order);
    }
    print_diagnostics(&shown, loaded.diagnostics.iter().map(Shown::from), verbose);
    any_errors |= summary(&shown, &loaded.diagnostics);
    exit(any_errors)
}

/// A catalog used only for its variables: the expansion a server applies.
fn expanding(demo_mcp_url: &str) -> Catalog {
    Catalog::embedded(DEFAULT_MEMORY_ROOT).with_var("ADAS_DEMO_MCP_URL", demo_mcp_url)
}

fn read(file: &Path) -> Option<String> {
    std::fs::read_to_string(file)
        .map_err(|error| eprintln!("{}: cannot read: {error}", file.display()))
        .ok()
}

/// Prints `FILE: N error(s), M warning(s)`; whether there were errors.
fn summary(shown: &str, diagnostics: &[adas_skill::Diagnostic]) -> bool {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    eprintln!("{shown}: {errors} error(s), {warnings} warning(s)");
    errors > 0
}

fn exit(any_errors: bool) -> ExitCode {
    if any_errors {
        ExitCode::from(EXIT_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}
