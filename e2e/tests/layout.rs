//! The shape of the code, checked on every run (ARCHITECTURE.md): no two
//! modules of a crate import each other (directly or round a longer circle),
//! the foundation crates know nothing above them, and no source or test
//! file grows past 800 lines — except any listed as still to be split, a
//! list that can only shrink.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Most lines a source file may have (generated code and tests aside).
const MAX_LINES: usize = 800;

/// Files over [`MAX_LINES`] that are still to be split; each must still be
/// over, so a split one leaves the list.
const STILL_TO_SPLIT: &[&str] = &[];

/// What a foundation crate must not reach, directly or through the
/// workspace crates it depends on: the step decides and holds no I/O (no
/// store, no model client, no async runtime), the skill and the NLU know no
/// store, and storage knows no engine.
const FORBIDDEN: &[(&str, &[&str])] = &[
    ("shared/runtime", &["adas-llm", "adas-state", "adas-jobs"]),
    ("shared/jobs", &["adas-llm", "adas-engine"]),
    (
        "shared/step",
        &[
            "adas-state",
            "adas-proto",
            "adas-jobs",
            "adas-policy",
            "adas-llm",
            "adas-engine",
            "tokio",
            "redis",
        ],
    ),
    (
        "shared/nlu",
        &["adas-state", "adas-jobs", "adas-llm", "tokio", "redis"],
    ),
    (
        "shared/skill",
        &["adas-state", "adas-jobs", "tokio", "redis"],
    ),
    ("shared/prompt", &["adas-llm", "tokio", "reqwest"]),
    ("shared/dia", &["adas-skill", "adas-state", "adas-proto"]),
    ("shared/llm", &["adas-state", "adas-proto", "adas-skill"]),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Every crate's `src/` directory, by crate directory (`shared/jobs`).
fn crates() -> Vec<PathBuf> {
    let root = root();
    let mut crates = Vec::new();
    for group in ["shared", "services", "cli"] {
        for entry in std::fs::read_dir(root.join(group)).expect("a crate group") {
            let dir = entry.expect("an entry").path();
            if dir.join("src").is_dir() {
                crates.push(dir);
            }
        }
    }
    crates.push(root.join("e2e"));
    crates.sort();
    crates
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source dir") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// A file's module path in its crate: `src/a/b.rs` and `src/a/b/mod.rs` are
/// `a::b`; the crate's root is empty.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .strip_prefix(src)
        .expect("inside src")
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The module paths a file refers to through `crate::…` and `super::…`.
fn references(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        for (anchor, start) in [("crate::", 0usize), ("super::", 1)] {
            let mut rest = line;
            while let Some(at) = rest.find(anchor) {
                let before = rest[..at].chars().last();
                rest = &rest[at + anchor.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let path: Vec<String> = rest
                    .split("::")
                    .map(|part| {
                        part.chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect::<String>()
                    })
                    .take_while(|part| !part.is_empty())
                    .collect();
                let mut base: Vec<String> = if start == 0 {
                    Vec::new()
                } else {
                    // `super` of `a::b` (`a/b.rs` or `a/b/mod.rs`) is `a`.
                    let mut base = module.to_vec();
                    base.pop();
                    base
                };
                base.extend(path);
                found.push(base);
            }
        }
    }
    found
}

#[test]
fn no_module_of_a_crate_imports_one_that_imports_it_back() {
    let mut circles = Vec::new();
    for dir in crates() {
        let src = dir.join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let modules: BTreeMap<Vec<String>, PathBuf> = files
            .iter()
            .filter(|file| !file.components().any(|part| part.as_os_str() == "bin"))
            .map(|file| (module_of(&src, file), file.clone()))
            .collect();
        // Edges between modules that are not ancestors of each other: a
        // module owning its children (and they using it) is no circle.
        let mut edges: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
        for (module, file) in &modules {
            let text = std::fs::read_to_string(file).expect("a source file");
            let text = text.split("#[cfg(test)]").next().unwrap_or_default();
            for reference in references(text, module) {
                let target = (0..=reference.len())
                    .rev()
                    .map(|len| reference[..len].to_vec())
                    .find_map(|prefix| modules.get_key_value(&prefix).map(|(key, _)| key));
                let Some(target) = target else { continue };
                let related = target.starts_with(module) || module.starts_with(target);
                if !related {
                    edges.entry(module).or_default().insert(target);
                }
            }
        }
        // A circle: a module reachable from one it reaches.
        for &start in edges.keys() {
            let mut stack: Vec<&Vec<String>> = edges[start].iter().copied().collect();
            let mut seen = BTreeSet::new();
            while let Some(next) = stack.pop() {
                if next == start {
                    circles.push(format!("{}: {}", relative(&dir), start.join("::")));
                    break;
                }
                if seen.insert(next) {
                    stack.extend(edges.get(next).into_iter().flatten().copied());
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules in an import circle: {circles:#?}"
    );
}

/// Every workspace crate's name, directory and the names its
/// `[dependencies]` list (dev-dependencies aside: tests may use anything).
fn manifests() -> BTreeMap<String, (String, Vec<String>)> {
    let root = root();
    let mut manifests = BTreeMap::new();
    for dir in crates() {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("a crate manifest");
        let name = manifest
            .lines()
            .find_map(|line| line.strip_prefix("name = "))
            .expect("a package name")
            .trim_matches('"')
            .to_owned();
        let mut dependencies = Vec::new();
        let mut in_dependencies = false;
        for line in manifest.lines().map(str::trim) {
            if line.starts_with('[') {
                in_dependencies = line == "[dependencies]";
            } else if in_dependencies
                && let Some(dependency) = line.split(['.', ' ', '=']).next()
                && !dependency.is_empty()
                && !dependency.starts_with('#')
            {
                dependencies.push(dependency.to_owned());
            }
        }
        let dir = dir
            .strip_prefix(&root)
            .unwrap_or(&dir)
            .to_string_lossy()
            .into_owned();
        manifests.insert(name, (dir, dependencies));
    }
    manifests
}

#[test]
fn foundation_crates_know_nothing_above_them() {
    let manifests = manifests();
    let by_dir: BTreeMap<&str, &str> = manifests
        .iter()
        .map(|(name, (dir, _))| (dir.as_str(), name.as_str()))
        .collect();
    let mut problems = Vec::new();
    for (dir, forbidden) in FORBIDDEN {
        let start = by_dir.get(dir).expect("a listed crate");
        // Every crate reached, with the path that reaches it.
        let mut reached = BTreeMap::from([((*start).to_owned(), (*start).to_owned())]);
        let mut queue = vec![(*start).to_owned()];
        while let Some(name) = queue.pop() {
            let path = reached[&name].clone();
            let Some((_, dependencies)) = manifests.get(&name) else {
                continue;
            };
            for dependency in dependencies {
                if forbidden.contains(&dependency.as_str()) {
                    problems.push(format!("{dir} reaches {dependency}: {path} → {dependency}"));
                }
                if manifests.contains_key(dependency) && !reached.contains_key(dependency) {
                    reached.insert(dependency.clone(), format!("{path} → {dependency}"));
                    queue.push(dependency.clone());
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn no_source_file_grows_past_800_lines() {
    let mut over = BTreeSet::new();
    for dir in crates() {
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        if dir.join("tests").is_dir() {
            sources(&dir.join("tests"), &mut files);
        }
        for file in files {
            let lines = std::fs::read_to_string(&file)
                .expect("a source file")
                .lines()
                .count();
            if lines > MAX_LINES {
                over.insert(relative(&file));
            }
        }
    }
    let listed: BTreeSet<String> = STILL_TO_SPLIT
        .iter()
        .map(|file| (*file).to_owned())
        .collect();
    let new: Vec<&String> = over.difference(&listed).collect();
    let split: Vec<&String> = listed.difference(&over).collect();
    assert!(new.is_empty(), "files past {MAX_LINES} lines: {new:?}");
    assert!(
        split.is_empty(),
        "split below {MAX_LINES} lines: take them off STILL_TO_SPLIT: {split:?}"
    );
}

/// Product functions still past clippy's `too_many_lines` cap (120 lines,
/// `clippy.toml`), each named where it stands with
/// `#[expect(clippy::too_many_lines, reason = …)]`. The number can only fall:
/// a split function leaves it, and a new long one is a clippy error.
const LONG_FUNCTIONS: usize = 1;

#[test]
fn long_functions_are_named_and_only_fewer() {
    let mut named = Vec::new();
    for dir in crates() {
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (number, line) in text.lines().enumerate() {
                // `#[expect(clippy::too_many_lines, …)]`, however formatted
                // (the product's sources allow it nowhere else).
                if line.contains("clippy::too_many_lines") {
                    named.push(format!("{}:{}", relative(&file), number + 1));
                }
            }
        }
    }
    assert!(
        named.len() <= LONG_FUNCTIONS,
        "a new function past 120 lines: split it ({named:#?})"
    );
    assert!(
        named.len() == LONG_FUNCTIONS,
        "{} long functions left: lower LONG_FUNCTIONS to it",
        named.len()
    );
}

/// Whether `line` builds a `tonic::Status` of its own.
fn builds_a_status(line: &str) -> bool {
    const BUILDERS: &[&str] = &[
        "status_with_details(",
        "Status::new(",
        "Status::with_error_details(",
        "Status::invalid_argument(",
        "Status::not_found(",
        "Status::failed_precondition(",
        "Status::permission_denied(",
        "Status::unauthenticated(",
        "Status::aborted(",
        "Status::already_exists(",
        "Status::resource_exhausted(",
        "Status::unavailable(",
        "Status::internal(",
    ];
    let code = line.split("//").next().unwrap_or_default();
    BUILDERS.iter().any(|builder| code.contains(builder))
}

/// A service's errors reach the wire one way: its one error type, mapped to
/// `tonic::Status` once (`impl From<…Error> for Status`, with the shared
/// mappings of `adas_wire` for skills and jobs); a handler returns that
/// error, never a status it built on the spot.
#[test]
fn each_service_builds_statuses_only_in_its_error_mapping() {
    let mut stray = Vec::new();
    for dir in crates()
        .into_iter()
        .filter(|dir| relative(dir).starts_with("services/"))
    {
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            // The lines of the mapping: from `impl From<…> for Status {` to
            // the `}` that closes it at the start of a line.
            let mut in_mapping = false;
            for (number, line) in text.lines().enumerate() {
                if line.starts_with("impl From<") && line.ends_with("> for Status {") {
                    in_mapping = true;
                } else if in_mapping && line == "}" {
                    in_mapping = false;
                } else if !in_mapping && builds_a_status(line) {
                    stray.push(format!("{}:{}", relative(&file), number + 1));
                }
            }
        }
    }
    assert!(
        stray.is_empty(),
        "statuses built outside the service's error mapping (add a variant to its error type): {stray:#?}"
    );
}
