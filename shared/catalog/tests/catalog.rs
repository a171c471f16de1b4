//! Operational skills on disk: bootstrap from templates (and from nothing else
//! but for the default slag), edits picked up, broken edits never replacing the
//! last good version, atomic validated writes with variables expanded, deletes.

use std::path::{Path, PathBuf};

use adas_catalog::{Catalog, MINIMAL_SKILL, SKILL_FILE};
use adas_skill::SkillError;
use adas_skill::diagnostics::codes;
use adas_skill::etag_of;
use adas_skill::slag::DEFAULT_SLAG;

fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adas-catalog-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn templates() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skill-templates")
}

const DEMO_URL: &str = "http://127.0.0.1:1/mcp";

/// A catalog as a service opens it: templates get `${ADAS_DEMO_MCP_URL}`.
fn catalog(root: &Path) -> Catalog {
    Catalog::new(root, templates()).with_var("ADAS_DEMO_MCP_URL", DEMO_URL)
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn first_use_bootstraps_from_the_template_with_its_directories() {
    let root = scratch("bootstrap");
    let catalog = catalog(&root);
    let skill = catalog.get("cs-tier-1").unwrap();
    for entry in [SKILL_FILE, "jobs", "logs"] {
        assert!(root.join("cs-tier-1").join(entry).exists(), "{entry}");
    }
    assert_eq!(skill.template.as_deref(), Some("cs-tier-1"));
    assert_eq!(
        std::fs::read_to_string(root.join("cs-tier-1").join(SKILL_FILE)).unwrap(),
        std::fs::read_to_string(templates().join("cs-tier-1.yaml"))
            .unwrap()
            .replace("${ADAS_DEMO_MCP_URL}", DEMO_URL),
        "stored with its variables expanded"
    );
    assert_eq!(skill.compiled.approvals[0].approver, "supervisor");
    assert_eq!(catalog.list().unwrap(), vec!["cs-tier-1".to_owned()]);
}

#[test]
fn only_the_default_slag_bootstraps_without_a_template() {
    let root = scratch("minimal");
    // A templates dir without the default slag's template.
    let only_cs = scratch("minimal-templates");
    std::fs::copy(
        templates().join("cs-tier-1.yaml"),
        only_cs.join("cs-tier-1.yaml"),
    )
    .unwrap();
    let catalog = Catalog::new(&root, &only_cs).with_var("ADAS_DEMO_MCP_URL", DEMO_URL);
    let skill = catalog.get(DEFAULT_SLAG).unwrap();
    assert_eq!(skill.source, MINIMAL_SKILL);
    assert_eq!(skill.template, None);
    catalog.get("cs-tier-1").unwrap();

    // A typo is not a new skill: NOT FOUND, naming what exists, nothing stored.
    match catalog.get("cs-teir-1") {
        Err(SkillError::UnknownSkill {
            slag,
            known,
            templates,
        }) => {
            assert_eq!(slag, "cs-teir-1");
            assert_eq!(known, vec!["cs-tier-1", DEFAULT_SLAG]);
            assert_eq!(templates, vec!["cs-tier-1"]);
        }
        other => panic!("an unknown slag is refused, got {other:?}"),
    }
    let error = catalog.get("cs-teir-1").unwrap_err().to_string();
    assert!(error.contains("cs-tier-1"), "{error}");
    assert!(!root.join("cs-teir-1").exists(), "nothing is persisted");
    assert_eq!(catalog.list().unwrap(), vec!["cs-tier-1", DEFAULT_SLAG]);
}

#[test]
fn explicit_templates_bootstrap_other_slags() {
    let root = scratch("explicit");
    let catalog = catalog(&root);
    assert!(matches!(
        catalog.bootstrap("other", Some("no-such-template")),
        Err(SkillError::UnknownTemplate(_))
    ));
    // An explicit template under another slag.
    let ops = catalog.bootstrap("ops-eu", Some("devops-tier-1")).unwrap();
    assert_eq!(ops.template.as_deref(), Some("devops-tier-1"));
}

#[test]
fn unsafe_slags_touch_nothing() {
    let root = scratch("unsafe");
    let catalog = Catalog::new(root.join("memory"), templates());
    for slag in ["../etc", "..", "a/b", "", ".x", "CS-Tier-1"] {
        assert!(
            matches!(catalog.get(slag), Err(SkillError::UnsafeSlag(_))),
            "{slag:?}"
        );
    }
    assert!(!root.join("etc").exists() && !root.join("memory").exists());
}

#[test]
fn edits_on_disk_are_picked_up_and_broken_edits_keep_the_last_good_version() {
    let root = scratch("edits");
    let catalog = catalog(&root);
    let first = catalog.get("cs-tier-1").unwrap();
    let file = root.join("cs-tier-1").join(SKILL_FILE);

    let edited = first.source.replace(
        "Friendly and empathetic customer support specialist",
        "Terse support bot",
    );
    write(&file, &edited);
    let second = catalog.get("cs-tier-1").unwrap();
    assert_eq!(
        second.skill.role.as_ref().unwrap().persona.as_deref(),
        Some("Terse support bot")
    );

    write(&file, "name: [unclosed\n");
    let served = catalog.get("cs-tier-1").unwrap();
    assert_eq!(
        served.source, edited,
        "the broken edit never replaces the good version"
    );
    let stale = served
        .warnings
        .iter()
        .find(|w| w.code == codes::STALE_EDIT)
        .expect("the refusal is reported");
    assert!(
        stale.message.contains("skill.yaml:2:1: error: yaml syntax"),
        "{}",
        stale.message
    );

    write(&file, &first.source);
    let fixed = catalog.get("cs-tier-1").unwrap();
    assert!(fixed.warnings.iter().all(|w| w.code != codes::STALE_EDIT));
    assert_eq!(fixed.etag, first.etag);
}

#[test]
fn put_validates_writes_atomically_and_checks_the_etag() {
    let root = scratch("put");
    let catalog = catalog(&root);
    let original = catalog.get("cs-tier-1").unwrap();
    let file = root.join("cs-tier-1").join(SKILL_FILE);

    let broken = original.source.replace(
        "allowed: always\n      requires_approval",
        "allowed: sometimes\n      requires_approval",
    );
    match catalog.put("cs-tier-1", &broken, None) {
        Err(SkillError::Invalid { diagnostics, .. }) => {
            assert_eq!(diagnostics[0].path, "tools[1].policy.allowed");
        }
        other => panic!("a skill with errors is refused, got {other:?}"),
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original.source,
        "the old file is untouched"
    );

    let updated = original.source.replace("CS: Tier 1", "CS: Tier 1 (EU)");
    let stored = catalog
        .put("cs-tier-1", &updated, Some(&original.etag))
        .unwrap();
    assert_eq!(stored.skill.name.as_deref(), Some("CS: Tier 1 (EU)"));
    assert_eq!(stored.etag, etag_of(&updated));
    assert!(matches!(
        catalog.put("cs-tier-1", &original.source, Some(&original.etag)),
        Err(SkillError::EtagMismatch { .. })
    ));
    // A retried put whose first attempt already wrote the document succeeds.
    let retried = catalog
        .put("cs-tier-1", &updated, Some(&original.etag))
        .unwrap();
    assert_eq!(retried.etag, stored.etag);
    // No temp files left behind.
    let leftovers: Vec<_> = std::fs::read_dir(root.join("cs-tier-1"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn templates_are_listed() {
    let catalog = Catalog::new(scratch("templates"), templates());
    let listed: Vec<String> = catalog
        .templates()
        .unwrap()
        .into_iter()
        .map(|t| t.slag)
        .collect();
    assert_eq!(
        listed,
        vec![
            "cs-tier-1",
            "devops-tier-1",
            "identity-verification",
            "sw-dev-agent"
        ]
    );
}

#[tokio::test]
async fn async_reads_serve_the_cached_skill_and_see_edits() {
    let root = scratch("async");
    let catalog = std::sync::Arc::new(catalog(&root));
    // First use bootstraps (on the blocking pool).
    let first = catalog.get_async("cs-tier-1").await.unwrap();
    assert!(root.join("cs-tier-1").join(SKILL_FILE).exists());
    // Unchanged on disk: the very same loaded skill, no reload.
    let again = catalog.get_async("cs-tier-1").await.unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    // An edit is seen by the next read, as with the blocking `get`.
    let edited = first.source.replace(
        "Friendly and empathetic customer support specialist",
        "Terse support bot",
    );
    write(&root.join("cs-tier-1").join(SKILL_FILE), &edited);
    let reloaded = catalog.get_async("cs-tier-1").await.unwrap();
    assert_eq!(
        reloaded.skill.role.as_ref().unwrap().persona.as_deref(),
        Some("Terse support bot")
    );
    assert!(matches!(
        catalog.get_async("../etc").await,
        Err(SkillError::UnsafeSlag(_))
    ));
}

/// Polls `future` once. A read this process can answer from what it holds is
/// done at once; one that needs the blocking pool (a thread wake-up there and
/// back, which costs more than the lookup) is still pending.
fn done_at_first_poll<F: std::future::Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut context) {
        std::task::Poll::Ready(output) => Some(output),
        std::task::Poll::Pending => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_skill_this_process_holds_is_served_without_the_blocking_pool() {
    use std::sync::Arc;
    let store = Arc::new(adas_state::MemoryStore::new());
    let replica = |label: &str| {
        Arc::new(
            catalog(&scratch(label)).with_store(store.clone(), tokio::runtime::Handle::current()),
        )
    };
    let (held, other) = (replica("held-a"), replica("held-b"));
    // First use bootstraps into the shared store, on the blocking pool.
    let first = held.get_async("cs-tier-1").await.unwrap();
    // Held: the store's etag is read on the calling task (the memory store
    // answers at once) and the held skill returned, no build, no thread hop.
    let again = done_at_first_poll(held.get_async("cs-tier-1"))
        .expect("a held skill is served on the calling task")
        .unwrap();
    assert!(Arc::ptr_eq(&first, &again));
    let pinned = done_at_first_poll(held.get_version_async("cs-tier-1", &first.etag))
        .expect("a held version is served on the calling task")
        .unwrap();
    assert!(Arc::ptr_eq(&first, &pinned));
    // Another replica's edit is seen by the next read, built on the pool.
    let edited = first.source.replace("CS: Tier 1", "CS: Tier 1 (EU)");
    let (writer, source, etag) = (other.clone(), edited.clone(), first.etag.clone());
    tokio::task::spawn_blocking(move || writer.put("cs-tier-1", &source, Some(&etag)))
        .await
        .unwrap()
        .unwrap();
    let seen = held.get_async("cs-tier-1").await.unwrap();
    assert_eq!(seen.etag, etag_of(&edited));
    assert_eq!(seen.skill.name.as_deref(), Some("CS: Tier 1 (EU)"));
    // The job started on the first version still gets it, and a name that is
    // not a version means the current skill.
    let old = held
        .get_version_async("cs-tier-1", &first.etag)
        .await
        .unwrap();
    assert_eq!(old.etag, first.etag);
    let current = held.get_version_async("cs-tier-1", "").await.unwrap();
    assert_eq!(current.etag, seen.etag);
    // On disk (no store) a held version is served at once too.
    let local = Arc::new(catalog(&scratch("held-disk")));
    let loaded = local.get_async("cs-tier-1").await.unwrap();
    let pinned = done_at_first_poll(local.get_version_async("cs-tier-1", &loaded.etag))
        .expect("a held version is served on the calling task")
        .unwrap();
    assert!(Arc::ptr_eq(&loaded, &pinned));
}

#[test]
fn put_expands_variables_like_bootstrap_and_refuses_unknown_ones() {
    let root = scratch("vars");
    let catalog = catalog(&root);
    // A template copy put as a new skill: the same expansion as at bootstrap.
    let template = std::fs::read_to_string(templates().join("cs-tier-1.yaml")).unwrap();
    let stored = catalog.put("refunds-eu", &template, None).unwrap();
    assert_eq!(stored.skill.mcp_server.as_deref(), Some(DEMO_URL));
    assert!(!stored.source.contains("${"));

    let typo = template.replace("${ADAS_DEMO_MCP_URL}", "${ADAS_DEMO_MCP_ULR}");
    match catalog.put("refunds-us", &typo, None) {
        Err(SkillError::Invalid { diagnostics, .. }) => {
            assert_eq!(diagnostics.len(), 1);
            assert_eq!(
                (
                    diagnostics[0].line,
                    diagnostics[0].column,
                    diagnostics[0].code
                ),
                (8, 14, codes::UNKNOWN_VARIABLE)
            );
            assert!(diagnostics[0].message.contains("ADAS_DEMO_MCP_ULR"));
        }
        other => panic!("an unknown variable is an error, got {other:?}"),
    }
    assert!(!root.join("refunds-us").exists());
    // Validation through the catalog reports it the same way.
    let loaded = catalog.load(&typo, adas_skill::Format::Yaml);
    assert_eq!(loaded.diagnostics[0].code, codes::UNKNOWN_VARIABLE);
}

#[test]
fn fragments_are_not_skills() {
    let root = scratch("fragments");
    let catalog = catalog(&root);
    let preset = "name: presets\npolicy:\n  guardrails:\n    never: [Never share secrets]\n";
    match catalog.put("presets", preset, None) {
        Err(SkillError::Invalid { diagnostics, .. }) => {
            let missing: Vec<(&str, u32)> = diagnostics
                .iter()
                .filter(|d| d.code == codes::MISSING_FIELD)
                .map(|d| (d.path.as_str(), d.line))
                .collect();
            assert_eq!(
                missing,
                vec![
                    ("problem.statement", 1),
                    ("intents.supported", 1),
                    ("tools", 1)
                ]
            );
        }
        other => panic!("a fragment is refused, got {other:?}"),
    }
    assert!(!root.join("presets").exists());
}

#[test]
fn delete_removes_the_skill_and_checks_the_etag() {
    let root = scratch("delete");
    let catalog = catalog(&root);
    let skill = catalog.get("devops-tier-1").unwrap();
    assert!(matches!(
        catalog.delete("devops-tier-1", Some("0000000000000000")),
        Err(SkillError::EtagMismatch { .. })
    ));
    catalog.delete("devops-tier-1", Some(&skill.etag)).unwrap();
    assert!(!root.join("devops-tier-1").join(SKILL_FILE).exists());
    assert!(catalog.list().unwrap().is_empty());
    assert!(matches!(
        catalog.delete("devops-tier-1", None),
        Err(SkillError::UnknownSkill { .. })
    ));
}

#[test]
fn a_service_refuses_a_missing_or_empty_templates_dir() {
    let root = scratch("open");
    let missing = root.join("nope");
    let error = Catalog::open(&root, Some(&missing))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("nope") && error.contains("cannot be read"),
        "{error}"
    );
    let empty = scratch("open-empty");
    write(&empty.join("README.md"), "not a template");
    let error = Catalog::open(&root, Some(&empty)).unwrap_err().to_string();
    assert!(error.contains("holds no template"), "{error}");
    assert!(Catalog::open(&root, Some(&templates())).is_ok());
}

#[test]
fn the_binary_carries_the_shipped_templates() {
    // Every `skill-templates/<slag>.yaml`, byte for byte: a template added
    // to the directory and not to the binary fails here.
    let mut shipped: Vec<(String, String)> = std::fs::read_dir(templates())
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            let slag = path
                .file_name()?
                .to_str()?
                .strip_suffix(".yaml")?
                .to_owned();
            Some((slag, std::fs::read_to_string(&path).unwrap()))
        })
        .collect();
    shipped.sort();
    let embedded: Vec<(String, String)> = adas_catalog::EMBEDDED
        .iter()
        .map(|(slag, source)| ((*slag).to_owned(), (*source).to_owned()))
        .collect();
    assert_eq!(embedded, shipped);
    // With no templates dir, a service bootstraps from them, whatever the
    // directory it runs in.
    let catalog = Catalog::open(scratch("embedded"), None)
        .unwrap()
        .with_var("ADAS_DEMO_MCP_URL", DEMO_URL);
    assert_eq!(catalog.get("cs-tier-1").unwrap().slag, "cs-tier-1");
    let listed: Vec<String> = catalog
        .templates()
        .unwrap()
        .into_iter()
        .map(|template| template.slag)
        .collect();
    assert_eq!(listed.len(), shipped.len());
}
