//! Operational skills on disk: bootstrap from templates, edits picked up, broken
//! edits never replacing the last good version, atomic validated writes.

use std::path::{Path, PathBuf};

use adas_skill::SkillError;
use adas_skill::catalog::{Catalog, MINIMAL_SKILL, SKILL_FILE, etag_of};
use adas_skill::diagnostics::codes;

fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adas-catalog-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn templates() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skill-templates")
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn first_use_bootstraps_from_the_template_with_its_directories() {
    let root = scratch("bootstrap");
    let catalog = Catalog::new(&root, templates());
    let skill = catalog.get("cs-tier-1").unwrap();
    for entry in [SKILL_FILE, "jobs", "logs", "focus-cache"] {
        assert!(root.join("cs-tier-1").join(entry).exists(), "{entry}");
    }
    assert_eq!(skill.template.as_deref(), Some("cs-tier-1"));
    assert_eq!(
        std::fs::read_to_string(root.join("cs-tier-1").join(SKILL_FILE)).unwrap(),
        std::fs::read_to_string(templates().join("cs-tier-1.yaml")).unwrap()
    );
    assert_eq!(skill.compiled.approvals[0].approver, "supervisor");
    assert_eq!(catalog.list().unwrap(), vec!["cs-tier-1".to_owned()]);
}

#[test]
fn a_slag_without_a_template_gets_the_minimal_default() {
    let root = scratch("minimal");
    let catalog = Catalog::new(&root, templates());
    let skill = catalog.get("my-new-agent").unwrap();
    assert_eq!(skill.source, MINIMAL_SKILL);
    assert_eq!(skill.template, None);
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
    for slag in ["../etc", "..", "a/b", "", ".x"] {
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
    let catalog = Catalog::new(&root, templates());
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
    let catalog = Catalog::new(&root, templates());
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
    let catalog = std::sync::Arc::new(Catalog::new(&root, templates()));
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
