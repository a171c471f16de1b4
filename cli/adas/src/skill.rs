//! `adas skill validate|list|get`: offline, on files and the local memory root.
//! Diagnostics print as `file:line:col: severity: message`. Exit codes: 0 no
//! errors, 1 errors, 2 usage or I/O failure.

use std::path::PathBuf;
use std::process::ExitCode;

use adas_runtime::{DEFAULT_DEMO_MCP_URL, DEFAULT_MEMORY_ROOT, DEFAULT_TEMPLATES_DIR};
use adas_skill::catalog::SKILL_FILE;
use adas_skill::{Catalog, Format, SkillError};
use clap::{Args, Subcommand};

/// `adas skill` subcommands.
#[derive(Debug, Subcommand)]
pub enum SkillCommand {
    /// Validate skill files (YAML or JSON); exits 1 if any has errors.
    Validate {
        /// Skill files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print errors only.
        #[arg(long)]
        quiet: bool,
        /// Value of `${ADAS_DEMO_MCP_URL}` (the variables a server expands).
        #[arg(long, env = "ADAS_DEMO_MCP_URL", default_value = DEFAULT_DEMO_MCP_URL)]
        demo_mcp_url: String,
    },
    /// List the operational skills of the memory root.
    List {
        #[command(flatten)]
        roots: Roots,
    },
    /// Show an operational skill (bootstrapped from its template on first use).
    Get {
        /// The slag, e.g. `cs-tier-1`.
        slag: String,
        #[command(flatten)]
        roots: Roots,
    },
}

/// Where operational skills and templates live.
#[derive(Debug, Args)]
pub struct Roots {
    /// Tenant data root.
    #[arg(long, env = "ADAS_MEMORY_ROOT", default_value = DEFAULT_MEMORY_ROOT)]
    memory_root: PathBuf,
    /// Templates directory.
    #[arg(long, env = "ADAS_TEMPLATES_DIR", default_value = DEFAULT_TEMPLATES_DIR)]
    templates_dir: PathBuf,
    /// Demo MCP server URL substituted for `${ADAS_DEMO_MCP_URL}` when a template is bootstrapped.
    #[arg(long, env = "ADAS_DEMO_MCP_URL", default_value = DEFAULT_DEMO_MCP_URL)]
    demo_mcp_url: String,
}

impl Roots {
    fn catalog(&self) -> Catalog {
        Catalog::new(&self.memory_root, &self.templates_dir)
            .with_var("ADAS_DEMO_MCP_URL", &self.demo_mcp_url)
    }
}

const EXIT_ERRORS: u8 = 1;
const EXIT_USAGE: u8 = 2;

/// Runs a skill subcommand.
pub fn run(command: SkillCommand) -> ExitCode {
    match command {
        SkillCommand::Validate {
            files,
            quiet,
            demo_mcp_url,
        } => validate(&files, quiet, &demo_mcp_url),
        SkillCommand::List { roots } => list(&roots),
        SkillCommand::Get { slag, roots } => get(&slag, &roots),
    }
}

fn validate(files: &[PathBuf], quiet: bool, demo_mcp_url: &str) -> ExitCode {
    // Only the variables are used: the same expansion a server applies.
    let catalog = Catalog::new(DEFAULT_MEMORY_ROOT, "").with_var("ADAS_DEMO_MCP_URL", demo_mcp_url);
    let mut any_errors = false;
    for file in files {
        let shown = file.display().to_string();
        let source = match std::fs::read_to_string(file) {
            Ok(source) => source,
            Err(error) => {
                eprintln!("{shown}: cannot read: {error}");
                return ExitCode::from(EXIT_USAGE);
            }
        };
        let loaded = catalog.load(&source, Format::detect(Some(&shown), &source));
        for diagnostic in loaded.diagnostics.iter().filter(|d| !quiet || d.is_error()) {
            println!("{}", diagnostic.render(&shown));
        }
        let errors = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = loaded.diagnostics.len() - errors;
        eprintln!("{shown}: {errors} error(s), {warnings} warning(s)");
        any_errors |= errors > 0;
    }
    if any_errors {
        ExitCode::from(EXIT_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}

fn list(roots: &Roots) -> ExitCode {
    let catalog = roots.catalog();
    match catalog.list() {
        Ok(slags) => {
            for slag in slags {
                match catalog.get(&slag) {
                    Ok(skill) => println!("{slag}\t{}", skill.skill.name.as_deref().unwrap_or("")),
                    Err(error) => println!("{slag}\t(invalid: {error})"),
                }
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn get(slag: &str, roots: &Roots) -> ExitCode {
    let catalog = roots.catalog();
    let file = roots
        .memory_root
        .join(slag)
        .join(SKILL_FILE)
        .display()
        .to_string();
    match catalog.get(slag) {
        Ok(skill) => {
            println!("name: skills/{}", skill.slag);
            println!(
                "display_name: {}",
                skill.skill.name.as_deref().unwrap_or("")
            );
            println!(
                "template: {}",
                skill.template.as_deref().unwrap_or("(minimal default)")
            );
            println!("etag: {}", skill.etag);
            let tools: Vec<&str> = skill
                .skill
                .tools
                .iter()
                .map(|tool| tool.name.as_str())
                .collect();
            println!("tools: {}", tools.join(", "));
            println!(
                "engine: {} (max_iterations {})",
                skill.engine.preset, skill.engine.max_iterations
            );
            for guardrail in &skill.compiled.guardrails {
                println!("compiled guardrail: {}", serde_json_line(guardrail));
            }
            for rule in &skill.compiled.approvals {
                println!(
                    "approval: {} when {} by {}",
                    rule.tool, rule.when, rule.approver
                );
            }
            for warning in &skill.warnings {
                println!("{}", warning.render(&file));
            }
            ExitCode::SUCCESS
        }
        Err(SkillError::Invalid { diagnostics, .. }) => {
            for diagnostic in &diagnostics {
                println!("{}", diagnostic.render(&file));
            }
            ExitCode::from(EXIT_ERRORS)
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn serde_json_line(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
