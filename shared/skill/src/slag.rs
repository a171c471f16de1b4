//! Slags: a skill's namespace, directory name and Redis key part.
//!
//! **The slag rule** (the one statement of it; the proto and ARCHITECTURE.md
//! point here): 1–64 characters of lowercase ASCII letters, digits, `-`, `_` and
//! `.`, starting with a letter or digit, with no `..`. Lowercase only, because
//! a slag names a directory: on a case-insensitive filesystem `CS-Tier-1` and
//! `cs-tier-1` would be one skill in two Redis namespaces.

/// Longest slag accepted.
pub const MAX_SLAG_LEN: usize = 64;

/// The slag used when a request names none; the only slag that may bootstrap
/// without a template of its own (from the built-in minimal skill).
pub const DEFAULT_SLAG: &str = "sw-dev-agent";

/// The rule, for messages.
pub const SLAG_RULE: &str =
    "1-64 lowercase letters, digits, `-`, `_`, `.`, starting with a letter or digit, no `..`";

/// Whether `slag` follows the slag rule (module doc).
pub fn is_valid_slag(slag: &str) -> bool {
    is_safe_name(slag) && !slag.bytes().any(|b| b.is_ascii_uppercase())
}

/// Names that are safe as a path segment and a key part but not slags (skill
/// ids, resource names): the slag rule without the lowercase requirement.
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_SLAG_LEN
        && !name.starts_with(['.', '-', '_'])
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Checks a slag against the rule, with the reason when it fails.
pub fn check_slag(slag: &str) -> Result<(), String> {
    if is_valid_slag(slag) {
        Ok(())
    } else if slag.is_empty() {
        Err("a slag is required".into())
    } else {
        let shown: String = slag.chars().take(80).collect();
        Err(format!("`{shown}` is not a valid slag: {SLAG_RULE}"))
    }
}

/// Accepts `skills/{slag}` or a bare slag; empty means [`DEFAULT_SLAG`].
/// Returns the slag, or why it is refused.
pub fn parse_skill_name(name: &str) -> Result<String, String> {
    let slag = name.strip_prefix("skills/").unwrap_or(name);
    let slag = if slag.is_empty() { DEFAULT_SLAG } else { slag };
    check_slag(slag).map(|()| slag.to_owned())
}

/// Like [`parse_skill_name`] for writes (PutSkill, DeleteSkill): the name is
/// REQUIRED there, so an empty one is refused instead of meaning the default.
pub fn parse_required_skill_name(name: &str) -> Result<String, String> {
    let slag = name.strip_prefix("skills/").unwrap_or(name);
    if slag.is_empty() {
        return Err("the skill name is required (`skills/{slag}`)".into());
    }
    check_slag(slag).map(|()| slag.to_owned())
}

/// Parses a job name `skills/{slag}/jobs/{job_id}` into its slag and job id.
pub fn parse_job_name(name: &str) -> Result<(String, String), String> {
    let shown: String = name.chars().take(120).collect();
    let Some(rest) = name.strip_prefix("skills/") else {
        return Err(format!(
            "`{shown}` is not a job name `skills/{{slag}}/jobs/{{job_id}}`"
        ));
    };
    let Some((slag, job_id)) = rest.split_once("/jobs/") else {
        return Err(format!(
            "`{shown}` is not a job name `skills/{{slag}}/jobs/{{job_id}}`"
        ));
    };
    if !is_valid_slag(slag) {
        return Err(format!("`{shown}`: the slag is not valid: {SLAG_RULE}"));
    }
    if job_id.len() > 128
        || !job_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        || job_id.is_empty()
    {
        return Err(format!(
            "`{shown}`: the job id must be 1-128 letters, digits, `-` or `_`"
        ));
    }
    Ok((slag.to_owned(), job_id.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_slags_are_refused() {
        for bad in [
            "../etc",
            "..",
            "a/b",
            "/abs",
            ".hidden",
            "-x",
            "a b",
            "ünï",
            &"x".repeat(65),
            "a..b",
            "CS-Tier-1",
            "_x",
        ] {
            assert!(parse_skill_name(bad).is_err(), "{bad:?} must be refused");
        }
        assert!(parse_skill_name("skills/../etc").is_err());
        assert_eq!(parse_skill_name("skills/cs-tier-1").unwrap(), "cs-tier-1");
        assert_eq!(parse_skill_name("cs-tier-1").unwrap(), "cs-tier-1");
        assert_eq!(parse_skill_name("").unwrap(), DEFAULT_SLAG);
        assert_eq!(parse_skill_name("skills/").unwrap(), DEFAULT_SLAG);
        assert!(parse_required_skill_name("").is_err());
        assert!(parse_required_skill_name("skills/").is_err());
        assert_eq!(
            parse_required_skill_name("skills/a.b_c-1").unwrap(),
            "a.b_c-1"
        );
    }

    #[test]
    fn job_names() {
        assert_eq!(
            parse_job_name("skills/cs-tier-1/jobs/j-1").unwrap(),
            ("cs-tier-1".into(), "j-1".into())
        );
        for bad in [
            "jobs/j-1",
            "skills/../jobs/x",
            "skills/cs/jobs/",
            "skills/cs/jobs/a/b",
            "skills/cs/jobs/a:b",
        ] {
            assert!(parse_job_name(bad).is_err(), "{bad}");
        }
    }
}
