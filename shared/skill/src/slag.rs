//! Slags: a skill's namespace and directory name, so it must be a safe name.

/// Longest slag accepted.
pub const MAX_SLAG_LEN: usize = 64;

/// The slag used when a request names none.
pub const DEFAULT_SLAG: &str = "sw-dev-agent";

/// A safe name: 1–64 of ASCII letters, digits, `-`, `_`, `.`; not starting with `.`
/// or `-`, and no `..`. Safe as a directory name and as a Redis key part.
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_SLAG_LEN
        && !name.starts_with(['.', '-'])
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Accepts `skills/{slag}` or a bare slag; empty means [`DEFAULT_SLAG`].
/// Returns the slag, or why it is refused.
pub fn parse_skill_name(name: &str) -> Result<String, String> {
    let slag = name.strip_prefix("skills/").unwrap_or(name);
    let slag = if slag.is_empty() { DEFAULT_SLAG } else { slag };
    if is_safe_name(slag) {
        Ok(slag.to_owned())
    } else {
        let shown: String = slag.chars().take(80).collect();
        Err(format!(
            "`{shown}` is not a safe slag: 1-{MAX_SLAG_LEN} letters, digits, `-`, `_`, `.`, not starting with `.` or `-`, no `..`"
        ))
    }
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
    if !is_safe_name(slag) {
        return Err(format!("`{shown}`: the slag is not a safe name"));
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
        ] {
            assert!(parse_skill_name(bad).is_err(), "{bad:?} must be refused");
        }
        assert!(parse_skill_name("skills/../etc").is_err());
        assert_eq!(parse_skill_name("skills/cs-tier-1").unwrap(), "cs-tier-1");
        assert_eq!(parse_skill_name("cs-tier-1").unwrap(), "cs-tier-1");
        assert_eq!(parse_skill_name("").unwrap(), DEFAULT_SLAG);
        assert_eq!(parse_skill_name("skills/").unwrap(), DEFAULT_SLAG);
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
